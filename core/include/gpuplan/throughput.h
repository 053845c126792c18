// How fast a workload runs on a GPU type and count. Formulas, utilization
// model and calibration: docs/time-model.md.
#pragma once

#include "gpuplan/catalog.h"
#include "gpuplan/model.h"
#include "gpuplan/request.h"

namespace gpuplan {

struct Throughput {
  double samples_per_s = 0;  // whole job, all GPUs together
  double tokens_per_s = 0;
  double step_seconds = 0;   // one optimizer step (train) or one batch (infer)
  double low_factor = 1;     // plausible range of the rate, as factors on it
  double high_factor = 1;
  double utilization = 0;    // achieved fraction of the precision's peak
  double scaling_efficiency = 1;  // multi-GPU speed over count x one GPU
};

Throughput estimate_throughput(const ModelSpec& model, const Workload& workload, const Gpu& gpu,
                               int gpu_count);

// Hours to process `data` at `throughput` (0 when data is absent or empty).
double job_hours(const ModelSpec& model, const Workload& workload, const DataSize& data,
                 const Throughput& throughput);

}  // namespace gpuplan
