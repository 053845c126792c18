// The arithmetic of a model that every estimator shares, in one place:
// where its parameters sit, how many a method trains, how many bytes a weight
// takes in each storage format, and how many FLOPs a token and a step cost.
// Memory (memory.cpp), time (throughput.cpp), the planner and the request
// checks all ask here, so the figures cannot drift apart (tests/core/
// model_arithmetic_test.cpp holds them together). Derivations:
// docs/memory-model.md ("Model arithmetic") and docs/time-model.md ("FLOPs").
#pragma once

#include "gpuplan/model.h"
#include "gpuplan/request.h"

namespace gpuplan {

// ---- Parameter counts --------------------------------------------------------

// Parameter bookkeeping derived from a transformer's published dimensions:
// which parameters sit in embeddings, in attention and in the MLP.
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

// Parameters trained by the adapter (LoRA / QLoRA), from the dimensions:
// r x (d_in + d_out) per adapted matrix (Hu et al. 2021), the count PEFT's
// print_trainable_parameters() reports (llama-3.1-8b, all-linear, r 16:
// 41,943,040). Convolutional and diffusion presets: over the linears their
// layer-by-layer expansion records.
double lora_trainable_params(const ModelSpec& model, const Lora& lora);

// What the optimizer updates: every parameter (full), or the adapters.
double trainable_params(const ModelSpec& model, const Workload& workload);

// ---- Bytes per element ---------------------------------------------------------

// How a weight is stored. One figure per format, derived in model_arithmetic.cpp.
enum class WeightFormat {
  fp32,
  half,              // fp16 / bf16
  int8,              // LLM.int8: 1 byte + an fp16 scale per row of 4096
  nf4,               // bitsandbytes 4-bit for inference: fp32 absmax per 64
  nf4_double_quant,  // QLoRA training: 8-bit absmax per 64, fp32 per 256 blocks
  int4,              // GPTQ / AWQ, group 128: fp16 scale + 4-bit zero per group
  gguf_q8_0,         // llama.cpp Q8_0: 32 int8 + an fp16 scale per block
  gguf_q4_k,         // llama.cpp Q4_K: 4-bit, 6-bit scales and mins per 32, fp16 per 256
  gguf_q6_k,         // llama.cpp Q6_K: 6-bit, 8-bit scales per 16, fp16 per 256 (a Q4_K file's output matrix)
};
double bytes_per_weight(WeightFormat format);

// The format an inference precision stores its linear layers in (embeddings,
// norms and the rest stay in half precision, fp32 only for fp32). llama.cpp
// runs GGUF files: int8 is Q8_0 there and int4 the Q4_K of the common Q4_K_M.
WeightFormat inference_weight_format(Precision precision, Stack stack = Stack::eager);

// Bytes of an activation element: half precision under every regime but fp32.
double activation_element_bytes(Precision precision);

// Bytes of an adapter parameter (and of its gradient): PEFT keeps adapters
// in fp32 under autocast; torchtune's bf16-true keeps them in bf16.
double adapter_element_bytes(Precision precision);

// Resident weight bytes of an inference job on one GPU (unsplit): the linear
// layers in the precision's format, everything else in half (or fp32); a
// quantized GGUF file (llama.cpp) stores its token table and output matrix
// quantized as well (llama_table_format).
double inference_weight_bytes(const ModelSpec& model, const ModelShapes& shapes, Precision precision,
                              Stack stack = Stack::eager);

// The weight bytes one dense decode step streams on one GPU (unsplit): every
// resident weight, except that llama.cpp does not stream an untied input
// embedding table. It looks a token's row up (ggml_get_rows: the row is
// copied, and dequantized if quantized, in one small kernel), while the
// output matrix is a full matrix-vector product (mul_mat_vec). PyTorch
// stacks' nn.Embedding is a row gather too, but their decode efficiencies
// were fitted with the table counted, so they keep it.
double decode_streamed_weight_bytes(const ModelSpec& model, const ModelShapes& shapes, Precision precision,
                                    Stack stack = Stack::eager);

// QLoRA's frozen base: linear layers in double-quantized NF4, embeddings,
// head and norms in bf16 (Dettmers et al. 2023, section 3).
double qlora_base_bytes(const ModelSpec& model, const ModelShapes& shapes);

// ---- FLOPs ----------------------------------------------------------------------

// Matmul parameters a token passes through (routed experts only), and the LM head.
struct TokenParams {
  double linear = 0;  // transformer blocks
  double head = 0;    // vocabulary projection (decoders and encoder-decoders)
};
TokenParams token_params(const ModelSpec& model, const ModelShapes& shapes);

// Forward matmul FLOPs per token: 2 per weight it passes through (Kaplan et
// al. 2020, sec. 2.1), embeddings excluded (a lookup, not a matmul).
double forward_matmul_flops_per_token(const ModelSpec& model, const ModelShapes& shapes);

// Attention scores and values, forward, per token at `context` keys:
// 2 matmuls of 2 x hidden x context per layer (QK^T and AV).
double attention_flops_per_token(const ModelSpec& model, double context);

// Model FLOPs per training token at the workload's sequence length: 6 per
// weight with full training, 4 with frozen weights (no weight gradient), +2
// per block weight recomputed under checkpointing; attention x3 (+1 recomputed),
// halved by causal FlashAttention (Dao 2023, sec. 4.1).
double train_flops_per_token(const ModelSpec& model, const ModelShapes& shapes, const Workload& workload);

// A convolutional or diffusion preset's forward FLOPs per sample at the
// workload's image size (published GFLOPs scaled by area).
double cnn_forward_flops_per_sample(const ModelSpec& model, const Workload& workload);
// Input + output elements of a convolutional preset's convolutions per sample
// at its reference image size (the layer-by-layer expansion); 0 without one.
double cnn_conv_io_elements_per_sample(const ModelSpec& model);
// Kernels one eager forward pass of a convolutional or diffusion preset
// launches, counted op by op in its layer-by-layer expansion; 0 without one.
double cnn_kernels_per_pass(const ModelSpec& model);

// FLOPs of one training micro-batch on one GPU (transformers: tokens x
// train_flops_per_token; CNNs: forward x 3 (x 2 frozen, +1 recomputed) plus
// the frozen encoders' forward).
double train_flops_per_micro_batch(const ModelSpec& model, const Workload& workload);

}  // namespace gpuplan
