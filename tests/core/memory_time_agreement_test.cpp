// Memory and time read one model arithmetic (gpuplan/model_arithmetic.h):
// on every preset and method they must count the same trainable parameters,
// stream the weight bytes memory holds, and time the FLOPs the module counts.
// Before the module existed they disagreed (issue 17): the time model counted
// LoRA adapters as 7 x r x (hidden + kv_dim) per layer (18.35 M for
// llama-3.1-8b all-linear r16 instead of PEFT's 41.94 M) and int4 weights at
// 0.5625 bytes (a group of 32) where memory used 0.5195 (the group of 128
// GPTQ/AWQ checkpoints ship with).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/throughput.h"

namespace gpuplan {
namespace {

const ModelSpec& preset(const std::string& id) {
  const ModelSpec* m = embedded_catalog().find_model(id);
  EXPECT_NE(m, nullptr) << id;
  return *m;
}

const Gpu& gpu(const std::string& id) {
  const Gpu* g = embedded_catalog().find_gpu(id);
  EXPECT_NE(g, nullptr) << id;
  return *g;
}

// PEFT's print_trainable_parameters() on meta-llama/Llama-3.1-8B with
// LoraConfig(r=16, target_modules="all-linear"): 41,943,040 — 32 layers of
// q, o (4096 x 4096), k, v (4096 x 1024), gate, up (4096 x 14336), down:
// 16 x (2·8192 + 2·5120 + 3·18432) = 1,310,720 per layer.
TEST(ModelArithmetic, LoraCountIsPeftsFigure) {
  Lora all{16, LoraTargets::all_linear};
  EXPECT_EQ(lora_trainable_params(preset("llama-3.1-8b"), all), 41943040);
  // q_proj + v_proj, r 16: 16 x (8192 + 5120) x 32 = 6,815,744.
  Lora qv{16, LoraTargets::qv};
  EXPECT_EQ(lora_trainable_params(preset("llama-3.1-8b"), qv), 6815744);
  // The figure PEFT prints for Llama-2-7b with r 8 on q_proj and v_proj
  // (multi-head attention, 32 x 8 x 2 x 8192): "trainable params: 4,194,304".
  Lora qv8{8, LoraTargets::qv};
  EXPECT_EQ(lora_trainable_params(preset("llama-2-7b"), qv8), 4194304);
}

// One int4 figure: 4-bit codes plus an fp16 scale and a 4-bit zero point per
// group of 128 (GPTQ / AWQ defaults): (4 + 20/128) / 8 bytes.
TEST(ModelArithmetic, OneFigurePerWeightFormat) {
  EXPECT_DOUBLE_EQ(bytes_per_weight(WeightFormat::int4), (4 + 20.0 / 128) / 8);
  EXPECT_DOUBLE_EQ(bytes_per_weight(WeightFormat::nf4), 0.5625);
  EXPECT_DOUBLE_EQ(bytes_per_weight(WeightFormat::nf4_double_quant), (4 + 8.0 / 64 + 32.0 / (64 * 256)) / 8);
  EXPECT_LT(bytes_per_weight(WeightFormat::int4), bytes_per_weight(WeightFormat::nf4));
  EXPECT_EQ(inference_weight_format(Precision::int4), WeightFormat::int4);
  EXPECT_EQ(inference_weight_format(Precision::bf16), WeightFormat::half);
}

Workload training(Method method, LoraTargets targets) {
  Workload w;
  w.method = method;
  w.lora = {16, targets};
  w.seq_len = 512;
  w.image_size = 256;
  return w;
}

double weights_component(const MemoryEstimate& e) {
  for (const auto& c : e.components)
    if (c.id == "weights") return c.bytes;
  return 0;
}

TEST(MemoryTimeAgreement, SameTrainableParametersOnEveryPresetAndMethod) {
  const Gpu& h100 = gpu("h100-sxm");
  int compared = 0;
  for (const ModelSpec& m : embedded_catalog().models) {
    for (Method method : {Method::full, Method::lora, Method::qlora}) {
      for (LoraTargets targets : {LoraTargets::qv, LoraTargets::attention, LoraTargets::all_linear}) {
        if (method == Method::full && targets != LoraTargets::qv) continue;
        const Workload w = training(method, targets);
        const double expected = trainable_params(m, w);
        if (method != Method::full && m.kind != ModelKind::cnn) {
          EXPECT_GT(expected, 0) << m.id;
        }
        EXPECT_EQ(estimate_memory(m, w).trainable_params, expected) << m.id;
        const Throughput t = estimate_throughput(m, w, h100, 1);
        if (t.samples_per_s > 0) {
          EXPECT_EQ(t.trainable_params, expected) << m.id;
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 40);
}

TEST(MemoryTimeAgreement, DecodeStreamsTheWeightsMemoryHolds) {
  const Gpu& h100 = gpu("h100-sxm");
  int compared = 0;
  for (const ModelSpec& m : embedded_catalog().models) {
    if (m.kind != ModelKind::decoder) continue;
    for (Precision p : {Precision::fp32, Precision::bf16, Precision::int8, Precision::nf4, Precision::int4}) {
      Workload w;
      w.mode = Mode::infer;
      w.precision = p;
      w.seq_len = 256;
      const double held = weights_component(estimate_memory(m, w));
      EXPECT_GT(held, 0) << m.id;
      EXPECT_DOUBLE_EQ(estimate_throughput(m, w, h100, 1).weight_bytes, held) << m.id;
      EXPECT_DOUBLE_EQ(inference_weight_bytes(m, model_shapes(m), p), held) << m.id;
      ++compared;
    }
  }
  EXPECT_GT(compared, 20);
}

// The time model's utilization is the module's FLOPs over the step time and
// the peak: multiplying back gives the module's count for every preset.
TEST(MemoryTimeAgreement, TimeCountsTheModulesFlops) {
  const Gpu& a100 = gpu("a100-sxm4-80g");
  for (const ModelSpec& m : embedded_catalog().models) {
    for (Method method : {Method::full, Method::lora}) {
      Workload w = training(method, LoraTargets::all_linear);
      const Throughput t = estimate_throughput(m, w, a100, 1);
      if (!(t.samples_per_s > 0)) continue;
      const double flops = t.utilization * t.step_seconds * t.peak_tflops * 1e12;
      EXPECT_NEAR(flops / train_flops_per_micro_batch(m, w), 1.0, 1e-9) << m.id;
    }
  }
}

// The time model's activation traffic streams the bytes the memory model
// counts as saved (issue 15: it used Korthikanti's fp16 constants, 34·h +
// 5·a·s, which miss autocast's fp32 norms and softmax): the memory term of an
// eager step over the saved bytes of its layers is the same number of passes
// for every preset, precision and attention kind, and an autocast step moves
// more per token than a bf16-true one, whose softmax stays in half.
TEST(MemoryTimeAgreement, TrafficStreamsTheSavedBytesMemoryCounts) {
  const Gpu& a100 = gpu("a100-sxm4-80g");
  double passes = 0;
  for (const char* id : {"bert-large", "llama-3.1-8b", "gpt2"}) {
    const ModelSpec& m = preset(id);
    for (Precision p : {Precision::fp16_mixed, Precision::bf16_true, Precision::fp32}) {
      for (bool flash : {false, true}) {
        Workload w = training(Method::full, LoraTargets::qv);
        w.precision = p;
        w.flash_attention = flash;
        w.micro_batch = 4;
        w.seq_len = 512;
        // The fp32 cross-entropy's traffic is a term of its own (step_costs.h):
        // a chunked loss leaves the activations alone in the memory term.
        w.loss = Loss::chunked;
        const Throughput t = estimate_throughput(m, w, a100, 1);
        const double saved = saved_bytes_per_token_layer(m, w) * m.layers * w.micro_batch * w.seq_len;
        const double moved = t.step.memory_seconds * a100.memory_bandwidth_bytes_per_s;
        ASSERT_GT(saved, 0) << id;
        if (passes == 0) passes = moved / saved;
        EXPECT_NEAR(moved / saved / passes, 1.0, 1e-9) << id << " " << int(p) << " flash " << flash;
      }
    }
    Workload amp = training(Method::full, LoraTargets::qv);
    amp.precision = Precision::fp16_mixed;
    amp.flash_attention = false;
    Workload half = amp;
    half.precision = Precision::bf16_true;
    EXPECT_GT(saved_bytes_per_token_layer(m, amp), saved_bytes_per_token_layer(m, half)) << id;
  }
  EXPECT_GT(passes, 1);
}

// Full fine-tuning trains every parameter; inference trains none.
TEST(ModelArithmetic, TrainableParamsFollowTheMethod) {
  const ModelSpec& m = preset("llama-3.2-3b");
  Workload w;
  EXPECT_EQ(trainable_params(m, w), m.params);
  w.method = Method::lora;
  EXPECT_EQ(trainable_params(m, w), lora_trainable_params(m, w.lora));
  w.mode = Mode::infer;
  EXPECT_EQ(trainable_params(m, w), 0);
}

}  // namespace
}  // namespace gpuplan
