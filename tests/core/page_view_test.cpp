// What the page shows comes from the core's response, so the page decides
// nothing twice: budget changes carry the merge patch that was priced,
// GPU rows the cost-effectiveness coefficient, remedies their card in words,
// and every catalog GPU the names nvidia-smi prints for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "gpuplan/catalog.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

nlohmann::json over_budget() {
  return nlohmann::json::parse(R"({"model": {"preset": "llama-3.1-8b"}, "workload": {"method": "full", "micro_batch": 4},
    "data": {"samples": 20000, "epochs": 3}, "budget": {"amount": 50, "currency": "CNY"},
    "stages": [{"stage": "debug", "runs": 4, "data_fraction": 0.1}, {"stage": "formal", "runs": 12}, {"stage": "revision", "runs": 3}]})");
}

// Applied to the request (RFC 7396) and planned again, each change's patch
// gives the total the change promised: the page applies exactly that.
TEST(PageView, EveryBudgetChangeCarriesThePatchItWasPricedOn) {
  const nlohmann::json request = over_budget();
  const nlohmann::json response = run(request);
  const auto& changes = response["plan"]["changes"];
  ASSERT_FALSE(changes.empty()) << response["plan"].dump();
  std::set<std::string> codes;
  for (const auto& c : changes) {
    codes.insert(c["code"].get<std::string>());
    if (c["code"] == "campus" && c["saving_is_upper_bound"].get<bool>()) {
      EXPECT_FALSE(c.contains("patch")) << "an unpriced centre has nothing to apply yet";
      continue;
    }
    ASSERT_TRUE(c.contains("patch")) << c.dump();
    nlohmann::json changed = request;
    changed.merge_patch(c["patch"]);
    const nlohmann::json again = run(changed);
    EXPECT_NEAR(again["plan"]["total_cost"].get<double>(), c["new_total"].get<double>(), 1e-6) << c.dump();
  }
  EXPECT_TRUE(codes.count("fewer-runs")) << changes.dump();
  for (const auto& c : changes)
    if (c["code"] == "fewer-runs") {
      // The core's halving, every stage: 4 / 12 / 3 runs become 2 / 6 / 2.
      ASSERT_EQ(c["patch"]["stages"].size(), 3u);
      EXPECT_EQ(c["patch"]["stages"][0]["runs"], 2);
      EXPECT_EQ(c["patch"]["stages"][1]["runs"], 6);
      EXPECT_EQ(c["patch"]["stages"][2]["runs"], 2);
      EXPECT_EQ(c["patch"]["stages"][0]["data_fraction"], 0.1);
    }
}

TEST(PageView, SuggestionsWhenNothingFitsCarryTheirPatch) {
  const nlohmann::json request = nlohmann::json::parse(R"({"model": {"preset": "llama-3.1-8b"}, "workload": {"method": "full", "seq_len": 4096},
    "data": {"samples": 1000, "epochs": 1}, "prefs": {"platforms": ["autodl"]}, "hardware": {"gpu": "rtx-4090", "count": 1},
    "stages": [{"stage": "formal", "runs": 1}]})");
  const nlohmann::json response = run(request);
  ASSERT_FALSE(response["plan"]["changes"].empty()) << response["plan"].dump();
  for (const auto& c : response["plan"]["changes"]) {
    ASSERT_TRUE(c.contains("patch")) << c.dump();
    nlohmann::json changed = request;
    changed.merge_patch(c["patch"]);
    EXPECT_TRUE(run(changed)["plan"]["feasible"].get<bool>()) << c.dump();
  }
}

// Seed 004's coefficient (throughput.h cost_effectiveness): the row's achieved
// TFLOPS over its hourly price, on the precision used and on the FP32 peak.
TEST(PageView, PricedGpuRowsCarryTheCostEffectivenessCoefficient) {
  const nlohmann::json response = run(nlohmann::json::parse(R"({"model": {"preset": "llama-3.1-8b"}, "workload": {"method": "qlora"},
    "data": {"samples": 20000, "epochs": 3}})"));
  int priced = 0;
  for (const auto& g : response["gpus"]) {
    if (!g.contains("cost")) {
      EXPECT_FALSE(g.contains("cost_effectiveness")) << g.dump();
      continue;
    }
    ++priced;
    const auto& t = g["throughput"];
    const double eff = g["cost_effectiveness"].get<double>();
    const double fp32 = g["cost_effectiveness_fp32"].get<double>();
    ASSERT_GT(eff, 0) << g.dump();
    // Both divide by the same price: their ratio is the peaks' ratio.
    EXPECT_NEAR(eff / fp32, t["peak_tflops"].get<double>() / t["fp32_peak_tflops"].get<double>(), 1e-9) << g["id"];
  }
  EXPECT_GT(priced, 5);
}

TEST(PageView, ZeroThreeAndLargerCardRemediesNameTheirCard) {
  for (const char* locale : {"zh-CN", "en"}) {
    const nlohmann::json response = run({{"locale", locale}, {"model", {{"preset", "llama-3.1-8b"}}},
                                         {"workload", {{"method", "lora"}}}, {"hardware", {{"gpu", "rtx-4090"}}}});
    std::set<std::string> seen;
    for (const auto& r : response["oom_doctor"]["remedies"]) {
      const std::string message = r["message"].get<std::string>();
      EXPECT_EQ(message.find('{'), std::string::npos) << message;
      if (r["id"] == "zero3") {
        seen.insert("zero3");
        EXPECT_NE(message.find("GeForce RTX 4090"), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(r["patch"]["hardware"]["count"].get<int>())), std::string::npos) << message;
      }
      if (r["id"] == "larger_gpu") {
        seen.insert("larger_gpu");
        const Gpu* g = embedded_catalog().find_gpu(r["patch"]["hardware"]["gpu"].get<std::string>());
        ASSERT_NE(g, nullptr);
        EXPECT_NE(message.find(g->name), std::string::npos) << message;
      }
    }
    EXPECT_EQ(seen.size(), 2u) << locale << " " << response["oom_doctor"].dump();
  }
}

// The calibration paste recognises a measured card by these names
// (web/src/calibration.ts): every GPU has them, and no two share one.
TEST(PageView, EveryCatalogGpuHasTheNamesNvidiaSmiPrints) {
  std::set<std::string> seen;
  for (const Gpu& g : embedded_catalog().gpus) {
    EXPECT_FALSE(g.device_names.empty()) << g.id;
    for (std::string n : g.device_names) {
      for (char& ch : n) ch = char(std::tolower(static_cast<unsigned char>(ch)));
      EXPECT_TRUE(seen.insert(n).second) << g.id << " " << n;
    }
  }
  const Gpu* h800 = embedded_catalog().find_gpu("h800");
  ASSERT_NE(h800, nullptr);
  EXPECT_NE(std::find(h800->device_names.begin(), h800->device_names.end(), "NVIDIA H800"), h800->device_names.end());
}

TEST(PageView, ACatalogWithAnEmptyOrSharedDeviceNameIsRefused) {
  nlohmann::json c = minimal_catalog();
  c["gpus"][0]["device_names"] = nlohmann::json::array();
  Result<Catalog> empty = parse_catalog(c.dump());
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().path, "gpus[0].device_names");
  c["gpus"][0]["device_names"] = {"NVIDIA G1"};
  nlohmann::json second = c["gpus"][0];
  second["id"] = "g2";
  second["device_names"] = {"nvidia g1"};
  c["gpus"].push_back(second);
  Result<Catalog> shared = parse_catalog(c.dump());
  ASSERT_FALSE(shared.ok());
  EXPECT_EQ(shared.error().path, "gpus[1].device_names");
}

}  // namespace
}  // namespace gpuplan::test
