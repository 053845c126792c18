// How fast a workload runs on a GPU type and count: a step-time model built
// from the work (FLOPs, bytes moved, kernels launched, bytes communicated) and
// the card's figures for the precision actually used. Formulas, constants,
// calibration and the error report: docs/time-model.md.
#pragma once

#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/model.h"
#include "gpuplan/request.h"

namespace gpuplan {

// Which unit of the card does the matrix work (docs/time-model.md, "Precision").
enum class ComputeUnit { fp32_cuda, tf32_tensor, fp16_tensor, bf16_tensor };
std::string_view compute_unit_name(ComputeUnit unit);  // "fp32", "tf32", "fp16-tensor", "bf16-tensor"

// One step (train: one micro-batch per GPU, with the optimizer step and the
// gradient reduction averaged over workload.grad_accumulation micro-batches;
// infer: one batch) taken apart. It takes
// max(gpu_seconds, host_seconds) + exposed_communication_seconds.
struct StepTime {
  double compute_seconds = 0;        // matmul / convolution FLOPs at the achieved rate
  double memory_seconds = 0;         // activation, dequantization and KV/weight traffic at achieved bandwidth
  double optimizer_seconds = 0;      // the optimizer's read-modify-write of its states
  double kernel_tail_seconds = 0;    // per-kernel ramp and tail on the GPU
  double gpu_seconds = 0;            // sum of the four above
  double host_seconds = 0;           // Python / framework dispatch of the same kernels
  double communication_seconds = 0;  // gradient all-reduce or ZeRO-3 gathers, if nothing overlapped
  double exposed_communication_seconds = 0;  // the part compute does not hide
};

struct Throughput {
  double samples_per_s = 0;  // whole job, all GPUs together (infer: finished sequences or images)
  double tokens_per_s = 0;   // whole job (infer: generated tokens)
  double step_seconds = 0;   // one optimizer step (train: grad_accumulation micro-batches) or one batch (infer)
  double low_factor = 1;     // 80 % prediction interval of the rate, as factors on it (docs/time-model.md, "Range")
  double high_factor = 1;
  double baseline_scale = 1; // measured / estimated on the user's baseline (request `baseline`), applied to every rate
  double utilization = 0;    // achieved fraction of the precision's peak (model FLOPs utilization)
  double scaling_efficiency = 1;  // multi-GPU speed over count x one GPU
  ComputeUnit unit = ComputeUnit::fp32_cuda;
  double peak_tflops = 0;      // per GPU, the unit the workload runs on
  double achieved_tflops = 0;  // per GPU: peak_tflops x utilization
  double fp32_peak_tflops = 0; // per GPU, CUDA-core FP32 (what seed 004 and FP32-reading tools divide by price)
  bool bandwidth_bound = false;  // memory traffic, not arithmetic, dominates the GPU time
  double trainable_params = 0;   // train: what the optimizer step reads and writes (model arithmetic's count)
  double weight_bytes = 0;       // generation: weight bytes each decode step streams (decode_streamed_weight_bytes)
  StepTime step;
  // Objectives other than SFT (docs/objectives.md): one optimizer step taken
  // apart into its phases; step_seconds is their sum. Zero for SFT.
  double rollout_seconds = 0;   // GRPO / PPO: generating the step's completions
  double scoring_seconds = 0;   // forwards without gradients: reference, old log-probs, values, reward
  double training_seconds = 0;  // the policy's (and PPO's critic's) update
};

Throughput estimate_throughput(const ModelSpec& model, const Workload& workload, const Gpu& gpu,
                               int gpu_count);
// One model (no VLM tower, no DPO / GRPO / PPO phases): what the compositions
// (estimate/vlm.h, estimate/objective.h) build on; estimate_throughput picks
// a composition or this, and no composition calls estimate_throughput back.
Throughput model_throughput(const ModelSpec& model, const Workload& workload, const Gpu& gpu, int gpu_count);

// Whether a generating model whose weights are split across several GPUs
// runs tensor-parallel (vLLM, compiled stacks: every layer on every card at
// once) rather than layer by layer (eager transformers' device_map="auto",
// llama.cpp's --split-mode layer: the cards in turn, as fast as one).
bool tensor_parallel_decode(const Workload& workload);

// Hours to process `data` at `throughput` (0 when data is absent or empty).
double job_hours(const ModelSpec& model, const Workload& workload, const DataSize& data,
                 const Throughput& throughput);

// The peak (TFLOP/s, dense) of the unit `workload` runs its matmuls on.
double peak_tflops_for(const Gpu& gpu, const Workload& workload, ComputeUnit* unit = nullptr);

// Seed 004's cost-effectiveness coefficient: TFLOPS per unit of hourly price
// times the achieved utilization, on the precision the workload really uses
// (`workload_precision`) and, for comparison, on the card's FP32 peak as the
// seed computes it (`fp32_as_seed`). Price in any currency per GPU-hour; 0
// (or less) gives zeros.
struct CostEffectiveness {
  double workload_precision = 0;
  double fp32_as_seed = 0;
};
CostEffectiveness cost_effectiveness(const Throughput& throughput, const Gpu& gpu, double price_per_gpu_hour);

// The planner's view: achieved TFLOP/s per GPU for this workload.
inline double effective_tflops(const Throughput& t) { return t.achieved_tflops; }

// The rescaling factor that turns the model's estimate on the user's own
// hardware into their measured rate ("my 4 x 2080 Ti take 55 minutes an
// epoch"): measured / estimated on the baseline. Multiply any other GPU's
// estimated rate by it. Returns 1 when the baseline cannot be evaluated.
double baseline_scale(const ModelSpec& model, const Workload& workload, const Gpu& baseline_gpu,
                      int baseline_count, double measured_samples_per_s);

}  // namespace gpuplan
