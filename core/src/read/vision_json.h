// A vision-language model's "vision" object (request model.vision and the
// catalog's presets, docs/vlm.md), read into the ModelSpec.
#pragma once

#include <string_view>

#include "gpuplan/model.h"
#include "read/json_reader.h"

namespace gpuplan {

// The names model.vision may hold (docs/vlm.md; strict input, docs/api.md).
inline constexpr std::string_view kVisionFields[] = {
    "layers", "hidden", "heads", "ffn", "gated_mlp", "patch", "merge", "temporal_patch", "params"};

// Reads the tower's dimensions; params and projector_params are counted from
// them (vision_tower_params) unless "params" is given.
void read_vision_tower(const Reader& r, ModelSpec& m);

// Qwen2.5-VL's tower (modeling_qwen2_5_vl.py): a Conv3d patch embedding
// without bias, blocks of RMSNorm + attention (qkv and proj with bias) +
// RMSNorm + MLP (gated: gate/up/down with bias; plain: fc1/fc2 with bias),
// and the PatchMerger (RMSNorm, Linear(m^2 h, m^2 h), GELU, Linear(m^2 h, out)).
double vision_tower_params(const VisionTower& v, int out_hidden, double* projector = nullptr);

}  // namespace gpuplan
