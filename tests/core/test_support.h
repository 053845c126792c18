// Helpers shared by the test files: read fixtures from the source tree and run
// requests through the same JSON entry point the CLI and the page use.
#pragma once

#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "gpuplan/api.h"

namespace gpuplan::test {

inline std::string read_file(const std::string& relative_path) {
  std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/" + relative_path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline nlohmann::json run(const nlohmann::json& request) {
  return nlohmann::json::parse(plan_json(request.dump()).json);
}

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

}  // namespace gpuplan::test
