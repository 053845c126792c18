// Activations: the bytes a transformer layer saves for backward per token
// (Korthikanti et al. 2022, with each saved tensor counted from the
// dimensions), the eager score matrix and the loss's logits
// (docs/memory-model.md, "Activations per layer").
#include "estimate/memory_model.h"

namespace gpuplan::memory_model {

// --- Activations ------------------------------------------------------------

// Bytes one transformer layer saves for backward, per token. After Korthikanti
// et al. 2022 ("Reducing Activation Recomputation in Large Transformer
// Models", section 4.1: 34·s·b·h + 5·a·s²·b bytes for GPT in fp16), with each
// saved tensor counted from the dimensions so that grouped-query attention,
// gated MLPs, fp32 residuals under autocast and the absence of dropout are
// respected. With e = activation bytes and r = residual bytes:
//   norm (x2)   : its input, r·h. An eager RMSNorm (HF LlamaRMSNorm, torchtune
//                 RMSNorm) upcasts to fp32 and saves the fp32 copy (4h) and the
//                 normalised tensor (r·h) instead; torch.compile fuses it back to r·h.
//   attention   : q/k/v input e·h, q, k, v e·(q_dim + 2·kv_dim), output e·q_dim.
//                 Eager attention repeats k and v to every head (HF repeat_kv).
//   MLP         : input e·h; gated: gate, up, silu(gate), product 4·e·f;
//                 GELU: fc1 output and GELU output 2·e·f. torch.compile saves only
//                 the matmul outputs (pointwise ops are recomputed): 2·e·f / e·f.
//   dropout     : 1-byte masks after attention and after the MLP.
// Mixture of experts: a token's MLP activations exist once per routed expert.
double layer_bytes_per_token(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  const double e = compute_bytes(w.precision);
  const double r = residual_bytes(w);
  const double h = m.hidden;
  const double f = double(m.ffn) * std::max(1, m.experts_per_token);
  const bool dropout = has_dropout(m);
  double norm = r * h;
  if (m.gated_mlp && !fused(w)) norm = 4 * h + r * h;
  const double kv = w.flash_attention ? s.kv_dim : s.q_dim;
  double attention = norm + e * h + e * (s.q_dim + 2 * kv) + e * s.q_dim;
  double mlp_elements = m.gated_mlp ? (fused(w) ? 2 : 4) : (fused(w) ? 1 : 2);
  double mlp = norm + e * h + mlp_elements * e * f;
  double masks = dropout ? 2 * h : 0;
  // Decoder blocks of an encoder-decoder add cross-attention: half the layers.
  double cross = m.kind == ModelKind::encoder_decoder ? 0.5 * attention : 0;
  return attention + mlp + masks + cross;
}

// Eager (non-Flash) attention saves the a·s² score matrix per layer, per
// token a·s elements of: the softmax output (fp32: autocast runs softmax in
// fp32 and HF decoders upcast it explicitly; 2 bytes for bf16-true encoders),
// then with dropout a 1-byte mask and the dropped-out copy the value matmul
// saves (e), without dropout the cast copy the value matmul saves when the
// softmax was fp32. Korthikanti's 5·a·s²·b is the fp16-with-dropout case.
// FlashAttention saves only the log-sum-exp (Dao et al. 2022, section 3.1).
double score_bytes_per_token(const ModelSpec& m, const Workload& w) {
  if (w.flash_attention) return 0;
  const double e = compute_bytes(w.precision);
  const bool dropout = has_dropout(m);
  const double softmax = (w.precision == Precision::bf16_true && dropout) ? 2 : 4;
  const double after = dropout ? 1 + e : (softmax == e ? 0 : e);
  double per_layer = double(m.heads) * w.seq_len * (softmax + after);
  if (m.kind == ModelKind::encoder_decoder) per_layer *= 1.5;  // decoder cross-attention
  return per_layer;
}

// Bytes per logit element alive when the loss's backward starts.
// standard: HF transformers and plain PyTorch upcast the logits to fp32 and
//   call cross_entropy: the fp32 log-softmax output is saved, and its backward
//   holds the dense gradient from nll_loss and its own result: 3 x 4 bytes.
// chunked: torchtune's CEWithChunkedOutputLoss keeps the bf16 logits (2 bytes)
//   and upcasts one of its 8 chunks at a time: 2 + 12/8; compiled, the upcast,
//   log-softmax and loss fuse and only a chunk's fp32 gradient appears: 2 + 4/8.
// fused: an in-place fused cross-entropy (flash-attn's xentropy, Liger) keeps
//   only the half-precision logits and writes their gradient in place.
double logit_element_bytes(const Workload& w) {
  switch (w.loss) {
    case Loss::standard: return 12;
    case Loss::chunked: return compute_bytes(w.precision) + (fused(w) ? 4.0 : 12.0) / 8;
    case Loss::fused: return compute_bytes(w.precision);
  }
  return 12;
}

double logits_bytes(const ModelSpec& m, const Workload& w) {
  if (m.kind != ModelKind::decoder && m.kind != ModelKind::encoder_decoder) return 0;
  return double(w.micro_batch) * w.seq_len * m.vocab * logit_element_bytes(w);
}

// --- Adapters and optimizers ------------------------------------------------

// Optimizer states held per parameter: estimate/optimizer_states.h.

}  // namespace gpuplan::memory_model
