// Parameter bookkeeping derived from a transformer's published dimensions:
// which parameters sit in embeddings, in attention and in the MLP. Shared by the
// memory and the time estimators.
#pragma once

#include "gpuplan/model.h"

namespace gpuplan {

struct ModelShapes {
  double head_dim = 0;
  double kv_dim = 0;              // kv_heads * head_dim
  double embedding_params = 0;    // token embeddings (+ untied LM head)
  double attention_params = 0;    // per layer: q, k, v, o projections
  double mlp_params = 0;          // per layer, all experts
  double active_mlp_params = 0;   // per layer, experts a token is routed to
  double linear_params = 0;       // all layers' linear weights (what LoRA/QLoRA quantize)
  double other_params = 0;        // norms, biases, position embeddings: params not explained above
};

ModelShapes model_shapes(const ModelSpec& model);

}  // namespace gpuplan
