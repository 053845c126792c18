// Per-GPU memory estimate. First-principles accounting of what PyTorch holds
// at the peak of a training step or an inference batch; every term cites its
// derivation. docs/memory-model.md has the full derivation and error report.
#include "gpuplan/memory.h"

#include <algorithm>
#include <cmath>

#include "model_shapes.h"

namespace gpuplan {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

bool is_mixed(Precision p) { return p == Precision::fp16_mixed || p == Precision::bf16_mixed; }

// Bytes of one weight as stored for inference (docs/memory-model.md, "weight formats").
// int8 (LLM.int8 / bitsandbytes): 1 byte plus an fp16 scale per output row, negligible.
// nf4 (QLoRA, Dettmers et al. 2023, section 3): 4 bits plus double-quantized
//   constants, 8/64 + 32/(64*256) = 0.127 bits per parameter.
// int4 (GPTQ/AWQ, group size 128): 4 bits plus an fp16 scale and a packed zero
//   point per group of 128, (16 + 4) / 128 bits per parameter.
double inference_bytes_per_weight(Precision p) {
  switch (p) {
    case Precision::fp32: return 4;
    case Precision::int8: return 1 + 2.0 / 4096;
    case Precision::nf4: return (4 + 0.127) / 8;
    case Precision::int4: return (4 + 20.0 / 128) / 8;
    default: return 2;
  }
}

// Activation bytes per element saved for backward.
double activation_element_bytes(Precision p) { return p == Precision::fp32 ? 4 : 2; }

// Activations saved for backward by one transformer layer, per token, in bytes
// (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
// Transformer Models", section 4.1: 34·s·b·h + 5·a·s²·b for GPT with 2-byte
// activations and 1-byte dropout masks). We count the same tensors from the
// dimensions so that GQA, gated MLPs and the absence of dropout (LLaMA) are
// respected:
//   attention: norm input, QKV input, Q + K + V, attention output  -> (3h + h + 2·kv) elements
//   MLP, gated: norm input, gate/up input, gate, silu(gate), up, product -> 2h + 4f
//   MLP, GELU : norm input, fc1 input, fc1 output, gelu output      -> 2h + 2f
//   dropout (encoders, GPT-2): 1-byte masks after attention, MLP and in the scores.
//   eager attention (no FlashAttention): softmax output and its dropout
//   input/mask, 5·a·s bytes per token per layer, as in Korthikanti et al.;
//   FlashAttention saves only the log-sum-exp (Dao et al. 2022).
double layer_activation_bytes_per_token(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  const double e = activation_element_bytes(w.precision);
  const double h = m.hidden;
  const double f = double(m.ffn) * std::max(1, m.experts_per_token);
  const bool dropout = m.kind != ModelKind::decoder || m.gated_mlp == false;
  double attention = e * (4 * h + 2 * s.kv_dim);
  double mlp = m.gated_mlp ? e * (2 * h + 4 * f) : e * (2 * h + 2 * f);
  double masks = dropout ? 2 * h : 0;
  double scores = 0;
  if (!w.flash_attention) scores = (e / 2) * 5.0 * m.heads * w.seq_len * (dropout ? 1.0 : 0.8);
  return attention + mlp + masks + scores;
}

// The LM head's logits and the loss: HF transformers casts logits to fp32
// before cross-entropy, which keeps the half logits, the fp32 copy and the
// fp32 log-softmax (3 tensors of b·s·V) alive at the peak.
double logits_bytes(const ModelSpec& m, const Workload& w) {
  if (m.kind != ModelKind::decoder && m.kind != ModelKind::encoder_decoder) return 0;
  double elements = double(w.micro_batch) * w.seq_len * m.vocab;
  double per_element = w.precision == Precision::fp32 ? 8 : 10;
  return elements * per_element;
}

double adapter_params(const ModelSpec& m, const ModelShapes& s, const Lora& lora) {
  const double h = m.hidden, r = lora.rank;
  double per_layer = 0;
  switch (lora.targets) {
    case LoraTargets::qv: per_layer = r * (h + h) + r * (h + s.kv_dim); break;
    case LoraTargets::attention: per_layer = 2 * r * (h + h) + 2 * r * (h + s.kv_dim); break;
    case LoraTargets::all_linear: {
      per_layer = 2 * r * (h + h) + 2 * r * (h + s.kv_dim);
      double matrices = m.gated_mlp ? 3 : 2;
      per_layer += matrices * r * (h + m.ffn) * m.experts;
      break;
    }
  }
  return per_layer * m.layers;
}

struct ShardFactors {
  double params = 1, grads = 1, optimizer = 1;
};

ShardFactors shard_factors(const Workload& w) {
  ShardFactors f;
  const double n = std::max(1, w.gpus);
  switch (w.sharding) {
    case Sharding::zero3: f.params = 1 / n; [[fallthrough]];
    case Sharding::zero2: f.grads = 1 / n; [[fallthrough]];
    case Sharding::zero1: f.optimizer = 1 / n; break;
    default: break;
  }
  return f;
}

// Optimizer state bytes per trainable parameter (PyTorch / bitsandbytes):
// AdamW: exp_avg + exp_avg_sq in the parameter dtype (fp32: 8 B; bf16-true: 4 B).
// AdamW 8-bit (Dettmers et al. 2022): two 1-byte states + block-wise fp32
// absmax per 2048 values (block size of bitsandbytes' 8-bit optimizers).
// SGD with momentum: one buffer. Adafactor (Shazeer & Stern 2018): factored
// second moment, a row and a column vector per matrix, no first moment by default.
double optimizer_bytes_per_param(Optimizer o, Precision p, const ModelSpec& m) {
  const double state = p == Precision::bf16_true ? 2 : 4;
  switch (o) {
    case Optimizer::adamw: return 2 * state;
    case Optimizer::adamw_8bit: return 2 * (1 + 4.0 / 2048);
    case Optimizer::sgd: return 0;
    case Optimizer::sgd_momentum: return state;
    case Optimizer::adafactor: return m.hidden > 0 ? state * 2.0 / m.hidden : 0.1;
  }
  return 0;
}

// CUDA context, cuBLAS/cuDNN workspaces and kernels: what nvidia-smi shows
// beyond PyTorch's reserve. ~500 MiB on a current stack with lazy module
// loading (CUDA >= 11.7); HF's V100 measurement (perf_train_gpu_one) saw 1343 MiB
// on an older stack. We take the current figure.
constexpr double kCudaContextBytes = 500 * kMiB;
// The caching allocator rounds blocks and keeps freed ones: reserved exceeds
// allocated by a few percent in steady training (PyTorch CUDA semantics docs).
constexpr double kAllocatorReserveFraction = 0.06;

void add(MemoryEstimate& e, const char* id, double bytes) {
  if (bytes > 0) e.components.push_back({id, bytes});
}

MemoryEstimate finish(MemoryEstimate e) {
  double allocated = 0;
  for (const auto& c : e.components) allocated += c.bytes;
  e.allocated_bytes = allocated;
  double reserve = allocated * kAllocatorReserveFraction;
  e.components.push_back({"allocator_reserve", reserve});
  e.reserved_bytes = allocated + reserve;
  e.components.push_back({"runtime", kCudaContextBytes});
  e.total_bytes = e.reserved_bytes + kCudaContextBytes;
  return e;
}

MemoryEstimate cnn_memory(const ModelSpec& m, const Workload& w) {
  MemoryEstimate e;
  const double p = m.params;
  const bool half = w.precision != Precision::fp32;
  if (w.mode == Mode::infer) {
    add(e, "weights", p * inference_bytes_per_weight(w.precision));
    double area = std::pow(double(w.image_size) / m.reference_image_size, 2);
    // Inference keeps only the live feature maps, about a tenth of what training saves.
    add(e, "activations", 0.1 * m.activation_bytes_per_sample * area * w.micro_batch * (half ? 0.5 : 1));
    return finish(e);
  }
  add(e, "weights", p * (w.precision == Precision::bf16_true ? 2 : 4) + (is_mixed(w.precision) ? 2 * p : 0));
  add(e, "gradients", p * (w.precision == Precision::bf16_true ? 2 : 4));
  add(e, "optimizer", p * optimizer_bytes_per_param(w.optimizer, w.precision, m));
  double area = std::pow(double(w.image_size) / m.reference_image_size, 2);
  add(e, "activations", m.activation_bytes_per_sample * area * w.micro_batch * (half ? 0.5 : 1));
  return finish(e);
}

MemoryEstimate inference_memory(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  MemoryEstimate e;
  const double n = std::max(1, w.gpus);
  const bool sharded = w.sharding == Sharding::zero3;  // tensor-split across GPUs
  double quantized = s.linear_params * inference_bytes_per_weight(w.precision);
  double kept = (s.embedding_params + s.other_params) * (w.precision == Precision::fp32 ? 4 : 2);
  add(e, "weights", (quantized + kept) / (sharded ? n : 1));
  // KV cache: 2 (K and V) · layers · kv_heads · head_dim · tokens · batch · bits/8.
  double kv = 2.0 * m.layers * s.kv_dim * w.seq_len * w.micro_batch * w.kv_cache_bits / 8.0;
  if (m.kind == ModelKind::encoder) kv = 0;
  add(e, "kv_cache", kv / (sharded ? n : 1));
  // Prefill peak: one layer's MLP intermediates for the whole prompt, the
  // attention scores when not using FlashAttention, and the last-token logits.
  const double b = w.micro_batch, t = w.seq_len;
  double mlp = b * t * (2.0 * m.ffn * std::max(1, m.experts_per_token) + 2.0 * m.hidden) * 2;
  double scores = w.flash_attention ? 0 : b * m.heads * t * t * 2 * 2;
  double logits = b * m.vocab * 4;
  add(e, "activations", mlp + scores + logits);
  return finish(e);
}

}  // namespace

double lora_trainable_params(const ModelSpec& model, const Lora& lora) {
  if (model.kind == ModelKind::cnn) return 0;
  return adapter_params(model, model_shapes(model), lora);
}

MemoryEstimate estimate_memory(const ModelSpec& m, const Workload& w) {
  if (m.kind == ModelKind::cnn) return cnn_memory(m, w);
  const ModelShapes s = model_shapes(m);
  if (w.mode == Mode::infer) return inference_memory(m, s, w);

  MemoryEstimate e;
  const ShardFactors shard = shard_factors(w);
  const double p = m.params;
  const Precision prec = w.precision;
  const double half_or_full = prec == Precision::fp32 ? 4 : 2;

  if (w.method == Method::full) {
    // Weights: fp32 (4 B) for fp32 and AMP-style mixed precision (the fp32
    // parameters double as master weights); 2 B for bf16-true. Under AMP the
    // half-precision casts of every weight are saved for backward: +2 B.
    double weight_bytes = prec == Precision::bf16_true ? 2 : 4;
    double weights = p * weight_bytes * shard.params;
    if (is_mixed(prec)) weights += p * 2 * (w.sharding == Sharding::zero3 ? shard.params : 1);
    if (w.cpu_offload && w.sharding == Sharding::zero3) weights = p * 2 * shard.params;
    add(e, "weights", weights);
    double grad_bytes = prec == Precision::bf16_true ? 2 : 4;
    double grads = p * grad_bytes * shard.grads;
    // DDP keeps its own gradient buckets beside .grad unless
    // gradient_as_bucket_view=True (PyTorch DDP docs): one more gradient copy.
    if (w.sharding == Sharding::ddp) grads *= 2;
    add(e, "gradients", grads);
    if (!w.cpu_offload) add(e, "optimizer", p * optimizer_bytes_per_param(w.optimizer, prec, m) * shard.optimizer);
  } else {
    // LoRA / QLoRA: frozen base (no gradients, no optimizer states) plus a
    // trainable adapter held in fp32 with its gradients and AdamW states.
    double base;
    if (w.method == Method::qlora)
      base = s.linear_params * inference_bytes_per_weight(Precision::nf4) + (s.embedding_params + s.other_params) * 2;
    else
      base = p * half_or_full;
    double adapter = adapter_params(m, s, w.lora);
    add(e, "weights", base * shard.params + adapter * 4);
    add(e, "gradients", adapter * 4);
    add(e, "optimizer", adapter * optimizer_bytes_per_param(w.optimizer, Precision::fp32, m));
  }

  // Activations for one micro-batch.
  const double tokens = double(w.micro_batch) * w.seq_len;
  double per_layer = layer_activation_bytes_per_token(m, s, w) * tokens;
  double activations;
  if (w.grad_checkpointing) {
    // Checkpointing keeps each layer's input and recomputes one layer at a
    // time during backward (Chen et al. 2016; Korthikanti et al. 2022, 4.2).
    activations = m.layers * tokens * m.hidden * half_or_full + per_layer;
  } else {
    activations = m.layers * per_layer;
  }
  add(e, "activations", activations);
  add(e, "logits", logits_bytes(m, w));
  return finish(e);
}

}  // namespace gpuplan
