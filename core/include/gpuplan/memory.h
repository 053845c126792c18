// Per-GPU memory of a training or inference job, on the busiest rank.
// Formulas and their sources: docs/memory-model.md.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/model.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/request.h"

namespace gpuplan {

struct MemoryComponent {
  std::string id;  // weights, gradients, optimizer, activations, kv_cache, runtime, ...
  double bytes = 0;
};

struct MemoryEstimate {
  std::vector<MemoryComponent> components;  // sums to total_bytes
  double allocated_bytes = 0;  // peak of live tensors (torch.cuda.max_memory_allocated)
  double reserved_bytes = 0;   // plus the caching allocator's reserve (max_memory_reserved)
  double total_bytes = 0;      // plus CUDA context and workspaces (what nvidia-smi shows)
  double trainable_params = 0; // what the optimizer updates (model arithmetic's count; 0 at inference)
  double scale = 1;            // the measured-peak correction applied (workload.memory_scale)
};

// What a serving engine holds on a card whatever the batch needs: vLLM
// pre-allocates gpu_memory_utilization (0.9 by default, vllm/engine/
// arg_utils.py EngineArgs; "the fraction of GPU memory to be used for the
// model executor") x the card's memory for weights, activations and the KV
// block pool, which is what nvidia-smi shows while it serves. 0 for every
// other stack (their figure is total_bytes).
inline constexpr double kVllmGpuMemoryUtilization = 0.9;
double engine_pool_bytes(const Workload& workload, double card_memory_bytes);

// The default safety margin on top of total_bytes when recommending a card.
inline constexpr double kDefaultHeadroom = 0.3;

MemoryEstimate estimate_memory(const ModelSpec& model, const Workload& workload);

// Composition. estimate_memory above picks the composition a request needs
// (a VLM's tower and decoder: estimate/vlm.h; DPO / GRPO / PPO: estimate/
// objective.h) or the one-model estimate below; the compositions build on the
// one-model estimate and never call estimate_memory back.
// One model (a decoder, encoder, encoder-decoder or CNN) training with SFT or
// inferring, before the baseline calibration (workload.memory_scale), which
// estimate_memory applies once to the whole composed estimate.
MemoryEstimate model_memory(const ModelSpec& model, const Workload& workload);
// The live-tensor components of an estimate, without the allocator's reserve
// and the CUDA context; and the estimate made of such components, with that
// reserve and context added once. Every caller hands a fresh estimate, whose
// components move out rather than copy.
std::vector<MemoryComponent> allocated_components(MemoryEstimate estimate);
MemoryEstimate finish_estimate(std::vector<MemoryComponent> allocated);
// What a training job keeps between steps, on the busiest GPU: weights (and
// frozen networks beside them), optimizer states and the gradient memory that
// outlives a step; no activations. An RL rollout runs on top of it.
std::vector<MemoryComponent> resident_training_state(const ModelSpec& model, const Workload& workload);
// The factor that turns the estimate on the user's own card into the peak
// they measured (request baseline.memory_bytes, what nvidia-smi shows): the
// measured bytes over the estimated, both without the fixed CUDA context, at
// `count` GPUs and the workload's micro-batch. 1 when it cannot be evaluated;
// clamped to [kMinMemoryScale, kMaxMemoryScale] (a factor outside it means the
// measurement is of another run, and the response shows the clamped figure).
inline constexpr double kMinMemoryScale = 0.25;
inline constexpr double kMaxMemoryScale = 4;
double memory_baseline_scale(const ModelSpec& model, const Workload& workload, int count, double measured_bytes);

// Reverse questions (docs/api.md, gpus[].max_micro_batch / max_seq_len): the
// largest micro-batch (at the workload's sequence length) and the longest
// sequence (at its micro-batch) whose total_bytes still fits a card; 0 when
// even 1 does not fit; max_seq_len is 0 for convolutional nets, which have no
// sequence. Capped at the request limits (65536 samples, 2^24 tokens). The
// planner's evaluator answers them (estimate/evaluation.h, Evaluator::limits_at).
struct FitLimits {
  int max_micro_batch = 0;
  int max_seq_len = 0;
};

// Bytes one transformer layer saves for backward per token, at the workload's
// precision and sequence length (docs/memory-model.md, "Activations per
// layer": the per-tensor count after Korthikanti et al. 2022, with the eager
// score matrix when there is no FlashAttention). The time model's memory
// traffic streams these same bytes (docs/time-model.md, "Memory traffic").
double saved_bytes_per_token_layer(const ModelSpec& model, const Workload& workload);

}  // namespace gpuplan
