// Contract spellings of the request's enumerations, for writing them back out
// (response patches, echoes). Parsing lives in request.cpp.
#pragma once

#include "gpuplan/request.h"

namespace gpuplan {

const char* name_of(Mode v);
const char* name_of(Method v);
const char* name_of(Precision v);
const char* name_of(Optimizer v);
const char* name_of(Sharding v);
const char* name_of(LoraTargets v);
const char* name_of(Billing v);
const char* name_of(Stage v);

}  // namespace gpuplan
