// The planner's search (its advice: planner_advice.cpp, failures: planner_failure.cpp):
// every GPU × count × platform × billing option for
// each stage, priced with each platform's billing rules, the seeds' stage
// policy as the default choice, the Pareto set kept as alternatives, then the
// deadline, and the main flow that hands the chosen plan to the advice
// (planner_advice.cpp). Policy and cost model: docs/api.md ("How the planner
// decides", "Cost model"). One unit past 500 lines: the candidates, their
// front and the choice share one Planner's caches, so a split would hand
// them around through planner_internal.h for no reader's gain.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <tuple>

#include "estimate/data_loader.h"
#include "gpuplan/memory.h"
#include "text/names.h"
#include "text/order.h"
#include "plan/planner_internal.h"

namespace gpuplan {
namespace planner_detail {
// ---------------------------------------------------------------- offers

void Planner::build_offers() {
  offers_ = priced_offers(q_, c_, currency_);
  references_ = reference_offers(q_, c_, currency_);
  // The billings the in-scope offers have whatever `prefs.billing` says:
  // `plan.billings` (the page's billing menu offers only these) and, when the
  // requested billing left nothing, billing_unavailable (planner_advice.cpp).
  auto add = [&](const std::vector<PricedOffer>& offers) {
    for (const PricedOffer& o : offers)
      if (std::find(billings_in_scope_.begin(), billings_in_scope_.end(), o.billing) == billings_in_scope_.end())
        billings_in_scope_.push_back(o.billing);
  };
  if (q_.prefs.billing.empty()) {
    add(offers_);
  } else {
    Request open = q_;
    open.prefs.billing.clear();
    add(priced_offers(open, c_, currency_));
  }
}

// ---------------------------------------------------------------- memory fit

void Planner::fit_gpus() {
  need_bytes_ = e_.memory_at(std::max(1, q_.workload.gpus)).total_bytes * (1 + kDefaultHeadroom);
  smallest_fit_bytes_ = 0;
  std::vector<char> used(c_.gpus.size(), false);  // not vector<bool>: its bit code is the page's for one loop
  for (const auto& o : offers_) used[o.gpu] = true;
  for (size_t i = 0; i < c_.gpus.size(); ++i) {
    const double capacity = c_.gpus[i].memory_bytes;
    if (need_bytes_ <= capacity && (smallest_catalog_fit_bytes_ == 0 || capacity < smallest_catalog_fit_bytes_))
      smallest_catalog_fit_bytes_ = capacity;
    if (!used[i] || q_.hardware) continue;
    // The smallest card that holds the job on its own, comfortably, as the
    // request writes it (the right-size preference's yardstick): a card that
    // holds it only with changes that slow every step must not make the card
    // that runs it as written look oversized.
    const FitChoice& one = e_.fit(i, 1, false);
    if (std::max(1, q_.workload.gpus) == 1 && one.fit == Fit::comfortable && !one.workload.cpu_offload &&
        (smallest_fit_bytes_ == 0 || capacity < smallest_fit_bytes_))
      smallest_fit_bytes_ = capacity;
  }
}

// Machines, not counts: the GPU counts `p` rents of card `g`. One machine
// carries any count up to its size (powers of two and the full machine are
// tried, and the request's own count); several machines join only where the
// platform joins them, and never GeForce cards, which have no peer-to-peer
// link and are sold one host at a time.
std::vector<int> Planner::counts(const Gpu& g, const PricedOffer& o) const {
  std::vector<int> out;
  if (q_.hardware) {
    // A single-GPU product (max_gpus) never carries the pinned count on one instance.
    if (o.max_gpus <= 0 || q_.hardware->count <= o.max_gpus) out.push_back(q_.hardware->count);
    return out;
  }
  const int first = std::max(1, q_.workload.gpus);
  const int machine = instance_gpus(o);
  for (int n = 1; n < machine; n *= 2)
    if (n >= first) out.push_back(n);
  if (first < machine) out.push_back(first);
  out.push_back(machine);
  for (int m = 2; m * machine <= kMaxGpusSearched; m *= 2)
    if (rentable(o, g, m * machine)) out.push_back(m * machine);
  stable_sort_by(out, [](int a, int b) { return a < b; });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  std::erase_if(out, [&](int n) { return n < first; });
  return out;
}

double Planner::checkpoint_bytes() {
  if (checkpoint_bytes_ < 0) checkpoint_bytes_ = gpuplan::checkpoint_bytes(q_);
  return checkpoint_bytes_;
}

double Planner::storage_gb() { return gpuplan::storage_gb(q_, checkpoint_bytes()); }

// ---------------------------------------------------------------- candidates

// Debug runs test the code, not the paper's numbers: there the fit search may
// also change what moves the results (8-bit optimizer states). Formal and
// revision runs keep the request's optimizer and precision unless the
// student allows otherwise.
FitChanges Planner::changes_for(const StageRequest& s) const {
  if (s.stage == Stage::debug) return FitChanges::any;
  // prefs.allow_result_changes: the student lets formal and revision runs
  // take them too, on an optimizer the planner chose (a default); one the
  // request names is the student's and stays (docs/api.md).
  if (q_.prefs.allow_result_changes && !q_.workload.optimizer_requested) return FitChanges::any;
  return FitChanges::keep_results;
}

const FitChoice& Planner::choice_of(const Candidate& c) {
  const FitChoice& f = e_.fit(offers_[size_t(c.offer)].gpu, c.gpus_per_run, c.changes);
  return c.variant == 1 && !f.faster_tight.empty() ? f.faster_tight.front() : f;
}

// Every way to run the stage: each offer (card × platform × billing) at each
// count its machines sell, with the fit search's way of holding the job
// there (sharding and workload changes) and, where a tight fit is faster,
// that one too; runs queued, packed or on separate rentals. No option is
// vetoed here: choose_plan keeps the front and applies the stated preference.
std::vector<Candidate> Planner::candidates(const StageRequest& s) {
  std::vector<Candidate> out;
  if (std::max(0, s.runs) == 0) return out;
  out.reserve(offers_.size() * 6);
  for (size_t oi = 0; oi < offers_.size(); ++oi) offer_candidates(s, oi, out);
  lab_candidates(s, out);
  return out;
}

// One offer's candidates: each count that holds the job, each way the fit
// search holds it there (its choice, and its faster tight option).
void Planner::offer_candidates(const StageRequest& s, size_t oi, std::vector<Candidate>& out) {
  const PricedOffer& o = offers_[oi];
  // Debugging is a loop of fix and rerun at the desk: an off-peak price
  // that runs only at night and at weekends does not serve it, whatever it
  // costs (unless the student asks for that billing).
  if (s.stage == Stage::debug && o.billing == Billing::off_peak && q_.prefs.billing.empty()) return;
  const FitChanges allowed = changes_for(s);
  const RentalTerms terms = offer_terms(o);
  int fewest = 0;
  for (int n : counts(c_.gpus[o.gpu], o)) {
    if (fewest > 0 && q_.hardware) break;
    const FitChoice& first = e_.fit(o.gpu, n, allowed);
    if (first.fit == Fit::no) continue;
    if (fewest == 0) fewest = n;
    for (int variant = 0; variant <= int(first.faster_tight.size()); ++variant) {
      const FitChoice& choice = variant == 0 ? first : first.faster_tight.front();
      Candidate base;
      base.offer = int(oi);
      base.gpus_per_run = n;
      base.fewest = fewest;
      base.tight = choice.fit == Fit::tight;
      base.alters = choice.alters_results;
      base.changes = allowed;
      base.variant = variant;
      // The instance's CPU feeds an image workload's loader: the step is the
      // slower of the GPU and the loader (estimate/data_loader.h). Unknown
      // vCPUs: the GPU's time, and no claim.
      double hours = choice.hours;
      if (o.vcpus_per_gpu > 0 && decodes_images_on_cpu(q_.model, choice.workload)) {
        const LoaderBound lb = loader_bound(choice.throughput.samples_per_s, n, o.vcpus_per_gpu);
        if (lb.bound()) {
          hours *= lb.slowdown;
          base.loader_vcpus_needed = lb.vcpus_needed;
          base.loader_vcpus = o.vcpus_per_gpu;
        }
      }
      const RunTime t = run_time(terms, hours * s.data_fraction, checkpoint_bytes(), n);
      if (!t.feasible) continue;
      base.checkpoint_seconds = t.checkpoint_seconds;
      base.spot = t.spot;
      base.run_hours = t.wall_hours;
      lay_out_runs(s, terms, base, t, out);
    }
  }
}

// The stage's runs on one candidate's cards: debug sessions one after
// another, or runs queued `parallel` at a time on one instance, or one
// rental per run, all at once; each layout priced.
void Planner::lay_out_runs(const StageRequest& s, const RentalTerms& terms, const Candidate& base, const RunTime& t,
                           std::vector<Candidate>& out) {
  const int runs = std::max(0, s.runs);
  const int n = base.gpus_per_run;
  const int machine = instance_gpus(offers_[size_t(base.offer)]);
  const double run_wall = t.wall_hours, run_billed = t.billed_hours;
  if (s.stage == Stage::debug) {
    // Debug runs are sessions one after another: fix, rerun. Each is a rental.
    Candidate c = base;
    c.separate = true;
    c.instances = runs;
    c.wall_hours = runs * (kSetupHours + run_wall);
    price_into(terms, c, kSetupHours + run_billed, 1, out);
    return;
  }
  // Runs queued on one instance, `parallel` at a time (seed 003: seed runs
  // packed onto one multi-GPU instance, one start and one data transfer).
  for (int par = 1; par <= runs && n * par <= std::max(n, machine); par *= 2) {
    Candidate c = base;
    c.parallel = par;
    int waves = (runs + par - 1) / par;
    c.wall_hours = kSetupHours + waves * run_wall;
    price_into(terms, c, kSetupHours + waves * run_billed, 1, out);
  }
  // Or one rental per run, all at once.
  if (runs > 1) {
    Candidate c = base;
    c.separate = true;
    c.instances = runs;
    c.wall_hours = kSetupHours + run_wall;
    price_into(terms, c, kSetupHours + run_billed, runs, out);
  }
}

// Every candidate is priced by the one rental price (gpuplan/pricing.h).
void Planner::price_into(const RentalTerms& terms, Candidate c, double used_hours_per_instance, double disks,
                         std::vector<Candidate>& out) {
  Rental r;
  r.gpus = c.gpus_per_run;
  r.parallel = c.parallel;
  r.instances = c.instances;
  r.used_hours = used_hours_per_instance;
  r.disk_gb = storage_gb();
  r.disks = disks;
  r.disk_hours = c.wall_hours;
  const RentalCost rc = price_rental(terms, r);
  c.rental = r;
  c.billed_hours = rc.billed_hours;
  c.compute_cost = rc.compute_cost;
  c.storage_cost = rc.storage_cost;
  c.cost = rc.cost;
  out.push_back(c);
}
namespace {

// Cost versus wall time: the options no other beats on both, cheapest first.

// Orders candidates by cost, then wall time: sorted once per stage, so the
// front below is one sweep.
void sort_by_cost(std::vector<Candidate>& all) {
  // A total order: exact ties fall back to the headroom, then the generation
  // order, so the CLI and the wasm build pick the same option whatever sort
  // runs underneath (std::sort orders equal items differently in libstdc++ and libc++).
  const std::vector<uint32_t> order = stable_order(all.size(), [&](uint32_t a, uint32_t b) {
    if (all[a].cost != all[b].cost) return all[a].cost < all[b].cost;
    if (all[a].wall_hours != all[b].wall_hours) return all[a].wall_hours < all[b].wall_hours;
    if (all[a].alters != all[b].alters) return !all[a].alters;
    if (all[a].tight != all[b].tight) return !all[a].tight;
    return a < b;
  });
  std::vector<Candidate> sorted;
  sorted.reserve(all.size());
  for (uint32_t i : order) sorted.push_back(all[i]);
  all.swap(sorted);
}

// `all` sorted by sort_by_cost: the options no other beats on both cost and
// wall time (an exact twin is kept once, the one with the headroom first).
std::vector<Candidate> pareto_front(const std::vector<Candidate>& all) {
  std::vector<Candidate> front;
  double best_wall = std::numeric_limits<double>::infinity();
  for (const auto& c : all) {
    if (c.wall_hours < best_wall) {
      front.push_back(c);
      best_wall = c.wall_hours;
    }
  }
  return front;
}

// Best value: the point minimising relative cost times relative wall time
// (each over the front's minimum), so that paying 10 % more for 50 % less
// waiting wins, and paying double to save 10 % does not.
const Candidate* best_value(const std::vector<Candidate>& front) {
  if (front.empty()) return nullptr;
  double min_cost = front.front().cost, min_wall = front.back().wall_hours;
  const Candidate* best = &front[0];
  double best_score = std::numeric_limits<double>::infinity();
  for (const auto& c : front) {
    double score = (c.cost + 1e-9) / (min_cost + 1e-9) * ((c.wall_hours + 1e-9) / (min_wall + 1e-9));
    if (score < best_score) {
      best_score = score;
      best = &c;
    }
  }
  return best;
}
}  // namespace

StageOption Planner::to_option(const Candidate& c) {
  const PricedOffer& o = offers_[size_t(c.offer)];
  StageOption s;
  s.gpu = c_.gpus[o.gpu].id;
  s.platform = o.platform->id;
  s.billing = o.billing;
  s.gpus_per_run = c.gpus_per_run;
  s.parallel_runs = c.parallel;
  s.separate_rentals = c.separate;
  s.count = c.gpus_per_run * c.parallel;
  s.instances = c.instances;
  s.price_per_gpu_hour = o.price;
  s.run_hours = c.run_hours;
  s.wall_hours = c.wall_hours;
  s.hours = c.billed_hours;
  s.compute_cost = c.compute_cost;
  s.storage_cost = c.storage_cost;
  s.cost = c.cost;
  s.tight_memory = c.tight;
  const FitChoice& choice = choice_of(c);
  s.fit = fit_name(choice.fit);
  s.memory_bytes = choice.memory ? choice.memory->total_bytes : 0;
  s.sharding = choice.workload.sharding;
  s.sharding_name = name_of(s.sharding);
  if (q_.workload.mode == Mode::infer && c.gpus_per_run > 1)
    s.sharding_name = s.sharding != Sharding::zero3        ? "replicas"
                      : tensor_parallel_decode(q_.workload) ? "tensor"
                                                            : "layers";
  s.workload_changes = choice.changes;
  s.alters_results = choice.alters_results;
  s.education_discount = o.education;
  s.offer = o.ref;
  // The range: the price's own low and high ends, the run's time at the ends
  // of the time model's range (hours_low = hours / high_factor).
  const CostRange range = price_rental_range(offer_terms(o, PriceEnd::low), offer_terms(o, PriceEnd::high), c.rental,
                                             1 / std::max(1e-9, choice.throughput.high_factor),
                                             1 / std::max(1e-9, choice.throughput.low_factor));
  s.cost_low = std::min(range.low, s.cost);
  s.cost_high = std::max(range.high, s.cost);
  if (o.billing == Billing::spot) {
    SpotDetail d;
    d.interruptions_per_hour = spot_interruptions_per_hour(*o.platform);
    d.interruptions_assumed = !(o.platform->spot_interruptions_per_hour > 0);
    d.checkpoint_seconds = c.checkpoint_seconds;
    d.checkpoint_interval_hours = c.spot.checkpoint_interval_seconds / kSecondsPerHour;
    d.overhead_fraction = c.spot.overhead_fraction;
    d.expected_interruptions = c.spot.expected_interruptions;
    s.spot = d;
  }
  lab_option(c, s);
  return s;
}

// The stage's listed options, all from its front: none of them beats the
// chosen option on both cost and wall time, since that one is on the front too.
void Planner::list_options(const std::vector<Candidate>& full, StagePlan& out) {
  if (full.empty()) return;
  out.feasible = true;
  out.alternatives.push_back({"cheapest", to_option(full.front())});
  out.alternatives.push_back({"fastest", to_option(full.back())});
  if (const Candidate* c = best_value(full)) out.alternatives.push_back({"best-value", to_option(*c)});
  // The listed Pareto set, thinned evenly to a readable size.
  size_t step = std::max<size_t>(1, (full.size() + kParetoListed - 1) / kParetoListed);
  for (size_t i = 0; i < full.size(); i += step) out.pareto.push_back(to_option(full[i]));
  if ((full.size() - 1) % step != 0) out.pareto.push_back(to_option(full.back()));
}

namespace {

// Orders plan points: cheaper, then faster, then fewer result-moving changes
// and tight fits; then the pick, so that the order is total and the CLI and
// the wasm build (whose std::sort differ on ties) agree.
bool cheaper(const PlanPoint& a, const PlanPoint& b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  if (a.wall != b.wall) return a.wall < b.wall;
  if (a.alters != b.alters) return a.alters < b.alters;
  if (a.tight != b.tight) return a.tight < b.tight;
  return a.pick < b.pick;
}

}  // namespace
// Keeps the plans no other beats on both cost and wall time, cheapest first.
void keep_front(std::vector<PlanPoint>& points) {
  stable_sort_by(points, cheaper);
  std::vector<PlanPoint> front;
  double best_wall = std::numeric_limits<double>::infinity();
  for (auto& p : points)
    if (p.wall < best_wall) {
      best_wall = p.wall;
      front.push_back(std::move(p));
    }
  points.swap(front);
}


// The choice rule, the one place a plan is chosen (docs/api.md, "How the
// planner decides"). `front`: the plans no other beats on both cost and wall
// time, cheapest first. In order:
//  1. meet the deadline: only plans within it; if none is, the fastest;
//  2. stay within the budget: only plans within it; if none is, the cheapest;
//  3. among what is left, plans within the tie band of the cheapest (the
//     larger of kTieFraction of it and kTieCny, never past the budget) cost
//     the same (the absolute part at most kTieCnyMaxFraction of the
//     cheapest: a few yuan on a small job, never a doubling); of those, the fewest
//     stages with a result-moving change, then the fewest tight fits, then
//     the fewest oversized cards (seed 003: an 80 GB card for a 24 GB job),
//     then the shortest wall time, then the cheapest.
// Each step only narrows the set, and a looser deadline or a larger budget
// only adds plans to it, so neither ever yields a plan its tighter twin beats.
size_t choose_by_rule(const std::vector<PlanPoint>& front, double deadline_hours, std::optional<double> budget,
                      double tie_band_abs) {
  std::vector<size_t> pool;
  for (size_t i = 0; i < front.size(); ++i)
    if (deadline_hours <= 0 || front[i].wall <= deadline_hours + 1e-9) pool.push_back(i);
  if (pool.empty()) return front.size() - 1;  // the front's fastest
  if (budget) {
    std::vector<size_t> within;
    for (size_t i : pool)
      if (front[i].cost <= *budget + 1e-9) within.push_back(i);
    if (within.empty()) return pool.front();  // over budget anyway: the cheapest
    pool.swap(within);
  }
  const double cheapest = front[pool.front()].cost;
  double top = cheapest + std::max(kTieFraction * cheapest, std::min(tie_band_abs, kTieCnyMaxFraction * cheapest));
  if (budget) top = std::min(top, *budget);
  size_t best = pool.front();
  for (size_t i : pool) {
    const PlanPoint& c = front[i];
    if (c.cost > top + 1e-9) break;
    const PlanPoint& b = front[best];
    const auto key = [](const PlanPoint& p) { return std::make_tuple(p.alters, p.tight, p.oversized, p.wall, p.cost); };
    if (key(c) < key(b)) best = i;
  }
  return best;
}

// The plan from the stages' fronts: every combination of their points (kept
// to the joint front as it grows, so a handful of stages stays cheap), then
// the choice rule.
void Planner::choose_plan(PlanResult& r, const std::vector<std::vector<Candidate>>& fronts) {
  const double upload = upload_hours(q_.prefs.dataset_gb, q_.prefs.upload_mbps);
  std::vector<PlanPoint> points(1);
  for (size_t i = 0; i < fronts.size(); ++i) {
    if (fronts[i].empty()) {
      for (auto& p : points) p.pick.push_back(0);
      continue;
    }
    std::vector<PlanPoint> next;
    next.reserve(points.size() * fronts[i].size());
    for (const auto& p : points)
      for (size_t k = 0; k < fronts[i].size(); ++k) {
        const Candidate& c = fronts[i][k];
        PlanPoint n = p;
        const uint64_t bit = uint64_t(1) << (size_t(offers_[size_t(c.offer)].platform - c_.platforms.data()) % 64);
        n.cost += c.cost;
        n.wall += c.wall_hours + ((n.platforms & bit) ? 0 : upload);
        n.platforms |= bit;
        n.tight += c.tight;
        n.alters += c.alters;
        n.oversized += smallest_fit_bytes_ > 0 &&
                       c_.gpus[offers_[size_t(c.offer)].gpu].memory_bytes >= kRightSizeFactor * smallest_fit_bytes_;
        n.pick.push_back(uint16_t(k));
        next.push_back(std::move(n));
      }
    keep_front(next);
    points.swap(next);
  }
  const double band = convert_currency(kTieCny, "CNY", currency_, c_.fx);
  const size_t best = choose_by_rule(points, r.deadline_hours, r.budget, band);
  const size_t cheapest = choose_by_rule(points, 0, std::nullopt, 0);
  const PlanPoint& p = points[best];
  for (size_t i = 0; i < fronts.size(); ++i) {
    StagePlan& sp = r.stages[i];
    if (fronts[i].empty()) {
      chosen_.push_back(Candidate{});
      continue;
    }
    const Candidate& c = fronts[i][p.pick[i]];
    chosen_.push_back(c);
    sp.chosen = to_option(c);
    const Candidate& low = fronts[i][points[cheapest].pick[i]];
    // Why this point and not the stage's cheapest: the deadline, or the tie band.
    if (c.cost > low.cost + 1e-9 && r.deadline_hours > 0 && points[cheapest].wall > r.deadline_hours + 1e-9)
      sp.why = msg("plan.why.deadline", {duration_text(r.deadline_hours, q_.locale)}) + " ";
    else if (c.cost > low.cost + 1e-9 && c.wall_hours < low.wall_hours)
      sp.why = msg("plan.why.tie_band", {money(c.cost - low.cost), currency_, duration_text(low.wall_hours, q_.locale),
                                         duration_text(c.wall_hours, q_.locale)}) + " ";
  }
}

// ---------------------------------------------------------------- category

Category Planner::classify() {
  if (q_.workload.mode == Mode::infer) return Category::inference_eval;
  // Seed 003's four kinds, by what holds the job: a consumer card (≤ 24 GB)
  // holding it is the small single-GPU case (a ResNet-50 or a YOLOv8m is a
  // small model even when ImageNet keeps a card busy for days); any one card
  // holding it within three days the large one; otherwise several GPUs.
  bool consumer_holds = false;
  double best_single = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < c_.gpus.size(); ++i) {
    const FitChoice& one = e_.fit(i, 1, true);
    if (one.fit != Fit::comfortable) continue;
    best_single = std::min(best_single, one.hours);
    if (c_.gpus[i].segment == Segment::consumer) consumer_holds = true;
  }
  if (best_single > kMultiGpuAfterHours) return Category::multi_gpu;
  if (consumer_holds) return Category::single_gpu_small;
  return Category::single_gpu_large;
}

// The kind of experiment the plan makes of it: the same four kinds, read from
// the main stage as chosen (its card, count and run time, workload changes
// applied), so that the advice beside the plan speaks of the card the plan
// rents ("pick the 48 or 80 GB card" beside a plan on one 24 GB card read as
// a contradiction). Without a feasible stage, the request's own kind above.
Category Planner::classify(const PlanResult& r) const {
  if (q_.workload.mode == Mode::infer) return Category::inference_eval;
  const StagePlan* main = nullptr;
  for (const auto& sp : r.stages)
    if (sp.feasible && (!main || sp.stage == Stage::formal)) main = &sp;
  if (!main) return r.category;
  const StageOption& o = main->chosen;
  const Candidate& c = chosen_[size_t(main - r.stages.data())];
  // Several cards where one holds the job are for speed at about the same
  // cost (the tie band): the experiment is still the kind one card makes it.
  if (o.gpus_per_run > 1 &&
      (c.fewest > 1 || e_.fit(offers_[size_t(c.offer)].gpu, c.fewest, c.changes).hours > kMultiGpuAfterHours))
    return Category::multi_gpu;
  const Gpu* gpu = c_.find_gpu(o.gpu);
  if (gpu && gpu->segment == Segment::consumer) return Category::single_gpu_small;
  return Category::single_gpu_large;
}

// ---------------------------------------------------------------- main flow

PlanResult Planner::run(bool with_changes) {
  PlanResult r;
  r.currency = currency_;
  if (q_.stages.empty()) return r;
  prepare(r);
  // With lab settings, each stage's every candidate, kept for weigh_lab.
  std::vector<std::vector<Candidate>> with_lab;
  choose_plan(r, stage_fronts(r, with_lab));
  for (size_t i = 0; i < with_lab.size(); ++i) weigh_lab(q_.stages[i], with_lab[i], r.stages[i], chosen_[i]);
  place_uploads(r);
  sum_up(r);
  rent_or_buy(r);
  group_rental(r);
  price_references(r);
  warnings(r);
  disk_after_stop(r);
  if (with_changes) shrunk_debug(r);
  if (with_changes && !r.feasible) nothing_fits(r);
  if (with_changes && r.budget && !r.within_budget && r.feasible) budget_changes(r);
  closing_advice(r);
  return r;
}

// What every stage shares: the offers in scope, each card's fit, the lab's
// cards, the request's kind, the deadline and the budget.
void Planner::prepare(PlanResult& r) {
  build_offers();
  for (const auto& b : kBillingSpellings)
    if (std::find(billings_in_scope_.begin(), billings_in_scope_.end(), b.value) != billings_in_scope_.end()) r.billings.push_back(b.value);
  // The scope rule's verdict on each platform, for the page's platform list
  // (`plan.platforms`): it marks the others, and keeps no rule of its own.
  for (const Platform& p : c_.platforms)
    if (platform_in_scope(q_, p)) r.platforms.push_back(p.id);
  fit_gpus();
  add_lab_offers();  // after the fit: the lab's cards do not move the right-size yardstick
  r.category = classify();
  r.category_advice = msg(std::string("plan.category.") + category_id(r.category));
  r.deadline_hours = q_.prefs.deadline_days * 24;
  if (q_.budget) r.budget = q_.budget->amount;
}

// Each stage's front (what choose_plan picks from) and listed options; with
// lab settings, `with_lab` keeps each stage's every candidate for weigh_lab.
std::vector<std::vector<Candidate>> Planner::stage_fronts(PlanResult& r, std::vector<std::vector<Candidate>>& with_lab) {
  std::vector<std::vector<Candidate>> fronts;
  for (const StageRequest& s : q_.stages) {
    StagePlan sp;
    sp.stage = s.stage;
    sp.runs = s.runs;
    sp.data_fraction = s.data_fraction;
    std::vector<Candidate> all = candidates(s);
    sort_by_cost(all);
    if (!q_.lab) {
      fronts.push_back(pareto_front(all));
      list_options(fronts.back(), sp);
    } else {
      // The lab's options (its cards, and the campus centre the lab
      // describes) are weighed against the rental after the rental is chosen
      // (weigh_lab, lab_options.cpp): the rental choice sees them only where
      // nothing else holds the stage.
      std::vector<Candidate> rentals = all;
      std::erase_if(rentals, [&](const Candidate& c) { return lab_owned(c); });
      fronts.push_back(pareto_front(rentals.empty() ? all : rentals));
      list_options(pareto_front(all), sp);
      with_lab.push_back(std::move(all));
    }
    r.stages.push_back(std::move(sp));
  }
  return fronts;
}

// Uploads: the dataset goes up once per platform, before its first stage.
void Planner::place_uploads(PlanResult& r) const {
  std::vector<std::string> seen;
  for (auto& sp : r.stages) {
    sp.upload_hours = 0;
    if (!sp.feasible || sp.chosen.platform == "lab") continue;  // the data is in the lab already
    if (std::find(seen.begin(), seen.end(), sp.chosen.platform) != seen.end()) continue;
    seen.push_back(sp.chosen.platform);
    sp.upload_hours = upload_hours(q_.prefs.dataset_gb, q_.prefs.upload_mbps);
  }
}

// The plan's totals: wall time, its kind as chosen, the deadline, credits,
// cost and its range, each stage's share and reason, the budget, and honest
// failure.
void Planner::sum_up(PlanResult& r) {
  r.wall_hours = 0;
  for (size_t i = 0; i < r.stages.size(); ++i) r.wall_hours += r.stages[i].chosen.wall_hours + r.stages[i].upload_hours;
  r.category = classify(r);
  r.category_advice = msg(std::string("plan.category.") + category_id(r.category));
  if (r.deadline_hours > 0) r.meets_deadline = r.wall_hours <= r.deadline_hours + 1e-9;

  apply_credits(r);
  for (auto& sp : r.stages) {
    r.total_cost += sp.feasible ? sp.chosen.cost : 0;
    r.total_cost_low += sp.feasible ? sp.chosen.cost_low : 0;
    r.total_cost_high += sp.feasible ? sp.chosen.cost_high : 0;
  }
  for (size_t i = 0; i < r.stages.size(); ++i) {
    StagePlan& sp = r.stages[i];
    sp.share = r.total_cost > 0 && sp.feasible ? sp.chosen.cost / r.total_cost : 0;
    if (sp.feasible) sp.why += on_lab(chosen_[i]) ? lab_why(sp, chosen_[i]) : why(sp, chosen_[i]);

  }
  if (r.budget) r.within_budget = r.total_cost <= *r.budget + 1e-9;
  // Honest failure: a requested stage with no option makes the plan
  // infeasible, never a cheap one (a stage of 0 runs is simply skipped).
  for (const auto& sp : r.stages)
    if (!sp.feasible && sp.runs > 0) r.feasible = false;
  if (!r.feasible) r.within_budget = false;
}

// The advice every plan ends with: a small budget's priorities, and the
// upload without GPUs attached.
void Planner::closing_advice(PlanResult& r) {
  // Seed 003: under 5000 CNY, keep the money for the core experiments.
  if (r.budget && convert_currency(*r.budget, currency_, "CNY", c_.fx) < kSmallBudgetCny)
    r.advice.push_back({"small-budget", msg("plan.advice.small_budget")});
  if (q_.prefs.dataset_gb > 0) {
    r.advice.push_back({"upload-without-gpu", msg("plan.advice.upload_without_gpu")});
    // Where the platform has a GPU-less mode, what the upload costs there
    // against keeping the planned GPUs attached while it runs.
    for (const auto& sp : r.stages) {
      if (!sp.feasible || sp.upload_hours <= 0) continue;
      const Platform* p = c_.find_platform(sp.chosen.platform);
      if (!p || p->cpu_only_per_hour <= 0) continue;
      double cpu = hourly_cost(convert_currency(p->cpu_only_per_hour, p->currency, currency_, c_.fx), 1, sp.upload_hours);
      double gpu = hourly_cost(sp.chosen.price_per_gpu_hour, sp.chosen.count, sp.upload_hours);
      r.advice.push_back({"upload-cpu-only", msg("plan.advice.upload_cpu_only",
                                                 {p->name.in(q_.locale), hours_text(sp.upload_hours), money(cpu),
                                                  currency_, money(gpu)})});
    }
  }
}

}  // namespace planner_detail

const char* category_id(Category c) {
  switch (c) {
    case Category::single_gpu_small: return "single-gpu-small";
    case Category::single_gpu_large: return "single-gpu-large";
    case Category::multi_gpu: return "multi-gpu";
    case Category::inference_eval: return "inference-eval";
  }
  return "single-gpu-small";
}

PlanResult plan_stages(Evaluator& evaluator) { return planner_detail::Planner(evaluator).run(true); }

PlanResult plan_stages(const Request& request, const Catalog& catalog) {
  Evaluator e(request, catalog);
  return plan_stages(e);
}

}  // namespace gpuplan
