// Diffusion sampling (docs/time-model.md, "Diffusion sampling"): an image is
// `steps` denoising passes of the UNet or DiT (two per step under
// classifier-free guidance), after its prompt is encoded and before its
// latents are decoded by the VAE. The model pass itself is the convolutional
// estimator's (throughput.cpp); this file says how many there are, at which
// batch, and what the pipeline does around them.
#pragma once

#include "gpuplan/model.h"
#include "gpuplan/request.h"

namespace gpuplan {

// A text-to-image pipeline: a UNet (Stable Diffusion 1.x / 2.x / XL) or an
// MMDiT (FLUX) with its VAE.
bool is_diffusion_pipeline(const ModelSpec& model);

struct Sampling {
  int steps = 1;
  bool guidance = false;  // classifier-free guidance: the batch runs twice (conditional and not)
  int passes_per_step() const { return guidance ? 2 : 1; }
};

// The request's steps and guidance, each defaulting to the pipeline's
// documented default (diffusers): StableDiffusionPipeline and
// StableDiffusionXLPipeline num_inference_steps=50, guidance_scale=7.5 / 5.0
// (> 1: guidance on); FluxPipeline for FLUX.1-dev 28 steps with the
// guidance distilled into an embedding (one pass, guidance_embeds true);
// FLUX.1-schnell 4 steps, no guidance (its model card: "4 steps",
// guidance_scale=0.0).
Sampling sampling(const ModelSpec& model, const Workload& workload);

// Forward FLOPs per image of what runs once around the denoising loop: the
// text encoders over their prompt tokens (twice under guidance: the negative
// prompt too), and the VAE decoder from latents to pixels.
double text_encoder_flops_per_image(const ModelSpec& model, const Workload& workload);
double vae_decode_flops_per_image(const ModelSpec& model, const Workload& workload);

// Bytes the unfused element-wise work of a DiT pass moves per sample
// (FLUX's AdaLN modulation, q/k RMSNorm, rotary embeddings, GELU, gates and
// residuals in eager diffusers); 0 for a UNet (its element-wise work is in
// the convolutional accounting).
double dit_elementwise_bytes_per_sample(const ModelSpec& model, const Workload& workload);

}  // namespace gpuplan
