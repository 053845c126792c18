// Training and inference speed from the work (FLOPs, bytes moved) and the
// card's peak for the precision actually used, times an achieved utilization.
// Formulas, calibration and error report: docs/time-model.md.
#include "gpuplan/throughput.h"

#include <algorithm>
#include <cmath>

#include "model_shapes.h"

namespace gpuplan {
namespace {

// Peak rate (FLOP/s) of the unit the workload's precision runs on.
// fp32 training runs matmuls on TF32 tensor cores where they exist (PyTorch
// allows TF32 for cuDNN convolutions by default; we take the tensor rate only
// where it exists and is higher than the CUDA-core rate).
double peak_flops(const Gpu& g, Precision p) {
  const auto& t = g.tflops;
  double tflops = t.fp32;
  switch (p) {
    case Precision::fp32: tflops = t.fp32; break;
    case Precision::fp16_mixed:
    case Precision::fp16: tflops = t.fp16_tensor > 0 ? t.fp16_tensor : t.fp32; break;
    case Precision::bf16_mixed:
    case Precision::bf16_true:
    case Precision::bf16:
      tflops = t.bf16_tensor > 0 ? t.bf16_tensor : (t.fp16_tensor > 0 ? t.fp16_tensor : t.fp32);
      break;
    case Precision::int8:
    case Precision::nf4:
    case Precision::int4: tflops = t.fp16_tensor > 0 ? t.fp16_tensor : t.fp32; break;
  }
  return tflops * 1e12;
}

// Model FLOPs per token of a training step (Kaplan et al. 2020; Narayanan et
// al. 2021): 6·N for the forward and backward matmuls, plus attention scores
// 12·L·h·s (forward 4·L·h·s, backward twice that). LoRA/QLoRA skip the weight
// gradient of frozen matrices: 4·N. Full recomputation adds a forward: +2·N.
double train_flops_per_token(const ModelSpec& m, const Workload& w) {
  if (m.kind == ModelKind::cnn) return 0;
  const ModelShapes s = model_shapes(m);
  double active = s.linear_params - m.layers * (s.mlp_params - s.active_mlp_params) + double(m.vocab) * m.hidden;
  double matmul = w.method == Method::full ? 6 * active : 4 * active;
  double attention = 12.0 * m.layers * m.hidden * w.seq_len;
  if (w.grad_checkpointing) {
    matmul += 2 * active;
    attention += 4.0 * m.layers * m.hidden * w.seq_len;
  }
  return matmul + attention;
}

}  // namespace

Throughput estimate_throughput(const ModelSpec& m, const Workload& w, const Gpu& g, int gpu_count) {
  Throughput t;
  const int n = std::max(1, gpu_count);
  const double peak = peak_flops(g, w.precision);
  // Placeholder utilization until the calibrated model lands (docs/time-model.md).
  t.utilization = 0.35;
  double flops_per_sample;
  if (m.kind == ModelKind::cnn) {
    double area = std::pow(double(w.image_size) / m.reference_image_size, 2);
    flops_per_sample = 3 * m.gflops_per_sample * 1e9 * area;
  } else {
    flops_per_sample = train_flops_per_token(m, w) * w.seq_len;
  }
  if (flops_per_sample <= 0 || peak <= 0) return t;
  double per_gpu_samples = peak * t.utilization / flops_per_sample;
  t.scaling_efficiency = n > 1 ? 0.9 : 1.0;
  t.samples_per_s = per_gpu_samples * n * t.scaling_efficiency;
  t.tokens_per_s = m.kind == ModelKind::cnn ? 0 : t.samples_per_s * w.seq_len;
  t.step_seconds = double(w.micro_batch) * n / t.samples_per_s;
  t.low_factor = 0.7;
  t.high_factor = 1.3;
  return t;
}

double job_hours(const ModelSpec& m, const Workload& w, const DataSize& d, const Throughput& t) {
  if (t.samples_per_s <= 0) return 0;
  double seconds = 0;
  if (d.tokens > 0 && m.kind != ModelKind::cnn && t.tokens_per_s > 0) seconds = d.tokens / t.tokens_per_s;
  else seconds = d.samples * d.epochs / t.samples_per_s;
  (void)w;
  return seconds / 3600.0;
}

}  // namespace gpuplan
