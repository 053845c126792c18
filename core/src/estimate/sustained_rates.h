// What a card sustains, not what it is rated at: the measured dense matmul
// rate of each GPU type as a share of its datasheet figure, for the
// half-precision tensor unit and for FP32 on CUDA cores (docs/time-model.md,
// "Real cards"). Power- and clock-limited parts (L40S at 350 W, the T4 at
// 70 W, the H100 PCIe at 350 W) sit well below their datasheets; GeForce
// cards run their fp32-accumulate tensor rate at or above the boost-clock
// figure but reach two thirds of the dual-issue FP32 figure.
#pragma once

#include <string_view>

#include "gpuplan/throughput.h"

namespace gpuplan {

// The card's measured share of its datasheet over the reference card's (the
// A100 the efficiencies were fitted on), on `unit`: 1 for a card with no
// measurement (it is then assumed typical), and for TF32.
double sustained_rate_factor(std::string_view gpu_id, ComputeUnit unit);

}  // namespace gpuplan
