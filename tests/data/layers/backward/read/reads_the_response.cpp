// Fixture for the layer check (tests/CMakeLists.txt): read/ reaching write/ is backward.
#include "write/response_json.h"
