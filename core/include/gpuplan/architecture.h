// The published dimensions of a convolutional or diffusion network, as the
// catalog carries them (catalog/models.json, "architecture"; docs/catalog.md).
// The core expands them layer by layer at the request's image size
// (core/src/estimate/cnn_architecture.h) to count parameters, multiply-accumulates, the
// tensors autograd saves and the live feature maps of an inference pass.
#pragma once

#include <vector>

namespace gpuplan {

enum class CnnFamily {
  none,       // no architecture: activation_bytes_per_sample scaled by area
  resnet,     // torchvision resnet.py (v1.5: stride in the 3x3 conv)
  deeplabv3,  // torchvision segmentation/deeplabv3.py on a dilated ResNet
  yolov8,     // ultralytics cfg/models/v8/yolov8.yaml (detection)
  sd_unet,    // diffusers UNet2DConditionModel (+ AutoencoderKL for latents)
};

struct CnnArchitecture {
  CnnFamily family = CnnFamily::none;
  int num_classes = 0;

  // resnet, deeplabv3 (backbone)
  std::vector<int> stage_blocks;                 // blocks per stage, e.g. {3, 4, 6, 3}
  int base_width = 64;                           // stem and first-stage width
  int expansion = 4;                             // 4: bottleneck blocks, 1: basic blocks
  std::vector<int> replace_stride_with_dilation; // per stage after the first (0/1), torchvision's argument
  // deeplabv3 head
  std::vector<int> atrous_rates;                 // ASPP dilations, e.g. {12, 24, 36}
  int aspp_channels = 256;
  bool aux_classifier = false;                   // FCNHead on the third stage (aux_loss)

  // yolov8
  double depth_multiple = 0;
  double width_multiple = 0;
  int max_channels = 0;
  int reg_max = 16;          // DFL bins per box side
  int stride_multiple = 32;  // image sizes are rounded up to this (ultralytics check_imgsz)

  // sd_unet
  int latent_channels = 4;
  int model_channels = 320;
  std::vector<int> channel_mult;          // per level
  int num_res_blocks = 2;                 // per down level (up levels have one more)
  std::vector<int> transformer_depth;     // transformer blocks per attention layer, per level; 0: no attention
  int mid_transformer_depth = 1;
  int num_heads = 0;                      // fixed head count (SD 1.x), or
  int head_channels = 0;                  // fixed head width (SDXL)
  int context_dim = 768;                  // text-encoder hidden size (cross-attention keys/values)
  int context_tokens = 77;                // CLIP tokenizer max length
  int adm_in_channels = 0;                // SDXL's pooled-text + size conditioning input (0: none)
  bool linear_projection = false;         // proj_in/proj_out as Linear (SDXL) instead of 1x1 conv
  std::vector<int> vae_channels;          // AutoencoderKL block_out_channels; the latent is image / 2^(levels-1)
  int vae_layers_per_block = 2;

  bool operator==(const CnnArchitecture&) const = default;
};

}  // namespace gpuplan
