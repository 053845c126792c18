// Expansion of a convolutional or diffusion architecture (gpuplan/architecture.h)
// at one image size: parameters, forward multiply-accumulates, what a training
// step saves for backward and the live set of an inference pass, per sample.
// One file per family (cnn_resnet.cpp, cnn_yolov8.cpp, cnn_unet.cpp); the
// per-op rules are in cnn_tally.h. Derivations: docs/memory-model.md,
// "Convolutional and diffusion networks".
#pragma once

#include "estimate/cnn_tally.h"
#include "gpuplan/architecture.h"

namespace gpuplan {

struct CnnFootprint {
  double params = 0;             // the network's parameters (the UNet alone for sd_unet)
  double macs = 0;               // forward multiply-accumulates per sample
  double saved_bytes = 0;        // training: what autograd holds when backward starts
  double peak_bytes = 0;         // inference (no_grad): the largest live set
  double conv_io_elements = 0;   // input + output elements of the convolutions (Tally)
  double kernels = 0;            // kernels one eager forward pass launches (Tally::kernels)
  // sd_unet: the VAE (AutoencoderKL) around the UNet, run under no_grad in the
  // half weight dtype: encoding the training images to latents on the fly,
  // decoding the final latents at inference.
  double encode_peak_bytes = 0;
  double decode_peak_bytes = 0;
  double vae_params = 0;
  double encode_macs = 0;  // the VAE encoder's forward per sample
  double decode_macs = 0;  // the VAE decoder's forward per sample (latents to pixels)
  double decode_kernels = 0;
  // LoRA: sum of d_in + d_out over the adapted linears, per target set
  // (request lora.targets qv / attention / all-linear); x rank = adapter params.
  double lora_width_qv = 0, lora_width_attention = 0, lora_width_all_linear = 0;
};

CnnFootprint expand_cnn(const CnnArchitecture& a, int image_size, const CnnPass& pass);

// The last expansion asked for, kept: plan() asks for the same network at the
// same size again and again (every GPU, the fit-limit bisections, the OOM
// doctor's variants), and an SDXL expansion is a few hundred layers.
class FootprintMemo {
 public:
  const CnnFootprint& get(const CnnArchitecture& a, int image_size, const CnnPass& pass) {
    if (image_size_ != image_size || !(pass_ == pass) || !(architecture_ == a)) {
      footprint_ = expand_cnn(a, image_size, pass);
      architecture_ = a;
      image_size_ = image_size;
      pass_ = pass;
    }
    return footprint_;
  }

 private:
  CnnArchitecture architecture_;
  int image_size_ = 0;
  CnnPass pass_;
  CnnFootprint footprint_;
};

// Families (one file each). Each fills params, macs and the tally's figures.
void expand_resnet(const CnnArchitecture& a, int image_size, Tally& t);
void expand_deeplabv3(const CnnArchitecture& a, int image_size, Tally& t);
void expand_yolov8(const CnnArchitecture& a, int image_size, Tally& t);
void expand_sd_unet(const CnnArchitecture& a, int image_size, Tally& t);
void expand_flux(const CnnArchitecture& a, int image_size, Tally& t);
// AutoencoderKL: the latent side for an image side, and the encoder / decoder
// passes (params are counted by whichever is run).
int vae_latent_size(const CnnArchitecture& a, int image_size);
void expand_vae_encoder(const CnnArchitecture& a, int image_size, Tally& t);
void expand_vae_decoder(const CnnArchitecture& a, int latent_size, Tally& t);

}  // namespace gpuplan
