// The model arithmetic every estimator shares (gpuplan/model_arithmetic.h).
#include "gpuplan/model_arithmetic.h"

#include <algorithm>
#include <cmath>

#include "estimate/cnn_architecture.h"
#include "estimate/vlm.h"

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

// ---- Trainable parameters ---------------------------------------------------

namespace {

// LoRA (Hu et al. 2021): r·(d_in + d_out) parameters per adapted matrix; q
// and o are hidden x q_dim, k and v hidden x kv_dim, each MLP matrix hidden x
// ffn (per expert). PEFT's "all-linear" adapts every linear of the blocks
// but not the LM head.
double transformer_adapter_params(const ModelSpec& m, const ModelShapes& s, const Lora& lora) {
  const double h = m.hidden, r = lora.rank;
  const double q_and_o = r * (h + s.q_dim), k_or_v = r * (h + s.kv_dim);
  double per_layer = 0;
  switch (lora.targets) {
    case LoraTargets::qv: per_layer = q_and_o + k_or_v; break;
    case LoraTargets::attention: per_layer = 2 * q_and_o + 2 * k_or_v; break;
    case LoraTargets::all_linear: {
      const double matrices = m.gated_mlp ? 3 : 2;
      per_layer = 2 * q_and_o + 2 * k_or_v + matrices * r * (h + m.ffn) * m.experts;
      break;
    }
  }
  return per_layer * m.layers;
}

// LoRA on a convolutional preset: r x (d_in + d_out) per adapted linear over
// the target set the expansion recorded (diffusion UNets: attention
// projections, and with all-linear the feed-forwards). The widths are
// structural (any size, any pass): the reference expansion, remembered apart
// from the memory model's so the two do not evict each other.
double cnn_adapter_params(const ModelSpec& m, const Lora& lora) {
  if (m.architecture.family == CnnFamily::none) return 0;
  thread_local FootprintMemo structural;
  const CnnFootprint& f = structural.get(m.architecture, m.reference_image_size, CnnPass{});
  double width = f.lora_width_attention;
  if (lora.targets == LoraTargets::qv) width = f.lora_width_qv;
  if (lora.targets == LoraTargets::all_linear) width = f.lora_width_all_linear;
  return lora.rank * width;
}

}  // namespace

double cnn_conv_io_elements_per_sample(const ModelSpec& m) {
  if (m.kind != ModelKind::cnn || m.architecture.family == CnnFamily::none) return 0;
  thread_local FootprintMemo structural;
  return structural.get(m.architecture, m.reference_image_size, CnnPass{}).conv_io_elements;
}

double cnn_kernels_per_pass(const ModelSpec& m) {
  if (m.kind != ModelKind::cnn || m.architecture.family == CnnFamily::none) return 0;
  thread_local FootprintMemo structural;
  return structural.get(m.architecture, m.reference_image_size, CnnPass{}).kernels;
}

double lora_trainable_params(const ModelSpec& model, const Lora& lora) {
  if (model.kind == ModelKind::cnn) return cnn_adapter_params(model, lora);
  return transformer_adapter_params(model, model_shapes(model), lora);
}

double trainable_params(const ModelSpec& model, const Workload& w) {
  if (w.mode != Mode::train) return 0;
  if (model.kind == ModelKind::vlm) return vlm_trainable_params(model, w);  // docs/vlm.md
  return w.method == Method::full ? model.params : lora_trainable_params(model, w.lora);
}

// ---- Bytes per element ----------------------------------------------------------

double bytes_per_weight(WeightFormat f) {
  switch (f) {
    case WeightFormat::fp32: return 4;
    case WeightFormat::half: return 2;
    // LLM.int8 (Dettmers et al. 2022): 1 byte plus an fp16 scale per row
    // (a row of 4096 for a 4096-wide layer).
    case WeightFormat::int8: return 1 + 2.0 / 4096;
    // bitsandbytes 4-bit as transformers loads it for inference
    // (load_in_4bit; bnb_4bit_use_double_quant defaults to False): 4-bit
    // codes plus an fp32 absmax per block of 64.
    case WeightFormat::nf4: return (4 + 32.0 / 64) / 8;
    // NF4 as QLoRA trains it (Dettmers et al. 2023, section 3): 4-bit codes,
    // one 8-bit absmax per block of 64 and, with double quantization, one
    // fp32 constant per 256 blocks: 4 + 8/64 + 32/(64*256) bits.
    case WeightFormat::nf4_double_quant: return (4 + 8.0 / 64 + 32.0 / (64 * 256)) / 8;
    // int4 (GPTQ / AWQ, the group size 128 their model cards ship): 4 bits
    // plus an fp16 scale and a 4-bit zero point per group of 128:
    // (4 + 20/128) bits = 0.5195 bytes. (The time model once used 0.5625, a
    // group of 32; memory's figure is the shipped format.)
    case WeightFormat::int4: return (4 + 20.0 / 128) / 8;
    // GGUF block formats (ggml-common.h): Q8_0 is 32 int8 codes and one fp16
    // scale, 34 bytes per 32 weights; Q4_K is a 256-weight super-block of
    // 4-bit codes with 6-bit scales and mins per 32 and two fp16 factors,
    // 144 bytes per 256 weights (4.5 bits; ggml PR #1684, "k-quants").
    case WeightFormat::gguf_q8_0: return 34.0 / 32;
    case WeightFormat::gguf_q4_k: return 144.0 / 256;
    // Q6_K (ggml-common.h, block_q6_K): 128 bytes of low 4 bits, 64 of high
    // 2 bits, 16 int8 scales and one fp16 factor per 256 weights: 210 bytes.
    case WeightFormat::gguf_q6_k: return 210.0 / 256;
  }
  return 2;
}

WeightFormat inference_weight_format(Precision p, Stack stack) {
  if (stack == Stack::llama_cpp) {
    if (p == Precision::int8) return WeightFormat::gguf_q8_0;
    if (p == Precision::int4 || p == Precision::nf4) return WeightFormat::gguf_q4_k;
  }
  switch (p) {
    case Precision::fp32: return WeightFormat::fp32;
    case Precision::int8: return WeightFormat::int8;
    case Precision::nf4: return WeightFormat::nf4;
    case Precision::int4: return WeightFormat::int4;
    default: return WeightFormat::half;
  }
}

double activation_element_bytes(Precision p) { return p == Precision::fp32 ? 4 : 2; }

double adapter_element_bytes(Precision p) { return p == Precision::bf16_true ? 2 : 4; }

namespace {

// The formats a GGUF file stores its token table and its output matrix in,
// as llama.cpp's quantizer chooses them (src/llama-quant.cpp,
// llama_tensor_get_type): the output matrix, or the one table of a tied
// model, becomes Q6_K unless the file is Q8_0 (then Q8_0); the input table
// takes the file's own type. Half precision for F16 / BF16 files.
struct TableFormats {
  WeightFormat input, output;
};
TableFormats llama_table_formats(Precision p) {
  const WeightFormat body = inference_weight_format(p, Stack::llama_cpp);
  if (body == WeightFormat::gguf_q8_0) return {body, body};
  if (body == WeightFormat::gguf_q4_k) return {body, WeightFormat::gguf_q6_k};
  return {body, body};
}

}  // namespace

double inference_weight_bytes(const ModelSpec& m, const ModelShapes& s, Precision p, Stack stack) {
  const double quantized = s.linear_params * bytes_per_weight(inference_weight_format(p, stack));
  const double kept = p == Precision::fp32 ? 4 : 2;
  if (stack != Stack::llama_cpp) return quantized + (s.embedding_params + s.other_params) * kept;
  // embedding_params is the output matrix plus, when untied, the input table
  // (head_params); an encoder's is its input table alone.
  const TableFormats f = llama_table_formats(p);
  const bool encoder = m.kind == ModelKind::encoder;
  const double input = encoder ? s.embedding_params : s.head_params;
  const double output = s.embedding_params - input;
  return quantized + input * bytes_per_weight(f.input) + output * bytes_per_weight(f.output) + s.other_params * kept;
}

double decode_streamed_weight_bytes(const ModelSpec& m, const ModelShapes& s, Precision p, Stack stack) {
  const double resident = inference_weight_bytes(m, s, p, stack);
  if (stack != Stack::llama_cpp) return resident;
  return resident - s.head_params * bytes_per_weight(llama_table_formats(p).input);
}

double qlora_base_bytes(const ModelSpec& m, const ModelShapes& s) {
  (void)m;
  return s.linear_params * bytes_per_weight(WeightFormat::nf4_double_quant) + (s.embedding_params + s.other_params) * 2;
}

// ---- FLOPs ------------------------------------------------------------------------

TokenParams token_params(const ModelSpec& m, const ModelShapes& s) {
  TokenParams p;
  p.linear = m.layers * (s.attention_params + s.active_mlp_params);
  if (p.linear <= 0) p.linear = m.params;
  // BERT-style encoders are fine-tuned with a small task head, not the vocabulary.
  if (m.kind != ModelKind::encoder) p.head = double(m.vocab) * m.hidden;
  return p;
}

double forward_matmul_flops_per_token(const ModelSpec& m, const ModelShapes& s) {
  const TokenParams p = token_params(m, s);
  return 2 * (p.linear + p.head);
}

double attention_flops_per_token(const ModelSpec& m, double context) {
  return 4.0 * m.layers * m.hidden * context;
}

// Kaplan et al. 2020 sec. 2.1; Narayanan et al. 2021 eq. 3.
double train_flops_per_token(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  const TokenParams p = token_params(m, s);
  const bool ckpt = w.grad_checkpointing;
  const double per_weight = w.method == Method::full ? 6 : 4;
  const double matmul = per_weight * (p.linear + p.head) + (ckpt ? 2 * p.linear : 0);
  const double causal_skip = (w.flash_attention && m.kind != ModelKind::encoder) ? 0.5 : 1.0;
  const double attention = 3 * attention_flops_per_token(m, w.seq_len) * (ckpt ? 4.0 / 3.0 : 1.0) * causal_skip;
  return matmul + attention;
}

double cnn_forward_flops_per_sample(const ModelSpec& m, const Workload& w) {
  const double area = std::pow(double(w.image_size) / std::max(1, m.reference_image_size), 2);
  return m.gflops_per_sample * 1e9 * area;
}

double train_flops_per_micro_batch(const ModelSpec& m, const Workload& w) {
  if (m.kind == ModelKind::vlm) return vlm_train_flops_per_micro_batch(m, w);  // docs/vlm.md
  if (m.kind != ModelKind::cnn) return double(w.micro_batch) * w.seq_len * train_flops_per_token(m, model_shapes(m), w);
  // Forward + backward (input and weight gradients) = 3 x forward; frozen
  // weights (LoRA, QLoRA) skip their weight gradients: 2 x forward;
  // checkpointing recomputes each block's forward once more (Chen et al.
  // 2016). A diffusion step also encodes its images with the frozen VAE
  // (forward only, latents computed on the fly).
  const bool full = w.method == Method::full;
  const double forward = cnn_forward_flops_per_sample(m, w) * w.micro_batch;
  const double area = std::pow(double(w.image_size) / std::max(1, m.reference_image_size), 2);
  return ((full ? 3 : 2) + (w.grad_checkpointing ? 1 : 0)) * forward +
         m.frozen_gflops_per_sample * 1e9 * area * w.micro_batch;
}

}  // namespace gpuplan
