// Training and inference speed as a step-time model: the work (FLOPs, bytes
// moved, kernels launched, bytes communicated) over the card's figures for the
// precision actually used. This file holds the entry points and the rate's
// range; the step's pieces are throughput_rates.cpp, throughput_work.cpp,
// throughput_communication.cpp, throughput_training.cpp and
// throughput_inference.cpp, their shared figures estimate/time_model.h. Every
// formula, constant and its source, and the calibration report:
// docs/time-model.md.
#include "gpuplan/throughput.h"

#include <algorithm>
#include <cmath>

#include "estimate/objective.h"
#include "estimate/time_model.h"
#include "estimate/token_counts.h"
#include "estimate/vlm.h"

namespace gpuplan {
using namespace time_model;
namespace {

// The 80 % prediction interval of the rate, as factors on it, from the
// measured / estimated ratios of the published cases of the workload's stack
// class (tests/data/throughput_cases.json): the split-conformal order
// statistics of the 10th and 90th percentiles, the floor((n+1)·0.1)-th and
// ceil((n+1)·0.9)-th of the n ratios (Lei et al. 2018, "Distribution-Free
// Predictive Inference for Regression", sec. 2.2), so that a run no
// calibration saw falls inside with at least the stated probability. Plain
// percentiles covered 74 % of the cases leave-one-source-out; these cover
// 81 % (docs/time-model.md "Range"). The validation test checks the factors
// stay in step with the model. A class with fewer than 8 cases (vllm) takes
// the pooled figure. Cases whose own figure set a coefficient (the llama.cpp
// decode shares, decode_bandwidth.cpp) are in none of the pools: they would
// narrow the range with in-sample ratios of 1. The two factors set since
// (llama.cpp, pooled) are rounded outward, so the extreme case stays inside.
struct RateInterval {
  double low = 1, high = 1;
};
constexpr RateInterval kEagerInterval{0.38, 1.27};      // 34 cases
constexpr RateInterval kOptimizedInterval{0.71, 1.14};  // 69 cases
constexpr RateInterval kLlamaCppInterval{0.94, 1.24};   // 10 cases
constexpr RateInterval kPooledInterval{0.66, 1.18};     // all 113

RateInterval rate_interval(Stack stack) {
  switch (stack) {
    case Stack::eager: return kEagerInterval;
    case Stack::optimized: return kOptimizedInterval;
    case Stack::llama_cpp: return kLlamaCppInterval;
    case Stack::vllm: return kPooledInterval;
  }
  return kPooledInterval;
}
}  // namespace

// How a generating model spans several GPUs. Eager transformers places whole
// layers on each card (`device_map="auto"`, accelerate's big-model inference:
// the cards run one after another, "naive pipeline parallelism"), and
// llama.cpp splits by layer by default (`--split-mode layer`): a token still
// passes every layer in turn, so n cards hold the model but decode no faster
// than one. vLLM and the compiled stacks (gpt-fast) shard every layer across
// the cards (tensor parallelism, Shoeybi et al. 2019): each reads 1/n of the
// weights per token, at two all-reduces per layer.
bool tensor_parallel_decode(const Workload& w) { return w.stack == Stack::vllm || w.stack == Stack::optimized; }

std::string_view compute_unit_name(ComputeUnit unit) {
  switch (unit) {
    case ComputeUnit::fp32_cuda: return "fp32";
    case ComputeUnit::tf32_tensor: return "tf32";
    case ComputeUnit::fp16_tensor: return "fp16-tensor";
    case ComputeUnit::bf16_tensor: return "bf16-tensor";
  }
  return "fp32";
}

double peak_tflops_for(const Gpu& gpu, const Workload& workload, ComputeUnit* unit) {
  ModelSpec transformer;  // the unit does not depend on the model except for CNNs
  ComputeUnit u = unit_for(gpu, transformer, workload);
  if (unit) *unit = u;
  return unit_tflops(gpu, u);
}

Throughput estimate_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int gpu_count) {
  const int n = std::max(1, gpu_count);
  // Compositions (docs/vlm.md, docs/objectives.md) sit above the one-model
  // estimate and build on it; none calls back here.
  if (m.kind == ModelKind::vlm) return vlm_throughput(m, w, g, n);
  if (has_objective_phases(m, w)) return objective_throughput(m, w, g, n);
  return model_throughput(m, w, g, n);
}

Throughput model_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int gpu_count) {
  const int n = std::max(1, gpu_count);
  Throughput t = w.mode == Mode::infer ? infer_throughput(m, w, g, n) : train_throughput(m, w, g, n);
  t.fp32_peak_tflops = g.tflops.fp32;
  if (!(t.samples_per_s > 0) || !std::isfinite(t.samples_per_s) || !std::isfinite(t.utilization)) {
    Throughput empty;
    empty.unit = t.unit;
    empty.peak_tflops = t.peak_tflops;
    empty.fp32_peak_tflops = t.fp32_peak_tflops;
    return empty;
  }
  const RateInterval interval = rate_interval(w.stack);
  t.low_factor = interval.low;
  t.high_factor = interval.high;
  // A measured baseline (request `baseline`) rescales the whole estimate.
  if (w.rate_scale > 0 && w.rate_scale != 1) {
    t.samples_per_s *= w.rate_scale;
    t.tokens_per_s *= w.rate_scale;
    t.step_seconds /= w.rate_scale;
    t.utilization *= w.rate_scale;
    t.achieved_tflops *= w.rate_scale;
    t.baseline_scale = w.rate_scale;
  }
  return t;
}

double counted_tokens_per_sample(const ModelSpec& m, const Workload& w) {
  if (m.kind == ModelKind::cnn) return 0;
  if (w.mode == Mode::infer && m.kind != ModelKind::encoder) return generated_tokens_per_sequence(w);
  return real_tokens_per_sample(w);
}

double job_hours(const ModelSpec& m, const Workload& w, const DataSize& d, const Throughput& t) {
  if (t.samples_per_s <= 0) return 0;
  double seconds = 0;
  if (d.tokens > 0 && m.kind != ModelKind::cnn && t.tokens_per_s > 0) {
    seconds = d.tokens / t.tokens_per_s;
  } else {
    double rows = d.samples * d.epochs;
    // Packed samples of mean_seq_len tokens fill seq_len-token rows.
    if (w.packing && w.mean_seq_len > 0 && m.kind != ModelKind::cnn) rows *= double(w.mean_seq_len) / w.seq_len;
    seconds = rows / t.samples_per_s;
  }
  return seconds / 3600.0;
}

CostEffectiveness cost_effectiveness(const Throughput& t, const Gpu& g, double price_per_gpu_hour) {
  CostEffectiveness c;
  if (!(price_per_gpu_hour > 0)) return c;
  c.workload_precision = t.peak_tflops / price_per_gpu_hour * t.utilization;
  c.fp32_as_seed = g.tflops.fp32 / price_per_gpu_hour * t.utilization;
  return c;
}

double baseline_scale(const ModelSpec& m, const Workload& w, const Gpu& g, int count, double measured_samples_per_s) {
  if (!(measured_samples_per_s > 0)) return 1;
  Workload at = w;
  at.rate_scale = 1;
  at.gpus = std::max(1, count);
  if (at.gpus > 1 && at.sharding == Sharding::none) at.sharding = Sharding::ddp;
  Throughput est = estimate_throughput(m, at, g, at.gpus);
  if (!(est.samples_per_s > 0)) return 1;
  return measured_samples_per_s / est.samples_per_s;
}

}  // namespace gpuplan
