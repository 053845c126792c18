// Diffusion sampling (diffusion.h; docs/time-model.md, "Diffusion sampling").
#include "estimate/diffusion.h"

#include <algorithm>
#include <cmath>

#include "estimate/cnn_architecture.h"

namespace gpuplan {
namespace {

// Documented pipeline defaults (diffusers pipelines' __call__ signatures):
// pipeline_stable_diffusion.py and pipeline_stable_diffusion_xl.py
// num_inference_steps=50 with guidance_scale 7.5 / 5.0; pipeline_flux.py
// num_inference_steps=28 (FLUX.1-dev's model card example, guidance_scale
// 3.5 fed to the guidance embedding, one pass); FLUX.1-schnell's model card:
// num_inference_steps=4, guidance_scale=0.0.
constexpr int kUnetDefaultSteps = 50;
constexpr int kFluxDevDefaultSteps = 28;
constexpr int kFluxSchnellDefaultSteps = 4;

// Element-wise passes over the hidden width per token and block in eager
// diffusers (transformer_flux.py, attention_processor.py FluxAttnProcessor2_0,
// normalization.py, embeddings.py apply_rotary_emb), each reading and writing
// the tensor once. A joint (double) block, per token of either stream:
// AdaLayerNormZero twice (layer norm, x (1 + scale), + shift: 3 + 3), q and k
// RMSNorm (the eager RMSNorm's variance, rsqrt, two products: 4 each -> 8),
// rotary embedding of q and k (the rotated copy, two products and the sum:
// 4 each -> 8), the concatenation of the text and image q, k, v (3), two
// gates and two residual adds (4), and the tanh-GELU over the 4x-wide MLP
// (4): 33. A single block: one AdaLayerNormZeroSingle (3), q/k RMSNorm (8),
// rotary (8), GELU over the 4x MLP (4), the concatenation of attention and
// MLP outputs (5), gate and residual (2): 30. Counted from the code, not fitted.
constexpr double kDoubleBlockPasses = 33;
constexpr double kSingleBlockPasses = 30;

// Prompt tokens of the text encoders: CLIP's 77 (SD, SDXL and FLUX's pooled
// CLIP), T5's max_sequence_length for FLUX (512 for FLUX.1-dev).
double text_tokens(const ModelSpec& m) {
  const CnnArchitecture& a = m.architecture;
  return a.family == CnnFamily::flux ? std::max(77, a.context_tokens) : 77;
}

}  // namespace

bool is_diffusion_pipeline(const ModelSpec& m) {
  return m.kind == ModelKind::cnn &&
         (m.architecture.family == CnnFamily::sd_unet || m.architecture.family == CnnFamily::flux);
}

Sampling sampling(const ModelSpec& m, const Workload& w) {
  Sampling s;
  if (!is_diffusion_pipeline(m)) return s;
  const bool flux = m.architecture.family == CnnFamily::flux;
  const bool distilled_guidance = flux && m.architecture.guidance_embeds;
  int steps = flux ? (distilled_guidance ? kFluxDevDefaultSteps : kFluxSchnellDefaultSteps) : kUnetDefaultSteps;
  if (w.steps > 0) steps = w.steps;
  s.steps = steps;
  // FLUX runs one pass per step whatever the request says about guidance
  // unless it asks for true CFG explicitly (diffusers' true_cfg_scale > 1
  // with a negative prompt): then two.
  s.guidance = w.guidance.value_or(!flux);
  return s;
}

double text_encoder_flops_per_image(const ModelSpec& m, const Workload& w) {
  if (!is_diffusion_pipeline(m) || m.frozen_text_params <= 0) return 0;
  // 2 FLOPs per weight per token (the text encoders are transformers).
  return 2 * m.frozen_text_params * text_tokens(m) * sampling(m, w).passes_per_step();
}

double vae_decode_flops_per_image(const ModelSpec& m, const Workload& w) {
  if (!is_diffusion_pipeline(m) || m.architecture.vae_channels.empty()) return 0;
  thread_local FootprintMemo memo;
  CnnPass pass;
  pass.train = false;
  pass.compute_bytes = w.precision == Precision::fp32 ? 4 : 2;
  pass.flash_attention = w.flash_attention;
  return 2 * memo.get(m.architecture, w.image_size, pass).decode_macs;
}

double dit_elementwise_bytes_per_sample(const ModelSpec& m, const Workload& w) {
  const CnnArchitecture& a = m.architecture;
  if (m.kind != ModelKind::cnn || a.family != CnnFamily::flux) return 0;
  // Latents are image / 8, packed 2 x 2: (image / 16)^2 image tokens beside the text's.
  const double side = std::ceil(w.image_size / 16.0);
  const double tokens = side * side + a.context_tokens;
  const double width = double(a.num_heads) * a.head_channels;
  const double element_bytes = w.precision == Precision::fp32 ? 4 : 2;
  const double passes = a.double_blocks * kDoubleBlockPasses + a.single_blocks * kSingleBlockPasses;
  return 2 * passes * tokens * width * element_bytes;  // each pass reads and writes
}

}  // namespace gpuplan
