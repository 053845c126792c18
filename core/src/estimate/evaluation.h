// Memory once per GPU count (it does not depend on the card) and speed once per
// (GPU, count): the caches plan() and the planner share, so that a full plan
// over every GPU, platform and billing option stays within its time budget
// (docs/performance.md).
#pragma once

#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/request.h"
#include "gpuplan/throughput.h"

namespace gpuplan {

inline constexpr int kMaxGpusSearched = 64;  // one 8-node job: beyond this a student rents a cluster, not cards

// The count after n in the search: every count to 8 (one machine), then doublings.
inline int next_gpu_count(int n) { return n < 8 ? n + 1 : n * 2; }

class Evaluator {
 public:
  Evaluator(const Request& request, const Catalog& catalog);

  const Request& request() const { return q_; }
  const Catalog& catalog() const { return c_; }

  // The request's workload spread over `count` GPUs (the sharding the planner
  // proposes when the request names none).
  Workload workload_at(int count) const;
  const MemoryEstimate& memory_at(int count);
  const Throughput& throughput_at(size_t gpu_index, int count);
  // Wall-clock hours of one run over the request's whole data; 0 without data.
  double run_hours_at(size_t gpu_index, int count);

  // Largest micro-batch and sequence that fit `capacity_bytes` at `count`:
  // the same bisections as fit_limits (memory.h), with the same result, but
  // cards of the same size share one search and cards of different sizes share
  // the memory estimates of the probes their searches have in common.
  const FitLimits& limits_at(int count, double capacity_bytes);

  // Smallest count from `first` to kMaxGpusSearched whose memory per GPU,
  // times (1 + headroom), fits the card; 0 when none does.
  int fit_count(size_t gpu_index, double headroom, int first = 1);

 private:
  struct Speed {
    int count;
    Throughput throughput;
    double hours;
  };
  const Speed& speed(size_t gpu_index, int count);

  const Request& q_;
  const Catalog& c_;
  // Deques: references handed out stay valid as the caches grow.
  std::deque<std::pair<int, MemoryEstimate>> memory_;
  std::vector<std::deque<Speed>> speed_;  // per catalog GPU
  struct Limits {
    int count;
    double capacity_bytes;
    FitLimits limits;
  };
  std::deque<Limits> limits_;
  // total_bytes at `count` with the micro-batch (or the sequence length) set
  // to a probed value: the bisections for every card size start from the same
  // bounds, so all their probes above the largest card's limit coincide.
  struct Probes {
    int count;
    std::map<int, double> batch, seq;
  };
  std::deque<Probes> probes_;
  Probes& probes_at(int count);
};

}  // namespace gpuplan

namespace gpuplan {
struct PlanResult;
// The planner on an evaluator plan() has already filled (gpuplan/planner.h).
PlanResult plan_stages(Evaluator& evaluator);
}  // namespace gpuplan
