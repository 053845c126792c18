// The planner's search (its advice: planner_advice.cpp, failures: planner_failure.cpp):
// every GPU × count × platform × billing option for
// each stage, priced with each platform's billing rules, the seeds' stage
// policy as the default choice, the Pareto set kept as alternatives, then the
// deadline, and the main flow that hands the chosen plan to the advice
// (planner_advice.cpp). Policy and cost model: docs/api.md ("How the planner
// decides", "Cost model").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "gpuplan/memory.h"
#include "names.h"
#include "planner_internal.h"

namespace gpuplan {
namespace planner_detail {
// ---------------------------------------------------------------- offers

void Planner::build_offers() {
  offers_ = priced_offers(q_, c_, currency_);
  // When `prefs.billing` left nothing, the billings the in-scope offers do
  // have, for billing_unavailable (planner_advice.cpp) to name.
  if (!q_.prefs.billing.empty() && offers_.empty()) {
    Request open = q_;
    open.prefs.billing.clear();
    for (const PricedOffer& o : priced_offers(open, c_, currency_))
      if (std::find(billings_in_scope_.begin(), billings_in_scope_.end(), o.billing) == billings_in_scope_.end())
        billings_in_scope_.push_back(o.billing);
  }
}

// ---------------------------------------------------------------- memory fit

void Planner::fit_gpus() {
  need_bytes_ = e_.memory_at(std::max(1, q_.workload.gpus)).total_bytes * (1 + kDefaultHeadroom);
  smallest_fit_bytes_ = 0;
  std::vector<bool> used(c_.gpus.size(), false);
  for (const auto& o : offers_) used[o.gpu] = true;
  for (size_t i = 0; i < c_.gpus.size(); ++i) {
    const double capacity = c_.gpus[i].memory_bytes;
    if (need_bytes_ <= capacity && (smallest_catalog_fit_bytes_ == 0 || capacity < smallest_catalog_fit_bytes_))
      smallest_catalog_fit_bytes_ = capacity;
    if (!used[i] || q_.hardware) continue;
    // The smallest card that holds the job on its own, comfortably (the
    // right-size rule's yardstick), with the changes the planner may make;
    // not by moving the optimizer to host memory: that card runs the step at
    // host speed (a Llama 8B full fine-tune on a 24 GB card, ~12 x slower than
    // an 80 GB card), so it must not rule the 80 GB cards out.
    const FitChoice& one = e_.fit(i, 1, true);
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
std::vector<int> Planner::counts(const Gpu& g, const Platform& p) const {
  std::vector<int> out;
  if (q_.hardware) {
    out.push_back(q_.hardware->count);
    return out;
  }
  const int first = std::max(1, q_.workload.gpus);
  const int machine = std::max(1, p.machine_max_gpus);
  for (int n = 1; n < machine; n *= 2)
    if (n >= first) out.push_back(n);
  if (first < machine) out.push_back(first);
  out.push_back(machine);
  for (int m = 2; m * machine <= kMaxGpusSearched; m *= 2)
    if (rentable(p, g, m * machine)) out.push_back(m * machine);
  std::sort(out.begin(), out.end());
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

std::vector<Candidate> Planner::candidates(const StageRequest& s) {
  std::vector<Candidate> out;
  const int runs = std::max(0, s.runs);
  if (runs == 0) return out;
  out.reserve(offers_.size() * 6);
  const double disk_gb = storage_gb();
  const bool debug = s.stage == Stage::debug;
  for (size_t oi = 0; oi < offers_.size(); ++oi) {
    const PricedOffer& o = offers_[oi];
    const Gpu& gpu = c_.gpus[o.gpu];
    const Platform& p = *o.platform;
    const RentalTerms terms = rental_terms(p, o.billing, o.price, o.storage_per_gb_month);
    const int machine = std::max(1, p.machine_max_gpus);
    // Counts: the fewest that fit; more for the main stages, for when one
    // card is too slow or the deadline is near.
    int fewest = 0;
    double single_hours = 0;
    // The cheapest compute of the stage on the fewest cards of this offer:
    // more cards follow the policy also where their compute costs less (the
    // fewest hold the job only with the optimizer in host memory, or with
    // changes that slow every step more than the extra cards' communication
    // does). Compute, not the total: a shorter run also holds the data disk
    // for less time, a saving of cents that must not buy a second card.
    double fewest_compute = std::numeric_limits<double>::infinity();
    for (int n : counts(gpu, p)) {
      if (fewest > 0 && (debug || q_.hardware)) break;
      // Past one machine only where one machine is not enough: the job does
      // not fit it, a full machine still needs more than three days a run
      // (seed 003's multi-GPU rule), or a deadline may need the speed.
      if (fewest > 0 && n > machine && q_.prefs.deadline_days <= 0 &&
          e_.fit(o.gpu, machine, true).hours * s.data_fraction <= kMultiGpuAfterHours)
        break;
      const FitChoice& choice = e_.fit(o.gpu, n, true);
      if (choice.fit == Fit::no) continue;
      if (fewest == 0) {
        fewest = n;
        single_hours = choice.hours * s.data_fraction;
      }
      const double work_hours = choice.hours * s.data_fraction;
      Candidate base;
      base.offer = int(oi);
      base.gpus_per_run = n;
      base.fewest = fewest;
      base.tight = choice.fit == Fit::tight;
      const RunTime t = run_time(terms, work_hours, checkpoint_bytes(), n);
      if (!t.feasible) continue;
      base.checkpoint_seconds = t.checkpoint_seconds;
      base.spot = t.spot;
      const double run_wall = t.wall_hours, run_billed = t.billed_hours;
      base.run_hours = run_wall;
      // The policy: debug keeps to consumer cards; more GPUs than fit only
      // when one card would need more than three days.
      // Debug: consumer cards billed by the hour (seed 003), unless the user chose a billing.
      if (debug) {
        base.relaxed = o.billing == Billing::on_demand || !q_.prefs.billing.empty();
        base.policy = base.relaxed && gpu.segment == Segment::consumer;
      }
      const bool more_than_needed = n > fewest && single_hours <= kMultiGpuAfterHours;
      if (!debug && smallest_fit_bytes_ > 0 && gpu.memory_bytes >= kRightSizeFactor * smallest_fit_bytes_)
        base.policy = false;

      // Every candidate is priced by the one rental price (gpuplan/pricing.h).
      auto price = [&](Candidate c, double used_hours_per_instance, double disks) {
        Rental r;
        r.gpus = n;
        r.parallel = c.parallel;
        r.instances = c.instances;
        r.used_hours = used_hours_per_instance;
        r.disk_gb = disk_gb;
        r.disks = disks;
        r.disk_hours = c.wall_hours;
        const RentalCost rc = price_rental(terms, r);
        c.billed_hours = rc.billed_hours;
        c.compute_cost = rc.compute_cost;
        c.storage_cost = rc.storage_cost;
        c.cost = rc.cost;
        if (n == fewest) fewest_compute = std::min(fewest_compute, c.compute_cost);
        if (more_than_needed && !(c.compute_cost < fewest_compute * (1 - kTieFraction))) c.policy = false;
        out.push_back(c);
      };
      if (debug) {
        // Debug runs are sessions one after another: fix, rerun. Each is a rental.
        Candidate c = base;
        c.separate = true;
        c.instances = runs;
        c.wall_hours = runs * (kSetupHours + run_wall);
        price(c, kSetupHours + run_billed, 1);
        continue;
      }
      // Runs queued on one instance, `parallel` at a time (seed 003: seed runs
      // packed onto one multi-GPU instance, one start and one data transfer).
      for (int par = 1; par <= runs && n * par <= std::max(n, machine); par *= 2) {
        Candidate c = base;
        c.parallel = par;
        int waves = (runs + par - 1) / par;
        c.wall_hours = kSetupHours + waves * run_wall;
        price(c, kSetupHours + waves * run_billed, 1);
      }
      // Or one rental per run, all at once.
      if (runs > 1) {
        Candidate c = base;
        c.separate = true;
        c.instances = runs;
        c.wall_hours = kSetupHours + run_wall;
        price(c, kSetupHours + run_billed, runs);
      }
    }
  }
  lab_candidates(s, out);
  return out;
}
namespace {

// Cost versus wall time: the options no other beats on both, cheapest first.
enum class Filter { policy, relaxed, all };

// Orders candidates by cost, then wall time: sorted once per stage, so each
// front below is one sweep.
void sort_by_cost(std::vector<Candidate>& all) {
  std::vector<uint32_t> order(all.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  // A total order: exact ties fall back to the generation order, so libstdc++
  // (CLI) and libc++ (wasm), whose std::sort orders equal items differently,
  // pick the same option — a price must not differ between the CLI and the page.
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (all[a].cost != all[b].cost) return all[a].cost < all[b].cost;
    if (all[a].wall_hours != all[b].wall_hours) return all[a].wall_hours < all[b].wall_hours;
    return a < b;
  });
  std::vector<Candidate> sorted;
  sorted.reserve(all.size());
  for (uint32_t i : order) sorted.push_back(all[i]);
  all.swap(sorted);
}

// `all` sorted by sort_by_cost.
std::vector<Candidate> pareto_front(const std::vector<Candidate>& all, Filter filter) {
  std::vector<Candidate> front;
  double best_wall = std::numeric_limits<double>::infinity();
  for (const auto& c : all) {
    if (filter != Filter::all && !(filter == Filter::policy ? c.policy : c.relaxed)) continue;
    if (c.wall_hours < best_wall) {
      front.push_back(c);
      best_wall = c.wall_hours;
    }
  }
  return front;
}

// The cheapest, ties (within kTieFraction) going to the faster.
const Candidate* cheapest(const std::vector<Candidate>& front) {
  if (front.empty()) return nullptr;
  const Candidate* best = &front[0];
  for (const auto& c : front)
    if (c.cost <= front[0].cost * (1 + kTieFraction) + 1e-9 && c.wall_hours < best->wall_hours) best = &c;
  return best;
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
  const FitChoice& choice = e_.fit(o.gpu, c.gpus_per_run, true);
  s.fit = fit_name(choice.fit);
  s.memory_bytes = choice.memory ? choice.memory->total_bytes : 0;
  s.sharding = choice.workload.sharding;
  s.workload_changes = choice.changes;
  s.education_discount = o.education;
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

void Planner::choose(const StageRequest& s, const std::vector<Candidate>& all, StagePlan& out,
                     std::vector<Candidate>& front, std::vector<Candidate>& full) {
  Filter used = Filter::policy;
  front = pareto_front(all, Filter::policy);
  bool relaxed = false;
  if (front.empty()) {
    used = Filter::relaxed;
    front = pareto_front(all, Filter::relaxed);
    relaxed = true;
  }
  if (front.empty()) {
    used = Filter::all;
    front = pareto_front(all, Filter::all);
  }
  full = pareto_front(all, Filter::all);
  if (front.empty()) return;
  // Formal and revision: when some option finishes a run within three days,
  // the slower ones are not the default (seed 003's multi-GPU rule).
  std::vector<Candidate> pool = front;
  if (s.stage != Stage::debug) {
    std::vector<Candidate> quick;
    for (const auto& c : pool)
      if (c.run_hours <= kMultiGpuAfterHours) quick.push_back(c);
    if (!quick.empty() && quick.size() < pool.size()) pool = quick;
  }
  const Candidate* pick = cheapest(pool);
  // A tight fit is valid but preferred less: a comfortable option of the
  // same kind costing at most kTightPreference more wins over it.
  if (pick->tight) {
    const bool quick_only = s.stage != Stage::debug && pick->run_hours <= kMultiGpuAfterHours;
    for (const auto& c : all) {
      if (c.cost > pick->cost * (1 + kTightPreference) + 1e-9) break;
      if (c.tight || (used != Filter::all && !(used == Filter::policy ? c.policy : c.relaxed))) continue;
      if (quick_only && c.run_hours > kMultiGpuAfterHours) continue;
      pick = &c;
      break;
    }
  }
  out.feasible = true;
  out.chosen = to_option(*pick);
  chosen_.push_back(*pick);
  if (const Candidate* c = cheapest(full)) out.alternatives.push_back({"cheapest", to_option(*c)});
  out.alternatives.push_back({"fastest", to_option(full.back())});
  if (const Candidate* c = best_value(full)) out.alternatives.push_back({"best-value", to_option(*c)});
  // The listed Pareto set, thinned evenly to a readable size.
  size_t step = std::max<size_t>(1, (full.size() + kParetoListed - 1) / kParetoListed);
  for (size_t i = 0; i < full.size(); i += step) out.pareto.push_back(to_option(full[i]));
  if ((full.size() - 1) % step != 0) out.pareto.push_back(to_option(full.back()));
  if (relaxed) out.why = msg("plan.why.relaxed") + " ";
}

// ---------------------------------------------------------------- category

Category Planner::classify() {
  if (q_.workload.mode == Mode::infer) return Category::inference_eval;
  // Seed 003's four kinds: a consumer card (≤ 24 GB) holding the job and
  // finishing a run within a day is the small single-GPU case; any one card
  // holding it within three days is the large one; otherwise several GPUs.
  double best_consumer = std::numeric_limits<double>::infinity();
  double best_single = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < c_.gpus.size(); ++i) {
    const FitChoice& one = e_.fit(i, 1, true);
    if (one.fit != Fit::comfortable) continue;
    double h = one.hours;
    best_single = std::min(best_single, h);
    if (c_.gpus[i].segment == Segment::consumer) best_consumer = std::min(best_consumer, h);
  }
  if (best_consumer <= 24) return Category::single_gpu_small;
  if (best_single <= kMultiGpuAfterHours) return Category::single_gpu_large;
  return Category::multi_gpu;
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
  if (o.gpus_per_run > 1) return Category::multi_gpu;
  const Gpu* gpu = c_.find_gpu(o.gpu);
  const double full_run_hours = o.run_hours / std::max(main->data_fraction, 1e-9);
  if (gpu && gpu->segment == Segment::consumer && full_run_hours <= 24) return Category::single_gpu_small;
  return Category::single_gpu_large;
}

// ---------------------------------------------------------------- deadline

// Moves stages to faster points of their Pareto fronts, each time the move
// with the least extra cost per hour saved, until the plan meets the deadline.
void Planner::deadline(PlanResult& r, std::vector<std::vector<Candidate>>& fronts) {
  auto total_wall = [&] {
    double t = 0;
    for (size_t i = 0; i < chosen_.size(); ++i) t += chosen_[i].wall_hours + r.stages[i].upload_hours;
    return t;
  };
  r.wall_hours = total_wall();
  if (r.deadline_hours <= 0) return;
  while (r.wall_hours > r.deadline_hours) {
    int best_stage = -1;
    const Candidate* best = nullptr;
    double best_rate = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < chosen_.size(); ++i) {
      for (const auto& c : fronts[i]) {
        double saved = chosen_[i].wall_hours - c.wall_hours;
        if (saved <= 1e-9) continue;
        double rate = (c.cost - chosen_[i].cost) / saved;
        if (rate < best_rate) {
          best_rate = rate;
          best = &c;
          best_stage = int(i);
        }
      }
    }
    if (!best) break;
    chosen_[size_t(best_stage)] = *best;
    StagePlan& sp = r.stages[size_t(best_stage)];
    sp.chosen = to_option(*best);
    sp.why = msg("plan.why.deadline", {duration_text(r.deadline_hours, q_.locale)}) + " ";
    r.wall_hours = total_wall();
  }
  r.meets_deadline = r.wall_hours <= r.deadline_hours + 1e-9;
}

// ---------------------------------------------------------------- main flow

PlanResult Planner::run(bool with_changes) {
  PlanResult r;
  r.currency = currency_;
  if (q_.stages.empty()) return r;
  build_offers();
  fit_gpus();
  add_lab_offers();  // after the fit: the lab's cards do not move the right-size yardstick
  r.category = classify();
  r.category_advice = msg(std::string("plan.category.") + category_id(r.category));
  r.deadline_hours = q_.prefs.deadline_days * 24;
  if (q_.budget) r.budget = q_.budget->amount;

  std::vector<std::vector<Candidate>> fronts, full_fronts;
  std::string last_platform;
  for (const StageRequest& s : q_.stages) {
    StagePlan sp;
    sp.stage = s.stage;
    sp.runs = s.runs;
    sp.data_fraction = s.data_fraction;
    std::vector<Candidate> all = candidates(s);
    sort_by_cost(all);
    std::vector<Candidate> front, full;
    choose(s, all, sp, front, full);
    weigh_lab(s, all, sp);
    if (!sp.feasible) chosen_.push_back(Candidate{});
    // When the policy front cannot meet the deadline, the deadline search
    // may then use every option.
    fronts.push_back(std::move(front));
    full_fronts.push_back(std::move(full));
    r.stages.push_back(std::move(sp));
  }
  // Uploads: the dataset goes up once per platform, before its first stage.
  auto uploads = [&] {
    std::vector<std::string> seen;
    for (auto& sp : r.stages) {
      sp.upload_hours = 0;
      if (!sp.feasible || sp.chosen.platform == "lab") continue;  // the data is in the lab already
      if (std::find(seen.begin(), seen.end(), sp.chosen.platform) != seen.end()) continue;
      seen.push_back(sp.chosen.platform);
      sp.upload_hours = upload_hours(q_.prefs.dataset_gb, q_.prefs.upload_mbps);
    }
  };
  uploads();
  deadline(r, fronts);
  if (!r.meets_deadline) deadline(r, full_fronts);
  uploads();
  r.wall_hours = 0;
  for (size_t i = 0; i < r.stages.size(); ++i) r.wall_hours += r.stages[i].chosen.wall_hours + r.stages[i].upload_hours;
  r.category = classify(r);
  r.category_advice = msg(std::string("plan.category.") + category_id(r.category));
  if (r.deadline_hours > 0) r.meets_deadline = r.wall_hours <= r.deadline_hours + 1e-9;

  apply_credits(r);
  for (auto& sp : r.stages) {
    r.total_cost += sp.feasible ? sp.chosen.cost : 0;
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

  rent_or_buy(r);
  group_rental(r);
  warnings(r);
  if (with_changes && !r.feasible) nothing_fits(r);
  if (with_changes && r.budget && !r.within_budget && r.feasible) budget_changes(r);
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
      double cpu = convert_currency(p->cpu_only_per_hour, p->currency, currency_, c_.fx) * sp.upload_hours;
      double gpu = sp.chosen.price_per_gpu_hour * sp.chosen.count * sp.upload_hours;
      r.advice.push_back({"upload-cpu-only", msg("plan.advice.upload_cpu_only",
                                                 {p->name.in(q_.locale), hours_text(sp.upload_hours), money(cpu),
                                                  currency_, money(gpu)})});
    }
  }
  return r;
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
