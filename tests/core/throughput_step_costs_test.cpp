// PEFT's adapter modules and the fp32 cross-entropy in an eager step
// (core/src/estimate/step_costs.h; docs/time-model.md "LoRA adapters and the loss").
#include <gtest/gtest.h>

#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/throughput.h"
#include "estimate/step_costs.h"
#include "test_support.h"

namespace gpuplan {
namespace {

const ModelSpec& preset(const std::string& id) { return *embedded_catalog().find_model(id); }
const Gpu& gpu(const std::string& id) { return *embedded_catalog().find_gpu(id); }

Workload lora(LoraTargets targets, Stack stack) {
  Workload w;
  w.method = Method::lora;
  w.lora.rank = 16;
  w.lora.targets = targets;
  w.seq_len = 2048;
  w.stack = stack;
  return w;
}

// Llama-3.1-8B, all-linear: per layer q (4096 -> 4096), k and v (4096 ->
// 1024), o (4096 -> 4096), gate and up (4096 -> 14336), down (14336 -> 4096):
// sum d_in 38912, sum d_out 43008; (d_in + 6 d_out) forward + (5 d_in + 4
// d_out) backward, 2 bytes each, 32 layers.
TEST(StepCosts, AdapterBytesFromPeftsForward) {
  const ModelSpec& m = preset("llama-3.1-8b");
  const double expected = 32 * ((38912 + 6 * 43008.0) + (5 * 38912 + 4 * 43008.0)) * 2;
  EXPECT_DOUBLE_EQ(lora_adapter_bytes_per_token(m, model_shapes(m), lora(LoraTargets::all_linear, Stack::eager)),
                   expected);
  EXPECT_DOUBLE_EQ(lora_adapter_kernels(m, lora(LoraTargets::all_linear, Stack::eager)), 32 * 7 * 4 * 3);
  Workload full = lora(LoraTargets::all_linear, Stack::eager);
  full.method = Method::full;
  EXPECT_EQ(lora_adapter_bytes_per_token(m, model_shapes(m), full), 0);
}

// The two terms slow an eager LoRA step and leave a fused stack alone.
TEST(StepCosts, EagerLoraPaysForItsAdaptersAndTheLoss) {
  const ModelSpec& m = preset("llama-3.1-8b");
  const Gpu& a100 = gpu("a100-sxm4-80g");
  Workload eager = lora(LoraTargets::all_linear, Stack::eager);
  Workload qv = lora(LoraTargets::qv, Stack::eager);
  const Throughput all_linear = estimate_throughput(m, eager, a100, 1);
  const Throughput only_qv = estimate_throughput(m, qv, a100, 1);
  // The 7 adapted linears per layer cost more than the 2 of q and v.
  EXPECT_GT(all_linear.step.memory_seconds, only_qv.step.memory_seconds + 0.03);
  // Cross-entropy: 38 bytes per vocabulary entry and token; none when chunked.
  EXPECT_DOUBLE_EQ(cross_entropy_bytes_per_token(m, eager), 38.0 * 128256);
  Workload chunked = eager;
  chunked.loss = Loss::chunked;
  EXPECT_EQ(cross_entropy_bytes_per_token(m, chunked), 0);
  // A 0.5 B model with a 152 k vocabulary: the loss is a visible part of the step.
  const ModelSpec& small = preset("qwen2.5-0.5b");
  Workload s = eager;
  const Throughput with_loss = estimate_throughput(small, s, a100, 1);
  s.loss = Loss::chunked;
  const Throughput without = estimate_throughput(small, s, a100, 1);
  EXPECT_GT(with_loss.step.memory_seconds - without.step.memory_seconds,
            0.9 * 2048 * 38.0 * 151936 / (a100.memory_bandwidth_bytes_per_s * 0.8));
}

}  // namespace
}  // namespace gpuplan
