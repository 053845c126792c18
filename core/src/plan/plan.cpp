// plan(): memory for the request as given, then every GPU type (or the one the
// request names) with the fewest cards that hold the workload and its speed,
// then, when the request has stages, the plan (gpuplan/planner.h). Memory and
// speed come from one Evaluator, so each is computed once per (GPU, count).
#include "gpuplan/plan.h"

#include <algorithm>

#include "evaluation.h"
#include "science_plan.h"

namespace gpuplan {
namespace {

GpuResult evaluate(Evaluator& e, size_t gpu_index) {
  const Request& q = e.request();
  const Gpu& g = e.catalog().gpus[gpu_index];
  GpuResult r;
  r.id = g.id;
  // With a given count, check that count only; otherwise search upward.
  const int first = q.hardware ? q.hardware->count : std::max(1, q.workload.gpus);
  const int last = q.hardware ? q.hardware->count : kMaxGpusSearched;
  for (int n = first; n <= std::max(first, last); n = next_gpu_count(n)) {
    const MemoryEstimate& m = e.memory_at(n);
    r.count = n;
    r.memory = m;
    if (m.total_bytes <= g.memory_bytes) {
      r.fits = true;
      break;
    }
    if (q.hardware) break;
  }
  r.throughput = e.throughput_at(gpu_index, r.count);
  r.hours = e.run_hours_at(gpu_index, r.count);
  // Reverse questions at the count shown: how far batch and length can go.
  r.limits = e.limits_at(r.count, g.memory_bytes);
  return r;
}

}  // namespace

Response plan(const Request& q, const Catalog& catalog) {
  // Scientific computing has no network to size: its own path (gpuplan/science.h).
  if (q.workload.mode == Mode::science) return plan_science(q, catalog);
  Response out;
  Evaluator e(q, catalog);
  out.locale = q.locale;
  out.memory = estimate_memory(q.model, q.workload);
  out.recommended_bytes = out.memory.total_bytes * (1 + out.headroom);
  for (size_t i = 0; i < catalog.gpus.size(); ++i)
    if (!q.hardware || catalog.gpus[i].id == q.hardware->gpu) out.gpus.push_back(evaluate(e, i));
  // With a chosen card: the OOM doctor (gpuplan/oom_doctor.h), owned by the lead.
  if (q.hardware)
    out.oom_doctor = diagnose(q.model, q.workload, *catalog.find_gpu(q.hardware->gpu), q.hardware->count, catalog);
  if (!q.stages.empty()) {
    out.plan = plan_stages(e);
    for (const auto& w : out.plan->warnings) out.warnings.push_back({w.code, w.message});
  }
  return out;
}

}  // namespace gpuplan
