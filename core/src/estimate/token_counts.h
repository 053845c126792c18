// How the time model counts tokens, for the request reader that converts a
// measured tokens/s into samples/s (throughput.cpp defines it).
#pragma once

#include "gpuplan/model.h"
#include "gpuplan/request.h"

namespace gpuplan {

// The tokens Throughput::tokens_per_s counts per sample: real tokens in
// training and encoder inference (mean_seq_len when the data do not fill
// seq_len, seq_len when packed or full), generated tokens in generation
// (half of seq_len); 0 for CNNs.
double counted_tokens_per_sample(const ModelSpec& model, const Workload& workload);

}  // namespace gpuplan
