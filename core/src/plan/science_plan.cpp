#include "science_plan.h"

#include "evaluation.h"

#include <cmath>

#include "messages.h"

namespace gpuplan {
namespace {

// GeForce Ampere/Ada run FP64 at 1/64 of FP32; Volta/Ampere/Hopper datacenter
// parts at 1/2 (NVIDIA architecture whitepapers; the catalog's own figures).
// Below 1/8 a card gives an FP64 code a small fraction of what it paid for.
constexpr double kFp64StarvedRatio = 1.0 / 8;

// CUDA context only: a science code's own working set is the user's figure.
constexpr double kCudaContextBytes = 500.0 * 1024 * 1024;

}  // namespace

Response plan_science(const Request& q, const Catalog& catalog) {
  const ScienceWorkload& w = *q.science;
  const Gpu& baseline = *catalog.find_gpu(w.baseline.gpu);
  Response out;
  out.locale = q.locale;
  if (w.memory_bytes > 0) out.memory.components.push_back({"working_set", w.memory_bytes});
  out.memory.components.push_back({"runtime", kCudaContextBytes});
  out.memory.allocated_bytes = w.memory_bytes;
  out.memory.reserved_bytes = w.memory_bytes;
  out.memory.total_bytes = w.memory_bytes + kCudaContextBytes;
  out.recommended_bytes = out.memory.total_bytes * (1 + out.headroom);

  bool any_starved = false;
  for (const auto& g : catalog.gpus) {
    if (q.hardware && g.id != q.hardware->gpu) continue;
    // GROMACS, AMBER, OpenMM and most GPU solvers are CUDA codes: a card that
    // runs no CUDA (the Ascend 910B) or has no figure for the bounding
    // resource cannot be ranked.
    if (!g.cuda || science_peak(w, g) <= 0) continue;
    GpuResult r;
    r.id = g.id;
    r.count = w.baseline.count;
    r.fits = out.memory.total_bytes <= g.memory_bytes;
    r.fit = fit_name(fit_verdict(out.memory.total_bytes, g.memory_bytes));  // the one verdict (evaluation.h)
    ScienceResult s;
    s.speedup = science_speedup(w, baseline, g);
    s.rate = science_rate(w, s.speedup);
    s.fp64_ratio = fp64_ratio(g);
    s.fp64_starved = w.precision == SciencePrecision::fp64 && w.bound == ScienceBound::compute &&
                     s.fp64_ratio < kFp64StarvedRatio;
    any_starved = any_starved || s.fp64_starved;
    r.hours = science_hours(w, s.speedup);
    r.science = s;
    out.gpus.push_back(r);
  }
  if (w.precision == SciencePrecision::fp64 && w.bound == ScienceBound::compute && any_starved)
    out.warnings.push_back({"fp64_consumer_card", message(q.locale, "warn.fp64_consumer_card")});
  if (w.precision == SciencePrecision::fp64 && w.bound == ScienceBound::compute)
    out.warnings.push_back({"fp64_consider_cpu", message(q.locale, "warn.fp64_consider_cpu")});
  if (w.kind == ScienceKind::md && w.precision != SciencePrecision::fp64)
    out.warnings.push_back({"md_mixed_precision", message(q.locale, "warn.md_mixed_precision")});
  return out;
}

}  // namespace gpuplan
