// Memory once per GPU count (it does not depend on the card) and speed once per
// (GPU, count): the caches plan() and the planner share, so that a full plan
// over every GPU, platform and billing option stays within its time budget
// (docs/performance.md).
#pragma once

#include <list>
#include <string>
#include <tuple>
#include <map>
#include <utility>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/planner.h"
#include "gpuplan/request.h"
#include "gpuplan/throughput.h"

namespace gpuplan {

inline constexpr int kMaxGpusSearched = 64;

// One fit verdict (contract v1.1 `fit`), read by gpus[], the plan and the OOM
// doctor alike. `comfortable`: the estimate plus the headroom fits the card;
// the headroom, 30 % (kDefaultHeadroom), is the memory estimator's own
// measured error: 29.5 % at the 90th percentile of |error| over its 70
// published measurements (docs/memory-model.md, "Validation"), so a
// comfortable fit holds in about nine cases of ten where the estimate errs
// low; it is also the common rule of thumb of leaving 30 % spare. `tight`: the
// estimate fits but not with the headroom: valid, flagged, and chosen only
// when no comfortable option costs about the same. `no`: it does not fit.
enum class Fit { comfortable, tight, no };
const char* fit_name(Fit f);
// What a job may fill on one card: a serving engine's pre-allocated share
// (vLLM's gpu_memory_utilization, memory.h engine_pool_bytes: weights,
// activations and the KV pool must fit inside it, or the engine refuses to
// start) or the whole card.
double usable_capacity_bytes(const Workload& w, double card_memory_bytes);
Fit fit_verdict(double total_bytes, double capacity_bytes);

// How a workload runs on `count` cards of one type: the sharding chosen (or
// the one requested), the changes made so that it fits, and its memory and
// speed. Evaluator::fit documents the search.
struct FitChoice {
  int count = 0;
  Fit fit = Fit::no;
  Workload workload;
  std::vector<WorkloadChange> changes;  // empty when the request's workload runs as given
  const MemoryEstimate* memory = nullptr;  // per GPU (the Evaluator's cache: valid while it lives)
  Throughput throughput;
  double hours = 0;                     // one run over the request's data; 0 without data
  bool alters_results = false;          // an 8-bit optimizer (or lower precision): the numbers a paper reports move
  // A faster way that fits only inside the headroom (a tight DDP beside a
  // comfortable ZeRO-3): the planner weighs both; at most one entry.
  std::vector<FitChoice> faster_tight;
};  // one 8-node job: beyond this a student rents a cluster, not cards

// The count after n in the search: every count to 8 (one machine), then doublings.
inline int next_gpu_count(int n) { return n < 8 ? n + 1 : n * 2; }

// Which workload changes the fit search may make: none (gpus[] shows the
// request as written), only those that keep the results (recomputation,
// micro-batch with accumulation, fused loss, ZeRO stages, CPU offload), or
// also those that move the numbers (8-bit optimizer states): docs/api.md,
// "Making it fit".
enum class FitChanges { none = 0, keep_results = 1, any = 2 };

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
  // the same bisections as a plain search (tests/core/fit_limits_oracle.h), with the same result, but
  // cards of the same size share one search and cards of different sizes share
  // the memory estimates of the probes their searches have in common.
  const FitLimits& limits_at(int count, double capacity_bytes);

  // Smallest count from `first` to kMaxGpusSearched whose memory per GPU,
  // times (1 + headroom), fits the card; 0 when none does.
  int fit_count(size_t gpu_index, double headroom, int first = 1);

  // How the workload runs on `count` cards of catalog GPU `gpu_index`
  // (docs/api.md, "Making it fit"). The sharding: the requested one, kept;
  // else, on several cards, the least communication that fits (ddp, zero1,
  // zero2, zero3), a higher stage only where it needs fewer workload changes
  // than a lower one, the time model choosing among those. With
  // `changes`, the workload changes, cumulative and in their order of
  // cost, those that keep the results first: gradient checkpointing, a
  // smaller micro-batch with gradient accumulation (the same global batch),
  // a fused cross-entropy loss, then CPU offload of the optimizer where
  // nothing else fits; only with FitChanges::any, 8-bit optimizer states
  // after them. A comfortable fit is preferred to a tight one (a faster tight
  // one is kept in `faster_tight`); the fastest of the options considered
  // wins, ties to the fewest changes. Never changes what the experiment is
  // (method, model, sequence).
  const FitChoice& fit(size_t gpu_index, int count, FitChanges changes);
  const FitChoice& fit(size_t gpu_index, int count, bool may_change) {
    return fit(gpu_index, count, may_change ? FitChanges::keep_results : FitChanges::none);
  }
  // Limits at `count` for the workload a FitChoice runs.
  const FitLimits& limits_for(const FitChoice& choice, double capacity_bytes);

 private:
  struct Speed {
    int count;
    Throughput throughput;
    double hours;
  };
  const Speed& speed(size_t gpu_index, int count);

  const Request& q_;
  const Catalog& c_;
  // Lists: references handed out stay valid as the caches grow, and a list
  // appends with less code than a deque, five times over (docs/performance.md).
  std::list<std::pair<int, MemoryEstimate>> memory_;
  std::vector<std::list<Speed>> speed_;  // per catalog GPU
  struct Limits {
    Workload workload;
    double capacity_bytes;
    FitLimits limits;
  };
  std::list<Limits> limits_;
  // total_bytes at `count` with the micro-batch (or the sequence length) set
  // to a probed value: the bisections for every card size start from the same
  // bounds, so all their probes above the largest card's limit coincide.
  struct Probes {
    Workload workload;
    // (probed value, total_bytes) in the order probed: a bisection's few dozen, searched in turn.
    std::vector<std::pair<int, double>> batch, seq;
  };
  std::list<Probes> probes_;
  Probes& probes_for(const Workload& w);
  const FitLimits& limits_of(const Workload& w, double capacity_bytes);

  // Memory per workload shape (sharding, changes, count): shared by every card.
  const MemoryEstimate& memory_of(const Workload& w);
  // The fields the fit search varies, as a map key.
  using Shape = std::tuple<int, int, bool, int, int, int, bool, int>;
  static Shape shape_of(const Workload& w);
  std::map<Shape, MemoryEstimate> shaped_;  // node-based: references stay valid
  struct Choice {
    int count;
    FitChanges may_change;
    FitChoice choice;
  };
  std::vector<std::list<Choice>> choices_;  // per catalog GPU
  std::vector<int> machine_gpus_;            // per catalog GPU: the largest machine sold
  FitChoice search(size_t gpu_index, int count, FitChanges may_change);
  // The search's steps (evaluation.cpp): the shardings it tries, each
  // sharding's options over a chain of workload changes, and the choice.
  struct FitOption {
    Workload workload;
    Fit fit;
  };
  struct FitScan {
    std::vector<FitOption> comfortable, tight;
    size_t best_comfortable = 0, best_tight = 0;
  };
  std::vector<Sharding> shardings_to_try(int count);
  void consider(FitScan& scan, const std::vector<Workload>& steps, const Workload& w, const Workload& base,
                double capacity);
  void choose(FitChoice& out, const FitScan& scan, size_t gpu_index, int count);

};

}  // namespace gpuplan

namespace gpuplan {
struct PlanResult;
// The planner on an evaluator plan() has already filled (gpuplan/planner.h).
PlanResult plan_stages(Evaluator& evaluator);
}  // namespace gpuplan
