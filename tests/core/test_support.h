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

// The smallest catalog the reader accepts: one GPU, one platform with one
// offer, one model, each with its sources (the catalog tests break it field by
// field).
// The response's warning with this code, or nullptr.
inline const nlohmann::json* warning(const nlohmann::json& response, const std::string& code) {
  if (!response.contains("warnings")) return nullptr;
  for (const auto& w : response["warnings"])
    if (w.value("code", "") == code) return &w;
  return nullptr;
}

inline nlohmann::json minimal_catalog() {
  return nlohmann::json::parse(R"({
    "version": "test", "fx": {"cny_per_usd": 7, "as_of": "2026-01", "source": "test"},
    "electricity": {"per_kwh": 0.6, "currency": "CNY", "as_of": "2024-03", "source": "test", "confidence": "medium"},
    "gpus": [{"id": "g1", "name": "G1", "memory_bytes": 25769803776, "memory_basis": "driver", "memory_bandwidth_gb_s": 1000,
              "tflops": {"fp32": 10}, "sources": ["datasheet"]}],
    "platforms": [{"id": "p1", "name": "P1", "kind": "cloud", "currency": "CNY", "sources": ["site"],
                   "offers": [{"gpu": "g1", "billing": "on-demand", "price_kind": "list",
                               "per_gpu_hour": {"low": 1, "typical": 2, "high": 3},
                               "currency": "CNY", "as_of": "2026-01", "source": "price page", "confidence": "high",
                               "evidence": {"kind": "platform_read", "read": "2 CNY/h", "url": "https://example.test/price",
                                            "read_on": "2026-01-15"}}]}],
    "models": [{"id": "m1", "kind": "decoder", "params": 1e9, "layers": 2, "hidden": 64, "heads": 4, "ffn": 256,
                "vocab": 100, "sources": ["config"]}]
  })");
}

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

}  // namespace gpuplan::test
