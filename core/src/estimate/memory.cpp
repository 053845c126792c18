// Per-GPU memory estimate. First-principles accounting of what PyTorch holds
// (Over 500 lines on purpose: one accounting of one peak, each term beside the
// ones it adds to; the model arithmetic, architectures and objectives it calls
// live in their own files.)
// at the peak of a training step or an inference batch; every term cites its
// derivation. docs/memory-model.md has the full derivation and the error
// measured against published runs (tests/data/memory_cases.json).
#include "gpuplan/memory.h"

#include <algorithm>
#include <cmath>

#include "estimate/cnn_architecture.h"
#include "estimate/diffusion.h"
#include "gpuplan/limits.h"
#include "gpuplan/model_arithmetic.h"
#include "estimate/largest_fitting.h"
#include "estimate/objective.h"
#include "estimate/vlm.h"

namespace gpuplan {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

bool is_mixed(Precision p) { return p == Precision::fp16_mixed || p == Precision::bf16_mixed; }

// Bytes per element (activations, adapters, weight formats) come from the
// shared model arithmetic (gpuplan/model_arithmetic.h).
double compute_bytes(Precision p) { return activation_element_bytes(p); }

// Bytes of the residual stream between layers. Under autocast (fp16/bf16-mixed
// on one GPU or DDP) the weights are fp32, so the residual additions and the
// norms stay fp32 (PyTorch autocast op reference: layer_norm runs in fp32).
// bf16-true keeps it bf16, and so do DeepSpeed ZeRO's fp16/bf16 engine and
// FSDP mixed precision, which run the module itself in half precision.
double residual_bytes(const Workload& w) {
  if (w.precision == Precision::fp32) return 4;
  if (w.precision == Precision::bf16_true || w.sharding == Sharding::zero1 || w.sharding == Sharding::zero2 ||
      w.sharding == Sharding::zero3)
    return 2;
  return 4;
}

// Fused kernels save what torch.compile saves: an `optimized` stack (torch.compile,
// Liger's and unsloth's fused RMSNorm / SwiGLU, apex's fused LayerNorm) keeps the
// matmul outputs and recomputes the pointwise ops in backward (docs/memory-model.md,
// "Software stack").
bool fused(const Workload& w) { return w.torch_compile || w.stack == Stack::optimized; }

bool has_dropout(const ModelSpec& m) {
  // LLaMA-family decoders (gated MLPs) train without dropout; BERT, GPT-2 and
  // T5 fine-tune with dropout 0.1 in attention and after each block.
  return !(m.kind == ModelKind::decoder && m.gated_mlp);
}

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

// Optimizer state bytes per trainable parameter, with states in `state` bytes:
// AdamW: exp_avg + exp_avg_sq (Loshchilov & Hutter 2019; PyTorch keeps them in
// the parameter dtype). AdamW 8-bit (Dettmers et al. 2022, "8-bit Optimizers
// via Block-wise Quantization"): two 1-byte states + an fp32 absmax per block
// of 2048. SGD with momentum: one buffer. Adafactor (Shazeer & Stern 2018):
// no first moment (HF default beta1=None) and a factored second moment, one
// row and one column vector per matrix: about 2/hidden of a full state.
double optimizer_bytes_per_param(Optimizer o, double state, const ModelSpec& m) {
  switch (o) {
    case Optimizer::adamw: return 2 * state;
    case Optimizer::adamw_8bit: return 2 * (1 + 4.0 / 2048);
    case Optimizer::sgd: return 0;
    case Optimizer::sgd_momentum: return state;
    case Optimizer::adafactor: return m.hidden > 0 ? state * 2.0 / m.hidden : state * 0.02;
  }
  return 0;
}

// --- Runtime ----------------------------------------------------------------

// CUDA context, kernel images, cuBLAS / cuDNN handles and NCCL buffers: what
// nvidia-smi shows beyond PyTorch's reserve. A bare CUDA 12 context with lazy
// module loading takes about 300-500 MiB; a training process also loads the
// cuBLAS, cuDNN and fused-optimizer kernels it uses and, on several GPUs,
// NCCL's communicator buffers. The HF V100 measurement (perf_train_gpu_one,
// CUDA 11 without lazy loading) saw 1343 MiB. We take 1 GiB, the middle of
// that range (docs/memory-model.md, "Runtime").
constexpr double kCudaContextBytes = 1024 * kMiB;
// The caching allocator rounds requests up (to 512 B, and large blocks to
// 2 MiB segments) and keeps freed blocks for reuse: reserved exceeds the
// allocated peak by a few percent in a steady loop (PyTorch "CUDA semantics",
// memory management). 6 % matches the reserved/allocated ratios torchtune
// logs (e.g. 6.27 / 6.21 GiB after model init, 15.57 GB reserved peaks).
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

// llama.cpp (ggml) allocates its weight, KV and compute buffers once, at
// their exact sizes, through cudaMalloc: no caching allocator rounds or keeps
// blocks, so there is no allocator reserve. Its process loads no PyTorch,
// cuBLAS-Lt or cuDNN kernel libraries beside the CUDA context: the bare
// context with lazy module loading (300-500 MiB, above) and cuBLAS's handle
// and workspace, which ggml-cuda creates. We take 384 MiB, inside that range
// (not fitted: no visible case measures it apart).
constexpr double kGgmlRuntimeBytes = 384 * kMiB;

MemoryEstimate finish_ggml(MemoryEstimate e) {
  double allocated = 0;
  for (const auto& c : e.components) allocated += c.bytes;
  e.allocated_bytes = allocated;
  e.reserved_bytes = allocated;
  e.components.push_back({"runtime", kGgmlRuntimeBytes});
  e.total_bytes = e.reserved_bytes + kGgmlRuntimeBytes;
  return e;
}

// --- Training: the state every step holds and the two candidate peaks -------

// What a training step holds, in bytes per GPU.
struct TrainState {
  double weights = 0;           // parameters resident (sharded share + unsharded copies)
  double optimizer = 0;         // optimizer states (and fp32 master weights when separate)
  double persistent_grads = 0;  // gradient memory that lives across steps (DDP buckets, accumulation)
  double live_grads = 0;        // gradients created during backward and freed by the step
  double gathered = 0;          // ZeRO-3 / FSDP: unsharded layers in flight
  double saved = 0;             // everything autograd saves at the end of forward (activations)
  double logits = 0;            // the loss's logits at the start of backward
  double amp_copies = 0;        // autocast's half-precision weight casts, saved for backward
  double working = 0;           // one layer's backward working set
  double frozen = 0;            // frozen networks beside the model (a UNet's text encoders and VAE)
  double preprocess = 0;        // a frozen encoder's feature maps before forward (VAE encode under no_grad)
};

// Autograd frees saved activations layer by layer during backward while the
// gradients it produces accumulate (optimizer.zero_grad(set_to_none=True), the
// PyTorch >= 2.0 default, frees them after each step). So the step peaks either
// when backward starts (all activations and the loss alive, few gradients) or
// when it ends (all gradients alive, activations gone); in between the sum
// moves linearly between the two. Gradient accumulation keeps the previous
// micro-batches' gradients through forward: then both add.
// Encoding the batch with a frozen network (a diffusion VAE computing latents
// on the fly) happens before forward, when neither activations nor fresh
// gradients are alive: a third candidate peak.
MemoryEstimate training_peak(const TrainState& t) {
  MemoryEstimate e;
  const double start = t.saved + t.logits + t.amp_copies;
  const double end = t.live_grads + t.working;
  if (t.preprocess > start && t.preprocess > end) {
    add(e, "weights", t.weights);
    add(e, "frozen_encoders", t.frozen);
    add(e, "gathered_layers", t.gathered);
    add(e, "gradients", t.persistent_grads);
    add(e, "optimizer", t.optimizer);
    add(e, "activations", t.preprocess);
    return finish(e);
  }
  add(e, "weights", t.weights + (start >= end ? t.amp_copies : 0));
  add(e, "frozen_encoders", t.frozen);
  add(e, "gathered_layers", t.gathered);
  add(e, "gradients", t.persistent_grads + (start >= end ? 0 : t.live_grads));
  add(e, "optimizer", t.optimizer);
  if (start >= end) {
    add(e, "activations", t.saved);
    add(e, "logits", t.logits);
  } else {
    add(e, "activations", t.working);
  }
  return finish(e);
}

struct Shards {
  double params = 1, grads = 1, optimizer = 1;
};

Shards shard_factors(const Workload& w) {
  Shards f;
  const double n = std::max(1, w.gpus);
  switch (w.sharding) {
    case Sharding::zero3: f.params = 1 / n; [[fallthrough]];
    case Sharding::zero2: f.grads = 1 / n; [[fallthrough]];
    case Sharding::zero1: f.optimizer = 1 / n; break;
    default: break;
  }
  return f;
}

// Activations of one micro-batch: every layer's saved tensors, or with
// gradient checkpointing (Chen et al. 2016) each layer's input plus one
// layer recomputed during backward (Korthikanti et al. 2022, section 4.2).
// Activation offload (torchtune OffloadActivations) moves the checkpoints to
// host memory, keeping about two layers' worth on the GPU while streaming.
double saved_activations(const ModelSpec& m, const ModelShapes& s, const Workload& w, double* one_layer) {
  const double tokens = double(w.micro_batch) * w.seq_len;
  const double layer = (layer_bytes_per_token(m, s, w) + score_bytes_per_token(m, w)) * tokens;
  *one_layer = layer;
  const double checkpoint = tokens * m.hidden * residual_bytes(w);
  if (w.grad_checkpointing) {
    double kept = w.activation_offload ? std::min(2.0, double(m.layers)) : m.layers;
    return kept * checkpoint + layer;
  }
  if (w.activation_offload) return std::min(2.0, double(m.layers)) * layer;
  return m.layers * layer;
}

TrainState full_training_state(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  TrainState t;
  const Shards shard = shard_factors(w);
  const double p = m.params;
  const Precision prec = w.precision;
  const bool mixed = is_mixed(prec);
  const bool zero = w.sharding == Sharding::zero1 || w.sharding == Sharding::zero2 || w.sharding == Sharding::zero3;
  const double param_bytes = prec == Precision::bf16_true ? 2 : 4;  // fp32 params double as master weights
  const double state_bytes = prec == Precision::bf16_true ? 2 : 4;
  const double opt = optimizer_bytes_per_param(w.optimizer, state_bytes, m);

  if (mixed && zero && w.sharding != Sharding::zero3) {
    // DeepSpeed ZeRO-1/2 with fp16/bf16 (Rajbhandari et al. 2020, section
    // 3.1): half-precision parameters (2P) and gradients (2P) on every rank,
    // fp32 master weights (4P) and states partitioned; stage 2 partitions the
    // half gradients as well.
    t.weights = 2 * p;
    t.optimizer = (4 + opt) * p * shard.optimizer;
    t.live_grads = 2 * p * shard.grads;
    if (w.cpu_offload) {
      // ZeRO-Offload (Ren et al. 2021): master weights, Adam and the reduced
      // gradients live on the host; the GPU keeps the half model and one
      // reduce bucket (DeepSpeed reduce_bucket_size, 5e8 elements by default).
      t.optimizer = 0;
      // Stage 2 reduces each gradient into the bucket as backward makes it
      // and frees it; stage 1 partitions no gradient during backward (no
      // reduce hooks), so the whole half gradient waits on the GPU for the
      // step. Both copy the partition to the host through a GPU buffer of
      // the largest parameter (DeepSpeed stage_1_and_2.py,
      // temp_grad_buffer_for_gpu_offload).
      if (w.sharding == Sharding::zero2) t.live_grads = std::min(t.live_grads, 5e8 * 2);
      t.live_grads += 2 * s.largest_matrix_params;
    }
  } else {
    // AMP / FSDP: fp32 (or bf16-true) parameters are both the model and the
    // master weights; ZeRO-3 / FSDP shards them, gradients and states.
    t.weights = p * param_bytes * shard.params;
    t.optimizer = p * opt * shard.optimizer;
    t.live_grads = p * param_bytes * shard.grads;
    if (w.cpu_offload) {
      t.optimizer = 0;
      if (w.sharding == Sharding::zero3) {
        // Parameters and gradients live on the host as well (FSDP
        // cpu_offload, ZeRO-Infinity offload_param); only gathered layers remain.
        t.weights = 0;
        t.live_grads = 0;
      } else if (mixed) {
        t.weights = 2 * p;  // ZeRO-Offload keeps only the half-precision model on the GPU
        t.live_grads = 2 * p * shard.grads;
      }
    }
    // Autocast casts each fp32 weight to half once per forward and keeps the
    // cast (saved for backward) until backward has used it.
    if (mixed) t.amp_copies = 2 * p * shard.params;
  }
  if (w.sharding == Sharding::zero3) {
    // FSDP / ZeRO-3 unshards one layer for compute while prefetching the next
    // (FSDP forward/backward prefetch, ZeRO-3 prefetch bucket), and produces
    // that layer's full gradient before the reduce-scatter.
    const double e = compute_bytes(prec);
    double layer = std::max(s.layer_params, double(m.vocab) * m.hidden);
    t.gathered = 2 * layer * e + s.layer_params * e;
    if (mixed) t.amp_copies = 0;  // FSDP mixed precision gathers straight into half
  }
  // DDP keeps a bucketed copy of the gradients beside .grad unless
  // gradient_as_bucket_view=True (PyTorch DistributedDataParallel docs).
  if (w.sharding == Sharding::ddp) t.persistent_grads += p * param_bytes;
  if (w.optimizer_in_backward) {
    // The step runs per parameter inside backward (torchtune
    // optimizer_in_bwd): only the gradient being applied is alive.
    t.live_grads = std::min(t.live_grads, s.largest_matrix_params * param_bytes);
  }
  if (w.grad_accumulation > 1) {
    t.persistent_grads += t.live_grads;
    t.live_grads = 0;
  }
  return t;
}

TrainState adapter_training_state(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  TrainState t;
  const Shards shard = shard_factors(w);
  const Precision prec = w.precision;
  // Frozen base in the compute dtype (LLaMA-Factory and torchtune load it in
  // bf16; fp32 when training in fp32). QLoRA stores
  // the linear layers in NF4 and keeps embeddings, head and norms in bf16.
  // A base loaded in fp32 (workload.frozen_base_fp32: PEFT's SFT example
  // loads a non-quantized model with dtype float32) stays fp32 on the GPU:
  // autocast casts per op and caches no cast of a frozen weight, and FSDP's
  // MixedPrecision keeps "the sharded parameters in full precision" outside
  // forward and backward, gathering straight into param_dtype (PyTorch
  // torch/distributed/fsdp/api.py, MixedPrecision). DeepSpeed's bf16 engine
  // casts the module itself (module.bfloat16()), so the flag is not set there.
  double base;
  double gathered_bytes_per_param = compute_bytes(prec);
  if (w.method == Method::qlora) {
    base = qlora_base_bytes(m, s);
    // bnb_4bit_quant_storage float32: the NF4 codes pack into fp32 words at
    // the same size; embeddings, head and norms load in fp32, not bf16.
    if (w.frozen_base_fp32) base += (s.embedding_params + s.other_params) * 2;
    gathered_bytes_per_param = bytes_per_weight(WeightFormat::nf4_double_quant);
  } else {
    base = m.params * (w.frozen_base_fp32 ? 4 : compute_bytes(prec));
  }
  // Adapters: PEFT keeps them in fp32 under autocast; torchtune's bf16-true in bf16.
  const double adapter = lora_trainable_params(m, w.lora);
  const double adapter_bytes = adapter_element_bytes(prec);
  t.weights = base * shard.params + adapter * adapter_bytes;
  if (w.sharding == Sharding::zero3 && w.cpu_offload) t.weights = adapter * adapter_bytes;
  t.live_grads = adapter * adapter_bytes;
  t.optimizer = w.cpu_offload ? 0 : adapter * optimizer_bytes_per_param(w.optimizer, adapter_bytes, m);
  if (w.sharding == Sharding::zero3) {
    double layer = std::max(s.layer_params, double(m.vocab) * m.hidden);
    t.gathered = 2 * layer * gathered_bytes_per_param;
  }
  if (w.method == Method::qlora) {
    // Each NF4 matrix is dequantised to bf16 for its matmul, one at a time.
    t.working += std::max(double(m.hidden) * m.ffn, double(m.hidden) * s.q_dim) * 2;
  }
  if (w.grad_accumulation > 1) {
    t.persistent_grads += t.live_grads;
    t.live_grads = 0;
  }
  return t;
}

MemoryEstimate transformer_training(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  TrainState t = w.method == Method::full ? full_training_state(m, s, w) : adapter_training_state(m, s, w);
  double one_layer = 0;
  t.saved = saved_activations(m, s, w, &one_layer);
  t.logits = logits_bytes(m, w);
  t.working += one_layer;
  return training_peak(t);
}

// --- Convolutional and diffusion networks ------------------------------------

// A preset's architecture is expanded layer by layer at the request's image
// size (cnn_architecture.h: what each op saves, per PyTorch's autograd
// formulas and autocast lists). The expansion does not depend on the
// micro-batch, which the fit-limit bisections vary, so the last one is kept.
CnnPass cnn_pass(const Workload& w) {
  CnnPass p;
  p.train = w.mode == Mode::train;
  p.autocast = p.train && is_mixed(w.precision);
  p.compute_bytes = compute_bytes(w.precision);
  p.flash_attention = w.flash_attention;
  p.checkpointing = p.train && w.grad_checkpointing;
  p.frozen = p.train && w.method != Method::full;
  return p;
}

const CnnFootprint& cnn_footprint(const ModelSpec& m, const Workload& w) {
  thread_local FootprintMemo memo;
  return memo.get(m.architecture, w.image_size, cnn_pass(w));
}

// Without an architecture (a user's own network): the bytes autograd saves
// per sample at reference_image_size in fp32, scaled by the image area and
// halved in half precision; inference keeps a tenth (the widest live maps).
double area_scaled_bytes(const ModelSpec& m, const Workload& w) {
  const bool half = w.precision != Precision::fp32;
  const double area = std::pow(double(w.image_size) / m.reference_image_size, 2);
  return m.activation_bytes_per_sample * area * (half ? 0.5 : 1);
}

// Frozen networks beside the model, in the half weight dtype, as diffusers'
// train_text_to_image(_lora)(_sdxl).py cast text encoders and VAE to
// weight_dtype (fp32 only when the run is fp32); the same at inference.
// Text embeddings cached ahead of training (diffusers train_dreambooth_lora_flux.py
// and _sdxl.py compute the prompt embeddings once and free the text encoders
// when the instance prompt is fixed; kohya's cache_text_encoder_outputs):
// the text encoders leave the GPU, the VAE stays for the latents.
double frozen_bytes(const ModelSpec& m, const Workload& w) {
  double params = m.frozen_params;
  if (w.mode == Mode::train && w.cached_text_embeddings) params -= m.frozen_text_params;
  return std::max(0.0, params) * (w.precision == Precision::fp32 ? 4 : 2);
}

MemoryEstimate cnn_memory(const ModelSpec& m, const Workload& w) {
  const double p = m.params;
  const bool half = w.precision != Precision::fp32;
  const bool layered = m.architecture.family != CnnFamily::none;
  const CnnFootprint* f = layered ? &cnn_footprint(m, w) : nullptr;
  const double b = w.micro_batch;
  if (w.mode == Mode::infer) {
    MemoryEstimate e;
    add(e, "weights", p * (w.precision == Precision::fp32 ? 4 : 2));
    add(e, "frozen_encoders", frozen_bytes(m, w));
    // The largest live set of the forward under no_grad (for a diffusion
    // pipeline also the VAE decode of the final latents), or a tenth of what
    // training saves for a network known only by that figure.
    // Under classifier-free guidance the model runs on the conditional and
    // unconditional latents at once (2b, diffusion.h); the VAE decodes the b
    // images only.
    const double model_batch = b * sampling(m, w).passes_per_step();
    double live = layered ? std::max(f->peak_bytes * model_batch, f->decode_peak_bytes * b)
                          : 0.1 * area_scaled_bytes(m, w) * b;
    add(e, "activations", live);
    return finish(e);
  }
  TrainState t;
  t.saved = (layered ? f->saved_bytes : area_scaled_bytes(m, w)) * b;
  t.frozen = frozen_bytes(m, w);
  // Latents computed on the fly: the VAE encodes the batch under no_grad.
  if (layered && m.frozen_params > 0) t.preprocess = f->encode_peak_bytes * b;
  if (w.method != Method::full) {
    // LoRA / QLoRA on a convolutional net (e.g. a diffusion UNet's attention):
    // a frozen half-precision (or NF4) base, and adapters trained in fp32
    // (diffusers' LoRA scripts cast_training_params(unet, torch.float32) under
    // fp16 mixed precision; bf16 under bf16-true) with their gradients and
    // optimizer states.
    const double adapter = lora_trainable_params(m, w.lora);
    const double adapter_bytes = adapter_element_bytes(w.precision);
    // workload.frozen_base_fp32: a base loaded in fp32 stays fp32 (as for transformers above).
    const double base_bytes = w.frozen_base_fp32 ? 4 : (half ? 2 : 4);
    t.weights = p * (w.method == Method::qlora ? bytes_per_weight(WeightFormat::nf4_double_quant) : base_bytes) +
                adapter * adapter_bytes;
    t.live_grads = adapter * adapter_bytes;
    t.optimizer = adapter * optimizer_bytes_per_param(w.optimizer, adapter_bytes, m);
    if (w.grad_accumulation > 1) {
      t.persistent_grads = t.live_grads;
      t.live_grads = 0;
    }
    return training_peak(t);
  }
  const double param_bytes = w.precision == Precision::bf16_true ? 2 : 4;
  const Shards shard = shard_factors(w);
  t.weights = p * param_bytes * shard.params;
  t.optimizer = p * optimizer_bytes_per_param(w.optimizer, param_bytes, m) * shard.optimizer;
  t.live_grads = p * param_bytes * shard.grads;
  if (is_mixed(w.precision)) t.amp_copies = 2 * p;
  if (w.sharding == Sharding::ddp) t.persistent_grads = p * param_bytes;
  if (w.grad_accumulation > 1) {
    t.persistent_grads += t.live_grads;
    t.live_grads = 0;
  }
  return training_peak(t);
}

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

}  // namespace

double engine_pool_bytes(const Workload& w, double card_memory_bytes) {
  if (w.mode != Mode::infer || w.stack != Stack::vllm || !(card_memory_bytes > 0)) return 0;
  return kVllmGpuMemoryUtilization * card_memory_bytes;
}

std::vector<MemoryComponent> allocated_components(const MemoryEstimate& e) {
  std::vector<MemoryComponent> out;
  for (const auto& c : e.components)
    if (c.id != "allocator_reserve" && c.id != "runtime") out.push_back(c);
  return out;
}

std::vector<MemoryComponent> resident_training_state(const ModelSpec& m, const Workload& w) {
  const ModelShapes s = model_shapes(m);
  const TrainState t = w.method == Method::full ? full_training_state(m, s, w) : adapter_training_state(m, s, w);
  MemoryEstimate e;
  add(e, "weights", t.weights);
  add(e, "gradients", t.persistent_grads);
  add(e, "optimizer", t.optimizer);
  return e.components;
}

MemoryEstimate finish_estimate(std::vector<MemoryComponent> allocated) {
  MemoryEstimate e;
  for (auto& c : allocated) add(e, c.id.c_str(), c.bytes);
  return finish(e);
}

FitLimits fit_limits(const ModelSpec& m, const Workload& w, double capacity_bytes) {
  FitLimits out;
  Workload probe = w;
  out.max_micro_batch = largest_fitting(int(limit::micro_batch.max), [&](int b) {
    probe.micro_batch = b;
    return estimate_memory(m, probe).total_bytes <= capacity_bytes;
  });
  if (m.kind != ModelKind::cnn) {
    probe = w;
    out.max_seq_len = largest_fitting(int(limit::seq_len.max), [&](int s) {
      probe.seq_len = s;
      return estimate_memory(m, probe).total_bytes <= capacity_bytes;
    });
  }
  return out;
}

namespace {

// The user's measured peak (request baseline.memory_bytes) re-anchors every
// figure: all that the model counts is multiplied by measured / estimated on
// the baseline card, the fixed CUDA context excepted (docs/memory-model.md,
// "Calibration from your own run").
MemoryEstimate rescaled(MemoryEstimate e, double scale) {
  for (auto& c : e.components)
    if (c.id != "runtime") c.bytes *= scale;
  e.allocated_bytes *= scale;
  e.reserved_bytes *= scale;
  e.total_bytes = e.reserved_bytes + kCudaContextBytes;
  return e;
}

MemoryEstimate estimate_unscaled(const ModelSpec& m, const Workload& w) {
  MemoryEstimate e;
  // Hooks (docs/objectives.md, docs/vlm.md): each composes plain estimates.
  if (m.kind == ModelKind::vlm) {
    e = vlm_memory(m, w);
  } else if (w.mode == Mode::train && w.objective != Objective::sft && m.kind != ModelKind::cnn) {
    e = objective_memory(m, w);
  } else if (m.kind == ModelKind::cnn) {
    e = cnn_memory(m, w);
  } else {
    const ModelShapes s = model_shapes(m);
    e = w.mode == Mode::infer ? inference_memory(m, s, w) : transformer_training(m, s, w);
  }
  e.trainable_params = trainable_params(m, w);
  return e;
}

}  // namespace

MemoryEstimate estimate_memory(const ModelSpec& m, const Workload& w) {
  MemoryEstimate e = estimate_unscaled(m, w);
  if (w.memory_scale > 0 && w.memory_scale != 1) e = rescaled(e, w.memory_scale);
  e.scale = w.memory_scale > 0 ? w.memory_scale : 1;
  return e;
}

double memory_baseline_scale(const ModelSpec& m, const Workload& w, int count, double measured_bytes) {
  Workload at = w;
  at.memory_scale = 1;
  at.gpus = std::max(1, count);
  if (at.gpus > 1 && at.sharding == Sharding::none) at.sharding = Sharding::ddp;
  if (at.gpus == 1 && at.sharding == Sharding::ddp) at.sharding = Sharding::none;
  const double counted = estimate_memory(m, at).total_bytes - kCudaContextBytes;
  const double measured = measured_bytes - kCudaContextBytes;
  if (!(counted > 0) || !(measured > 0)) return 1;
  return std::clamp(measured / counted, kMinMemoryScale, kMaxMemoryScale);
}

double saved_bytes_per_token_layer(const ModelSpec& m, const Workload& w) {
  return layer_bytes_per_token(m, model_shapes(m), w) + score_bytes_per_token(m, w);
}

}  // namespace gpuplan
