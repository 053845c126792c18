// Per-GPU memory of a training or inference job, on the busiest rank.
// Formulas and their sources: docs/memory-model.md.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/model.h"
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
};

// The default safety margin on top of total_bytes when recommending a card.
inline constexpr double kDefaultHeadroom = 0.3;

MemoryEstimate estimate_memory(const ModelSpec& model, const Workload& workload);

// Parameters trained by the adapter (LoRA / QLoRA), from the dimensions.
double lora_trainable_params(const ModelSpec& model, const Lora& lora);

}  // namespace gpuplan
