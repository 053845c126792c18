// Mixture-of-experts by its routing (moe.h; docs/time-model.md, "Mixture of experts").
#include "estimate/moe.h"

#include <algorithm>
#include <cmath>

namespace gpuplan {
namespace {

// Kernels of one expert in the eager loop, forward, counted from
// transformers' MixtralSparseMoeBlock / Qwen3MoeSparseMoeBlock.forward: the
// torch.where on the expert's mask (a nonzero: it also waits for the GPU),
// the gather of its tokens, gate and up projections, the activation, their
// product, the down projection, the routing weights' gather and product, and
// the index_add_ back into the output: 10.
constexpr double kKernelsPerExpertForward = 10;
// PEFT's LoRA Linear.forward adds, per adapted linear: dropout, the A and B
// matmuls, the scaling and the add to the base output: 5. With all-linear
// targets each expert's gate, up and down projections are adapted (they are
// nn.Linear modules in transformers' expert loop).
constexpr double kKernelsPerLoraLinearForward = 5;
// Backward launches about twice the forward's kernels (the input and weight
// gradients of each op); the dense accounting uses the same 1 + 2 passes.
constexpr double kBackwardKernelPasses = 2;

double weight_element_bytes(Precision p) { return p == Precision::fp32 ? 4 : 2; }

}  // namespace

double expected_experts_hit(int experts, int top_k, double tokens) {
  const double e = std::max(1, experts);
  const double k = std::clamp(double(top_k), 1.0, e);
  if (!(tokens > 0)) return 0;
  if (tokens <= 1) return k * tokens;  // one token reaches exactly its k experts
  return e * (1 - std::pow(1 - k / e, tokens));
}

double expert_params_per_layer(const ModelSpec& m, const ModelShapes& s) {
  if (!is_moe(m) || s.mlp_params <= 0) return 0;
  // model_shapes counts the router (hidden x experts) inside mlp_params.
  const double matrices = m.gated_mlp ? 3 : 2;
  const double experts = matrices * double(m.hidden) * m.ffn * m.experts;
  const double router = double(m.hidden) * m.experts;
  return s.mlp_params * experts / (experts + router);
}

double decode_weight_bytes_read(const ModelSpec& m, const ModelShapes& s, Precision p, Stack stack,
                                double tokens_per_step) {
  const double all = decode_streamed_weight_bytes(m, s, p, stack);
  if (!is_moe(m)) return all;
  const double expert_bytes =
      m.layers * expert_params_per_layer(m, s) * bytes_per_weight(inference_weight_format(p, stack));
  const double hit_share = expected_experts_hit(m.experts, m.experts_per_token, tokens_per_step) / m.experts;
  return all - expert_bytes * (1 - std::min(1.0, hit_share));
}

ExpertLoopWork expert_loop_work(const ModelSpec& m, const ModelShapes& s, const Workload& w, bool fused) {
  ExpertLoopWork out;
  if (!is_moe(m)) return out;
  const double tokens = double(w.micro_batch) * w.seq_len;
  const double hit = expected_experts_hit(m.experts, m.experts_per_token, tokens);
  out.experts_hit_per_layer = hit;
  const bool ckpt = w.grad_checkpointing;
  const bool full = w.method == Method::full;
  // Weight reads: each pass over a hit expert reads its matrices once:
  // forward, the backward's input gradient, the weight gradient when the
  // experts train, the recomputed forward under checkpointing.
  const double reads = 2 + (full ? 1 : 0) + (ckpt ? 1 : 0);
  out.weight_bytes_read = reads * m.layers * expert_params_per_layer(m, s) * (hit / m.experts) *
                          weight_element_bytes(w.precision);
  const double per_token_expert = m.layers * expert_params_per_layer(m, s) / m.experts * m.experts_per_token;
  out.expert_flops = tokens * per_token_expert * ((full ? 6 : 4) + (ckpt ? 2 : 0));
  if (fused) return out;  // grouped GEMM: the dense kernel count stands
  double per_expert = kKernelsPerExpertForward;
  const bool adapters = w.method == Method::lora || w.method == Method::qlora;
  if (adapters && w.lora.targets == LoraTargets::all_linear)
    per_expert += (m.gated_mlp ? 3 : 2) * kKernelsPerLoraLinearForward;
  const double passes = 1 + kBackwardKernelPasses + (ckpt ? 1 : 0);
  // The dense accounting already launches one MLP's kernels per layer.
  out.extra_kernels = m.layers * std::max(0.0, hit - 1) * per_expert * passes;
  return out;
}

}  // namespace gpuplan
