// A transformer's training step: the state every step holds (weights,
// gradients, optimizer states, ZeRO / FSDP shards and gathers, adapters) and
// its peak (docs/memory-model.md, "Weights, gradients and optimizer states").
#include "estimate/memory_model.h"

#include <algorithm>

#include "estimate/optimizer_states.h"

namespace gpuplan::memory_model {

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
  const double opt = optimizer_state_bytes_per_param(w.optimizer, state_bytes, m);

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
  t.optimizer = w.cpu_offload ? 0 : adapter * optimizer_state_bytes_per_param(w.optimizer, adapter_bytes, m);
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

}  // namespace gpuplan::memory_model
