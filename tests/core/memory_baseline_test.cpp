// baseline.memory_bytes: the peak the user measured re-anchors every memory
// figure of the response (docs/memory-model.md, "Calibration from your own run").
#include <gtest/gtest.h>

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "test_support.h"

namespace gpuplan {
namespace {

constexpr double kContext = 1024.0 * 1024 * 1024;  // the fixed CUDA context the scale leaves alone

nlohmann::json request() {
  return {{"locale", "en"},
          {"model", {{"preset", "llama-3.1-8b"}}},
          {"workload", {{"method", "lora"}, {"micro_batch", 2}, {"seq_len", 1024}, {"grad_checkpointing", true}}}};
}

const nlohmann::json* row(const nlohmann::json& reply, const std::string& gpu) {
  for (const auto& g : reply["gpus"])
    if (g["id"] == gpu) return &g;
  return nullptr;
}

TEST(MemoryBaseline, MeasuredPeakReanchorsEveryFigure) {
  const nlohmann::json plain = test::run(request());
  ASSERT_TRUE(plain.contains("memory")) << plain.dump();
  const double estimated = plain["memory"]["per_gpu"]["total_bytes"].get<double>();
  // The user measured 20 % more than the model counts (beyond the context).
  const double measured = kContext + 1.2 * (estimated - kContext);
  nlohmann::json q = request();
  q["baseline"] = {{"gpu", "rtx-4090"}, {"memory_bytes", measured}};
  const nlohmann::json anchored = test::run(q);
  ASSERT_TRUE(anchored.contains("memory")) << anchored.dump();
  EXPECT_NEAR(anchored["memory"]["baseline_scale"].get<double>(), 1.2, 1e-9);
  // On the measured configuration the answer is the measurement.
  EXPECT_NEAR(anchored["memory"]["per_gpu"]["total_bytes"].get<double>(), measured, 1);
  // Every GPU's figure moves with it at the same GPU count (a card the
  // measured peak no longer fits on one of takes more GPUs, and their shares),
  // and the components still sum to the total.
  int compared = 0;
  for (const auto& g : plain["gpus"]) {
    const nlohmann::json* after = row(anchored, g["id"]);
    ASSERT_NE(after, nullptr) << g["id"];
    if ((*after)["count"] != g["count"]) continue;
    const double before_bytes = g["memory_total_bytes"].get<double>();
    const double after_bytes = (*after)["memory_total_bytes"].get<double>();
    EXPECT_NEAR((after_bytes - kContext) / (before_bytes - kContext), 1.2, 1e-9) << g["id"];
    ++compared;
  }
  EXPECT_GT(compared, 10);
  double sum = 0;
  for (const auto& c : anchored["memory"]["components"]) sum += c["bytes"].get<double>();
  EXPECT_NEAR(sum, anchored["memory"]["per_gpu"]["total_bytes"].get<double>(), 16);
  // No speed given: the rates are the model's own.
  EXPECT_FALSE(anchored["gpus"][0]["throughput"].contains("baseline_scale"));
  EXPECT_FALSE(plain["memory"].contains("baseline_scale"));
}

// A composed estimate (DPO's policy step and reference, a VLM's tower and
// decoder) is calibrated once, like a plain one: on the measured
// configuration the answer is the measurement, not the parts scaled twice.
TEST(MemoryBaseline, ComposedEstimatesAreCalibratedOnce) {
  const nlohmann::json dpo = {{"locale", "en"},
                              {"model", {{"preset", "llama-3.1-8b"}}},
                              {"workload", {{"method", "lora"}, {"objective", "dpo"}, {"micro_batch", 1},
                                            {"seq_len", 1024}, {"grad_checkpointing", true}}}};
  const nlohmann::json vlm = {{"locale", "en"},
                              {"model", {{"preset", "qwen2.5-vl-7b"}}},
                              {"workload", {{"method", "lora"}, {"micro_batch", 1}, {"seq_len", 1024},
                                            {"grad_checkpointing", true}}}};
  for (const nlohmann::json& plain_request : {dpo, vlm}) {
    const nlohmann::json plain = test::run(plain_request);
    ASSERT_TRUE(plain.contains("memory")) << plain.dump();
    const double estimated = plain["memory"]["per_gpu"]["total_bytes"].get<double>();
    const double measured = kContext + 1.2 * (estimated - kContext);
    nlohmann::json q = plain_request;
    q["baseline"] = {{"gpu", "rtx-4090"}, {"memory_bytes", measured}};
    const nlohmann::json anchored = test::run(q);
    ASSERT_TRUE(anchored.contains("memory")) << anchored.dump();
    EXPECT_NEAR(anchored["memory"]["baseline_scale"].get<double>(), 1.2, 1e-9) << plain_request.dump();
    EXPECT_NEAR(anchored["memory"]["per_gpu"]["total_bytes"].get<double>(), measured, 1) << plain_request.dump();
  }
}

TEST(MemoryBaseline, FitLimitsFollowTheMeasuredPeak) {
  nlohmann::json q = request();
  const double estimated = test::run(q)["memory"]["per_gpu"]["total_bytes"].get<double>();
  q["baseline"] = {{"gpu", "rtx-4090"}, {"memory_bytes", kContext + 1.5 * (estimated - kContext)}};
  const nlohmann::json anchored = test::run(q);
  const nlohmann::json plain = test::run(request());
  for (size_t i = 0; i < plain["gpus"].size(); ++i) {
    EXPECT_LE(anchored["gpus"][i]["max_micro_batch"].get<int>(), plain["gpus"][i]["max_micro_batch"].get<int>());
  }
}

TEST(MemoryBaseline, SpeedAndMemoryTogetherShowBothFactors) {
  nlohmann::json q = request();
  q["baseline"] = {{"gpu", "rtx-4090"}, {"memory_bytes", 30e9}, {"tokens_per_s", 1000}};
  const nlohmann::json r = test::run(q);
  ASSERT_TRUE(r.contains("gpus")) << r.dump();
  EXPECT_TRUE(r["memory"].contains("baseline_scale"));
  EXPECT_TRUE(r["gpus"][0]["throughput"].contains("baseline_scale"));
}

// A measurement far from the model (another run) is clamped, not trusted blindly.
TEST(MemoryBaseline, ImplausibleMeasurementIsClamped) {
  Workload w;
  w.method = Method::lora;
  w.seq_len = 1024;
  const ModelSpec& m = *embedded_catalog().find_model("llama-3.1-8b");
  EXPECT_EQ(memory_baseline_scale(m, w, 1, 1e15), kMaxMemoryScale);
  EXPECT_EQ(memory_baseline_scale(m, w, 1, kContext + 1e6), kMinMemoryScale);
}

}  // namespace
}  // namespace gpuplan
