// The reverse questions' search, shared by evaluation.cpp (the cached probes)
// and the tests' plain oracle (tests/core/fit_limits_oracle.h): both take the
// same probes in the same order, so their answers are identical.
#pragma once

namespace gpuplan {

// Largest value in [1, limit] for which fits(value) holds, given that memory
// grows with it (every memory term is non-decreasing in batch and length);
// 0 when even 1 does not fit. Bisection: about 25 probes.
template <class Fits>
int largest_fitting(int limit, Fits fits) {
  if (!fits(1)) return 0;
  int lo = 1, hi = limit;
  if (fits(hi)) return hi;
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace gpuplan
