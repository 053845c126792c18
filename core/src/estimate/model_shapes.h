// Parameter bookkeeping derived from a transformer's published dimensions:
// which parameters sit in embeddings, in attention and in the MLP. Shared by the
// memory and the time estimators.
#pragma once

#include "gpuplan/model.h"

namespace gpuplan {

struct ModelShapes {
  double head_dim = 0;
  double q_dim = 0;               // heads * head_dim: width of the query and attention output
  double kv_dim = 0;              // kv_heads * head_dim
  double embedding_params = 0;    // token embeddings (+ untied LM head)
  double head_params = 0;         // the LM head alone when untied (0 when tied or absent)
  double attention_params = 0;    // per layer: q, k, v, o projections
  double mlp_params = 0;          // per layer, all experts
  double active_mlp_params = 0;   // per layer, experts a token is routed to
  double layer_params = 0;        // per layer: attention + MLP (what FSDP / ZeRO-3 gathers at once)
  double largest_matrix_params = 0;  // the biggest single weight matrix (embedding or one projection)
  double linear_params = 0;       // all layers' linear weights (what LoRA/QLoRA quantize)
  double other_params = 0;        // norms, biases, position embeddings: params not explained above
};

ModelShapes model_shapes(const ModelSpec& model);

// How many hidden x ffn matrices each MLP must have for the layers to add up to
// the published parameter count: about 3 for gated MLPs (SwiGLU, GEGLU), 2 for
// plain ones (GPT-2, BERT, T5 1.0). Lets explicit dimensions without
// `gated_mlp` be classified from `params` (docs/memory-model.md).
double implied_mlp_matrices(const ModelSpec& model);

}  // namespace gpuplan
