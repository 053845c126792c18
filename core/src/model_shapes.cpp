#include "model_shapes.h"

#include <algorithm>

namespace gpuplan {

// Standard transformer parameter accounting (e.g. Narayanan et al. 2021,
// "Efficient Large-Scale Language Model Training on GPU Clusters", section
// 5.1), generalised to grouped-query attention (k and v project to
// kv_heads * head_dim) and gated MLPs (SwiGLU: gate, up and down matrices).
ModelShapes model_shapes(const ModelSpec& m) {
  ModelShapes s;
  if (m.kind == ModelKind::cnn || m.hidden <= 0 || m.heads <= 0) {
    s.linear_params = m.params;
    return s;
  }
  const double h = m.hidden;
  s.head_dim = h / m.heads;
  s.kv_dim = s.head_dim * (m.kv_heads > 0 ? m.kv_heads : m.heads);
  s.attention_params = 2 * h * h + 2 * h * s.kv_dim;
  const double matrices = m.gated_mlp ? 3 : 2;
  const double per_expert = matrices * h * m.ffn;
  s.mlp_params = per_expert * m.experts + (m.experts > 1 ? h * m.experts : 0);  // + router
  s.active_mlp_params = per_expert * m.experts_per_token;
  s.embedding_params = double(m.vocab) * h * (m.tied_embeddings ? 1 : 2);
  // Encoders (BERT) have no LM head in the fine-tuning setups we model.
  if (m.kind == ModelKind::encoder) s.embedding_params = double(m.vocab) * h;
  s.linear_params = m.layers * (s.attention_params + s.mlp_params);
  // The published total is the truth; if our accounting overshoots it (odd
  // architectures), scale the linear part down so the parts still sum to it.
  double explained = s.linear_params + s.embedding_params;
  if (explained > m.params && s.linear_params > 0) {
    double scale = std::max(0.0, (m.params - s.embedding_params) / s.linear_params);
    s.linear_params *= scale;
    s.attention_params *= scale;
    s.mlp_params *= scale;
    s.active_mlp_params *= scale;
  }
  s.other_params = std::max(0.0, m.params - s.linear_params - s.embedding_params);
  return s;
}

}  // namespace gpuplan
