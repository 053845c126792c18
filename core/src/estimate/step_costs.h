// Costs of an eager fine-tuning step that the dense accounting of
// throughput.cpp does not see (docs/time-model.md, "LoRA adapters and the
// loss"): the element-wise work and kernels of PEFT's LoRA modules, and the
// fp32 cross-entropy over the vocabulary. Fused stacks (unsloth, Liger,
// torch.compile) fold both into neighbouring kernels and pay neither.
#pragma once

#include "gpuplan/model.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/request.h"

namespace gpuplan {

// Bytes PEFT's LoRA modules move per token, all adapted modules of all
// layers, forward and backward (and the recomputed forward under
// checkpointing), beyond the base GEMMs; and the kernels they launch per
// micro-batch. 0 unless the method is LoRA or QLoRA on a transformer.
double lora_adapter_bytes_per_token(const ModelSpec& model, const ModelShapes& shapes, const Workload& workload);
double lora_adapter_kernels(const ModelSpec& model, const Workload& workload);

// Bytes the loss moves per token: transformers upcasts the logits to fp32
// and runs cross_entropy on them (log-softmax, its backward, the cast of the
// gradient back). 0 for encoders and for chunked or fused losses.
double cross_entropy_bytes_per_token(const ModelSpec& model, const Workload& workload);

}  // namespace gpuplan
