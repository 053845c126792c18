#include "plan/science_plan.h"

#include "estimate/evaluation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "gpuplan/pricing.h"
#include "text/messages.h"
#include "text/names.h"
#include "text/order.h"
#include "plan/offers.h"
#include "plan/planner_internal.h"

namespace gpuplan {
namespace {
using namespace planner_detail;

// GeForce Ampere/Ada run FP64 at 1/64 of FP32; Volta/Ampere/Hopper datacenter
// parts at 1/2 (NVIDIA architecture whitepapers; the catalog's own figures).
// Below 1/8 a card gives an FP64 code a small fraction of what it paid for.
constexpr double kFp64StarvedRatio = 1.0 / 8;

// CUDA context only: a science code's own working set is the user's figure.
constexpr double kCudaContextBytes = 500.0 * 1024 * 1024;

// One way to run a science stage: an offer, runs queued `parallel` at a time.
struct SciOption {
  StageOption option;
  double wall = 0;
};

// A science stage's options: every offer of a CUDA card that holds the
// working set at the baseline's count, runs queued or packed on one machine.
std::vector<SciOption> science_options(const Request& q, const Catalog& catalog, const std::vector<PricedOffer>& offers,
                                       const StageRequest& s) {
  const ScienceWorkload& w = *q.science;
  const Gpu& baseline = *catalog.find_gpu(w.baseline.gpu);
  const double need = w.memory_bytes + kCudaContextBytes;
  const int count = std::max(1, w.baseline.count);
  const double disk_gb = q.prefs.storage_gb >= 0 ? q.prefs.storage_gb : q.prefs.dataset_gb;
  std::vector<SciOption> all;
  const int runs = std::max(0, s.runs);
  for (const PricedOffer& o : runs > 0 ? offers : std::vector<PricedOffer>{}) {
    const Gpu& g = catalog.gpus[o.gpu];
    if (!g.cuda || science_peak(w, g) <= 0 || fit_verdict(need, g.memory_bytes) == Fit::no) continue;
    if (!rentable(*o.platform, g, count)) continue;
    const double speedup = science_speedup(w, baseline, g);
    const double work = science_hours(w, speedup) * s.data_fraction;
    if (!(work > 0) || !std::isfinite(work)) continue;
    RentalTerms terms = rental_terms(*o.platform, o.billing, o.price, o.storage_per_gb_month);
    terms.minimum_charge = o.minimum_charge;
    const RunTime t = run_time(terms, work, 0, count);
    if (!t.feasible) continue;
    const int machine = std::max(count, o.platform->machine_max_gpus);
    for (int par = 1; par <= runs && count * par <= machine; par *= 2) {
      const int waves = (runs + par - 1) / par;
      Rental rent;
      rent.gpus = count;
      rent.parallel = par;
      rent.used_hours = kSetupHours + waves * t.billed_hours;
      rent.disk_gb = disk_gb;
      rent.disk_hours = kSetupHours + waves * t.wall_hours;
      const RentalCost rc = price_rental(terms, rent);
      SciOption so;
      StageOption& op = so.option;
      op.gpu = g.id;
      op.platform = o.platform->id;
      op.billing = o.billing;
      op.gpus_per_run = count;
      op.parallel_runs = par;
      op.count = count * par;
      op.price_per_gpu_hour = o.price;
      op.run_hours = t.wall_hours;
      op.wall_hours = rent.disk_hours;
      op.hours = rc.billed_hours;
      op.compute_cost = rc.compute_cost;
      op.storage_cost = rc.storage_cost;
      op.cost = rc.cost;
      op.fit = fit_name(fit_verdict(need, g.memory_bytes));
      op.tight_memory = op.fit == "tight";
      op.memory_bytes = need;
      op.sharding_name = "none";
      op.education_discount = o.education;
      so.wall = op.wall_hours;
      all.push_back(so);
    }
  }
  return all;
}

// The options no other beats on both cost and wall time, cheapest first.
std::vector<SciOption> science_front(std::vector<SciOption> all) {
  stable_sort_by(all, [](const SciOption& a, const SciOption& b) {
    if (a.option.cost != b.option.cost) return a.option.cost < b.option.cost;
    if (a.wall != b.wall) return a.wall < b.wall;
    return a.option.gpu + a.option.platform < b.option.gpu + b.option.platform;
  });
  std::vector<SciOption> front;
  double best = std::numeric_limits<double>::infinity();
  for (auto& o : all)
    if (o.wall < best) {
      best = o.wall;
      front.push_back(o);
    }
  return front;
}

// The stage's listed options, all from its front.
StagePlan science_stage(const StageRequest& s, const std::vector<SciOption>& front) {
  StagePlan sp;
  sp.stage = s.stage;
  sp.runs = s.runs;
  sp.data_fraction = s.data_fraction;
  if (!front.empty()) {
    sp.feasible = true;
    sp.alternatives.push_back({"cheapest", front.front().option});
    sp.alternatives.push_back({"fastest", front.back().option});
    // Copies moved in, so that the page carries one push_back of StageOption
    // (the one that moves), not a copying one as well.
    const size_t step = std::max<size_t>(1, (front.size() + kParetoListed - 1) / kParetoListed);
    for (size_t i = 0; i < front.size(); i += step) sp.pareto.push_back(StageOption(front[i].option));
    if ((front.size() - 1) % step != 0) sp.pareto.push_back(StageOption(front.back().option));
  }
  return sp;
}

// The joint front of the stages' fronts and the one choice rule, as for
// training: the pick of each stage's front.
std::vector<uint16_t> choose_science_plan(const std::vector<std::vector<SciOption>>& fronts, const PlanResult& r,
                                          const Catalog& catalog) {
  std::vector<PlanPoint> points(1);
  for (const auto& f : fronts) {
    if (f.empty()) {
      for (auto& p : points) p.pick.push_back(0);
      continue;
    }
    std::vector<PlanPoint> next;
    for (const auto& p : points)
      for (size_t k = 0; k < f.size(); ++k) {
        PlanPoint n = p;
        n.cost += f[k].option.cost;
        n.wall += f[k].wall;
        n.tight += f[k].option.tight_memory;
        n.pick.push_back(uint16_t(k));
        next.push_back(std::move(n));
      }
    keep_front(next);
    points.swap(next);
  }
  const size_t pick = choose_by_rule(points, r.deadline_hours, r.budget,
                                     convert_currency(kTieCny, "CNY", r.currency, catalog.fx));
  return points[pick].pick;
}

// The chosen options with their reasons, the totals, the budget and the deadline.
void sum_up_science(const Request& q, const Catalog& catalog, const std::vector<std::vector<SciOption>>& fronts,
                    const std::vector<uint16_t>& pick, PlanResult& r) {
  const ScienceWorkload& w = *q.science;
  const Gpu& baseline = *catalog.find_gpu(w.baseline.gpu);
  for (size_t i = 0; i < r.stages.size(); ++i) {
    StagePlan& sp = r.stages[i];
    if (fronts[i].empty()) {
      if (sp.runs > 0) {
        r.feasible = false;
        r.warnings.push_back({"no_option", message(q.locale, "plan.warn.no_option",
                                                   {message(q.locale, "plan.stage." + std::string(name_of(sp.stage)))})});
      }
      continue;
    }
    sp.chosen = fronts[i][pick[i]].option;
    const Gpu& g = *catalog.find_gpu(sp.chosen.gpu);
    const Platform& p = *catalog.find_platform(sp.chosen.platform);
    sp.why = message(q.locale, "plan.why.science",
                     {g.name, std::to_string(sp.chosen.gpus_per_run), p.name.in(q.locale),
                      run_time_text(sp.chosen.run_hours, q.locale), std::to_string(sp.runs),
                      fixed(science_speedup(w, baseline, g), 2), baseline.name});
    r.total_cost += sp.chosen.cost;
    r.wall_hours += sp.chosen.wall_hours;
  }
  for (auto& sp : r.stages) sp.share = r.total_cost > 0 && sp.feasible ? sp.chosen.cost / r.total_cost : 0;
  if (r.budget) r.within_budget = r.feasible && r.total_cost <= *r.budget + 1e-9;
  if (r.deadline_hours > 0) {
    r.meets_deadline = r.wall_hours <= r.deadline_hours + 1e-9;
    if (!r.meets_deadline)
      r.warnings.push_back({"deadline_missed", message(q.locale, "plan.warn.deadline_missed",
                                                       {duration_text(r.wall_hours, q.locale),
                                                        duration_text(r.deadline_hours, q.locale)})});
  }
}

// The stages of a science request, planned as training is: each stage's
// options and front, then the planner's one choice rule over the plan
// (planner_detail::choose_by_rule).
PlanResult plan_science_stages(const Request& q, const Catalog& catalog) {
  const ScienceWorkload& w = *q.science;
  PlanResult r;
  r.currency = q.budget ? q.budget->currency : "CNY";
  if (q.budget) r.budget = q.budget->amount;
  r.deadline_hours = q.prefs.deadline_days * 24;
  r.category = w.baseline.count > 1 ? Category::multi_gpu : Category::single_gpu_small;
  r.category_advice = message(q.locale, std::string("plan.category.") + category_id(r.category));
  const std::vector<PricedOffer> offers = priced_offers(q, catalog, r.currency);
  std::vector<std::vector<SciOption>> fronts;
  for (const StageRequest& s : q.stages) {
    fronts.push_back(science_front(science_options(q, catalog, offers, s)));
    r.stages.push_back(science_stage(s, fronts.back()));
  }
  sum_up_science(q, catalog, fronts, choose_science_plan(fronts, r, catalog), r);
  return r;
}

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
    out.gpus.push_back(std::move(r));
  }
  if (w.precision == SciencePrecision::fp64 && w.bound == ScienceBound::compute && any_starved)
    out.warnings.push_back({"fp64_consumer_card", message(q.locale, "warn.fp64_consumer_card")});
  if (w.precision == SciencePrecision::fp64 && w.bound == ScienceBound::compute)
    out.warnings.push_back({"fp64_consider_cpu", message(q.locale, "warn.fp64_consider_cpu")});
  if (w.kind == ScienceKind::md && w.precision != SciencePrecision::fp64)
    out.warnings.push_back({"md_mixed_precision", message(q.locale, "warn.md_mixed_precision")});
  if (!q.stages.empty()) {
    out.plan.emplace(plan_science_stages(q, catalog));  // emplace: a fresh response has none to assign over
    for (const auto& pw : out.plan->warnings) out.warnings.push_back({pw.code, pw.message});
  }
  return out;
}

}  // namespace gpuplan
