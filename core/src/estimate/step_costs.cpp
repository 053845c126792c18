// Costs of an eager fine-tuning step beyond the dense accounting (step_costs.h).
#include "estimate/step_costs.h"

#include <vector>

namespace gpuplan {
namespace {

struct Module {
  double d_in = 0, d_out = 0;
};

// The linears a LoRA target set adapts in one layer (PEFT target_modules as
// the request's lora.targets names them; model_arithmetic.cpp counts their
// adapter parameters the same way).
std::vector<Module> adapted_modules(const ModelSpec& m, const ModelShapes& s, LoraTargets targets) {
  const double h = m.hidden;
  std::vector<Module> out{{h, s.q_dim}, {h, s.kv_dim}};  // q, v
  if (targets == LoraTargets::qv) return out;
  out.push_back({h, s.kv_dim});  // k
  out.push_back({s.q_dim, h});   // o
  if (targets == LoraTargets::attention) return out;
  const double f = m.ffn, experts = std::max(1, m.experts);
  for (int i = 0; i < experts; ++i) {
    out.push_back({h, f});  // up (or fc1)
    if (m.gated_mlp) out.push_back({h, f});  // gate
    out.push_back({f, h});  // down (or fc2)
  }
  return out;
}

bool adapters(const ModelSpec& m, const Workload& w) {
  return m.kind != ModelKind::cnn && m.hidden > 0 && (w.method == Method::lora || w.method == Method::qlora);
}

}  // namespace

// PEFT's lora.Linear.forward: result = base(x) + lora_B(lora_A(dropout(x))) *
// scaling. With the default lora_dropout 0 the dropout is nn.Identity. Per
// token and module, in elements: A reads x (d_in); B writes d_out; the
// scaling reads and writes d_out; the add reads two and writes one d_out:
// d_in + 6 d_out forward. Backward: the scaling's gradient (2 d_out), B's
// input and weight gradients read the incoming gradient (2 d_out), A's
// weight gradient reads x and its input gradient is written and added into
// x's (d_in + 4 d_in): 5 d_in + 4 d_out. The r-wide intermediates are
// negligible. Each element is an activation element (bf16 / fp16, fp32).
double lora_adapter_bytes_per_token(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  if (!adapters(m, w)) return 0;
  double forward = 0, backward = 0;
  for (const Module& mod : adapted_modules(m, s, w.lora.targets)) {
    forward += mod.d_in + 6 * mod.d_out;
    backward += 5 * mod.d_in + 4 * mod.d_out;
  }
  const double passes_forward = w.grad_checkpointing ? 2 : 1;
  return m.layers * (passes_forward * forward + backward) * activation_element_bytes(w.precision);
}

// Kernels: A, B, the scaling and the add forward (4); about twice that
// backward, as for the dense accounting (throughput.cpp: 1 + 2 passes).
double lora_adapter_kernels(const ModelSpec& m, const Workload& w) {
  if (!adapters(m, w)) return 0;
  const double modules = double(adapted_modules(m, model_shapes(m), w.lora.targets).size());
  return m.layers * modules * 4 * (3 + (w.grad_checkpointing ? 1 : 0));
}

// transformers' ForCausalLMLoss (and LlamaForCausalLM's `logits.float()`
// before it): the LM head writes half-precision logits (2 bytes per
// vocabulary entry), the upcast reads them and writes fp32 (2 + 4),
// log_softmax reads and writes fp32 (4 + 4), nll_loss reads (4); backward:
// the log-softmax gradient reads the saved output and writes the gradient
// (4 + 4), and the cast back to half reads it and writes half (4 + 2):
// 38 bytes per token and vocabulary entry. An fp32 run has no casts.
double cross_entropy_bytes_per_token(const ModelSpec& m, const Workload& w) {
  if (m.kind == ModelKind::encoder || m.kind == ModelKind::cnn || m.vocab <= 0) return 0;
  if (w.loss != Loss::standard) return 0;
  const double per_entry = w.precision == Precision::fp32 ? 4 + 4 + 4 + 4 + 4 + 4 : 38;
  return per_entry * double(m.vocab);
}

}  // namespace gpuplan
