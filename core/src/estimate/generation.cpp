// The generation phase of GRPO / PPO (generation.h): the inference estimate
// of the batch (throughput.cpp) as each engine runs it, plus the bytes the
// phase moves that plain inference does not. Derivations: docs/objectives.md,
// "Generation".
#include "estimate/generation.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/model_arithmetic.h"
#include "gpuplan/throughput.h"
#include "estimate/time_model.h"

namespace gpuplan {
namespace {

// bitsandbytes' matmul_4bit takes its fused 4-bit GEMV only for a single row
// without gradients (bitsandbytes/autograd/_functions.py: `A.numel() ==
// A.shape[-1]`); any larger batch goes through MatMul4Bit, which
// dequantizes the whole NF4 weight to the compute dtype (dequantize_4bit)
// and then runs a dense matmul on it. Per weight and pass: the 4-bit read
// (0.5 B, which the inference estimate already counts) plus the half copy
// written and read back (2 + 2 B): 4 B more than the fused path reads.
constexpr double kUnfusedDequantExtraBytesPerParam = 4.0;

// Bytes per parameter of the policy's weights as ZeRO-3 partitions them and
// gathers them for a forward pass: the half-precision copy under mixed
// precision (DeepSpeed's fp16 / bf16 modes), fp32 otherwise, 4-bit under QLoRA.
double gathered_bytes_per_param(const Workload& w) {
  if (w.method == Method::qlora) return 0.5;
  return w.precision == Precision::fp32 ? 4.0 : 2.0;
}

double seconds_of(const ModelSpec& m, const Workload& w, const Gpu& g, int batch, double generated) {
  const int tokens = std::max(1, int(std::lround(generated)));
  return model_throughput(m, rollout_workload(w, batch, tokens), g, 1).step_seconds;
}

bool sharded_weights(const Workload& w, int n) { return w.sharding == Sharding::zero3 && n > 1; }

}  // namespace

int rollout_batch(const Workload& w) { return std::max(1, w.micro_batch) * std::max(1, w.grad_accumulation); }

CompletionLengths completion_lengths(const RlSettings& rl, int batch) {
  CompletionLengths c;
  const double cap = std::max(1, rl.completion_len);
  const double mean = rl.completion_mean > 0 ? std::min(double(rl.completion_mean), cap) : cap;
  c.mean = mean;
  // Uniform on [lo, hi] with the given mean, inside [0, cap]: the cap is the
  // upper end when the mean is at least half of it, otherwise no completion
  // reaches it and the lengths spread over [0, 2 * mean].
  const double lo = mean >= cap / 2 ? 2 * mean - cap : 0;
  const double hi = mean >= cap / 2 ? cap : 2 * mean;
  const double b = std::max(1, batch);
  c.shortest = lo;
  c.longest = b > 1 ? lo + (hi - lo) * b / (b + 1) : mean;
  return c;
}

Workload rollout_workload(const Workload& w, int batch, int generated) {
  Workload g = w;
  g.mode = Mode::infer;
  g.objective = Objective::sft;
  g.rate_scale = 1;
  g.precision = w.method == Method::qlora ? Precision::nf4 : w.precision == Precision::fp32 ? Precision::fp32
                : w.precision == Precision::fp16_mixed ? Precision::fp16 : Precision::bf16;
  g.micro_batch = std::max(1, batch);
  g.seq_len = w.seq_len + generated;
  g.generated_len = generated;
  g.gpus = 1;
  g.sharding = Sharding::none;
  g.cpu_offload = false;
  g.grad_accumulation = 1;
  // A colocated vLLM decodes as a serving engine (paged KV, CUDA graphs:
  // workload.stack "vllm", docs/time-model.md); the trainer's own generate
  // keeps the request's stack.
  if (w.rl.rollout == Rollout::vllm) g.stack = Stack::vllm;
  return g;
}

RolloutTime rollout_time(const ModelSpec& m, const Workload& w, const Gpu& g, int n) {
  RolloutTime r;
  const int b = rollout_batch(w);
  const CompletionLengths len = completion_lengths(w.rl, b);
  const double weight_bytes = m.params * gathered_bytes_per_param(w);
  const double others = sharded_weights(w, n) ? double(n - 1) / n : 0.0;
  const double gather_once = others > 0 ? weight_bytes * others / time_model::link_bytes_per_s(g, n, w.machine_gpus) : 0;

  if (w.rl.rollout == Rollout::vllm) {
    // Continuous batching: a finished completion leaves the batch, so every
    // completion runs to its own length. All b run until the shortest ends;
    // then the batch drains, on average half of it in flight, until the
    // expected longest (uniform lengths: the in-flight count falls linearly).
    const double tail_batch = std::max(1, b / 2);
    const double head = seconds_of(m, w, g, b, std::max(1.0, len.shortest));
    const double tail = len.longest > len.shortest + 0.5
                            ? seconds_of(m, w, g, int(tail_batch), len.longest) -
                                  seconds_of(m, w, g, int(tail_batch), std::max(1.0, len.shortest))
                            : 0;
    r.decode_seconds = head + std::max(0.0, tail);
    // After every optimizer step the trainer loads its weights into the
    // engine (TRL _move_model_to_vllm: llm_model.load_weights; PEFT merges
    // the adapters first): the half-precision weights read and written once
    // on the card, gathered first from the other ranks under ZeRO-3
    // (GatheredParameters, module by module).
    const double half = m.params * (w.precision == Precision::fp32 ? 4.0 : 2.0);
    r.weight_sync_seconds = 2 * half / (g.memory_bandwidth_bytes_per_s * time_model::kBandwidthEfficiency) + gather_once;
  } else {
    // transformers generate: the padded batch runs until its longest
    // completion ends; a finished row keeps computing pad tokens.
    const Workload gen = rollout_workload(w, b, std::max(1, int(std::lround(len.longest))));
    const Throughput t = model_throughput(m, gen, g, 1);
    r.decode_seconds = t.step_seconds;
    const double passes = 1 + std::lround(len.longest);  // the prefill, then one pass per token
    if (w.method == Method::qlora && b > 1) {
      // The unfused NF4 path: its extra bytes on the card and one more
      // kernel (dequantize_4bit) per quantized linear layer per pass on the host.
      const ModelShapes s = model_shapes(m);
      const double linears_per_layer = 4 + (m.gated_mlp ? 3 : 2);
      const double gpu = t.step.gpu_seconds +
                         passes * kUnfusedDequantExtraBytesPerParam * s.linear_params / (g.memory_bandwidth_bytes_per_s * time_model::kBandwidthEfficiency);
      const double host = t.step.host_seconds + passes * m.layers * linears_per_layer * time_model::kHostSecondsPerKernel;
      r.dequantize_seconds = std::max(0.0, std::max(gpu, host) - std::max(t.step.gpu_seconds, t.step.host_seconds));
    }
    if (others > 0) {
      // ZeRO-3: TRL gathers the whole policy once before generate
      // (unwrap_model_for_generation, ds3_gather_for_generation default
      // True); without it (rl.gather_for_generation false, and DeepSpeed-Chat
      // or OpenRLHF without their inference engines) every forward pass
      // fetches each layer's shards from the other ranks and frees them:
      // the whole model crosses the link once per generated token (TRL
      // GRPOConfig: "generation will be much slower"). The gathers are not
      // overlapped with the small decode kernels (the time model's ZeRO-3
      // rule: no overlap observed); their launch latency is left out.
      r.gather_seconds = w.rl.gather_for_generation ? gather_once : passes * gather_once;
    }
  }
  r.seconds = r.decode_seconds + r.gather_seconds + r.dequantize_seconds + r.weight_sync_seconds;
  return r;
}

double gathered_generation_weight_bytes(const ModelSpec& m, const Workload& w) {
  if (w.rl.rollout != Rollout::trainer || !w.rl.gather_for_generation || !sharded_weights(w, w.gpus)) return 0;
  return m.params * gathered_bytes_per_param(w) * double(w.gpus - 1) / w.gpus;
}

}  // namespace gpuplan
