// The rates a step is timed against: the unit each precision runs on, its
// datasheet figure and what the card sustains (docs/time-model.md, "Units").
#include "estimate/time_model.h"

#include "estimate/sustained_rates.h"

namespace gpuplan::time_model {

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

}  // namespace gpuplan::time_model
