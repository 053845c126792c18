// JSON in, JSON out: the boundary every front end calls (CLI, wasm, tests).
#pragma once

#include <cstddef>
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

// The too_large error for a request a front end refused before reading (or
// copying) all of it: `head` is what it read, in which the locale is looked
// for; `size_bytes` the request's whole size when known (a file, a string),
// 0 when not (standard input, cut at the limit + 1 byte). Exit code 2.
JsonReply too_large_json(std::string_view head, std::size_t size_bytes);

}  // namespace gpuplan
