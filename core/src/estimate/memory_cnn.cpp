// Convolutional and diffusion networks: the layer-by-layer expansion of a
// preset's architecture, frozen encoders, training and inference
// (docs/memory-model.md, "Convolutional and diffusion networks").
#include "estimate/memory_model.h"

#include <algorithm>
#include <cmath>

#include "estimate/cnn_architecture.h"
#include "estimate/diffusion.h"
#include "estimate/optimizer_states.h"

namespace gpuplan::memory_model {

// --- Convolutional and diffusion networks ------------------------------------

// A preset's architecture is expanded layer by layer at the request's image
// size (cnn_architecture.h: what each op saves, per PyTorch's autograd
// formulas and autocast lists). The expansion does not depend on the
// micro-batch, which the fit-limit bisections vary, so the last one is kept.
CnnPass cnn_pass(const Workload& w) {
  CnnPass p;
  p.train = w.mode == Mode::train;
  p.autocast = p.train && is_mixed(w.precision);
  p.compute_bytes = compute_bytes(w.precision);
  p.flash_attention = w.flash_attention;
  p.checkpointing = p.train && w.grad_checkpointing;
  p.frozen = p.train && w.method != Method::full;
  return p;
}

const CnnFootprint& cnn_footprint(const ModelSpec& m, const Workload& w) {
  thread_local FootprintMemo memo;
  return memo.get(m.architecture, w.image_size, cnn_pass(w));
}

// Without an architecture (a user's own network): the bytes autograd saves
// per sample at reference_image_size in fp32, scaled by the image area and
// halved in half precision; inference keeps a tenth (the widest live maps).
double area_scaled_bytes(const ModelSpec& m, const Workload& w) {
  const bool half = w.precision != Precision::fp32;
  const double area = std::pow(double(w.image_size) / m.reference_image_size, 2);
  return m.activation_bytes_per_sample * area * (half ? 0.5 : 1);
}

// Frozen networks beside the model, in the half weight dtype, as diffusers'
// train_text_to_image(_lora)(_sdxl).py cast text encoders and VAE to
// weight_dtype (fp32 only when the run is fp32); the same at inference.
// Text embeddings cached ahead of training (diffusers train_dreambooth_lora_flux.py
// and _sdxl.py compute the prompt embeddings once and free the text encoders
// when the instance prompt is fixed; kohya's cache_text_encoder_outputs):
// the text encoders leave the GPU, the VAE stays for the latents.
double frozen_bytes(const ModelSpec& m, const Workload& w) {
  double params = m.frozen_params;
  if (w.mode == Mode::train && w.cached_text_embeddings) params -= m.frozen_text_params;
  return std::max(0.0, params) * (w.precision == Precision::fp32 ? 4 : 2);
}

MemoryEstimate cnn_memory(const ModelSpec& m, const Workload& w) {
  const double p = m.params;
  const bool half = w.precision != Precision::fp32;
  const bool layered = m.architecture.family != CnnFamily::none;
  const CnnFootprint* f = layered ? &cnn_footprint(m, w) : nullptr;
  const double b = w.micro_batch;
  if (w.mode == Mode::infer) {
    MemoryEstimate e;
    add(e, "weights", p * (w.precision == Precision::fp32 ? 4 : 2));
    add(e, "frozen_encoders", frozen_bytes(m, w));
    // The largest live set of the forward under no_grad (for a diffusion
    // pipeline also the VAE decode of the final latents), or a tenth of what
    // training saves for a network known only by that figure.
    // Under classifier-free guidance the model runs on the conditional and
    // unconditional latents at once (2b, diffusion.h); the VAE decodes the b
    // images only.
    const double model_batch = b * sampling(m, w).passes_per_step();
    double live = layered ? std::max(f->peak_bytes * model_batch, f->decode_peak_bytes * b)
                          : 0.1 * area_scaled_bytes(m, w) * b;
    add(e, "activations", live);
    return finish(e);
  }
  TrainState t;
  t.saved = (layered ? f->saved_bytes : area_scaled_bytes(m, w)) * b;
  t.frozen = frozen_bytes(m, w);
  // Latents computed on the fly: the VAE encodes the batch under no_grad.
  if (layered && m.frozen_params > 0) t.preprocess = f->encode_peak_bytes * b;
  if (w.method != Method::full) {
    // LoRA / QLoRA on a convolutional net (e.g. a diffusion UNet's attention):
    // a frozen half-precision (or NF4) base, and adapters trained in fp32
    // (diffusers' LoRA scripts cast_training_params(unet, torch.float32) under
    // fp16 mixed precision; bf16 under bf16-true) with their gradients and
    // optimizer states.
    const double adapter = lora_trainable_params(m, w.lora);
    const double adapter_bytes = adapter_element_bytes(w.precision);
    // workload.frozen_base_fp32: a base loaded in fp32 stays fp32 (as for transformers above).
    const double base_bytes = w.frozen_base_fp32 ? 4 : (half ? 2 : 4);
    t.weights = p * (w.method == Method::qlora ? bytes_per_weight(WeightFormat::nf4_double_quant) : base_bytes) +
                adapter * adapter_bytes;
    t.live_grads = adapter * adapter_bytes;
    t.optimizer = adapter * optimizer_state_bytes_per_param(w.optimizer, adapter_bytes, m);
    if (w.grad_accumulation > 1) {
      t.persistent_grads = t.live_grads;
      t.live_grads = 0;
    }
    return training_peak(t);
  }
  const double param_bytes = w.precision == Precision::bf16_true ? 2 : 4;
  const Shards shard = shard_factors(w);
  t.weights = p * param_bytes * shard.params;
  t.optimizer = p * optimizer_state_bytes_per_param(w.optimizer, param_bytes, m) * shard.optimizer;
  t.live_grads = p * param_bytes * shard.grads;
  if (is_mixed(w.precision)) t.amp_copies = 2 * p;
  if (w.sharding == Sharding::ddp) t.persistent_grads = p * param_bytes;
  if (w.grad_accumulation > 1) {
    t.persistent_grads += t.live_grads;
    t.live_grads = 0;
  }
  return training_peak(t);
}

}  // namespace gpuplan::memory_model
