// Memory estimator: the physics that must hold whatever the constants.
#include <gtest/gtest.h>

#include "gpuplan/memory.h"
#include "gpuplan/request.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

Request request(const std::string& workload_json, const std::string& preset = "llama-2-7b") {
  auto r = parse_request(R"({"model":{"preset":")" + preset + R"("},"workload":)" + workload_json + "}", embedded_catalog());
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.value();
}

double total(const std::string& workload_json) {
  Request q = request(workload_json);
  return estimate_memory(q.model, q.workload).total_bytes;
}

double component(const MemoryEstimate& e, const std::string& id) {
  for (const auto& c : e.components)
    if (c.id == id) return c.bytes;
  return 0;
}

TEST(Memory, FullAdamMixedPrecisionHoldsAtLeastSixteenBytesPerParameter) {
  // fp32 master weights + fp32 gradients + two fp32 Adam moments = 16 B/param
  // (Rajbhandari et al. 2020, ZeRO, section 3.1). Gradients and activations
  // peak at different moments of backward, so the weights and states plus
  // the larger of the two must reach 16 B/param.
  Request q = request(R"({"precision":"bf16-mixed","optimizer":"adamw"})");
  MemoryEstimate e = estimate_memory(q.model, q.workload);
  EXPECT_GE(component(e, "weights") + component(e, "optimizer"), 12 * q.model.params);
  EXPECT_GE(e.allocated_bytes, 16 * q.model.params);
}

TEST(Memory, GrowsWithBatchAndSequence) {
  EXPECT_LT(total(R"({"micro_batch":1})"), total(R"({"micro_batch":2})"));
  EXPECT_LT(total(R"({"seq_len":512})"), total(R"({"seq_len":1024})"));
}

TEST(Memory, CheckpointingAndLoraAndQloraEachSaveMemory) {
  EXPECT_LT(total(R"({"micro_batch":4,"grad_checkpointing":true})"), total(R"({"micro_batch":4})"));
  EXPECT_LT(total(R"({"method":"lora"})"), total(R"({"method":"full"})"));
  EXPECT_LT(total(R"({"method":"qlora"})"), total(R"({"method":"lora"})"));
}

TEST(Memory, Zero3SpreadsOverMoreGpus) {
  double two = total(R"({"gpus":2,"sharding":"zero3"})");
  double eight = total(R"({"gpus":8,"sharding":"zero3"})");
  EXPECT_LT(eight, two);
}

TEST(Memory, InferenceKvCacheRespectsGroupedQueryAttention) {
  // Llama 3.1 8B has 8 KV heads for 32 query heads: a quarter of MHA's cache.
  Request q = request(R"({"mode":"infer","precision":"bf16","seq_len":8192,"micro_batch":1})", "llama-3.1-8b");
  double kv = component(estimate_memory(q.model, q.workload), "kv_cache");
  double expected = 2.0 * 32 * 8 * 128 * 8192 * 2;  // K and V, layers, kv_heads, head_dim, tokens, bytes
  EXPECT_DOUBLE_EQ(kv, expected);
}

}  // namespace
}  // namespace gpuplan::test
