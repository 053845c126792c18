// Contract spellings of the request's enumerations, for writing them back out
// (response patches, echoes). Parsing lives in request.cpp.
#pragma once

#include <string_view>

#include "gpuplan/request.h"

namespace gpuplan {

std::string_view name_of(Mode v);
std::string_view name_of(Method v);
std::string_view name_of(Precision v);
std::string_view name_of(Optimizer v);
std::string_view name_of(Sharding v);
std::string_view name_of(LoraTargets v);
std::string_view name_of(Billing v);
std::string_view name_of(Stage v);

}  // namespace gpuplan
