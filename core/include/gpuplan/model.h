// What the estimators need to know about a network: the dimensions published
// in its config, or what the catalog carries for convolutional presets.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/architecture.h"
#include "gpuplan/spelling.h"

namespace gpuplan {

enum class ModelKind { decoder, encoder, encoder_decoder, cnn, vlm };
inline constexpr Spelling<ModelKind> kModelKindSpellings[] = {
    {ModelKind::decoder, "decoder"}, {ModelKind::encoder, "encoder"},
    {ModelKind::encoder_decoder, "encoder-decoder"}, {ModelKind::cnn, "cnn"}, {ModelKind::vlm, "vlm"}};
static_assert(spells_each_once(kModelKindSpellings, ModelKind::vlm));

// A vision-language model's vision tower (docs/vlm.md): a ViT over image
// patches, then a projector that merges merge x merge patches into one token
// of the decoder's width (Qwen2-VL / Qwen2.5-VL PatchMerger). The decoder's
// dimensions are the ModelSpec's own; `params` counts tower and decoder.
struct VisionTower {
  int layers = 0;          // ViT blocks (vision_config.depth)
  int hidden = 0;          // ViT width (vision_config.hidden_size)
  int heads = 0;
  int ffn = 0;             // ViT MLP width (vision_config.intermediate_size)
  bool gated_mlp = true;   // Qwen2.5-VL: SwiGLU; Qwen2-VL, CLIP: plain
  int patch = 14;          // pixels per patch side
  int merge = 2;           // spatial_merge_size: merge x merge patches -> one token
  int temporal_patch = 2;  // frames per patch (an image is repeated to fill it)
  double params = 0;       // tower + projector, counted from the dimensions
  double projector_params = 0;
  bool operator==(const VisionTower&) const = default;
};

struct ModelSpec {
  std::string id;    // preset id, empty for explicit dimensions
  std::string name;
  ModelKind kind = ModelKind::decoder;
  double params = 0;  // total parameter count (all experts for MoE)
  int layers = 0;     // transformer blocks (encoder + decoder for encoder-decoder)
  int hidden = 0;
  int heads = 0;
  int kv_heads = 0;   // grouped-query attention; == heads for multi-head attention
  int ffn = 0;        // intermediate size of the MLP (per expert for MoE)
  int vocab = 0;
  bool gated_mlp = true;        // SwiGLU-style three-matrix MLP (LLaMA) vs two (BERT, GPT-2)
  bool tied_embeddings = false; // LM head shares the embedding matrix
  int experts = 1;              // mixture-of-experts: experts per layer
  int experts_per_token = 1;    // experts routed per token
  int head_dim = 0;             // per attention head; 0: hidden / heads (T5-3B: 128 with hidden 1024, 32 heads)
  int patch_size = 0;           // a vision transformer's patch (ViT-B/16: 16): its tokens are (image_size / patch)^2 + 1
  // Convolutional presets: what dimensions cannot say, from published figures.
  double activation_bytes_per_sample = 0;  // training activations at reference_image_size, fp32
  int reference_image_size = 224;
  double gflops_per_sample = 0;            // forward GFLOPs at reference_image_size
  // Convolutional and diffusion presets: the published dimensions, expanded
  // layer by layer at the request's image size (family none: the area-scaled
  // activation_bytes_per_sample above, e.g. a user's own network).
  CnnArchitecture architecture;
  // Frozen networks a training or inference job also holds on the GPU (a
  // diffusion UNet's text encoders and VAE): parameters, in the half weight dtype.
  double frozen_params = 0;
  // Forward GFLOPs of those frozen networks per training sample at
  // reference_image_size (the VAE encoding each image to latents on the fly).
  double frozen_gflops_per_sample = 0;
  // The part of frozen_params that are text encoders (diffusion pipelines):
  // absent from the GPU when the text embeddings are cached.
  double frozen_text_params = 0;
  VisionTower vision;  // kind vlm
  std::vector<std::string> sources;
};

}  // namespace gpuplan
