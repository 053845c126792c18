// JSON in, JSON out: the boundary every front end calls (CLI, wasm, tests).
#pragma once

#include <string>
#include <string_view>

#include "gpuplan/catalog.h"

namespace gpuplan {

struct JsonReply {
  std::string json;    // the response, or {"error": {code, path, message}}
  int exit_code = 0;   // 0 on success, 2 on invalid input (the CLI's exit status)
};

// Never throws; never emits NaN or Infinity.
JsonReply plan_json(std::string_view request_json, const Catalog& catalog);
JsonReply plan_json(std::string_view request_json);  // with the embedded catalog

}  // namespace gpuplan
