// (Over 500 lines on purpose: one step-time model whose terms share the card's
// figures; the model arithmetic and sustained rates it reads are their own files.)
// Training and inference speed as a step-time model: the work (FLOPs, bytes
// moved, kernels launched, bytes communicated) over the card's figures for the
// precision actually used. Every formula, constant and its source, and the
// calibration report: docs/time-model.md.
#include "gpuplan/throughput.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/memory.h"
#include "gpuplan/model_arithmetic.h"
#include "estimate/diffusion.h"
#include "estimate/generation.h"
#include "estimate/moe.h"
#include "estimate/objective.h"
#include "estimate/step_costs.h"
#include "estimate/vlm.h"
#include "estimate/sustained_rates.h"
#include "estimate/token_counts.h"

namespace gpuplan {
namespace {

// ---- Achieved fractions of the datasheet figures --------------------------
// Fitted once on the visible published measurements (tests/data/
// throughput_cases.json, docs/time-model.md "Calibration") and rounded; each
// sits inside the range that microbenchmarks allow, cited next to it.

// Dense GEMM at transformer sizes on tensor cores. Pure-GEMM ceilings measured
// by stas00/ml-engineering "MAMF" (compute/accelerator/README.md): A100 SXM
// 0.87, H100 SXM 0.80 of the bf16 peak; real layers add shape losses.
constexpr double kTensorEfficiency = 0.68;
// TF32 GEMM/convolution: NVIDIA DeepLearningExamples show TF32 runs reach a
// smaller share of their (8x FP32) peak than AMP runs reach of theirs.
constexpr double kTf32Efficiency = 0.53;
// FP32 on CUDA cores: SGEMM reaches ~90 % of peak (cuBLAS); no tensor-core shape losses.
constexpr double kFp32Efficiency = 0.88;
// Convolutions (cuDNN implicit GEMM) relative to the GEMM fraction above.
constexpr double kConvRelativeEfficiency = 0.90;
// Small matrices fill the card poorly: efficiency x hidden / (hidden + 200).
// A GEMM's arithmetic intensity and tile occupancy grow with its inner size;
// 200 is fitted (GPT-3 125M at hidden 768 vs 2.7B at 2560 in the flash-attention runs).
constexpr double kHalfEfficiencyHidden = 200;
// Sustained share of the datasheet memory bandwidth for streaming kernels
// (STREAM-like copies reach 80-90 % on HBM and GDDR cards).
constexpr double kBandwidthEfficiency = 0.80;

// ---- Memory traffic --------------------------------------------------------
// Training streams the bytes the memory model counts as saved per token and
// layer (saved_bytes_per_token_layer, gpuplan/memory.h). An encoder's
// inference pass, which saves nothing, writes and reads Korthikanti et al.'s
// per-layer tensors (2022, "Reducing Activation Recomputation in Large
// Transformer Models", section 4.1): 34·h + 5·a·s bytes at 16 bits;
// FlashAttention never stores the a·s scores.
constexpr double kSavedBytesPerHiddenPerToken = 34;
constexpr double kScoreBytesPerHeadPerToken = 5;
// Each saved byte moves ~6 times in eager frameworks: written and read back by
// the unfused element-wise kernels of the forward pass, read in the backward
// pass, and its gradient written and read. Fitted: 6.9, rounded to 6.
constexpr double kActivationPasses = 6;
// torch.compile (Inductor) fuses chains of element-wise kernels into their
// neighbours: about half the passes over activations and ~40 % of the kernels
// remain. An assumption from how Inductor fuses, not fitted: no visible case
// states compile in its request.
constexpr double kCompiledActivationPasses = 3;
constexpr double kCompiledKernelShare = 0.4;
// QLoRA dequantizes every NF4 weight to bf16 per use: read 0.5 B (+ scales),
// write 2 B, read 2 B (bitsandbytes dequantize_4bit before each matmul).
constexpr double kQloraDequantBytesPerParam = 4.5;
// Weight-only int8/int4 inference dequantizes on CUDA cores: FP32 operations
// per weight per decode step. Fitted on gpt-fast int8/int4 Llama rows: 3.
constexpr double kDequantOpsPerWeight = 3;

// ---- Kernels and the host ---------------------------------------------------
// Eager PyTorch launches ~40 kernels per transformer layer per pass (matmuls,
// bias, norms, dropout, activation, reshapes, autocast casts); backward ~2x.
constexpr double kKernelsPerLayerPass = 40;
// Ramp-up and tail of a kernel on the GPU (partial last wave), seconds.
constexpr double kKernelTailSeconds = 4e-6;
// Host-side dispatch per kernel in eager PyTorch with autograd (Python,
// dispatcher, autocast): 10-40 µs on cloud CPUs. Fitted: 27 µs. When the GPU
// finishes its work faster than the host can issue it, the host sets the pace.
constexpr double kHostSecondsPerKernel = 27e-6;
// A ResNet-50-sized CNN: conv + batch-norm + activation + residual kernels per pass.
constexpr double kCnnKernelsPerPass = 170;
// cuDNN's tensor-core convolutions work on NHWC tensors; PyTorch's default
// layout is NCHW, so each convolution on tensor cores transposes its input in
// and its output back, and in backward the incoming gradient in and the
// outgoing one back (NVIDIA, "Convolutional Layers User's Guide", tensor
// layouts; MosaicML Composer "Channels Last" method card: "every time a
// convolution operation is called ... the cuDNN library performs a transpose",
// and channels-last speeds ResNet-50 on ImageNet up "by about 30 % on NVIDIA
// V100 and A100"). A transpose reads and writes its tensor: 2 moves per
// element of each convolution's input and output per pass (forward; backward
// again for the gradients). CUDA-core FP32 convolutions run NCHW natively.
constexpr double kTransposeMovesPerConvElementPass = 2;
// Decode steps run under CUDA graphs or compiled engines (vLLM, TensorRT-LLM,
// gpt-fast, llama.cpp): kernels per layer with no host cost.
constexpr double kDecodeKernelsPerLayer = 10;

// ---- Software stack (docs/time-model.md, "Software stack") ------------------
// Training on an `optimized` stack (torch.compile / Inductor, Liger, unsloth,
// apex and the fused kernels of NVIDIA's NGC containers) fuses chains of
// element-wise kernels: the compile figures above (half the passes over
// activations, 40 % of the kernels). The serving classes (vllm, llama.cpp)
// count as optimized if they train.
// A CNN's convolutions, batch norms and activations stay separate cuDNN
// kernels in eager PyTorch whatever the stack around them (NVIDIA's
// DeepLearningExamples gain from DALI and channels-last, not from fusion):
// only torch.compile fuses them.
bool fused_kernels(const ModelSpec& m, const Workload& w) {
  if (m.kind == ModelKind::cnn) return w.torch_compile;
  return w.torch_compile || w.stack != Stack::eager;
}
// Every stack but eager replays decode steps as CUDA graphs: gpt-fast
// (torch.compile mode="reduce-overhead"), vLLM and TensorRT-LLM (captured
// decode graphs), llama.cpp (CUDA graphs since 2024). Eager `generate()`
// dispatches each kernel from Python every token, so a small batch waits for
// the host: the PyTorch team's "GPT, Fast" blog (2023) measures Llama-2-7B
// at batch 1 on an A100 at 25.5 tokens/s in eager mode ("CPU overhead
// bound") against 107 with compile and CUDA graphs. The eager floor is the
// training figures' 40 kernels per layer at 27 µs each: 34.6 ms per token
// for 32 layers, 29 tokens/s (tests/data/throughput_cases.json, pt-gpt-fast-blog).
bool graphs_in_decode(const Workload& w) { return w.stack != Stack::eager; }


// ---- Padding (docs/time-model.md, "Padding") --------------------------------
// The length a step computes at: seq_len when samples fill it or are packed;
// otherwise dynamic padding to the longest sample of each micro-batch (HF
// DataCollatorWithPadding and the TRL / LLaMA-Factory collators), with sample
// lengths taken as uniform around mean_seq_len and capped at seq_len: the
// expected longest of b uniform draws on [lo, hi] is lo + (hi - lo)·b/(b+1).
// A length-grouped loader (data.length_bin: NVIDIA LDDL's sequence bins, 64
// tokens wide in DeepLearningExamples' BERT phase 2) draws a micro-batch from
// one bin and pads it to the bin's top: a sample sits on average half a bin
// below it, so the step computes at mean + bin/2 whatever the batch size.
double padded_seq_len(const Workload& w) {
  if (w.packing || w.mean_seq_len <= 0 || w.mean_seq_len >= w.seq_len) return w.seq_len;
  const double mean = w.mean_seq_len;
  if (w.length_bin > 0) return std::min(double(w.seq_len), mean + w.length_bin / 2.0);
  const double hi = std::min(double(w.seq_len), 2 * mean);
  const double lo = 2 * mean - hi;
  const double b = std::max(1, w.micro_batch);
  return lo + (hi - lo) * b / (b + 1);
}

// Tokens of real data in one sample (a packed row is full).
double real_tokens_per_sample(const Workload& w) {
  return (w.mean_seq_len > 0 && !w.packing) ? double(w.mean_seq_len) : double(w.seq_len);
}

// Generation: the contract's seq_len is prompt + generated; without the
// split, half and half.
double generated_tokens_per_sequence(const Workload& w) { return std::max(1, w.seq_len / 2); }

// The workload at the length its steps compute at.
Workload as_computed(const Workload& w) {
  Workload c = w;
  c.seq_len = std::max(1, int(std::lround(padded_seq_len(w))));
  return c;
}

// ---- Optimizer -------------------------------------------------------------
// Bytes read and written per trainable parameter per optimizer step with fp32
// master weights (AdamW: read p, g, m, v; write p, m, v; + half copy of p and g).
double optimizer_bytes_per_param(Optimizer o, Precision p) {
  double bytes = 32;
  switch (o) {
    case Optimizer::adamw: bytes = 32; break;
    case Optimizer::adamw_8bit: bytes = 20; break;
    case Optimizer::sgd: bytes = 12; break;
    case Optimizer::sgd_momentum: bytes = 20; break;
    case Optimizer::adafactor: bytes = 16; break;
  }
  return p == Precision::bf16_true ? bytes / 2 : bytes;  // every state in bf16
}
// DeepSpeed CPU Adam (AVX) streams host memory at tens of GB/s.
constexpr double kHostOptimizerBytesPerS = 40e9;

// ---- Interconnect ----------------------------------------------------------
// Achieved NCCL bus bandwidth as a share of the per-direction link rate.
// NVLink / NVSwitch: all_reduce_perf reaches ~230 of 300 GB/s on DGX A100.
constexpr double kNvlinkEfficiency = 0.75;
// PCIe with peer-to-peer (data-centre and workstation cards).
constexpr double kPcieP2pEfficiency = 0.80;
// GeForce cards have peer-to-peer disabled (nccl-tests issue #117: "CANNOT
// Access Peer"); NCCL stages through host memory and reaches a small share of
// the link (NVIDIA/nccl issues #1639, nccl-tests #270). Fitted on the torchtune
// 2x / 4x RTX 4090 FSDP rows: 0.2.
constexpr double kPcieHostStagedEfficiency = 0.20;
// Beyond one 8-GPU node: 100 Gb/s of network per GPU (a common cloud fabric).
constexpr double kInterNodeBytesPerS = 12.5e9;
// DDP overlaps the gradient all-reduce with the backward pass (bucketing,
// PyTorch DDP design note); ZeRO-3 / FSDP gathers showed no net overlap on
// the visible runs, so none is assumed.
constexpr double kBackwardShareOfCompute = 2.0 / 3.0;
// The last gradient bucket can only be reduced after the backward pass ends:
// PyTorch DDP's default bucket_cap_mb is 25 (torch.nn.parallel.DistributedDataParallel docs).
constexpr double kLastBucketBytes = 25.0 * 1024 * 1024;
// Overlapped communication is not free: NCCL kernels take SMs and memory
// bandwidth from the backward pass it overlaps (Li et al. 2020, "PyTorch
// Distributed", VLDB, sec. 5: overlap hides most but not all of the
// all-reduce). Assumed: a quarter of the hidden time still shows. Not fitted.
constexpr double kOverlapInterference = 0.25;

double pcie_bytes_per_s(int gen) {
  // x16, per direction: gen3 8 GT/s, gen4 16, gen5 32, 128b/130b encoding.
  if (gen <= 3) return 15.75e9;
  if (gen == 4) return 31.5e9;
  return 63.0e9;
}

double link_bytes_per_s(const Gpu& g, int n, int machine_gpus) {
  double intra = g.nvlink_bytes_per_s > 0
                     ? g.nvlink_bytes_per_s / 2 * kNvlinkEfficiency
                     : pcie_bytes_per_s(g.pcie_gen) *
                           (g.segment == Segment::consumer ? kPcieHostStagedEfficiency : kPcieP2pEfficiency);
  // A ring across machines runs at its slowest hop: the network, or the link
  // inside a machine where that is slower (a GeForce host's host-staged PCIe
  // is below 100 Gb/s). Inter-node is never faster than intra-node (issue #13).
  if (n > std::max(1, machine_gpus)) return std::min(kInterNodeBytesPerS, intra);
  return intra;
}

// Precision → unit. fp32 runs on TF32 tensor cores where they exist unless the
// request says TF32 is off (workload.tf32): cuDNN convolutions allow TF32 by
// default, NGC containers and PyTorch <= 1.11 do for matmuls too; since 1.12
// plain PyTorch matmuls need allow_tf32 / set_float32_matmul_precision("high")
// / HF --tf32. CNNs keep TF32 either way (cuDNN's default).
ComputeUnit unit_for(const Gpu& g, const ModelSpec& m, const Workload& w) {
  const auto& t = g.tflops;
  switch (w.precision) {
    case Precision::fp32:
      return t.tf32 > 0 && (w.tf32 || m.kind == ModelKind::cnn) ? ComputeUnit::tf32_tensor : ComputeUnit::fp32_cuda;
    case Precision::fp16_mixed:
    case Precision::fp16: return t.fp16_tensor > 0 ? ComputeUnit::fp16_tensor : ComputeUnit::fp32_cuda;
    case Precision::bf16_mixed:
    case Precision::bf16_true:
    case Precision::bf16:
      // Cards without bf16 tensor cores (Volta, Turing) run bf16 at best at the FP32 rate.
      return t.bf16_tensor > 0 ? ComputeUnit::bf16_tensor : ComputeUnit::fp32_cuda;
    case Precision::int8:
    case Precision::nf4:
    case Precision::int4:
      // Weight-only formats dequantize to 16 bits and multiply on the half-precision unit.
      if (t.bf16_tensor > 0) return ComputeUnit::bf16_tensor;
      return t.fp16_tensor > 0 ? ComputeUnit::fp16_tensor : ComputeUnit::fp32_cuda;
  }
  return ComputeUnit::fp32_cuda;
}

double unit_tflops(const Gpu& g, ComputeUnit u) {
  switch (u) {
    case ComputeUnit::fp32_cuda: return g.tflops.fp32;
    case ComputeUnit::tf32_tensor: return g.tflops.tf32;
    case ComputeUnit::fp16_tensor: return g.tflops.fp16_tensor;
    case ComputeUnit::bf16_tensor: return g.tflops.bf16_tensor;
  }
  return g.tflops.fp32;
}

double unit_efficiency(ComputeUnit u) {
  switch (u) {
    case ComputeUnit::fp32_cuda: return kFp32Efficiency;
    case ComputeUnit::tf32_tensor: return kTf32Efficiency;
    case ComputeUnit::fp16_tensor:
    case ComputeUnit::bf16_tensor: return kTensorEfficiency;
  }
  return kFp32Efficiency;
}

// Bytes per activation element, per weight, parameter counts and FLOPs: the
// shared model arithmetic (gpuplan/model_arithmetic.h).
double activation_bytes(Precision p) { return activation_element_bytes(p); }

struct Work {
  double flops = 0;           // per GPU per step
  double compute_seconds = 0;
  double memory_seconds = 0;
  double kernels = 0;
  double trainable = 0;       // parameters the optimizer updates
};

double size_efficiency(const ModelSpec& m) {
  return m.hidden > 0 ? m.hidden / (m.hidden + kHalfEfficiencyHidden) : 1.0;
}

// Bytes the NCHW <-> NHWC transposes around tensor-core convolutions move per
// micro-batch (0 for channels_last tensors or CUDA-core FP32).
double cnn_transpose_bytes(const ModelSpec& m, const Workload& w, ComputeUnit unit, bool train) {
  if (w.channels_last || unit == ComputeUnit::fp32_cuda) return 0;
  const double area = std::pow(double(w.image_size) / std::max(1, m.reference_image_size), 2);
  const double passes = train ? 2 : 1;  // forward; backward: the gradients of the same tensors
  return kTransposeMovesPerConvElementPass * passes * cnn_conv_io_elements_per_sample(m) * area * w.micro_batch *
         activation_bytes(w.precision);
}

Work cnn_work(const ModelSpec& m, const Workload& w, ComputeUnit unit, double rate_flops, double bandwidth, bool train) {
  Work k;
  const double area = std::pow(double(w.image_size) / std::max(1, m.reference_image_size), 2);
  // Training: 3 x forward (2 x with frozen weights, +1 recomputed) plus the
  // frozen VAE's encode of a diffusion step (model_arithmetic.h); at 512 px
  // the VAE encode is more MACs than one UNet forward (docs/memory-model.md,
  // "Convolutional and diffusion networks").
  k.flops = train ? train_flops_per_micro_batch(m, w) : cnn_forward_flops_per_sample(m, w) * w.micro_batch;
  k.compute_seconds = k.flops / (rate_flops * kConvRelativeEfficiency);
  // activation_bytes_per_sample is the fp32 training footprint at the reference size.
  const double elements = m.activation_bytes_per_sample / 4 * area * w.micro_batch;
  const double passes = train ? (fused_kernels(m, w) ? kCompiledActivationPasses : kActivationPasses)
                              : 2;  // inference: written once, read once
  k.memory_seconds = (passes * elements * activation_bytes(w.precision) + cnn_transpose_bytes(m, w, unit, train)) / bandwidth;
  // A diffusion pipeline's UNet or DiT launches the kernels its expansion
  // counts (an SD 1.5 UNet about 1 000 per pass: at batch 1 the host sets
  // the pace); other presets the ResNet-50 figure.
  const double per_pass = is_diffusion_pipeline(m) && cnn_kernels_per_pass(m) > 0 ? cnn_kernels_per_pass(m)
                                                                                   : kCnnKernelsPerPass;
  k.kernels = per_pass * (train ? 3 : 1) * (fused_kernels(m, w) ? kCompiledKernelShare : 1.0);
  // QLoRA on a diffusion transformer or UNet (diffusers with a
  // bitsandbytes-NF4 base) dequantizes each linear's weight before every use,
  // as for a transformer: forward, backward, and the recomputed forward.
  if (train && w.method == Method::qlora && is_diffusion_pipeline(m))
    k.memory_seconds += m.params * kQloraDequantBytesPerParam * (w.grad_checkpointing ? 3 : 2) / bandwidth;
  k.trainable = train ? trainable_params(m, w) : 0;
  return k;
}

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

Work transformer_train_work(const ModelSpec& m, const Workload& w, double rate_flops, double bandwidth) {
  Work k;
  const ModelShapes s = model_shapes(m);
  const double tokens = double(w.micro_batch) * w.seq_len;
  const bool ckpt = w.grad_checkpointing;
  // Model FLOPs per token: 6 per weight (4 frozen), attention x3, recomputation
  // and causal FlashAttention's skipped half (model_arithmetic.h).
  k.flops = tokens * train_flops_per_token(m, s, w);
  k.compute_seconds = k.flops / (rate_flops * size_efficiency(m));
  // The bytes the memory model counts as saved, per tensor (autocast's fp32
  // norms and softmax, gated MLPs, GQA, dropout masks, the eager score matrix).
  const double per_token_layer = saved_bytes_per_token_layer(m, w);
  const double passes = (fused_kernels(m, w) ? kCompiledActivationPasses : kActivationPasses) * (ckpt ? 4.0 / 3.0 : 1.0);
  k.memory_seconds = passes * tokens * m.layers * per_token_layer / bandwidth;
  if (w.method == Method::qlora)
    k.memory_seconds += s.linear_params * kQloraDequantBytesPerParam * (ckpt ? 3 : 2) / bandwidth;
  k.kernels = m.layers * kKernelsPerLayerPass * (3 + (ckpt ? 1 : 0)) * (fused_kernels(m, w) ? kCompiledKernelShare : 1.0);
  // Mixture of experts (moe.h): each hit expert's weights are read per pass
  // whatever its few tokens; where those reads outlast the experts'
  // arithmetic the small GEMMs are bandwidth-bound (the roofline, Williams
  // et al. 2009), and the eager loop launches each expert's kernels.
  // PEFT's adapter modules and the fp32 cross-entropy (step_costs.h):
  // separate element-wise kernels in eager stacks, fused away otherwise.
  if (!fused_kernels(m, w)) {
    k.memory_seconds += tokens * (lora_adapter_bytes_per_token(m, s, w) + cross_entropy_bytes_per_token(m, w)) / bandwidth;
    k.kernels += lora_adapter_kernels(m, w);
  }
  const ExpertLoopWork loop = expert_loop_work(m, s, w, fused_kernels(m, w));
  k.memory_seconds += std::max(0.0, loop.weight_bytes_read / bandwidth -
                                        loop.expert_flops / (rate_flops * size_efficiency(m)));
  k.kernels += loop.extra_kernels;
  k.trainable = trainable_params(m, w);
  return k;
}

// Bytes one GPU sends per step for data parallelism (ring collectives move
// 2(N-1)/N of the buffer for an all-reduce, (N-1)/N for a gather or scatter;
// NCCL docs, "Performance" / nccl-tests PERFORMANCE.md).
struct CommunicationBytes {
  double per_micro_batch = 0;   // ZeRO-3 parameter gathers: every forward and backward
  double per_optimizer_step = 0;  // gradient reduction: once per accumulation cycle (no_sync)
};

CommunicationBytes communication_bytes(const ModelSpec& m, const Workload& w, double trainable, int n) {
  CommunicationBytes c;
  if (n <= 1) return c;
  const double ring = double(n - 1) / n;
  if (w.sharding == Sharding::zero3) {
    if (w.method == Method::full) {
      // Parameters gathered for forward and backward, gradients reduce-scattered:
      // 3 x (N-1)/N x parameter bytes = 1.5 x the DDP volume (Rajbhandari et al. 2020, ZeRO, sec. 7.2.2).
      const double param_bytes = w.precision == Precision::fp32 ? 4 : 2;
      c.per_micro_batch = 2 * ring * m.params * param_bytes;
      c.per_optimizer_step = ring * m.params * param_bytes;
      return c;
    }
    // Frozen base weights gathered for forward and backward, in the bytes
    // the memory model holds them in (QLoRA: NF4 linears, bf16 embeddings);
    // adapter gradients are tiny.
    const double frozen_bytes = w.method == Method::qlora ? qlora_base_bytes(m, model_shapes(m))
                                                          : m.params * activation_bytes(w.precision);
    c.per_micro_batch = 2 * ring * frozen_bytes;
    c.per_optimizer_step = 2 * ring * trainable * 4;
    return c;
  }
  // DDP all-reduces gradients in the parameters' dtype (fp32 master weights
  // under AMP); DeepSpeed ZeRO-1/2 reduce half-precision gradients.
  double grad_bytes = 4;
  if (w.precision == Precision::bf16_true) grad_bytes = 2;
  else if (w.precision != Precision::fp32 && (w.sharding == Sharding::zero1 || w.sharding == Sharding::zero2))
    grad_bytes = 2;
  c.per_optimizer_step = 2 * ring * trainable * grad_bytes;
  return c;
}

bool sharded_optimizer(Sharding s) { return s == Sharding::zero1 || s == Sharding::zero2 || s == Sharding::zero3; }

// The rates a step is timed against: the unit the precision runs on, its
// achievable FLOP/s and the achievable memory bandwidth. Records the unit and
// peak on `t`; false when the card has no figure for either.
struct Rates {
  double peak_flops_per_s = 0;
  double achieved_flops_per_s = 0;
  double bandwidth_bytes_per_s = 0;
};

bool rates_for(const ModelSpec& m, const Workload& w, const Gpu& g, Throughput& t, Rates& r) {
  const ComputeUnit unit = unit_for(g, m, w);
  const double peak = unit_tflops(g, unit) * 1e12;
  r.bandwidth_bytes_per_s = g.memory_bandwidth_bytes_per_s * kBandwidthEfficiency;
  r.peak_flops_per_s = peak;
  t.unit = unit;
  t.peak_tflops = peak / 1e12;
  if (peak <= 0 || r.bandwidth_bytes_per_s <= 0) return false;
  // What this card sustains relative to the A100 the efficiencies were fitted on (sustained_rates.h).
  r.achieved_flops_per_s = peak * unit_efficiency(unit) * sustained_rate_factor(g.id, unit);
  return true;
}

Throughput train_throughput(const ModelSpec& m, const Workload& as_given, const Gpu& g, int n) {
  // Steps compute at the padded length; tokens/s counts real tokens.
  const Workload w = as_computed(as_given);
  Throughput t;
  Rates rates;
  if (!rates_for(m, w, g, t, rates)) return t;
  const double peak = rates.peak_flops_per_s;
  const double achieved_rate = rates.achieved_flops_per_s;
  const double bandwidth = rates.bandwidth_bytes_per_s;
  Work k = m.kind == ModelKind::cnn ? cnn_work(m, w, t.unit, achieved_rate, bandwidth, true)
                                    : transformer_train_work(m, w, achieved_rate, bandwidth);
  if (k.flops <= 0) return t;

  StepTime& st = t.step;
  // Averages per micro-batch: the optimizer step and the gradient reduction
  // happen once per `grad_accumulation` micro-batches (HF Trainer / Accelerate
  // skip DDP's all-reduce with no_sync until the last one).
  const double accumulation = std::max(1, w.grad_accumulation);
  st.compute_seconds = k.compute_seconds;
  st.memory_seconds = k.memory_seconds;
  const double opt_bytes = k.trainable * optimizer_bytes_per_param(w.optimizer, w.precision);
  const double opt_share = sharded_optimizer(w.sharding) ? 1.0 / n : 1.0;
  if (w.cpu_offload) {
    // Optimizer on the host; gradients down and parameters up over PCIe.
    st.optimizer_seconds = opt_bytes * opt_share / kHostOptimizerBytesPerS +
                           k.trainable * opt_share * 4 / (pcie_bytes_per_s(g.pcie_gen) * kPcieP2pEfficiency);
  } else {
    st.optimizer_seconds = opt_bytes * opt_share / bandwidth;
  }
  st.optimizer_seconds /= accumulation;
  st.kernel_tail_seconds = k.kernels * kKernelTailSeconds;
  st.gpu_seconds = st.compute_seconds + st.memory_seconds + st.optimizer_seconds + st.kernel_tail_seconds;
  st.host_seconds = k.kernels * kHostSecondsPerKernel;
  const CommunicationBytes bytes = communication_bytes(m, w, k.trainable, n);
  const double link = link_bytes_per_s(g, n, w.machine_gpus);
  const double reduce_seconds = bytes.per_optimizer_step / link;  // once per optimizer step
  double exposed_reduce = reduce_seconds;
  if (w.sharding != Sharding::zero3 && reduce_seconds > 0) {
    // Hidden behind the backward pass of the last micro-batch.
    const double window = kBackwardShareOfCompute * st.compute_seconds;
    const double last_bucket = std::min(reduce_seconds, kLastBucketBytes / link);
    const double hidden = std::min(std::max(0.0, reduce_seconds - last_bucket), window);
    exposed_reduce = reduce_seconds - hidden + kOverlapInterference * hidden;
  }
  const double gather_seconds = bytes.per_micro_batch / link;
  st.communication_seconds = gather_seconds + reduce_seconds / accumulation;
  st.exposed_communication_seconds = gather_seconds + exposed_reduce / accumulation;

  const double one_gpu_micro = std::max(st.gpu_seconds, st.host_seconds);
  const double micro_seconds = one_gpu_micro + st.exposed_communication_seconds;
  t.step_seconds = micro_seconds * accumulation;
  t.samples_per_s = double(n) * w.micro_batch / micro_seconds;
  t.tokens_per_s = m.kind == ModelKind::cnn ? 0 : t.samples_per_s * real_tokens_per_sample(as_given);
  t.scaling_efficiency = n > 1 ? one_gpu_micro / micro_seconds : 1.0;
  t.utilization = k.flops / (micro_seconds * peak);
  t.achieved_tflops = t.peak_tflops * t.utilization;
  t.bandwidth_bound = st.memory_seconds + st.optimizer_seconds > st.compute_seconds;
  t.trainable_params = k.trainable;
  return t;
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

Throughput infer_throughput(const ModelSpec& m, const Workload& as_given, const Gpu& g, int n) {
  if (is_diffusion_pipeline(m)) return diffusion_throughput(m, as_given, g, n);
  // An encoder's batch is padded like a training batch; generation is not.
  const Workload w = m.kind == ModelKind::encoder ? as_computed(as_given) : as_given;
  Throughput t;
  Rates rates;
  if (!rates_for(m, w, g, t, rates)) return t;
  const double peak = rates.peak_flops_per_s;
  const double achieved_rate = rates.achieved_flops_per_s;
  const double bandwidth = rates.bandwidth_bytes_per_s;
  StepTime& st = t.step;
  const double b = w.micro_batch;
  double flops = 0;
  double generated = 0;

  if (m.kind == ModelKind::cnn || m.kind == ModelKind::encoder) {
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
    flops = k.flops * n;
    st.compute_seconds = k.compute_seconds;
    st.memory_seconds = k.memory_seconds;
    st.kernel_tail_seconds = k.kernels * kKernelTailSeconds;
    st.gpu_seconds = st.compute_seconds + st.memory_seconds + st.kernel_tail_seconds;
    st.host_seconds = k.kernels * kHostSecondsPerKernel;
    t.step_seconds = std::max(st.gpu_seconds, st.host_seconds);
    t.samples_per_s = n * b / t.step_seconds;
    t.tokens_per_s = m.kind == ModelKind::cnn ? 0 : t.samples_per_s * real_tokens_per_sample(as_given);
  } else {
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
    // Each decode step reads every resident weight once (the memory model's
    // figure for the format) and the cache; a token's matmuls pass through
    // its routed experts only.
    double weights = inference_weight_bytes(m, s, w.precision, w.stack);
    double matmul_flops = forward_matmul_flops_per_token(m, s);
    double prefill_matmul_flops = matmul_flops;
    if (m.kind == ModelKind::encoder_decoder) {
      // T5 / BART encode the prompt once, then generate with the decoder
      // blocks alone: self-attention, cross-attention and MLP against the
      // encoder's attention and MLP (Raffel et al. 2020, sec. 3.1; half the
      // layers each). A generated token reads and multiplies the decoder's
      // share of the block weights; the prompt passes the encoder's.
      const double a = s.attention_params, f = s.active_mlp_params;
      const double encoder_share = (a + f) / (3 * a + 2 * f);
      const TokenParams tp = token_params(m, s);
      matmul_flops = 2 * (tp.linear * (1 - encoder_share) + tp.head);
      prefill_matmul_flops = 2 * tp.linear * encoder_share;
      weights -= weights * encoder_share * std::min(1.0, s.linear_params / std::max(1.0, m.params));
    }
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
    generated = replicas * b * generated_per_seq;
    flops = replicas * prefill_flops + generated * matmul_flops;
    t.weight_bytes = weights;
    t.samples_per_s = replicas * b / t.step_seconds;
    t.tokens_per_s = generated / t.step_seconds;
    t.bandwidth_bound = decode_memory > decode_compute;
  }
  if (m.kind == ModelKind::cnn || m.kind == ModelKind::encoder) t.bandwidth_bound = st.memory_seconds > st.compute_seconds;
  t.utilization = flops / (t.step_seconds * peak * n);
  t.achieved_tflops = t.peak_tflops * t.utilization;
  return t;
}

// The 80 % prediction interval of the rate, as factors on it, from the
// measured / estimated ratios of the published cases of the workload's stack
// class (tests/data/throughput_cases.json): the split-conformal order
// statistics of the 10th and 90th percentiles, the floor((n+1)·0.1)-th and
// ceil((n+1)·0.9)-th of the n ratios (Lei et al. 2018, "Distribution-Free
// Predictive Inference for Regression", sec. 2.2), so that a run no
// calibration saw falls inside with at least the stated probability. Plain
// percentiles covered 74 % of the cases leave-one-source-out; these cover
// 82 % (docs/time-model.md "Range"). The validation test checks the factors
// stay in step with the model. A class with fewer than 8 cases (vllm,
// llama.cpp) takes the pooled figure.
struct RateInterval {
  double low = 1, high = 1;
};
constexpr RateInterval kEagerInterval{0.38, 1.27};      // 34 cases
constexpr RateInterval kOptimizedInterval{0.71, 1.14};  // 69 cases
constexpr RateInterval kPooledInterval{0.63, 1.17};     // all 105

RateInterval rate_interval(Stack stack) {
  switch (stack) {
    case Stack::eager: return kEagerInterval;
    case Stack::optimized: return kOptimizedInterval;
    case Stack::vllm:
    case Stack::llama_cpp: return kPooledInterval;
  }
  return kPooledInterval;
}

}  // namespace

// How a generating model spans several GPUs. Eager transformers places whole
// layers on each card (`device_map="auto"`, accelerate's big-model inference:
// the cards run one after another, "naive pipeline parallelism"), and
// llama.cpp splits by layer by default (`--split-mode layer`): a token still
// passes every layer in turn, so n cards hold the model but decode no faster
// than one. vLLM and the compiled stacks (gpt-fast) shard every layer across
// the cards (tensor parallelism, Shoeybi et al. 2019): each reads 1/n of the
// weights per token, at two all-reduces per layer.
bool tensor_parallel_decode(const Workload& w) { return w.stack == Stack::vllm || w.stack == Stack::optimized; }

std::string_view compute_unit_name(ComputeUnit unit) {
  switch (unit) {
    case ComputeUnit::fp32_cuda: return "fp32";
    case ComputeUnit::tf32_tensor: return "tf32";
    case ComputeUnit::fp16_tensor: return "fp16-tensor";
    case ComputeUnit::bf16_tensor: return "bf16-tensor";
  }
  return "fp32";
}

double peak_tflops_for(const Gpu& gpu, const Workload& workload, ComputeUnit* unit) {
  ModelSpec transformer;  // the unit does not depend on the model except for CNNs
  ComputeUnit u = unit_for(gpu, transformer, workload);
  if (unit) *unit = u;
  return unit_tflops(gpu, u);
}

Throughput estimate_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int gpu_count) {
  const int n = std::max(1, gpu_count);
  // Hooks (docs/vlm.md, docs/objectives.md): each composes plain estimates.
  if (m.kind == ModelKind::vlm) return vlm_throughput(m, w, g, n);
  if (w.mode == Mode::train && w.objective != Objective::sft && m.kind != ModelKind::cnn)
    return objective_throughput(m, w, g, n);
  Throughput t = w.mode == Mode::infer ? infer_throughput(m, w, g, n) : train_throughput(m, w, g, n);
  t.fp32_peak_tflops = g.tflops.fp32;
  if (!(t.samples_per_s > 0) || !std::isfinite(t.samples_per_s) || !std::isfinite(t.utilization)) {
    Throughput empty;
    empty.unit = t.unit;
    empty.peak_tflops = t.peak_tflops;
    empty.fp32_peak_tflops = t.fp32_peak_tflops;
    return empty;
  }
  const RateInterval interval = rate_interval(w.stack);
  t.low_factor = interval.low;
  t.high_factor = interval.high;
  // A measured baseline (request `baseline`) rescales the whole estimate.
  if (w.rate_scale > 0 && w.rate_scale != 1) {
    t.samples_per_s *= w.rate_scale;
    t.tokens_per_s *= w.rate_scale;
    t.step_seconds /= w.rate_scale;
    t.utilization *= w.rate_scale;
    t.achieved_tflops *= w.rate_scale;
    t.baseline_scale = w.rate_scale;
  }
  return t;
}

double counted_tokens_per_sample(const ModelSpec& m, const Workload& w) {
  if (m.kind == ModelKind::cnn) return 0;
  if (w.mode == Mode::infer && m.kind != ModelKind::encoder) return generated_tokens_per_sequence(w);
  return real_tokens_per_sample(w);
}

double job_hours(const ModelSpec& m, const Workload& w, const DataSize& d, const Throughput& t) {
  if (t.samples_per_s <= 0) return 0;
  double seconds = 0;
  if (d.tokens > 0 && m.kind != ModelKind::cnn && t.tokens_per_s > 0) {
    seconds = d.tokens / t.tokens_per_s;
  } else {
    double rows = d.samples * d.epochs;
    // Packed samples of mean_seq_len tokens fill seq_len-token rows.
    if (w.packing && w.mean_seq_len > 0 && m.kind != ModelKind::cnn) rows *= double(w.mean_seq_len) / w.seq_len;
    seconds = rows / t.samples_per_s;
  }
  return seconds / 3600.0;
}

CostEffectiveness cost_effectiveness(const Throughput& t, const Gpu& g, double price_per_gpu_hour) {
  CostEffectiveness c;
  if (!(price_per_gpu_hour > 0)) return c;
  c.workload_precision = t.peak_tflops / price_per_gpu_hour * t.utilization;
  c.fp32_as_seed = g.tflops.fp32 / price_per_gpu_hour * t.utilization;
  return c;
}

double baseline_scale(const ModelSpec& m, const Workload& w, const Gpu& g, int count, double measured_samples_per_s) {
  if (!(measured_samples_per_s > 0)) return 1;
  Workload at = w;
  at.rate_scale = 1;
  at.gpus = std::max(1, count);
  if (at.gpus > 1 && at.sharding == Sharding::none) at.sharding = Sharding::ddp;
  Throughput est = estimate_throughput(m, at, g, at.gpus);
  if (!(est.samples_per_s > 0)) return 1;
  return measured_samples_per_s / est.samples_per_s;
}

// The RL generation phase's view of the figures above (estimate/generation.h).
double sustained_link_bytes_per_s(const Gpu& g, int n, int machine_gpus) { return link_bytes_per_s(g, n, machine_gpus); }
double sustained_memory_bytes_per_s(const Gpu& g) { return g.memory_bandwidth_bytes_per_s * kBandwidthEfficiency; }
double host_seconds_per_kernel() { return kHostSecondsPerKernel; }

}  // namespace gpuplan
