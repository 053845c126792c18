// Fixture for the layer check (tests/CMakeLists.txt): plan/ may use estimate/, text/ and public headers.
#include "estimate/memory.h"
#include "gpuplan/plan.h"
#include "text/messages.h"
