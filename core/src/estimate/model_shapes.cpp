#include "model_shapes.h"

#include <algorithm>

namespace gpuplan {

// Standard transformer parameter accounting (e.g. Narayanan et al. 2021,
// "Efficient Large-Scale Language Model Training on GPU Clusters", section
// 5.1), generalised to grouped-query attention (k and v project to
// kv_heads * head_dim), to a head width that is not hidden / heads (T5-3B:
// 32 heads of 128 on a 1024-wide residual stream) and to gated MLPs (SwiGLU:
// gate, up and down matrices).
ModelShapes model_shapes(const ModelSpec& m) {
  ModelShapes s;
  if (m.kind == ModelKind::cnn || m.hidden <= 0 || m.heads <= 0) {
    s.linear_params = m.params;
    s.largest_matrix_params = m.params;
    return s;
  }
  const double h = m.hidden;
  s.head_dim = m.head_dim > 0 ? m.head_dim : h / m.heads;
  s.q_dim = s.head_dim * m.heads;
  s.kv_dim = s.head_dim * (m.kv_heads > 0 ? m.kv_heads : m.heads);
  s.attention_params = 2 * h * s.q_dim + 2 * h * s.kv_dim;
  const double matrices = m.gated_mlp ? 3 : 2;
  const double per_expert = matrices * h * m.ffn;
  s.mlp_params = per_expert * m.experts + (m.experts > 1 ? h * m.experts : 0);  // + router
  s.active_mlp_params = per_expert * m.experts_per_token;
  s.embedding_params = double(m.vocab) * h * (m.tied_embeddings ? 1 : 2);
  s.head_params = m.tied_embeddings ? 0 : double(m.vocab) * h;
  // Encoders (BERT) have no LM head in the fine-tuning setups we model.
  if (m.kind == ModelKind::encoder) {
    s.embedding_params = double(m.vocab) * h;
    s.head_params = 0;
  }
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
  s.layer_params = s.attention_params + s.mlp_params;
  s.largest_matrix_params = std::max({double(m.vocab) * h, h * double(m.ffn), h * s.q_dim});
  return s;
}

double implied_mlp_matrices(const ModelSpec& m) {
  if (m.kind == ModelKind::cnn || m.hidden <= 0 || m.heads <= 0 || m.ffn <= 0 || m.layers <= 0) return 0;
  ModelSpec dense = m;
  dense.gated_mlp = false;
  const ModelShapes s = model_shapes(dense);
  const double h = m.hidden;
  // Decoder blocks of an encoder-decoder carry a cross-attention as well.
  double attention = m.layers * s.attention_params * (m.kind == ModelKind::encoder_decoder ? 1.5 : 1);
  double mlp_matrix = m.layers * h * double(m.ffn) * std::max(1, m.experts);
  return (m.params - s.embedding_params - attention) / mlp_matrix;
}

}  // namespace gpuplan
