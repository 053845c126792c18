// The work of one training step on one GPU: FLOPs, bytes of activation
// traffic and kernels launched, for convolutional and transformer models
// (docs/time-model.md, "FLOPs" and "Memory traffic").
#include "estimate/time_model.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/memory.h"
#include "gpuplan/model_arithmetic.h"
#include "estimate/diffusion.h"
#include "estimate/moe.h"
#include "estimate/step_costs.h"

namespace gpuplan::time_model {

// Bytes the NCHW <-> NHWC transposes around tensor-core convolutions move per
// micro-batch (0 for channels_last tensors or CUDA-core FP32).
double cnn_transpose_bytes(const ModelSpec& m, const Workload& w, ComputeUnit unit, bool train) {
  if (w.channels_last || unit == ComputeUnit::fp32_cuda) return 0;
  const double area = std::pow(double(w.image_size) / std::max(1, m.reference_image_size), 2);
  const double passes = train ? 2 : 1;  // forward; backward: the gradients of the same tensors
  return kTransposeMovesPerConvElementPass * passes * cnn_conv_io_elements_per_sample(m) * area * w.micro_batch *
         activation_bytes(w.precision);
}

Work cnn_work(const ModelSpec& m, const Workload& w, ComputeUnit unit, double rate_flops, double bandwidth, bool train) {
  Work k;
  const double area = std::pow(double(w.image_size) / std::max(1, m.reference_image_size), 2);
  // Training: 3 x forward (2 x with frozen weights, +1 recomputed) plus the
  // frozen VAE's encode of a diffusion step (model_arithmetic.h); at 512 px
  // the VAE encode is more MACs than one UNet forward (docs/memory-model.md,
  // "Convolutional and diffusion networks").
  k.flops = train ? train_flops_per_micro_batch(m, w) : cnn_forward_flops_per_sample(m, w) * w.micro_batch;
  k.compute_seconds = k.flops / (rate_flops * kConvRelativeEfficiency);
  // activation_bytes_per_sample is the fp32 training footprint at the reference size.
  const double elements = m.activation_bytes_per_sample / 4 * area * w.micro_batch;
  const double passes = train ? (fused_kernels(m, w) ? kCompiledActivationPasses : kActivationPasses)
                              : 2;  // inference: written once, read once
  k.memory_seconds = (passes * elements * activation_bytes(w.precision) + cnn_transpose_bytes(m, w, unit, train)) / bandwidth;
  // A diffusion pipeline's UNet or DiT launches the kernels its expansion
  // counts (an SD 1.5 UNet about 1 000 per pass: at batch 1 the host sets
  // the pace); other presets the ResNet-50 figure.
  const double per_pass = is_diffusion_pipeline(m) && cnn_kernels_per_pass(m) > 0 ? cnn_kernels_per_pass(m)
                                                                                   : kCnnKernelsPerPass;
  k.kernels = per_pass * (train ? 3 : 1) * (fused_kernels(m, w) ? kCompiledKernelShare : 1.0);
  // QLoRA on a diffusion transformer or UNet (diffusers with a
  // bitsandbytes-NF4 base) dequantizes each linear's weight before every use,
  // as for a transformer: forward, backward, and the recomputed forward.
  if (train && w.method == Method::qlora && is_diffusion_pipeline(m))
    k.memory_seconds += m.params * kQloraDequantBytesPerParam * (w.grad_checkpointing ? 3 : 2) / bandwidth;
  k.trainable = train ? trainable_params(m, w) : 0;
  return k;
}

Work transformer_train_work(const ModelSpec& m, const Workload& w, double rate_flops, double bandwidth) {
  Work k;
  const ModelShapes s = model_shapes(m);
  const double tokens = double(w.micro_batch) * w.seq_len;
  const bool ckpt = w.grad_checkpointing;
  // Model FLOPs per token: 6 per weight (4 frozen), attention x3, recomputation
  // and causal FlashAttention's skipped half (model_arithmetic.h).
  k.flops = tokens * train_flops_per_token(m, s, w);
  k.compute_seconds = k.flops / (rate_flops * size_efficiency(m));
  // The bytes the memory model counts as saved, per tensor (autocast's fp32
  // norms and softmax, gated MLPs, GQA, dropout masks, the eager score matrix).
  const double per_token_layer = saved_bytes_per_token_layer(m, w);
  const double passes = (fused_kernels(m, w) ? kCompiledActivationPasses : kActivationPasses) * (ckpt ? 4.0 / 3.0 : 1.0);
  k.memory_seconds = passes * tokens * m.layers * per_token_layer / bandwidth;
  if (w.method == Method::qlora)
    k.memory_seconds += s.linear_params * kQloraDequantBytesPerParam * (ckpt ? 3 : 2) / bandwidth;
  k.kernels = m.layers * kKernelsPerLayerPass * (3 + (ckpt ? 1 : 0)) * (fused_kernels(m, w) ? kCompiledKernelShare : 1.0);
  // Mixture of experts (moe.h): each hit expert's weights are read per pass
  // whatever its few tokens; where those reads outlast the experts'
  // arithmetic the small GEMMs are bandwidth-bound (the roofline, Williams
  // et al. 2009), and the eager loop launches each expert's kernels.
  // PEFT's adapter modules and the fp32 cross-entropy (step_costs.h):
  // separate element-wise kernels in eager stacks, fused away otherwise.
  if (!fused_kernels(m, w)) {
    k.memory_seconds += tokens * (lora_adapter_bytes_per_token(m, s, w) + cross_entropy_bytes_per_token(m, w)) / bandwidth;
    k.kernels += lora_adapter_kernels(m, w);
  }
  const ExpertLoopWork loop = expert_loop_work(m, s, w, fused_kernels(m, w));
  k.memory_seconds += std::max(0.0, loop.weight_bytes_read / bandwidth -
                                        loop.expert_flops / (rate_flops * size_efficiency(m)));
  k.kernels += loop.extra_kernels;
  k.trainable = trainable_params(m, w);
  return k;
}

}  // namespace gpuplan::time_model
