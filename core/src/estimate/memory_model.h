// The memory model's shared terms (docs/memory-model.md): bytes per element,
// the runtime and allocator terms every estimate ends with, what a training
// step holds, and the estimates the files of memory_*.cpp compute. Private to
// core/src/estimate/.
#pragma once

#include <algorithm>
#include <cmath>

#include "gpuplan/memory.h"
#include "gpuplan/model.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/request.h"

namespace gpuplan::memory_model {

constexpr double kMiB = 1024.0 * 1024.0;

inline bool is_mixed(Precision p) { return p == Precision::fp16_mixed || p == Precision::bf16_mixed; }

// Bytes per element (activations, adapters, weight formats) come from the
// shared model arithmetic (gpuplan/model_arithmetic.h).
inline double compute_bytes(Precision p) { return activation_element_bytes(p); }

// Bytes of the residual stream between layers. Under autocast (fp16/bf16-mixed
// on one GPU or DDP) the weights are fp32, so the residual additions and the
// norms stay fp32 (PyTorch autocast op reference: layer_norm runs in fp32).
// bf16-true keeps it bf16, and so do DeepSpeed ZeRO's fp16/bf16 engine and
// FSDP mixed precision, which run the module itself in half precision.
inline double residual_bytes(const Workload& w) {
  if (w.precision == Precision::fp32) return 4;
  if (w.precision == Precision::bf16_true || w.sharding == Sharding::zero1 || w.sharding == Sharding::zero2 ||
      w.sharding == Sharding::zero3)
    return 2;
  return 4;
}

// Fused kernels save what torch.compile saves: an `optimized` stack (torch.compile,
// Liger's and unsloth's fused RMSNorm / SwiGLU, apex's fused LayerNorm) keeps the
// matmul outputs and recomputes the pointwise ops in backward (docs/memory-model.md,
// "Software stack").
inline bool fused(const Workload& w) { return w.torch_compile || w.stack == Stack::optimized; }

inline bool has_dropout(const ModelSpec& m) {
  // LLaMA-family decoders (gated MLPs) train without dropout; BERT, GPT-2 and
  // T5 fine-tune with dropout 0.1 in attention and after each block.
  return !(m.kind == ModelKind::decoder && m.gated_mlp);
}

// --- Runtime ----------------------------------------------------------------

// CUDA context, kernel images, cuBLAS / cuDNN handles and NCCL buffers: what
// nvidia-smi shows beyond PyTorch's reserve. A bare CUDA 12 context with lazy
// module loading takes about 300-500 MiB; a training process also loads the
// cuBLAS, cuDNN and fused-optimizer kernels it uses and, on several GPUs,
// NCCL's communicator buffers. The HF V100 measurement (perf_train_gpu_one,
// CUDA 11 without lazy loading) saw 1343 MiB. We take 1 GiB, the middle of
// that range (docs/memory-model.md, "Runtime").
constexpr double kCudaContextBytes = 1024 * kMiB;
// The caching allocator rounds requests up (to 512 B, and large blocks to
// 2 MiB segments) and keeps freed blocks for reuse: reserved exceeds the
// allocated peak by a few percent in a steady loop (PyTorch "CUDA semantics",
// memory management). 6 % matches the reserved/allocated ratios torchtune
// logs (e.g. 6.27 / 6.21 GiB after model init, 15.57 GB reserved peaks).
constexpr double kAllocatorReserveFraction = 0.06;

inline void add(MemoryEstimate& e, const char* id, double bytes) {
  if (bytes > 0) e.components.push_back({id, bytes});
}

inline MemoryEstimate finish(MemoryEstimate e) {
  double allocated = 0;
  for (const auto& c : e.components) allocated += c.bytes;
  e.allocated_bytes = allocated;
  double reserve = allocated * kAllocatorReserveFraction;
  e.components.push_back({"allocator_reserve", reserve});
  e.reserved_bytes = allocated + reserve;
  e.components.push_back({"runtime", kCudaContextBytes});
  e.total_bytes = e.reserved_bytes + kCudaContextBytes;
  return e;
}

// llama.cpp (ggml) allocates its weight, KV and compute buffers once, at
// their exact sizes, through cudaMalloc: no caching allocator rounds or keeps
// blocks, so there is no allocator reserve. Its process loads no PyTorch,
// cuBLAS-Lt or cuDNN kernel libraries beside the CUDA context: the bare
// context with lazy module loading (300-500 MiB, above) and cuBLAS's handle
// and workspace, which ggml-cuda creates. We take 384 MiB, inside that range
// (not fitted: no visible case measures it apart).
constexpr double kGgmlRuntimeBytes = 384 * kMiB;

inline MemoryEstimate finish_ggml(MemoryEstimate e) {
  double allocated = 0;
  for (const auto& c : e.components) allocated += c.bytes;
  e.allocated_bytes = allocated;
  e.reserved_bytes = allocated;
  e.components.push_back({"runtime", kGgmlRuntimeBytes});
  e.total_bytes = e.reserved_bytes + kGgmlRuntimeBytes;
  return e;
}

// --- Training: the state every step holds and the two candidate peaks -------

// What a training step holds, in bytes per GPU.
struct TrainState {
  double weights = 0;           // parameters resident (sharded share + unsharded copies)
  double optimizer = 0;         // optimizer states (and fp32 master weights when separate)
  double persistent_grads = 0;  // gradient memory that lives across steps (DDP buckets, accumulation)
  double live_grads = 0;        // gradients created during backward and freed by the step
  double gathered = 0;          // ZeRO-3 / FSDP: unsharded layers in flight
  double saved = 0;             // everything autograd saves at the end of forward (activations)
  double logits = 0;            // the loss's logits at the start of backward
  double amp_copies = 0;        // autocast's half-precision weight casts, saved for backward
  double working = 0;           // one layer's backward working set
  double frozen = 0;            // frozen networks beside the model (a UNet's text encoders and VAE)
  double preprocess = 0;        // a frozen encoder's feature maps before forward (VAE encode under no_grad)
};

struct Shards {
  double params = 1, grads = 1, optimizer = 1;
};

// ---- The estimate's parts, one file each ------------------------------------
// memory_activations.cpp: what a layer saves for backward, and the logits.
double layer_bytes_per_token(const ModelSpec& m, const ModelShapes& s, const Workload& w);
double score_bytes_per_token(const ModelSpec& m, const Workload& w);
double logit_element_bytes(const Workload& w);
double logits_bytes(const ModelSpec& m, const Workload& w);
// memory_training.cpp: a transformer's training step and its peak.
MemoryEstimate training_peak(const TrainState& t);
Shards shard_factors(const Workload& w);
double saved_activations(const ModelSpec& m, const ModelShapes& s, const Workload& w, double* one_layer);
TrainState full_training_state(const ModelSpec& m, const ModelShapes& s, const Workload& w);
TrainState adapter_training_state(const ModelSpec& m, const ModelShapes& s, const Workload& w);
MemoryEstimate transformer_training(const ModelSpec& m, const ModelShapes& s, const Workload& w);
// memory_cnn.cpp: convolutional and diffusion networks, training and inference.
MemoryEstimate cnn_memory(const ModelSpec& m, const Workload& w);
// memory_inference.cpp: a transformer's inference: weights, KV cache, the batch's working set.
MemoryEstimate inference_memory(const ModelSpec& m, const ModelShapes& s, const Workload& w);

}  // namespace gpuplan::memory_model
