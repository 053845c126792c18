// The response as contract JSON (docs/api.md). Byte counts are integers;
// every number is checked finite before it is written.
#pragma once

#include <nlohmann/json.hpp>

#include "gpuplan/error.h"
#include "gpuplan/plan.h"

namespace gpuplan {

nlohmann::json to_json(const Response& response);
nlohmann::json to_json(const Error& error);

}  // namespace gpuplan
