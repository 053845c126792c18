// Memory as the engines hold it (docs/memory-model.md): vLLM's fit inside its
// pre-allocated pool, DeepSpeed ZeRO-Offload's gradients on the GPU.
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace gpuplan::test {
namespace {

double component(const nlohmann::json& r, const std::string& id) {
  for (const auto& c : r["memory"]["components"])
    if (c["id"] == id) return c["bytes"].get<double>();
  return 0;
}

// vLLM claims gpu_memory_utilization (0.9) of the card at start-up and
// refuses to start when weights, activations and the batch's cache exceed
// that share: a need between 90 % and 100 % of the card does not fit.
TEST(EngineFit, VllmFitsInsideItsPoolNotTheCard) {
  bool found = false;
  for (int seq = 2048; seq <= 65536 && !found; seq += 1024) {
    nlohmann::json q = {{"locale", "en"},
                        {"model", {{"preset", "qwen2.5-7b"}}},
                        {"workload", {{"mode", "infer"}, {"stack", "vllm"}, {"micro_batch", 4}, {"seq_len", seq}}},
                        {"hardware", {{"gpu", "rtx-4090"}, {"count", 1}}}};
    nlohmann::json r = run(q);
    ASSERT_FALSE(r.contains("error")) << r.dump();
    const auto& g = r["gpus"][0];
    const double pool = g.at("memory_engine_pool_bytes").get<double>();
    const double card = pool / 0.9;
    const double need = g.at("memory_total_bytes").get<double>();
    if (need > pool && need <= card) {
      found = true;
      SCOPED_TRACE(seq);
      EXPECT_EQ(g["fit"], "no");
      EXPECT_FALSE(g["fits"].get<bool>());
    } else if (need <= pool) {
      EXPECT_NE(g["fit"], "no");
    }
  }
  ASSERT_TRUE(found) << "no length put the need between the pool and the card";
}

// The largest batch the response offers under vLLM fits the pool.
TEST(EngineFit, VllmLimitsAreThePools) {
  nlohmann::json q = {{"locale", "en"},
                      {"model", {{"preset", "qwen2.5-7b"}}},
                      {"workload", {{"mode", "infer"}, {"stack", "vllm"}, {"micro_batch", 1}, {"seq_len", 8192}}},
                      {"hardware", {{"gpu", "rtx-4090"}, {"count", 1}}}};
  nlohmann::json r = run(q);
  const auto& g = r["gpus"][0];
  const int largest = g.at("max_micro_batch").get<int>();
  ASSERT_GT(largest, 1);
  const double pool = g.at("memory_engine_pool_bytes").get<double>();
  q["workload"]["micro_batch"] = largest;
  EXPECT_LE(run(q)["gpus"][0]["memory_total_bytes"].get<double>(), pool);
  q["workload"]["micro_batch"] = largest + 1;
  EXPECT_GT(run(q)["gpus"][0]["memory_total_bytes"].get<double>(), pool);
}

// DeepSpeed ZeRO-Offload: stage 1 has no reduce hooks, so the whole half
// gradient waits on the GPU for the step; stage 2 streams it through one
// bucket. Both copy to the host through a buffer of the largest parameter.
TEST(EngineFit, ZeroOffloadKeepsItsGradientsOnTheGpu) {
  auto at = [](const char* sharding) {
    nlohmann::json q = {{"locale", "en"},
                        {"model", {{"preset", "llama-2-7b"}}},
                        {"workload",
                         {{"mode", "train"}, {"method", "full"}, {"precision", "fp16-mixed"}, {"micro_batch", 1},
                          {"seq_len", 512}, {"grad_checkpointing", true}, {"sharding", sharding}, {"gpus", 2},
                          {"cpu_offload", true}}},
                        {"hardware", {{"gpu", "a100-sxm4-80g"}, {"count", 2}}}};
    return run(q);
  };
  const double params = 6738415616.0, embedding = 32000.0 * 4096;
  EXPECT_NEAR(component(at("zero1"), "gradients"), 2 * params + 2 * embedding, 1e3);
  EXPECT_NEAR(component(at("zero2"), "gradients"), 5e8 * 2 + 2 * embedding, 1e3);
}

}  // namespace
}  // namespace gpuplan::test
