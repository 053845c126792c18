// The reverse questions answered the plain way, one bisection per question
// over estimate_memory: the oracle the evaluator's shared, cached searches
// (estimate/evaluation.cpp, Evaluator::limits_at) must equal for every card
// size (evaluation_test.cpp), and the definition the memory tests check the
// edges of fitting against.
#pragma once

#include "estimate/largest_fitting.h"
#include "gpuplan/limits.h"
#include "gpuplan/memory.h"

namespace gpuplan::test {

// The largest micro-batch (at the workload's sequence length) and the longest
// sequence (at its micro-batch) whose total_bytes still fits capacity_bytes;
// 0 when even 1 does not fit; max_seq_len 0 for convolutional nets. Capped at
// the request limits (gpuplan/limits.h).
inline FitLimits fit_limits(const ModelSpec& m, const Workload& w, double capacity_bytes) {
  FitLimits out;
  Workload probe = w;
  out.max_micro_batch = largest_fitting(int(limit::micro_batch.max), [&](int b) {
    probe.micro_batch = b;
    return estimate_memory(m, probe).total_bytes <= capacity_bytes;
  });
  if (m.kind != ModelKind::cnn) {
    probe = w;
    out.max_seq_len = largest_fitting(int(limit::seq_len.max), [&](int s) {
      probe.seq_len = s;
      return estimate_memory(m, probe).total_bytes <= capacity_bytes;
    });
  }
  return out;
}

}  // namespace gpuplan::test
