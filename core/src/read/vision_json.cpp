#include "read/vision_json.h"

namespace gpuplan {

double vision_tower_params(const VisionTower& v, int out_hidden, double* projector) {
  const double h = v.hidden, f = v.ffn, k = v.patch;
  const double embed = 3.0 * v.temporal_patch * k * k * h;
  const double attention = h * 3 * h + 3 * h + h * h + h;
  const double mlp = v.gated_mlp ? 2 * (h * f + f) + f * h + h : (h * f + f) + (f * h + h);
  const double block = 2 * h + attention + mlp;
  const double merged = double(v.merge) * v.merge * h;
  const double merger = h + merged * merged + merged + merged * out_hidden + out_hidden;
  if (projector) *projector = merger;
  return embed + v.layers * block + merger;
}

void read_vision_tower(const Reader& r, ModelSpec& m) {
  VisionTower& v = m.vision;
  if (auto x = r.integer("layers", 1, 1000)) v.layers = *x;
  if (auto x = r.integer("hidden", 1, 1 << 16)) v.hidden = *x;
  if (auto x = r.integer("heads", 1, 1024)) v.heads = *x;
  if (auto x = r.integer("ffn", 1, 1 << 20)) v.ffn = *x;
  if (auto x = r.boolean("gated_mlp")) v.gated_mlp = *x;
  if (auto x = r.integer("patch", 1, 1024)) v.patch = *x;
  if (auto x = r.integer("merge", 1, 64)) v.merge = *x;
  if (auto x = r.integer("temporal_patch", 1, 64)) v.temporal_patch = *x;
  v.params = vision_tower_params(v, m.hidden, &v.projector_params);
  if (auto x = r.number("params", 1, 1e13)) v.params = *x;
}

}  // namespace gpuplan
