// The response as contract JSON (docs/api.md). Byte counts are integers;
// every number is checked finite before it is written. Written by a streaming
// writer (json_writer.h) in the key order nlohmann::json sorts them in, so the
// text is the one nlohmann's dump() of the same tree would print.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/error.h"
#include "gpuplan/plan.h"

namespace gpuplan {

// The response and the error reply as compact JSON text (what plan_json returns).
std::string response_json_text(const Response& response);
std::string error_json_text(const Error& error);

// The response as a JSON tree, for tests that inspect fields (parses the text).
nlohmann::json to_json(const Response& response);

}  // namespace gpuplan
