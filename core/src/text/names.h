// Contract spellings of the request's enumerations, for writing them back out
// (response fields, patches, echoes): each reads its enum's one table of
// spellings (gpuplan/spelling.h), which parsing reads too.
#pragma once

#include "gpuplan/request.h"

namespace gpuplan {

const char* name_of(Mode v);
const char* name_of(Method v);
const char* name_of(Precision v);
const char* name_of(Optimizer v);
const char* name_of(Sharding v);
const char* name_of(LoraTargets v);
const char* name_of(Loss v);
const char* name_of(Billing v);
const char* name_of(PriceKind v);
const char* name_of(Stage v);
const char* name_of(ModelKind v);
const char* name_of(PlatformKind v);

}  // namespace gpuplan
