// The response as a JSON tree, for tests that inspect fields: the text of
// response_json_text() parsed by nlohmann (or the internal error's, when the
// writer failed). Kept out of response_json.cpp, which is compiled without
// exceptions and must not instantiate nlohmann's code (response_json.h).
#pragma once

#include <nlohmann/json.hpp>

#include "gpuplan/plan.h"

namespace gpuplan {

nlohmann::json to_json(const Response& response);

}  // namespace gpuplan
