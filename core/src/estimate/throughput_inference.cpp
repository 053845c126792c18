// Inference: prefill and decode of generating models, encoders' batches and
// text-to-image sampling (docs/time-model.md, "Inference").
#include "estimate/time_model.h"

#include <algorithm>
#include <cmath>

#include "estimate/decode_bandwidth.h"
#include "estimate/diffusion.h"
#include "estimate/moe.h"

namespace gpuplan::time_model {

// A decode step of a mixture of experts: the weight bytes its batch reads
// (the experts hit, moe.h) and, in eager generate(), the kernels of the
// expert loop beyond one MLP's per layer (the batch's tokens reach
// expected_experts_hit experts; each is a loop iteration).
struct MoeDecode {
  double weight_bytes_read = 0;
  double read_share = 1;  // of the resident weights
  double eager_loop_kernels = 0;
};
MoeDecode moe_decode(const ModelSpec& m, const ModelShapes& s, const Workload& w, double resident_bytes, double batch) {
  MoeDecode d;
  d.weight_bytes_read = resident_bytes;
  if (!is_moe(m) || !(resident_bytes > 0)) return d;
  d.weight_bytes_read = std::min(resident_bytes, decode_weight_bytes_read(m, s, w.precision, w.stack, batch));
  d.read_share = d.weight_bytes_read / resident_bytes;
  Workload step = w;
  step.mode = Mode::infer;
  step.method = Method::full;
  step.micro_batch = std::max(1, int(batch));
  step.seq_len = 1;
  step.grad_checkpointing = false;
  // Forward only: a third of the training passes' kernels.
  d.eager_loop_kernels = expert_loop_work(m, s, step, false).extra_kernels / 3;
  return d;
}

// Text-to-image sampling (diffusion.h): per batch of micro_batch images,
// steps x passes model passes at the guidance batch (diffusers concatenates
// the conditional and unconditional latents into one batch of 2b), plus the
// text encoders and the VAE decode at the b images. Each model pass is the
// convolutional pass's work, with a DiT's unfused element-wise traffic.
Throughput diffusion_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int n) {
  Throughput t;
  Rates rates;
  if (!rates_for(m, w, g, t, rates)) return t;
  const Sampling sm = sampling(m, w);
  const double b = w.micro_batch;
  Workload pass = w;
  pass.micro_batch = std::max(1, w.micro_batch) * sm.passes_per_step();
  Work k = cnn_work(m, pass, t.unit, rates.achieved_flops_per_s, rates.bandwidth_bytes_per_s, false);
  if (!fused_kernels(m, w))
    k.memory_seconds += dit_elementwise_bytes_per_sample(m, w) * pass.micro_batch / rates.bandwidth_bytes_per_s;
  const double frozen_flops = (text_encoder_flops_per_image(m, w) + vae_decode_flops_per_image(m, w)) * b;
  const double frozen_seconds = frozen_flops / (rates.achieved_flops_per_s * kConvRelativeEfficiency);
  StepTime& st = t.step;
  const double steps = sm.steps;
  st.compute_seconds = steps * k.compute_seconds + frozen_seconds;
  st.memory_seconds = steps * k.memory_seconds;
  st.kernel_tail_seconds = steps * k.kernels * kKernelTailSeconds;
  st.gpu_seconds = st.compute_seconds + st.memory_seconds + st.kernel_tail_seconds;
  st.host_seconds = steps * k.kernels * kHostSecondsPerKernel;
  const double step_gpu = k.compute_seconds + k.memory_seconds + k.kernels * kKernelTailSeconds;
  t.step_seconds = steps * std::max(step_gpu, k.kernels * kHostSecondsPerKernel) + frozen_seconds;
  t.samples_per_s = n * b / t.step_seconds;
  t.bandwidth_bound = st.memory_seconds > st.compute_seconds;
  t.utilization = (steps * k.flops + frozen_flops) / (t.step_seconds * rates.peak_flops_per_s);
  t.achieved_tflops = t.peak_tflops * t.utilization;
  return t;
}

namespace {

// A CNN's or an encoder's batch: one forward pass per batch, compute plus
// activation traffic, each GPU running its own micro-batch. Fills `t`'s step
// and rates; returns the FLOPs of the step on all GPUs.
double forward_batches(const ModelSpec& m, const Workload& w, const Workload& as_given, const Rates& rates, int n,
                       Throughput& t) {
  const double achieved_rate = rates.achieved_flops_per_s;
  const double bandwidth = rates.bandwidth_bytes_per_s;
  StepTime& st = t.step;
  const double b = w.micro_batch;
  // One forward pass per batch: compute plus activation traffic.
  Work k;
  if (m.kind == ModelKind::cnn) {
    k = cnn_work(m, w, t.unit, achieved_rate, bandwidth, false);
  } else {
    const ModelShapes s = model_shapes(m);
    const double tokens = b * w.seq_len;
    k.flops = tokens * (forward_matmul_flops_per_token(m, s) + attention_flops_per_token(m, w.seq_len));
    k.compute_seconds = k.flops / (achieved_rate * size_efficiency(m));
    const double per_token_layer = kSavedBytesPerHiddenPerToken * m.hidden +
                                   (w.flash_attention ? 0 : kScoreBytesPerHeadPerToken * m.heads * double(w.seq_len));
    k.memory_seconds = 2 * tokens * m.layers * per_token_layer * (activation_bytes(w.precision) / 2) / bandwidth;
    k.kernels = m.layers * kKernelsPerLayerPass;
  }
  // Data parallel: every GPU runs its own batch of micro_batch.
  const double flops = k.flops * n;
  st.compute_seconds = k.compute_seconds;
  st.memory_seconds = k.memory_seconds;
  st.kernel_tail_seconds = k.kernels * kKernelTailSeconds;
  st.gpu_seconds = st.compute_seconds + st.memory_seconds + st.kernel_tail_seconds;
  st.host_seconds = k.kernels * kHostSecondsPerKernel;
  t.step_seconds = std::max(st.gpu_seconds, st.host_seconds);
  t.samples_per_s = n * b / t.step_seconds;
  t.tokens_per_s = m.kind == ModelKind::cnn ? 0 : t.samples_per_s * real_tokens_per_sample(as_given);
  return flops;
}

// Each decode step reads every resident weight once (the memory model's
// figure for the format; llama.cpp looks its input table up by row,
// decode_streamed_weight_bytes) and the cache; a token's matmuls pass
// through its routed experts only. The weight bytes a generated token reads and the
// matmul FLOPs of a generated and of a prompt token.
struct DecodeWork {
  double weights = 0;
  double matmul_flops = 0;
  double prefill_matmul_flops = 0;
};
DecodeWork decode_work(const ModelSpec& m, const ModelShapes& s, const Workload& w) {
  DecodeWork d;
  d.weights = decode_streamed_weight_bytes(m, s, w.precision, w.stack);
  d.matmul_flops = forward_matmul_flops_per_token(m, s);
  d.prefill_matmul_flops = d.matmul_flops;
  if (m.kind == ModelKind::encoder_decoder) {
    // T5 / BART encode the prompt once, then generate with the decoder
    // blocks alone: self-attention, cross-attention and MLP against the
    // encoder's attention and MLP (Raffel et al. 2020, sec. 3.1; half the
    // layers each). A generated token reads and multiplies the decoder's
    // share of the block weights; the prompt passes the encoder's.
    const double a = s.attention_params, f = s.active_mlp_params;
    const double encoder_share = (a + f) / (3 * a + 2 * f);
    const TokenParams tp = token_params(m, s);
    d.matmul_flops = 2 * (tp.linear * (1 - encoder_share) + tp.head);
    d.prefill_matmul_flops = 2 * tp.linear * encoder_share;
    d.weights -= d.weights * encoder_share * std::min(1.0, s.linear_params / std::max(1.0, m.params));
  }
  return d;
}

// A generating model: prefill, then one decode step per generated token.
// Fills `t`'s step and rates; returns the FLOPs of the step on all GPUs.
double generation(const ModelSpec& m, const Workload& w, const Gpu& g, const Rates& rates, int n, Throughput& t) {
  const double peak = rates.peak_flops_per_s;
  const double achieved_rate = rates.achieved_flops_per_s;
  // llama.cpp's batch-1 decode streams at its card's measured share of the
  // datasheet bandwidth (decode_bandwidth.h), not the streaming-copy share.
  const double bandwidth = w.stack == Stack::llama_cpp
                               ? g.memory_bandwidth_bytes_per_s * llama_cpp_decode_bandwidth_share(g.id)
                               : rates.bandwidth_bytes_per_s;
  StepTime& st = t.step;
  const double b = w.micro_batch;
  // Generation: the prompt is processed in one compute-bound pass (prefill);
  // each new token then reads every weight and the KV cache once (decode),
  // bandwidth-bound until the batch is large (Pope et al. 2022, "Efficiently
  // Scaling Transformer Inference", sec. 2). The contract gives seq_len =
  // prompt + generated; without the split we take half and half.
  const ModelShapes s = model_shapes(m);
  // The RL rollout names its completion length (docs/objectives.md).
  const double generated_per_seq =
      w.generated_len > 0 ? std::min(double(w.generated_len), double(w.seq_len)) : generated_tokens_per_sequence(w);
  const double prompt = std::max(0.0, w.seq_len - generated_per_seq);
  const DecodeWork dw = decode_work(m, s, w);
  const double weights = dw.weights;
  const double matmul_flops = dw.matmul_flops;
  const double prefill_matmul_flops = dw.prefill_matmul_flops;
  const double kv_per_token = 2.0 * m.layers * std::max(s.kv_dim, 1.0) * w.kv_cache_bits / 8.0;
  const double mean_context = prompt + generated_per_seq / 2;
  const double prefill_flops = b * prompt * (prefill_matmul_flops + attention_flops_per_token(m, prompt / 2));
  // Weights split across the n GPUs (the memory model's zero3 at
  // inference): tensor-parallel, each does 1/n of every layer at once; or a
  // layer split, each does all of its own layers while the others wait, so
  // the time is one card's (the hop of activations between cards, a few KB
  // per token, is left out). Weights replicated (none, ddp): every card
  // generates its own batch of micro_batch (data parallel).
  const bool split = w.sharding == Sharding::zero3;
  const double parallel = split && tensor_parallel_decode(w) ? n : 1;
  const double replicas = split ? 1 : n;
  const double prefill_seconds = prefill_flops / (achieved_rate * size_efficiency(m)) / parallel;
  // A mixture of experts reads only the experts its batch is routed to
  // (moe.h): a batch-1 token of Qwen3-30B-A3B reads 8 of 128 per layer.
  const MoeDecode moe = moe_decode(m, s, w, weights, b);
  const double decode_bytes = (moe.weight_bytes_read + b * kv_per_token * mean_context) / parallel;
  double decode_memory = decode_bytes / bandwidth;
  if (w.precision == Precision::int8 || w.precision == Precision::nf4 || w.precision == Precision::int4)
    // On the vector unit; a card with no published FP32 figure (Ascend 910B) uses its matrix rate.
    decode_memory += kDequantOpsPerWeight * m.params * moe.read_share / parallel /
                     ((g.tflops.fp32 > 0 ? g.tflops.fp32 * 1e12 : peak));
  const double decode_compute = matmul_flops * b / (achieved_rate * size_efficiency(m)) / parallel;
  const bool graphs = graphs_in_decode(w);
  const double decode_kernels =
      m.layers * (graphs ? kDecodeKernelsPerLayer : kKernelsPerLayerPass) + (graphs ? 0 : moe.eager_loop_kernels);
  // Eager: the host dispatches every kernel of every decode step (and of
  // the prefill pass); a GPU that finishes sooner waits for it.
  const double host_per_pass =
      graphs ? 0
             : (m.layers * kKernelsPerLayerPass + moe.eager_loop_kernels) * (w.torch_compile ? kCompiledKernelShare : 1.0) *
                   kHostSecondsPerKernel;
  // Two all-reduces per layer per token under tensor parallelism: latency-bound.
  const double tp_sync = parallel > 1 ? 2.0 * m.layers * (g.nvlink_bytes_per_s > 0 ? 10e-6 : 30e-6) : 0;
  const double decode_gpu = std::max(decode_memory, decode_compute) + decode_kernels * kKernelTailSeconds;
  const double decode_step = std::max(decode_gpu, host_per_pass) + tp_sync;
  st.host_seconds = host_per_pass * (1 + generated_per_seq);
  st.compute_seconds = prefill_seconds + generated_per_seq * decode_compute;
  st.memory_seconds = generated_per_seq * decode_memory;
  st.kernel_tail_seconds = generated_per_seq * decode_kernels * kKernelTailSeconds;
  st.communication_seconds = generated_per_seq * tp_sync;
  st.exposed_communication_seconds = st.communication_seconds;
  st.gpu_seconds = prefill_seconds + generated_per_seq * (decode_gpu + tp_sync);
  t.step_seconds = std::max(prefill_seconds, host_per_pass) + generated_per_seq * decode_step;
  const double generated = replicas * b * generated_per_seq;
  const double flops = replicas * prefill_flops + generated * matmul_flops;
  t.weight_bytes = weights;
  t.samples_per_s = replicas * b / t.step_seconds;
  t.tokens_per_s = generated / t.step_seconds;
  t.bandwidth_bound = decode_memory > decode_compute;
  return flops;
}

}  // namespace

Throughput infer_throughput(const ModelSpec& m, const Workload& as_given, const Gpu& g, int n) {
  if (is_diffusion_pipeline(m)) return diffusion_throughput(m, as_given, g, n);
  // An encoder's batch is padded like a training batch; generation is not.
  const Workload w = m.kind == ModelKind::encoder ? as_computed(as_given) : as_given;
  Throughput t;
  Rates rates;
  if (!rates_for(m, w, g, t, rates)) return t;
  const double flops = m.kind == ModelKind::cnn || m.kind == ModelKind::encoder
                           ? forward_batches(m, w, as_given, rates, n, t)
                           : generation(m, w, g, rates, n, t);
  const double peak = rates.peak_flops_per_s;
  StepTime& st = t.step;
  if (m.kind == ModelKind::cnn || m.kind == ModelKind::encoder) t.bandwidth_bound = st.memory_seconds > st.compute_seconds;
  t.utilization = flops / (t.step_seconds * peak * n);
  t.achieved_tflops = t.peak_tflops * t.utilization;
  return t;
}

}  // namespace gpuplan::time_model
