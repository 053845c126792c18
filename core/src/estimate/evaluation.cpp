#include "estimate/evaluation.h"

#include "gpuplan/limits.h"
#include "estimate/largest_fitting.h"

#include <algorithm>

namespace gpuplan {

Evaluator::Evaluator(const Request& request, const Catalog& catalog)
    : q_(request), c_(catalog), speed_(catalog.gpus.size()), choices_(catalog.gpus.size()),
      machine_gpus_(catalog.gpus.size(), 0) {
  // The largest machine a platform sells of each card (catalog
  // `machines.max_gpus`: Vast.ai's 10-card hosts): counts up to it run inside
  // one machine; only beyond it do collectives cross the network.
  for (const Platform& p : catalog.platforms)
    for (const Offer& o : p.offers)
      if (const Gpu* g = catalog.find_gpu(o.gpu)) {
        int& m = machine_gpus_[size_t(g - catalog.gpus.data())];
        m = std::max(m, p.machine_max_gpus);
      }
  for (int& m : machine_gpus_)
    if (m <= 0) m = Workload{}.machine_gpus;  // a card no platform sells: the common 8-card node
}

const char* fit_name(Fit f) {
  switch (f) {
    case Fit::comfortable: return "comfortable";
    case Fit::tight: return "tight";
    case Fit::no: return "no";
  }
  return "no";
}

double usable_capacity_bytes(const Workload& w, double card_memory_bytes) {
  const double pool = engine_pool_bytes(w, card_memory_bytes);
  return pool > 0 ? pool : card_memory_bytes;
}

Fit fit_verdict(double total_bytes, double capacity_bytes) {
  if (!(total_bytes <= capacity_bytes)) return Fit::no;
  return total_bytes * (1 + kDefaultHeadroom) <= capacity_bytes ? Fit::comfortable : Fit::tight;
}

namespace {

// The fields the fit search varies; every other field is the request's own.
bool same_shape(const Workload& a, const Workload& b) {
  return a.gpus == b.gpus && a.sharding == b.sharding && a.grad_checkpointing == b.grad_checkpointing &&
         a.optimizer == b.optimizer && a.micro_batch == b.micro_batch && a.grad_accumulation == b.grad_accumulation &&
         a.cpu_offload == b.cpu_offload && a.loss == b.loss;
}

}  // namespace

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
  w.machine_gpus = machine_gpus_[gpu_index];
  Speed s{count, estimate_throughput(q_.model, w, c_.gpus[gpu_index], count), 0};
  if (q_.data) s.hours = job_hours(q_.model, w, *q_.data, s.throughput);
  list.push_back(s);
  return list.back();
}

const Throughput& Evaluator::throughput_at(size_t gpu_index, int count) { return speed(gpu_index, count).throughput; }

double Evaluator::run_hours_at(size_t gpu_index, int count) { return speed(gpu_index, count).hours; }

Evaluator::Probes& Evaluator::probes_for(const Workload& w) {
  for (auto& p : probes_)
    if (same_shape(p.workload, w)) return p;
  probes_.push_back({w, {}, {}});
  return probes_.back();
}

namespace {

// The reverse questions' bisection (largest_fitting.h, the same probes in the
// same order as the tests' plain oracle) on totals that may come from a cache.
template <class Total>
int largest_fitting_total(int limit, double capacity_bytes, Total total) {
  return largest_fitting(limit, [&](int v) { return total(v) <= capacity_bytes; });
}

// The request limits (gpuplan/limits.h) the searches are capped at (memory.h FitLimits).
constexpr int kMaxMicroBatch = int(limit::micro_batch.max);
constexpr int kMaxSeqLen = int(limit::seq_len.max);

}  // namespace

const FitLimits& Evaluator::limits_at(int count, double capacity_bytes) {
  return limits_of(workload_at(count), capacity_bytes);
}

const FitLimits& Evaluator::limits_for(const FitChoice& choice, double capacity_bytes) {
  return limits_of(choice.workload, capacity_bytes);
}

const FitLimits& Evaluator::limits_of(const Workload& w, double capacity_bytes) {
  for (const auto& l : limits_)
    if (same_shape(l.workload, w) && l.capacity_bytes == capacity_bytes) return l.limits;
  Probes& probes = probes_for(w);
  const auto cached = [&](std::vector<std::pair<int, double>>& cache, auto set) {
    return [&cache, set, &w, this](int v) {
      for (const auto& [probed, total_bytes] : cache)
        if (probed == v) return total_bytes;
      Workload probe = w;
      set(probe, v);
      cache.emplace_back(v, estimate_memory(q_.model, probe).total_bytes);
      return cache.back().second;
    };
  };
  FitLimits out;
  out.max_micro_batch = largest_fitting_total(kMaxMicroBatch, capacity_bytes,
                                        cached(probes.batch, [](Workload& p, int v) { p.micro_batch = v; }));
  if (q_.model.kind != ModelKind::cnn)
    out.max_seq_len =
        largest_fitting_total(kMaxSeqLen, capacity_bytes, cached(probes.seq, [](Workload& p, int v) { p.seq_len = v; }));
  limits_.push_back({w, capacity_bytes, out});
  return limits_.back().limits;
}

int Evaluator::fit_count(size_t gpu_index, double headroom, int first) {
  const double capacity = usable_capacity_bytes(q_.workload, c_.gpus[gpu_index].memory_bytes);
  for (int n = std::max(1, first); n <= kMaxGpusSearched; n = next_gpu_count(n))
    if (memory_at(n).total_bytes * (1 + headroom) <= capacity) return n;
  return 0;
}

// ---------------------------------------------------------------- the fit search

Evaluator::Shape Evaluator::shape_of(const Workload& w) {
  return {w.gpus, int(w.sharding), w.grad_checkpointing, int(w.optimizer), w.micro_batch, w.grad_accumulation,
          w.cpu_offload, int(w.loss)};
}

const MemoryEstimate& Evaluator::memory_of(const Workload& w) {
  auto [it, inserted] = shaped_.try_emplace(shape_of(w));
  if (inserted) it->second = estimate_memory(q_.model, w);
  return it->second;
}

const FitChoice& Evaluator::fit(size_t gpu_index, int count, FitChanges may_change) {
  auto& list = choices_[gpu_index];
  for (const auto& c : list)
    if (c.count == count && c.may_change == may_change) return c.choice;
  list.push_back({count, may_change, search(gpu_index, count, may_change)});
  return list.back().choice;
}

namespace {

// Smaller micro-batches that keep the global batch exact: the divisors of
// `micro_batch` below it, largest first (8 → 4, 2, 1; 6 → 3, 2, 1).
std::vector<int> smaller_divisors(int micro_batch) {
  std::vector<int> out;
  for (int d = micro_batch - 1; d >= 1; --d)
    if (micro_batch % d == 0) out.push_back(d);
  return out;
}

// Ties in speed within half a percent go to the fewer changes (less
// communication, fewer flags a student must set).
constexpr double kSpeedTieFraction = 0.005;

// Whether a serving engine can split the model over `count` GPUs by tensor
// parallelism: vLLM requires the attention heads to divide evenly, and the
// key/value heads too, or to be replicated a whole number of times
// (vllm/model_executor/layers/linear.py QKVParallelLinear; "Total number of
// attention heads must be divisible by tensor parallel size"). Qwen2.5-7B's
// 28 heads and 4 KV heads split over 1, 2 or 4 cards, never 3 or 8.
bool tensor_parallel_divides(const ModelSpec& m, int count) {
  if (count <= 1 || m.heads <= 0) return true;
  const int kv = m.kv_heads > 0 ? m.kv_heads : m.heads;
  return m.heads % count == 0 && (kv % count == 0 || count % kv == 0);
}

struct FitSteps {
  std::vector<Workload> steps, batch_first;
};

// The workload changes, cumulative, in their two orders (Evaluator::search).
FitSteps change_steps(const Workload& base, const ModelSpec& model, FitChanges changes) {
  FitSteps out{{base}, {base}};
  if (changes == FitChanges::none) return out;
  std::vector<Workload>& steps = out.steps;
  std::vector<Workload>& batch_first = out.batch_first;
  Workload w = base;
  if (!w.grad_checkpointing) {
    w.grad_checkpointing = true;
    steps.push_back(w);
  }
  // Before the smaller micro-batch: it costs no step time (the kernel is
  // if anything faster). A fused cross-entropy (Liger, flash-attn's xentropy): the same loss
  // without the fp32 logits, so the same numbers (memory_activations.cpp,
  // logit_element_bytes); only a language model's loss has logits to save.
  if (w.loss == Loss::standard &&
      (model.kind == ModelKind::decoder || model.kind == ModelKind::encoder_decoder)) {
    w.loss = Loss::fused;
    steps.push_back(w);
  }
  for (int d : smaller_divisors(base.micro_batch)) {
    Workload b = base;
    b.grad_accumulation = base.grad_accumulation * (base.micro_batch / d);
    b.micro_batch = d;
    w.grad_accumulation = b.grad_accumulation;
    w.micro_batch = d;
    steps.push_back(w);
    if (!base.grad_checkpointing) batch_first.push_back(b);
  }
  // 8-bit states save memory only where the optimizer holds much: a full
  // fine-tune (an adapter's states are a few hundred MB at most). They move
  // the numbers (Dettmers et al. 2022 report parity, not identity), so
  // they come last and only where the stage allows it.
  if (changes == FitChanges::any && w.optimizer == Optimizer::adamw && w.method == Method::full) {
    w.optimizer = Optimizer::adamw_8bit;
    steps.push_back(w);
  }
  return out;
}

}  // namespace

static void describe_changes(FitChoice& out, const Workload& w0);

// The shardings to try at `count`, least communication first.
std::vector<Sharding> Evaluator::shardings_to_try(int count) {
  const Workload& w0 = q_.workload;
  const bool train = w0.mode == Mode::train;
  std::vector<Sharding> shardings;
  if (!train) {
    const Sharding split = workload_at(count).sharding;
    // A count the engine cannot split the heads over holds nothing.
    if (!(split == Sharding::zero3 && tensor_parallel_decode(w0) && !tensor_parallel_divides(q_.model, count)))
      shardings.push_back(split);  // inference: weights split over several cards
  } else if (w0.sharding_requested) {
    // A "ddp" request on one GPU reads as none (request.cpp); on several it
    // is DDP again, and is named so.
    Sharding kept = w0.sharding;
    if (count == 1 && kept == Sharding::ddp) kept = Sharding::none;
    if (count > 1 && kept == Sharding::none) kept = Sharding::ddp;
    shardings.push_back(kept);
  } else if (count == 1) {
    shardings.push_back(Sharding::none);
  } else {
    shardings = {Sharding::ddp, Sharding::zero1, Sharding::zero2, Sharding::zero3};
  }
  return shardings;
}

// One sharding (and offload) over a chain of steps: the first step that fits
// comfortably and the first that fits at all, each kept as an option only
// where it needs fewer changes than every option before it.
void Evaluator::consider(FitScan& scan, const std::vector<Workload>& steps, const Workload& w, const Workload& base,
                         double capacity) {
  size_t first_tight = steps.size(), first_comfortable = steps.size();
  // Only fewer changes than a lower stage needs can make this one an option.
  const size_t scanned = std::max(scan.best_comfortable, scan.best_tight);
  for (size_t k = 0; k < scanned; ++k) {
    Workload probe = steps[k];
    probe.sharding = w.sharding;
    probe.cpu_offload = w.cpu_offload;
    // ZeRO-Offload's optimizer is DeepSpeedCPUAdam over fp32 states on the
    // host: bitsandbytes' 8-bit AdamW is a GPU optimizer and does not run
    // there (and would save no GPU memory), so the offload keeps the
    // request's optimizer.
    if (w.cpu_offload) probe.optimizer = base.optimizer;
    const Fit f = fit_verdict(memory_of(probe).total_bytes, capacity);
    if (f != Fit::no && first_tight == steps.size()) first_tight = k;
    if (f == Fit::comfortable) {
      first_comfortable = k;
      break;
    }
  }
  auto at = [&](size_t k) {
    Workload out = steps[k];
    out.sharding = w.sharding;
    out.cpu_offload = w.cpu_offload;
    if (w.cpu_offload) out.optimizer = base.optimizer;
    return out;
  };
  if (first_comfortable < scan.best_comfortable) {
    scan.comfortable.push_back({at(first_comfortable), Fit::comfortable});
    scan.best_comfortable = first_comfortable;
  }
  if (first_tight < scan.best_tight) {
    scan.tight.push_back({at(first_tight), fit_verdict(memory_of(at(first_tight)).total_bytes, capacity)});
    scan.best_tight = first_tight;
  }
}

// The fastest option, comfortable first, and a tight one where it is faster
// still: the planner prices both.
void Evaluator::choose(FitChoice& out, const FitScan& scan, size_t gpu_index, int count) {
  const Workload& w0 = q_.workload;
  const Gpu& gpu = c_.gpus[gpu_index];
  const std::vector<FitOption>& comfortable = scan.comfortable;
  const std::vector<FitOption>& tight = scan.tight;
  // The fastest option of a pool by the time model, ties to the earlier (fewer changes).
  auto fastest = [&](const std::vector<FitOption>& pool, Throughput& speed) {
    size_t pick = 0;
    std::vector<Throughput> speeds;
    speeds.reserve(pool.size());
    for (size_t i = 0; i < pool.size(); ++i) {
      speeds.push_back(estimate_throughput(q_.model, pool[i].workload, gpu, count));
      if (i > 0 && speeds[i].samples_per_s > speeds[pick].samples_per_s * (1 + kSpeedTieFraction)) pick = i;
    }
    speed = speeds[pick];
    return pick;
  };
  const std::vector<FitOption>& pool = !comfortable.empty() ? comfortable : tight;
  const size_t pick = fastest(pool, out.throughput);
  out.fit = pool[pick].fit;
  out.workload = pool[pick].workload;
  out.memory = &memory_of(out.workload);
  if (q_.data) out.hours = job_hours(q_.model, out.workload, *q_.data, out.throughput);
  // A tight option faster than the comfortable one (a DDP that only just
  // fits beside a ZeRO-3 that communicates every layer): the planner prices
  // both and its choice rule weighs the headroom against the time.
  if (!comfortable.empty() && !tight.empty()) {
    Throughput t;
    const size_t k = fastest(tight, t);
    if (t.samples_per_s > out.throughput.samples_per_s * (1 + kSpeedTieFraction)) {
      FitChoice other;
      other.count = count;
      other.fit = tight[k].fit;
      other.workload = tight[k].workload;
      other.memory = &memory_of(other.workload);
      other.throughput = t;
      if (q_.data) other.hours = job_hours(q_.model, other.workload, *q_.data, t);
      describe_changes(other, w0);
      out.faster_tight.push_back(std::move(other));
    }
  }
  describe_changes(out, w0);
}

FitChoice Evaluator::search(size_t gpu_index, int count, FitChanges changes) {
  const bool may_change = changes != FitChanges::none;
  const Workload& w0 = q_.workload;
  const Gpu& gpu = c_.gpus[gpu_index];
  const double capacity = usable_capacity_bytes(w0, gpu.memory_bytes);
  const bool train = w0.mode == Mode::train;

  const std::vector<Sharding> shardings = shardings_to_try(count);

  // The workload changes, cumulative, in their order of cost (docs/api.md,
  // "Making it fit"): each step keeps the previous ones. Two orders: the
  // recomputation first (it keeps the kernels' size), and the smaller
  // micro-batch first (it keeps the compute: no recomputed forward pass, so
  // often faster where the micro-batch is large; Chen et al. 2016 against
  // Goyal et al. 2017). The time model chooses among what each order finds.
  Workload base = train ? w0 : workload_at(count);
  base.gpus = count;
  base.machine_gpus = machine_gpus_[gpu_index];
  // (The second order stops at micro-batch 1: the first order's later steps
  // add the memory savers to the smaller batches.)
  const FitSteps chains = change_steps(base, q_.model, may_change && train ? changes : FitChanges::none);
  const std::vector<Workload>& steps = chains.steps;
  const std::vector<Workload>& batch_first = chains.batch_first;

  // Per sharding: the first step that fits comfortably, and the first that
  // fits at all. A higher stage is an option only where it needs fewer
  // changes than every lower one.
  FitScan scan;
  for (const std::vector<Workload>* chain : {&steps, &batch_first}) {
    if (chain->size() < 2 && chain != &steps) continue;
    scan.best_comfortable = scan.best_tight = chain->size();
    for (Sharding sh : shardings) {
      Workload w = base;
      w.sharding = sh;
      consider(scan, *chain, w, base, capacity);
    }
  }
  // Last: the optimizer in host memory (DeepSpeed ZeRO-Offload: ZeRO-2 with
  // the optimizer on the CPU, Ren et al. 2021), where nothing else fits at
  // all: the step runs at host speed and every gradient crosses PCIe, which
  // the time model prices. Not on ZeRO-3, where offload also moves the
  // parameters (ZeRO-Infinity) and every layer's gather would cross PCIe
  // each pass, a cost the time model does not carry: such a plan would look
  // far cheaper than it runs.
  const Sharding offload_stage = count == 1 ? Sharding::none : Sharding::zero2;
  const bool offload_allowed = !w0.sharding_requested || w0.sharding != Sharding::zero3;
  if (may_change && train && offload_allowed && !base.cpu_offload && scan.comfortable.empty() && scan.tight.empty()) {
    Workload w = base;
    w.sharding = w0.sharding_requested && count > 1 ? shardings.back() : offload_stage;
    w.cpu_offload = true;
    scan.best_comfortable = scan.best_tight = steps.size();
    consider(scan, steps, w, base, capacity);
  }

  FitChoice out;
  out.count = count;
  if (scan.comfortable.empty() && scan.tight.empty()) {
    // Nothing fits: the request's workload as given, for the figures gpus[]
    // shows (the planner skips the count and reads none of them).
    Workload w = base;
    w.sharding = shardings.empty() ? workload_at(count).sharding : shardings.front();
    out.workload = w;
    out.memory = &memory_of(w);
    if (!may_change) {
      out.throughput = throughput_at(gpu_index, count);  // the default strategy's speed
      out.hours = run_hours_at(gpu_index, count);
    }
    return out;
  }
  choose(out, scan, gpu_index, count);
  return out;
}

// What changed, as the request spells it.
static void describe_changes(FitChoice& out, const Workload& w0) {
  const Workload& w = out.workload;
  if (w.grad_checkpointing != w0.grad_checkpointing)
    out.changes.push_back({"workload.grad_checkpointing", "true"});
  if (w.optimizer != w0.optimizer) out.changes.push_back({"workload.optimizer", "\"adamw-8bit\""});
  if (w.micro_batch != w0.micro_batch) {
    out.changes.push_back({"workload.micro_batch", std::to_string(w.micro_batch)});
    out.changes.push_back({"workload.grad_accumulation", std::to_string(w.grad_accumulation)});
  }
  if (w.loss != w0.loss) out.changes.push_back({"workload.loss", "\"fused\""});
  if (w.cpu_offload != w0.cpu_offload) out.changes.push_back({"workload.cpu_offload", "true"});
  out.alters_results = w.optimizer != w0.optimizer || w.precision != w0.precision;
}

}  // namespace gpuplan
