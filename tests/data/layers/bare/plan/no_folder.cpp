// Fixture for the layer check (tests/CMakeLists.txt): a private include without its folder.
#include "memory.h"
