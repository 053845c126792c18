// Fuzzes the whole JSON entry point: parsing, validation, planning and the
// response writer. Any input must give a success (0) or an input error (2)
// with a JSON body; an internal error (3) or a non-finite number is a bug.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gpuplan/api.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpuplan::JsonReply reply = gpuplan::plan_json(text);
  if (reply.exit_code != 0 && reply.exit_code != 2) std::abort();
  // The reply is always valid JSON (nlohmann refuses NaN/Infinity as "null"
  // silently, so the writer checks finiteness itself and returns code 3 instead).
  nlohmann::json parsed = nlohmann::json::parse(reply.json, nullptr, false);
  if (parsed.is_discarded()) std::abort();
  if (reply.exit_code == 2 && !parsed.contains("error")) std::abort();
  return 0;
}
