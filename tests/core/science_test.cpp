// Scientific computing: a measured baseline moved to other cards by the
// resource that bounds the code (docs/science.md).
#include <gtest/gtest.h>

#include "test_support.h"

namespace gpuplan::test {
namespace {

const nlohmann::json* gpu_entry(const nlohmann::json& response, const std::string& id) {
  for (const auto& g : response["gpus"])
    if (g["id"] == id) return &g;
  return nullptr;
}

const Gpu& card(const std::string& id) { return *embedded_catalog().find_gpu(id); }

bool has_warning(const nlohmann::json& response, const std::string& code) {
  for (const auto& w : response["warnings"])
    if (w["code"] == code) return true;
  return false;
}

TEST(Science, MixedPrecisionMolecularDynamicsFollowsFp32Throughput) {
  auto r = run(nlohmann::json::parse(R"({"workload":{"mode":"science"},
      "science":{"kind":"md","baseline":{"gpu":"rtx-3090","rate":100,"unit":"ns/day"},"job":500,"memory_gb":2}})"));
  ASSERT_TRUE(r.contains("gpus")) << r.dump();
  const auto* g = gpu_entry(r, "rtx-4090");
  ASSERT_NE(g, nullptr);
  double ratio = card("rtx-4090").tflops.fp32 / card("rtx-3090").tflops.fp32;
  EXPECT_NEAR((*g)["science"]["rate"].get<double>(), 100 * ratio, 1e-9);
  // 500 ns at 100·ratio ns/day: days × 24 hours.
  EXPECT_NEAR((*g)["hours"].get<double>(), 500 / (100 * ratio) * 24, 1e-9);
  EXPECT_TRUE(has_warning(r, "md_mixed_precision"));
  EXPECT_FALSE(has_warning(r, "fp64_consumer_card"));
}

TEST(Science, Fp64ComputeBoundFlagsConsumerCards) {
  auto r = run(nlohmann::json::parse(R"({"locale":"en","workload":{"mode":"science"},
      "science":{"kind":"other","precision":"fp64","bound":"compute","baseline":{"gpu":"a100-sxm4-80g","rate":10,"unit":"hours"}}})"));
  const auto* consumer = gpu_entry(r, "rtx-4090");
  const auto* datacenter = gpu_entry(r, "h100-sxm");
  ASSERT_NE(consumer, nullptr);
  ASSERT_NE(datacenter, nullptr);
  EXPECT_TRUE((*consumer)["science"]["fp64_starved"].get<bool>());
  EXPECT_FALSE((*datacenter)["science"]["fp64_starved"].get<bool>());
  // A 10-hour FP64 job on an A100 takes 10 × (A100 FP64 / 4090 FP64) hours on a 4090.
  double expected = 10 * card("a100-sxm4-80g").tflops.fp64 / card("rtx-4090").tflops.fp64;
  EXPECT_NEAR((*consumer)["hours"].get<double>(), expected, 1e-9);
  EXPECT_GT((*consumer)["hours"].get<double>(), 10 * (*datacenter)["hours"].get<double>());
  EXPECT_TRUE(has_warning(r, "fp64_consumer_card"));
  EXPECT_TRUE(has_warning(r, "fp64_consider_cpu"));
}

TEST(Science, CfdDefaultsToBandwidthBound) {
  auto r = run(nlohmann::json::parse(R"({"workload":{"mode":"science"},
      "science":{"kind":"cfd","baseline":{"gpu":"v100-sxm2-32g","rate":50,"unit":"steps/s"},"job":360000}})"));
  const auto* g = gpu_entry(r, "h100-sxm");
  ASSERT_NE(g, nullptr);
  double ratio = card("h100-sxm").memory_bandwidth_bytes_per_s / card("v100-sxm2-32g").memory_bandwidth_bytes_per_s;
  EXPECT_NEAR((*g)["science"]["speedup"].get<double>(), ratio, 1e-12);
  EXPECT_NEAR((*g)["hours"].get<double>(), 360000 / (50 * ratio) / 3600, 1e-9);
}

TEST(Science, CardsThatRunNoCudaAreLeftOut) {
  auto r = run(nlohmann::json::parse(R"({"workload":{"mode":"science"},
      "science":{"kind":"cfd","baseline":{"gpu":"a100-sxm4-80g","rate":5,"unit":"hours"}}})"));
  for (const auto& g : embedded_catalog().gpus)
    EXPECT_EQ(gpu_entry(r, g.id) != nullptr, g.cuda) << g.id;
}

TEST(Science, WorkingSetDecidesWhatFits) {
  auto r = run(nlohmann::json::parse(R"({"workload":{"mode":"science"},
      "science":{"kind":"fem","baseline":{"gpu":"a100-sxm4-80g","rate":5,"unit":"hours"},"memory_gb":40}})"));
  EXPECT_FALSE((*gpu_entry(r, "rtx-4090"))["fits"].get<bool>());
  EXPECT_TRUE((*gpu_entry(r, "a100-sxm4-80g"))["fits"].get<bool>());
}

TEST(Science, MissingOrUnknownBaselineNamesTheField) {
  JsonReply a = plan_json(R"({"workload":{"mode":"science"},"science":{"kind":"md"}})");
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_EQ(nlohmann::json::parse(a.json)["error"]["path"], "science.baseline");
  JsonReply b = plan_json(R"({"workload":{"mode":"science"},"science":{"baseline":{"gpu":"cray-1","rate":1}}})");
  EXPECT_EQ(nlohmann::json::parse(b.json)["error"]["path"], "science.baseline.gpu");
  JsonReply c = plan_json(R"({"workload":{"mode":"science"}})");
  EXPECT_EQ(nlohmann::json::parse(c.json)["error"]["path"], "science");
}

}  // namespace
}  // namespace gpuplan::test
