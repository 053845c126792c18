// The time model's shared figures and steps (docs/time-model.md): the
// achieved fractions of the datasheet, the traffic, kernel and interconnect
// constants, the padding and stack rules, and the step pieces the files of
// throughput_*.cpp compute. Private to core/src/estimate/.
#pragma once

#include <algorithm>
#include <cmath>

#include "gpuplan/catalog.h"
#include "gpuplan/model.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/request.h"
#include "gpuplan/throughput.h"

namespace gpuplan::time_model {

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
// (STREAM-like copies reach 80-90 % on HBM and GDDR cards). llama.cpp's
// batch-1 decode uses its card's measured share instead (decode_bandwidth.h).
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
inline bool fused_kernels(const ModelSpec& m, const Workload& w) {
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
inline bool graphs_in_decode(const Workload& w) { return w.stack != Stack::eager; }


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
inline double padded_seq_len(const Workload& w) {
  if (w.packing || w.mean_seq_len <= 0 || w.mean_seq_len >= w.seq_len) return w.seq_len;
  const double mean = w.mean_seq_len;
  if (w.length_bin > 0) return std::min(double(w.seq_len), mean + w.length_bin / 2.0);
  const double hi = std::min(double(w.seq_len), 2 * mean);
  const double lo = 2 * mean - hi;
  const double b = std::max(1, w.micro_batch);
  return lo + (hi - lo) * b / (b + 1);
}

// Tokens of real data in one sample (a packed row is full).
inline double real_tokens_per_sample(const Workload& w) {
  return (w.mean_seq_len > 0 && !w.packing) ? double(w.mean_seq_len) : double(w.seq_len);
}

// Generation: the contract's seq_len is prompt + generated; without the
// split, half and half.
inline double generated_tokens_per_sequence(const Workload& w) { return std::max(1, w.seq_len / 2); }

// The workload at the length its steps compute at.
inline Workload as_computed(const Workload& w) {
  Workload c = w;
  c.seq_len = std::max(1, int(std::lround(padded_seq_len(w))));
  return c;
}

// ---- Optimizer -------------------------------------------------------------
// Bytes a step reads and writes per parameter: estimate/optimizer_states.h.
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

// Bytes per activation element, per weight, parameter counts and FLOPs: the
// shared model arithmetic (gpuplan/model_arithmetic.h).
inline double activation_bytes(Precision p) { return activation_element_bytes(p); }

struct Work {
  double flops = 0;           // per GPU per step
  double compute_seconds = 0;
  double memory_seconds = 0;
  double kernels = 0;
  double trainable = 0;       // parameters the optimizer updates
};

inline double size_efficiency(const ModelSpec& m) {
  return m.hidden > 0 ? m.hidden / (m.hidden + kHalfEfficiencyHidden) : 1.0;
}

// Bytes one GPU sends per step for data parallelism (ring collectives move
// 2(N-1)/N of the buffer for an all-reduce, (N-1)/N for a gather or scatter;
// NCCL docs, "Performance" / nccl-tests PERFORMANCE.md).
struct CommunicationBytes {
  double per_micro_batch = 0;   // ZeRO-3 parameter gathers: every forward and backward
  double per_optimizer_step = 0;  // gradient reduction: once per accumulation cycle (no_sync)
};

inline bool sharded_optimizer(Sharding s) { return s == Sharding::zero1 || s == Sharding::zero2 || s == Sharding::zero3; }

// The rates a step is timed against: the unit the precision runs on, its
// achievable FLOP/s and the achievable memory bandwidth. Records the unit and
// peak on `t`; false when the card has no figure for either.
struct Rates {
  double peak_flops_per_s = 0;
  double achieved_flops_per_s = 0;
  double bandwidth_bytes_per_s = 0;
};

// ---- The step's pieces, one file each ---------------------------------------
// throughput_rates.cpp: the unit a precision runs on and the rates it sustains.
ComputeUnit unit_for(const Gpu& g, const ModelSpec& m, const Workload& w);
double unit_tflops(const Gpu& g, ComputeUnit u);
double unit_efficiency(ComputeUnit u);
bool rates_for(const ModelSpec& m, const Workload& w, const Gpu& g, Throughput& t, Rates& r);
// throughput_work.cpp: FLOPs, activation traffic and kernels of one step.
double cnn_transpose_bytes(const ModelSpec& m, const Workload& w, ComputeUnit unit, bool train);
Work cnn_work(const ModelSpec& m, const Workload& w, ComputeUnit unit, double rate_flops, double bandwidth, bool train);
Work transformer_train_work(const ModelSpec& m, const Workload& w, double rate_flops, double bandwidth);
// throughput_communication.cpp: links and the bytes data parallelism sends.
double pcie_bytes_per_s(int gen);
double link_bytes_per_s(const Gpu& g, int n, int machine_gpus);
CommunicationBytes communication_bytes(const ModelSpec& m, const Workload& w, double trainable, int n);
// throughput_training.cpp and throughput_inference.cpp: a step and its rates.
Throughput train_throughput(const ModelSpec& m, const Workload& as_given, const Gpu& g, int n);
Throughput diffusion_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int n);
Throughput infer_throughput(const ModelSpec& m, const Workload& as_given, const Gpu& g, int n);

}  // namespace gpuplan::time_model
