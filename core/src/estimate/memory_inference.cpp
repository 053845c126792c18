// A transformer's inference: the weights, the KV cache and the batch's
// working set, per serving stack (docs/memory-model.md, "Inference").
#include "estimate/memory_model.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::memory_model {

// --- Inference ----------------------------------------------------------------

MemoryEstimate inference_memory(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  MemoryEstimate e;
  const double n = std::max(1, w.gpus);
  const bool split = w.sharding == Sharding::zero3;  // weights tensor-split across GPUs
  add(e, "weights", inference_weight_bytes(m, s, w.precision, w.stack) / (split ? n : 1));
  // KV cache: K and V for every layer, kv_heads·head_dim wide, for every
  // position of every sequence, at kv_cache_bits (Pope et al. 2022,
  // "Efficiently Scaling Transformer Inference", section 2). Grouped-query
  // attention shrinks it by heads/kv_heads (Ainslie et al. 2023).
  double kv = 2.0 * m.layers * s.kv_dim * w.seq_len * w.micro_batch * w.kv_cache_bits / 8.0;
  if (m.kind == ModelKind::encoder) kv = 0;
  add(e, "kv_cache", kv / (split ? n : 1));
  // Prefill peak: one layer's MLP intermediates for the whole prompt (in and
  // out of the activation), the score matrix with eager attention (fp32
  // softmax plus its half copy), and the last position's fp32 logits.
  // A serving engine never runs the whole batch's prompts in one forward
  // pass: vLLM schedules at most max_num_batched_tokens tokens a step,
  // prefill chunks and decodes together (8192 for its offline LLM class on
  // cards under 70 GiB, 2048 for its API server; 16384 and 8192 on larger
  // cards but the A100: vllm/engine/arg_utils.py, EngineArgs), and profiles
  // its peak with a pass of that size; its attention kernels hold no score
  // matrix. The cap is the offline default of most cards: the bigger cards'
  // 16384 would add one more such pass's MLP intermediates, ~1 GiB for a 7B.
  const double b = w.micro_batch, tokens = double(w.seq_len);
  const double act = compute_bytes(w.precision == Precision::fp32 ? Precision::fp32 : Precision::bf16_true);
  const double f = double(m.ffn) * std::max(1, m.experts_per_token);
  constexpr double kVllmTokensPerStep = 8192;
  // llama.cpp evaluates a prompt in micro-batches of n_ubatch tokens (512 by
  // default, common/common.h) and sizes its compute buffer for one: the MLP
  // intermediates of 512 tokens, and without flash attention the F32 KQ
  // matrix of those 512 queries against the whole context
  // (ggml build_attn_mha: kq = mul_mat(k, q), n_kv x n_tokens x n_head).
  constexpr double kLlamaCppUbatchTokens = 512;
  const bool llama_cpp = w.stack == Stack::llama_cpp;
  double prefill_tokens = b * tokens;
  if (w.stack == Stack::vllm) prefill_tokens = std::min(b * tokens, kVllmTokensPerStep);
  if (llama_cpp) prefill_tokens = std::min(b * tokens, kLlamaCppUbatchTokens);
  double mlp = prefill_tokens * ((m.gated_mlp ? 3 : 2) * f + 2.0 * m.hidden) * act;
  double scores = w.flash_attention || w.stack == Stack::vllm ? 0 : b * m.heads * tokens * tokens * (4 + act);
  if (llama_cpp && !w.flash_attention) scores = m.heads * prefill_tokens * tokens * 4;
  // vLLM's memory profile also runs its sampler on max_num_seqs dummy
  // sequences (256 by default, vllm/engine/arg_utils.py; the worker's
  // _dummy_sampler_run), fp32 logits over the vocabulary for each: the
  // reserve it sets aside is at least that, whatever the batch.
  constexpr double kVllmProfileSequences = 256;
  const double logit_rows = w.stack == Stack::vllm ? std::max(b, kVllmProfileSequences) : b;
  double logits = m.kind == ModelKind::encoder ? 0 : logit_rows * m.vocab * 4;
  add(e, "activations", mlp + scores + logits);
  return llama_cpp ? finish_ggml(e) : finish(e);
}

}  // namespace gpuplan::memory_model
