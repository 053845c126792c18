// The response as contract JSON (docs/api.md). Byte counts are integers;
// every number is checked finite before it is written. Written by a streaming
// writer (json_writer.h) in the key order nlohmann::json sorts them in, so the
// text is the one nlohmann's dump() of the same tree would print.
//
// Compiled without exceptions (core/CMakeLists.txt), so this header stays free
// of nlohmann/json.hpp: a TU built so would instantiate nlohmann's inline code
// with JSON_THROW as abort(), and the linker may keep any one TU's copy of an
// inline function (an ODR mix that could turn a parse error elsewhere into an
// abort). The tests' tree view of a response lives in response_json_tree.h.
#pragma once

#include <string>

#include "gpuplan/error.h"
#include "gpuplan/plan.h"

namespace gpuplan {

// The response and the error reply as compact JSON text (what plan_json
// returns), or, when the writer refused something (a non-finite figure, a
// misordered key, invalid UTF-8: a bug, never bad input), the "internal"
// error naming it (Error{"internal", "", "Internal error: <failure>"}).
Result<std::string> response_json_text(const Response& response);
Result<std::string> error_json_text(const Error& error);

}  // namespace gpuplan
