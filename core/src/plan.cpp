// plan(): memory for the request as given, then every GPU type (or the one the
// request names) with the fewest cards that hold the workload and its speed.
#include "gpuplan/plan.h"

#include <algorithm>

namespace gpuplan {
namespace {

constexpr int kMaxGpusSearched = 64;  // one 8-node job: beyond this a student rents a cluster, not cards

// The workload spread over `count` GPUs. Without a memory-saving strategy in the
// request, several GPUs get the one that makes them hold less: ZeRO-3 / FSDP
// for training (plain DDP replicates everything), tensor-split weights for inference.
Workload at_count(const Workload& w, int count) {
  Workload out = w;
  out.gpus = count;
  if (count == 1) {
    if (out.sharding == Sharding::ddp) out.sharding = Sharding::none;
    return out;
  }
  if (w.sharding == Sharding::none || (w.gpus <= 1 && w.sharding == Sharding::ddp)) out.sharding = Sharding::zero3;
  return out;
}

GpuResult evaluate(const Request& q, const Gpu& g) {
  GpuResult r;
  r.id = g.id;
  int first = q.hardware ? q.hardware->count : std::max(1, q.workload.gpus);
  int last = q.hardware ? q.hardware->count : kMaxGpusSearched;
  // With a given count, check that count only; otherwise search upward.
  if (!q.hardware) first = std::max(1, q.workload.gpus);
  for (int n = first; n <= std::max(first, last); n = n < 8 ? n + 1 : n * 2) {
    Workload w = n == q.workload.gpus ? q.workload : at_count(q.workload, n);
    MemoryEstimate m = estimate_memory(q.model, w);
    r.count = n;
    r.memory = m;
    r.throughput = estimate_throughput(q.model, w, g, n);
    if (m.total_bytes <= g.memory_bytes) {
      r.fits = true;
      break;
    }
    if (q.hardware) break;
  }
  if (q.data) r.hours = job_hours(q.model, q.workload, *q.data, r.throughput);
  return r;
}

}  // namespace

Response plan(const Request& q, const Catalog& catalog) {
  Response out;
  out.memory = estimate_memory(q.model, q.workload);
  out.recommended_bytes = out.memory.total_bytes * (1 + out.headroom);
  if (q.hardware) {
    out.gpus.push_back(evaluate(q, *catalog.find_gpu(q.hardware->gpu)));
  } else {
    for (const auto& g : catalog.gpus) out.gpus.push_back(evaluate(q, g));
  }
  return out;
}

}  // namespace gpuplan
