// docs/science.md derives each rule. The time of a compute-bound code scales
// with the peak FLOP rate of the precision it computes in; a bandwidth-bound
// code (stencils, sparse solvers: most CFD and FEM, per the roofline model of
// Williams et al. 2009) scales with memory bandwidth.
#include "gpuplan/science.h"

#include <algorithm>

namespace gpuplan {

double fp64_ratio(const Gpu& g) { return g.tflops.fp32 > 0 ? g.tflops.fp64 / g.tflops.fp32 : 0; }

double science_peak(const ScienceWorkload& w, const Gpu& g) {
  if (w.bound == ScienceBound::bandwidth) return g.memory_bandwidth_bytes_per_s;
  // Mixed single precision (MD) runs on the FP32 CUDA cores; fp64 on the FP64
  // units (vector rate: MD/CFD codes seldom use the FP64 tensor cores).
  double tflops = w.precision == SciencePrecision::fp64 ? g.tflops.fp64 : g.tflops.fp32;
  return tflops * 1e12;
}

double science_speedup(const ScienceWorkload& w, const Gpu& baseline_gpu, const Gpu& gpu) {
  double base_peak = science_peak(w, baseline_gpu);
  return base_peak > 0 ? science_peak(w, gpu) / base_peak : 0;
}

double science_rate(const ScienceWorkload& w, double speedup) {
  return w.baseline.unit == RateUnit::job_hours ? 0 : w.baseline.rate * speedup;
}

double science_hours(const ScienceWorkload& w, double speedup) {
  if (speedup <= 0 || w.baseline.rate <= 0) return 0;
  switch (w.baseline.unit) {
    case RateUnit::ns_per_day: return w.job / (w.baseline.rate * speedup) * 24.0;
    case RateUnit::steps_per_s: return w.job / (w.baseline.rate * speedup) / 3600.0;
    case RateUnit::job_hours: return w.baseline.rate / speedup;
  }
  return 0;
}

}  // namespace gpuplan
