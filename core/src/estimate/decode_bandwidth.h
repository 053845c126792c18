// What share of a card's datasheet memory bandwidth llama.cpp's batch-1
// decode streams its weights at (docs/time-model.md, "llama.cpp decode"):
// measured per card, not one figure for every card. Published llama-bench
// text generation reaches ~0.88 of GDDR6/GDDR6X peak but ~0.46 of HBM peak,
// so one share for all cards over-predicts A100/H100 decode and under-predicts
// GeForce decode.
#pragma once

#include <string_view>

namespace gpuplan {

// The share for `gpu_id`: its own measured figure where the table has one,
// else the median of the measured cards of its memory class (GDDR or HBM).
double llama_cpp_decode_bandwidth_share(std::string_view gpu_id);

// The card's memory class, as the table groups it: true for HBM (stacked
// memory on an interposer), false for GDDR; every catalog card is listed.
bool has_hbm(std::string_view gpu_id);

// Whether `gpu_id` has a measured figure of its own.
bool has_measured_decode_share(std::string_view gpu_id);

}  // namespace gpuplan
