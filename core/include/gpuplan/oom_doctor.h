// The OOM doctor: for a workload that does not fit a chosen card, the changes
// that make it fit, each with its new memory and speed, ranked by what they
// cost in quality first and GPU-hours second. Derivations: docs/oom-doctor.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/request.h"

namespace gpuplan {

// What a change does to the training result, in the order a student should
// reach for them: the same run, slightly different numerics, another method.
enum class QualityImpact { none, numerics, method };

// The remedies' ids, one list: the doctor makes them (oom_doctor.cpp, and
// plan.cpp's plan_fit), the writer says them (oom_doctor_json.cpp), and the
// planner's nothing-fits suggestions reuse the method ones (planner_failure.cpp).
namespace remedy_id {
inline constexpr std::string_view micro_batch = "micro_batch";
inline constexpr std::string_view grad_checkpointing = "grad_checkpointing";
inline constexpr std::string_view mixed_precision = "mixed_precision";
inline constexpr std::string_view optimizer_8bit = "optimizer_8bit";
inline constexpr std::string_view cpu_offload = "cpu_offload";
inline constexpr std::string_view lora = "lora";
inline constexpr std::string_view qlora = "qlora";
inline constexpr std::string_view flash_attention = "flash_attention";
inline constexpr std::string_view kv_cache_8bit = "kv_cache_8bit";
inline constexpr std::string_view weights_int8 = "weights_int8";
inline constexpr std::string_view weights_int4 = "weights_int4";
inline constexpr std::string_view zero3 = "zero3";
inline constexpr std::string_view larger_gpu = "larger_gpu";
inline constexpr std::string_view combined = "combined";
inline constexpr std::string_view plan_fit = "plan_fit";
}  // namespace remedy_id

struct Remedy {
  std::string id;          // e.g. "grad_checkpointing", "micro_batch", "zero3", "larger_gpu"
  Workload workload;       // the whole changed workload
  std::string gpu;         // the card it runs on (changes only for "larger_gpu")
  std::string gpu_name;    // that card's name, for the remedy's sentence
  int count = 1;           // GPUs used
  MemoryEstimate memory;   // per GPU after the change
  bool fits = false;
  QualityImpact quality = QualityImpact::none;
  double time_factor = 1;      // wall-clock time for the same data, relative to the original config
  double gpu_hours_factor = 1; // GPU-hours (what rental bills), relative to the original config
  int gradient_accumulation = 1;  // steps to keep the effective batch when micro_batch shrinks
};

struct Diagnosis {
  Workload original;           // the workload as requested (remedies are patches on it)
  std::string gpu;
  int count = 1;
  double capacity_bytes = 0;   // one card's memory
  double total_bytes = 0;      // the workload's per-GPU need as requested
  bool fits = false;
  std::vector<Remedy> remedies;  // only changes that make it fit, best first
  // Speed findings that do not change memory: mixed precision on tensor
  // cores, a starved data loader. Codes with localized text at the edge.
  double mixed_precision_speedup = 1;  // bf16/fp16 tensor rate over this precision's rate on this card
};

Diagnosis diagnose(const ModelSpec& model, const Workload& workload, const Gpu& gpu, int count,
                   const Catalog& catalog);

}  // namespace gpuplan
