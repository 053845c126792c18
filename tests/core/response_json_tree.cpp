#include "response_json_tree.h"

#include "write/response_json.h"

namespace gpuplan {

nlohmann::json to_json(const Response& r) {
  const Result<std::string> text = response_json_text(r);
  if (!text.ok()) return nlohmann::json{{"error", {{"code", text.error().code}, {"message", text.error().message}}}};
  return nlohmann::json::parse(text.value());
}

}  // namespace gpuplan
