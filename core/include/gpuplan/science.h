// Scientific computing (molecular dynamics, CFD, finite elements): the work is
// described by the user's own measured baseline, not by a network, and moves
// to another card by the ratio of the resource that bounds it. docs/science.md.
#pragma once

#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/spelling.h"

namespace gpuplan {

enum class ScienceKind { md, cfd, fem, other };
inline constexpr Spelling<ScienceKind> kScienceKindSpellings[] = {
    {ScienceKind::md, "md"}, {ScienceKind::cfd, "cfd"}, {ScienceKind::fem, "fem"}, {ScienceKind::other, "other"}};
static_assert(spells_each_once(kScienceKindSpellings, ScienceKind::other));
// What the code computes in. GROMACS, AMBER (pmemd.cuda SPFP) and OpenMM run
// mixed single precision by default; many CFD/FEM solvers need fp64.
enum class SciencePrecision { fp64, fp32, mixed };
inline constexpr Spelling<SciencePrecision> kSciencePrecisionSpellings[] = {
    {SciencePrecision::fp64, "fp64"}, {SciencePrecision::fp32, "fp32"}, {SciencePrecision::mixed, "mixed"}};
static_assert(spells_each_once(kSciencePrecisionSpellings, SciencePrecision::mixed));
enum class ScienceBound { compute, bandwidth };
inline constexpr Spelling<ScienceBound> kScienceBoundSpellings[] = {
    {ScienceBound::compute, "compute"}, {ScienceBound::bandwidth, "bandwidth"}};
static_assert(spells_each_once(kScienceBoundSpellings, ScienceBound::bandwidth));
// How the baseline rate is measured.
enum class RateUnit { ns_per_day, steps_per_s, job_hours };
inline constexpr Spelling<RateUnit> kRateUnitSpellings[] = {
    {RateUnit::ns_per_day, "ns/day"}, {RateUnit::steps_per_s, "steps/s"}, {RateUnit::job_hours, "hours"}};
static_assert(spells_each_once(kRateUnitSpellings, RateUnit::job_hours));

struct ScienceBaseline {
  std::string gpu;   // catalog id of the card the rate was measured on
  int count = 1;
  double rate = 0;   // in `unit`
  RateUnit unit = RateUnit::ns_per_day;
};

struct ScienceWorkload {
  ScienceKind kind = ScienceKind::md;
  SciencePrecision precision = SciencePrecision::mixed;
  ScienceBound bound = ScienceBound::compute;
  ScienceBaseline baseline;
  double job = 0;             // ns to simulate (ns_per_day) or steps (steps_per_s); ignored for job_hours
  double memory_bytes = 0;    // working set per GPU; 0: unknown (assumed to fit)
};

// One card's answer for a science workload.
struct ScienceResult {
  double speedup = 0;       // over the baseline card
  double rate = 0;          // in the baseline's unit (0 for a job_hours baseline)
  double fp64_ratio = 0;    // the card's FP64 / FP32 peak
  bool fp64_starved = false;  // fp64 compute-bound on a card with FP64 below 1/8 of FP32
};

// The peak of the resource that bounds the code, in its own unit
// (FLOP/s for compute, bytes/s for bandwidth).
double science_peak(const ScienceWorkload& w, const Gpu& gpu);

// How much faster `gpu` runs the code than the baseline card: the ratio of
// the bounding resource's peaks. The GPU count stays the baseline's: several
// GPUs per simulation scale poorly for MD (one simulation per GPU is the
// norm), so we do not extrapolate across counts.
double science_speedup(const ScienceWorkload& w, const Gpu& baseline_gpu, const Gpu& gpu);

// The baseline's rate moved to `gpu` (ns/day or steps/s; 0 for job_hours).
double science_rate(const ScienceWorkload& w, double speedup);

// Wall-clock hours for the job on a card `speedup` times the baseline's.
double science_hours(const ScienceWorkload& w, double speedup);

// FP64 rate over FP32 rate: 1/64 on GeForce Ampere/Ada, 1/2 on A100/H100.
double fp64_ratio(const Gpu& gpu);

}  // namespace gpuplan
