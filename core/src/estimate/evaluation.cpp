#include "evaluation.h"

#include "largest_fitting.h"

#include <algorithm>

namespace gpuplan {

Evaluator::Evaluator(const Request& request, const Catalog& catalog)
    : q_(request), c_(catalog), speed_(catalog.gpus.size()) {}

// Without a memory-saving strategy in the request, several GPUs get the one
// that makes them hold less: ZeRO-3 / FSDP for training (plain DDP replicates
// everything), tensor-split weights for inference.
Workload Evaluator::workload_at(int count) const {
  const Workload& w = q_.workload;
  if (count == w.gpus) return w;
  Workload out = w;
  out.gpus = count;
  if (count == 1) {
    if (out.sharding == Sharding::ddp) out.sharding = Sharding::none;
    return out;
  }
  if (w.sharding == Sharding::none || (w.gpus <= 1 && w.sharding == Sharding::ddp)) out.sharding = Sharding::zero3;
  return out;
}

const MemoryEstimate& Evaluator::memory_at(int count) {
  for (const auto& [n, m] : memory_)
    if (n == count) return m;
  memory_.emplace_back(count, estimate_memory(q_.model, workload_at(count)));
  return memory_.back().second;
}

const Evaluator::Speed& Evaluator::speed(size_t gpu_index, int count) {
  auto& list = speed_[gpu_index];
  for (const auto& s : list)
    if (s.count == count) return s;
  Workload w = workload_at(count);
  Speed s{count, estimate_throughput(q_.model, w, c_.gpus[gpu_index], count), 0};
  if (q_.data) s.hours = job_hours(q_.model, w, *q_.data, s.throughput);
  list.push_back(s);
  return list.back();
}

const Throughput& Evaluator::throughput_at(size_t gpu_index, int count) { return speed(gpu_index, count).throughput; }

double Evaluator::run_hours_at(size_t gpu_index, int count) { return speed(gpu_index, count).hours; }

Evaluator::Probes& Evaluator::probes_at(int count) {
  for (auto& p : probes_)
    if (p.count == count) return p;
  probes_.push_back({count, {}, {}});
  return probes_.back();
}

namespace {

// fit_limits' bisection (largest_fitting.h, the same probes in the same order)
// on totals that may come from a cache.
template <class Total>
int largest_fitting_total(int limit, double capacity_bytes, Total total) {
  return largest_fitting(limit, [&](int v) { return total(v) <= capacity_bytes; });
}

// The request limits fit_limits caps the searches at (memory.h FitLimits).
constexpr int kMaxMicroBatch = 65536;
constexpr int kMaxSeqLen = 1 << 24;

}  // namespace

const FitLimits& Evaluator::limits_at(int count, double capacity_bytes) {
  for (const auto& l : limits_)
    if (l.count == count && l.capacity_bytes == capacity_bytes) return l.limits;
  Probes& probes = probes_at(count);
  const Workload w = workload_at(count);
  const auto cached = [&](std::map<int, double>& cache, auto set) {
    return [&cache, set, &w, this](int v) {
      auto [it, inserted] = cache.try_emplace(v, 0.0);
      if (inserted) {
        Workload probe = w;
        set(probe, v);
        it->second = estimate_memory(q_.model, probe).total_bytes;
      }
      return it->second;
    };
  };
  FitLimits out;
  out.max_micro_batch = largest_fitting_total(kMaxMicroBatch, capacity_bytes,
                                        cached(probes.batch, [](Workload& p, int v) { p.micro_batch = v; }));
  if (q_.model.kind != ModelKind::cnn)
    out.max_seq_len =
        largest_fitting_total(kMaxSeqLen, capacity_bytes, cached(probes.seq, [](Workload& p, int v) { p.seq_len = v; }));
  limits_.push_back({count, capacity_bytes, out});
  return limits_.back().limits;
}

int Evaluator::fit_count(size_t gpu_index, double headroom, int first) {
  const double capacity = c_.gpus[gpu_index].memory_bytes;
  for (int n = std::max(1, first); n <= kMaxGpusSearched; n = next_gpu_count(n))
    if (memory_at(n).total_bytes * (1 + headroom) <= capacity) return n;
  return 0;
}

}  // namespace gpuplan
