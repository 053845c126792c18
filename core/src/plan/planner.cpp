// The planner: every GPU × count × platform × billing option for each stage,
// priced with each platform's billing rules, the seeds' stage policy as the
// default choice, the Pareto set kept as alternatives, then the deadline, the
// budget and the side questions (rent or buy, group rental). Policy and cost
// model: docs/api.md ("How the planner decides", "Cost model").
#include "gpuplan/planner.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "evaluation.h"
#include "names.h"
#include "gpuplan/memory.h"
#include "gpuplan/pricing.h"
#include "messages.h"

namespace gpuplan {
namespace {

// --- Policy constants, each from the seed articles (/docs/api.md cites them).
// Seed 003, "多卡并行训练": more GPUs are worth it when one card needs over 3 days.
constexpr double kMultiGpuAfterHours = 72;
// Seed 003, "预算分配建议": debugging should not exceed 20 % of the budget.
constexpr double kDebugMaxShare = 0.2;
// Seed 003: "如果总预算在5000元以内，优先保证核心实验的算力".
constexpr double kSmallBudgetCny = 5000;
// Seed 003, "常见坑": an A100 for a 7B job wastes the budget. A card with three
// times the memory of the smallest one that holds the job (80 GB vs 24 GB) is
// left out of the default choice unless nothing smaller meets the deadline.
constexpr double kRightSizeFactor = 3;
// One rental's start: create the instance, load the image, mount the data.
// Seed 000 puts fixing an environment at "通常半小时内"; with a saved image
// (seed 003) it is minutes. A quarter hour is billed per rental.
constexpr double kSetupHours = 0.25;
// Checkpoints are written to the instance's cloud disk. Alibaba Cloud ESSD PL0
// gives up to 180 MB/s and PL1 350 MB/s (help.aliyun.com/document_detail/122389,
// "ESSD 性能"); 200 MB/s is a typical data disk.
constexpr double kCheckpointWriteBytesPerSecond = 200e6;
// After a reclaim: a new instance, the image and the checkpoint read back.
constexpr double kRestartSeconds = 600;
// Off-peak windows (nights and weekends, seeds 000 and 003): a job that runs
// only inside them progresses about half of the wall-clock time.
constexpr double kOffPeakWindowFraction = 0.5;
// Where a platform sells spot capacity but publishes no reclaim rate (none of
// the catalog's do; AWS's Spot Instance Advisor gives only monthly buckets),
// the planner assumes one reclaim per day of running, and says so
// (`interruptions_assumed`). Pass a rate in the catalog to replace it.
constexpr double kAssumedSpotInterruptionsPerHour = 1.0 / 24;
// Checkpoints kept on disk (the last and the best).
constexpr int kCheckpointsKept = 2;
// A rented multi-GPU machine holds at most 8 cards (one node); packing and
// data parallelism stay within it, as group rentals do (seed 004).
constexpr int kMachineGpus = 8;
// Residential electricity in China is about 0.5–0.6 CNY/kWh (NDRC tiered
// tariffs, first tier); 0.6 is the default unless the request gives its rate.
constexpr double kDefaultElectricityCnyPerKwh = 0.6;
// Costs within half a percent are a tie, broken by the shorter wall time.
constexpr double kTieFraction = 0.005;
// Upload time above which the user is warned.
constexpr double kLongUploadHours = 2;
// Pareto points listed in the response (the set is thinned evenly beyond it).
constexpr size_t kParetoListed = 4;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, std::isfinite(x) ? x : 0.0);
  return buf;
}
std::string money(double x) { return fixed(x, std::fabs(x) >= 100 ? 0 : 2); }
std::string hours_text(double h) { return fixed(h, h >= 10 ? 0 : 1); }
std::string percent(double f) { return fixed(100 * f, 0); }

double spot_rate(const Platform& p) {
  return p.spot_interruptions_per_hour > 0 ? p.spot_interruptions_per_hour : kAssumedSpotInterruptionsPerHour;
}

// A catalog or user price, in the plan's currency, with discounts applied.
struct PricedOffer {
  const Platform* platform = nullptr;
  size_t gpu = 0;  // index into catalog.gpus
  Billing billing = Billing::on_demand;
  double price = 0;                  // per GPU hour, plan currency
  double storage_per_gb_month = 0;   // plan currency
  bool education = false;
};

// One candidate, small and index-based: thousands are built per stage.
struct Candidate {
  int offer = 0;
  int gpus_per_run = 1;
  int parallel = 1;
  bool separate = false;
  int instances = 1;
  double run_hours = 0;
  double wall_hours = 0;
  double billed_hours = 0;  // instance hours, all instances
  double compute_cost = 0;
  double storage_cost = 0;
  double cost = 0;
  bool tight = false;
  bool policy = true;   // the seeds' stage policy in full
  bool relaxed = true;  // the policy without its card rules (segment, right size), for when nothing follows it
  SpotEstimate spot;
  double checkpoint_seconds = 0;
};

struct GpuFit {
  int count = 0;       // planned count: fits with the headroom (or tight when nothing else)
  bool tight = false;  // only fits inside the headroom
};

class Planner {
 public:
  Planner(Evaluator& e) : e_(e), q_(e.request()), c_(e.catalog()) {
    currency_ = q_.budget ? q_.budget->currency : "CNY";
  }

  PlanResult run(bool with_changes);

 private:
  void build_offers();
  void fit_gpus();
  double checkpoint_bytes();
  std::vector<Candidate> candidates(const StageRequest& s);
  void choose(const StageRequest& s, const std::vector<Candidate>& all, StagePlan& out, std::vector<Candidate>& front,
              std::vector<Candidate>& full);
  StageOption to_option(const Candidate& c) const;
  Category classify();
  void deadline(PlanResult& r, std::vector<std::vector<Candidate>>& fronts);
  void budget_changes(PlanResult& r);
  void rent_or_buy(PlanResult& r);
  void group_rental(PlanResult& r);
  void warnings(PlanResult& r);
  std::string why(const StagePlan& sp, const Candidate& c);
  void apply_credits(PlanResult& r);
  std::string msg(std::string_view code, std::initializer_list<std::string> args = {}) const {
    return message(q_.locale, code, args);
  }
  double storage_gb();

  Evaluator& e_;
  const Request& q_;
  const Catalog& c_;
  std::string currency_;
  std::vector<PricedOffer> offers_;
  std::vector<GpuFit> fit_;
  double need_bytes_ = 0;            // per GPU at count 1, headroom included
  double smallest_fit_bytes_ = 0;    // smallest offered card holding the job on its own
  double smallest_catalog_fit_bytes_ = 0;  // the same over the whole catalog, offered or not
  double checkpoint_bytes_ = -1;
  std::vector<Candidate> chosen_;     // per stage, parallel to the result's stages
};

// ---------------------------------------------------------------- offers

void Planner::build_offers() {
  auto gpu_index = [&](const std::string& id) -> int {
    for (size_t i = 0; i < c_.gpus.size(); ++i)
      if (c_.gpus[i].id == id) return int(i);
    return -1;
  };
  auto allowed_platform = [&](const Platform& p) {
    return q_.prefs.platforms.empty() ||
           std::find(q_.prefs.platforms.begin(), q_.prefs.platforms.end(), p.id) != q_.prefs.platforms.end();
  };
  for (const Platform& p : c_.platforms) {
    if (!allowed_platform(p)) continue;
    const double storage = convert_currency(p.storage_per_gb_month, p.currency, currency_, c_.fx);
    const size_t first = offers_.size();
    auto add = [&](int gpu, Billing b, double price_plan_currency) {
      if (gpu < 0 || !(price_plan_currency > 0)) return;
      if (q_.hardware && c_.gpus[size_t(gpu)].id != q_.hardware->gpu) return;
      for (size_t i = first; i < offers_.size(); ++i)
        if (offers_[i].gpu == size_t(gpu) && offers_[i].billing == b) return;  // first one wins: user, then catalog
      PricedOffer o{&p, size_t(gpu), b, price_plan_currency, storage, false};
      offers_.push_back(o);
    };
    // The user's own quotes override the catalog (contract: prices[]).
    for (const UserPrice& u : q_.prices)
      if (u.platform == p.id) add(gpu_index(u.gpu), u.billing, convert_currency(u.per_gpu_hour, u.currency, currency_, c_.fx));
    for (const Offer& o : p.offers)
      add(gpu_index(o.gpu), o.billing, convert_currency(o.per_gpu_hour.typical, o.currency, currency_, c_.fx));
    // Spot and off-peak prices derived from the platform's discount where no
    // explicit offer exists.
    const size_t listed = offers_.size();
    for (size_t i = first; i < listed; ++i) {
      if (offers_[i].billing != Billing::on_demand) continue;
      const PricedOffer base = offers_[i];
      if (p.spot_discount > 0) add(int(base.gpu), Billing::spot, base.price * (1 - p.spot_discount));
      if (p.off_peak_discount > 0) add(int(base.gpu), Billing::off_peak, base.price * (1 - p.off_peak_discount));
    }
    // Student discounts apply when the user says they qualify.
    if (q_.prefs.education && p.education_discount > 0)
      for (size_t i = first; i < offers_.size(); ++i) {
        offers_[i].price *= 1 - p.education_discount;
        offers_[i].education = true;
      }
  }
  if (!q_.prefs.billing.empty()) {
    std::erase_if(offers_, [&](const PricedOffer& o) { return name_of(o.billing) != q_.prefs.billing; });
  }
}

// ---------------------------------------------------------------- memory fit

void Planner::fit_gpus() {
  fit_.assign(c_.gpus.size(), {});
  need_bytes_ = e_.memory_at(std::max(1, q_.workload.gpus)).total_bytes * (1 + kDefaultHeadroom);
  smallest_fit_bytes_ = 0;
  std::vector<bool> used(c_.gpus.size(), false);
  for (const auto& o : offers_) used[o.gpu] = true;
  for (size_t i = 0; i < c_.gpus.size(); ++i) {
    const double capacity = c_.gpus[i].memory_bytes;
    if (need_bytes_ <= capacity && (smallest_catalog_fit_bytes_ == 0 || capacity < smallest_catalog_fit_bytes_))
      smallest_catalog_fit_bytes_ = capacity;
    if (!used[i]) continue;
    GpuFit f;
    if (q_.hardware) {
      f.count = q_.hardware->count;
      double total = e_.memory_at(f.count).total_bytes;
      if (total > c_.gpus[i].memory_bytes) f.count = 0;
      else f.tight = total * (1 + kDefaultHeadroom) > c_.gpus[i].memory_bytes;
    } else {
      int first = std::max(1, q_.workload.gpus);
      f.count = e_.fit_count(i, kDefaultHeadroom, first);
      if (f.count == 0) {
        f.count = e_.fit_count(i, 0, first);
        f.tight = f.count > 0;
      }
    }
    if (f.count == 1 && !f.tight &&
        (smallest_fit_bytes_ == 0 || c_.gpus[i].memory_bytes < smallest_fit_bytes_))
      smallest_fit_bytes_ = c_.gpus[i].memory_bytes;
    fit_[i] = f;
  }
}

double Planner::checkpoint_bytes() {
  if (checkpoint_bytes_ >= 0) return checkpoint_bytes_;
  checkpoint_bytes_ = 0;
  if (q_.workload.mode == Mode::infer) return checkpoint_bytes_;
  if (q_.workload.method != Method::full && q_.model.kind != ModelKind::cnn) {
    // An adapter checkpoint: the trainable weights with fp32 master copy and
    // Adam's two moments, 16 bytes per trainable parameter.
    checkpoint_bytes_ = lora_trainable_params(q_.model, q_.workload.lora) * 16;
    return checkpoint_bytes_;
  }
  // The whole model state: weights and optimizer of the unsharded job.
  Workload w = q_.workload;
  w.gpus = 1;
  w.sharding = Sharding::none;
  w.cpu_offload = false;
  for (const auto& c : estimate_memory(q_.model, w).components)
    if (c.id == "weights" || c.id == "optimizer") checkpoint_bytes_ += c.bytes;
  return checkpoint_bytes_;
}

double Planner::storage_gb() {
  if (q_.prefs.storage_gb >= 0) return q_.prefs.storage_gb;
  return q_.prefs.dataset_gb + kCheckpointsKept * checkpoint_bytes() / 1e9;
}

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
    const GpuFit& f = fit_[o.gpu];
    if (f.count == 0) continue;
    const Gpu& gpu = c_.gpus[o.gpu];
    const Platform& p = *o.platform;
    const bool package = o.billing == Billing::monthly || o.billing == Billing::yearly;
    const double single_hours = e_.run_hours_at(o.gpu, f.count) * s.data_fraction;
    // Counts: the fewest that fit; more (within one machine) for the main
    // stages, for when one card is too slow or the deadline is near.
    for (int n = f.count; n <= std::max(f.count, kMachineGpus); n *= 2) {
      if (n > f.count && (debug || q_.hardware)) break;
      double work_hours = n == f.count ? single_hours : e_.run_hours_at(o.gpu, n) * s.data_fraction;
      Candidate base;
      base.offer = int(oi);
      base.gpus_per_run = n;
      base.tight = f.tight;
      double run_wall = work_hours, run_billed = work_hours;
      if (o.billing == Billing::spot) {
        base.checkpoint_seconds = checkpoint_bytes() / (kCheckpointWriteBytesPerSecond * n);
        base.spot = estimate_spot(work_hours * kSecondsPerHour, base.checkpoint_seconds, kRestartSeconds,
                                  spot_rate(p));
        if (!base.spot.feasible) continue;
        run_wall = run_billed = work_hours * (1 + base.spot.overhead_fraction);
      } else if (o.billing == Billing::off_peak) {
        run_wall = work_hours / kOffPeakWindowFraction;
      }
      base.run_hours = run_wall;
      // The policy: debug keeps to consumer cards; more GPUs than fit only
      // when one card would need more than three days.
      // Debug: consumer cards billed by the hour (seed 003), unless the user chose a billing.
      if (debug) {
        base.relaxed = o.billing == Billing::on_demand || !q_.prefs.billing.empty();
        base.policy = base.relaxed && gpu.segment == Segment::consumer;
      }
      if (n > f.count && single_hours <= kMultiGpuAfterHours) base.policy = false;
      if (!debug && smallest_fit_bytes_ > 0 && gpu.memory_bytes >= kRightSizeFactor * smallest_fit_bytes_)
        base.policy = false;

      auto price = [&](Candidate c, double used_hours_per_instance, double disks) {
        double billed = package ? package_billed_hours(used_hours_per_instance, o.billing)
                                : billed_seconds(used_hours_per_instance * kSecondsPerHour,
                                                 p.billing_granularity_seconds, p.minimum_charge_seconds) /
                                      kSecondsPerHour;
        c.billed_hours = billed * c.instances;
        c.compute_cost = o.price * c.billed_hours * n * c.parallel;
        c.storage_cost = disks * storage_cost(disk_gb, p.free_storage_gb, o.storage_per_gb_month, c.wall_hours);
        c.cost = c.compute_cost + c.storage_cost;
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
      for (int par = 1; par <= runs && n * par <= std::max(n, kMachineGpus); par *= 2) {
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
  return out;
}

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

StageOption Planner::to_option(const Candidate& c) const {
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
  s.education_discount = o.education;
  if (o.billing == Billing::spot) {
    SpotDetail d;
    d.interruptions_per_hour = spot_rate(*o.platform);
    d.interruptions_assumed = !(o.platform->spot_interruptions_per_hour > 0);
    d.checkpoint_seconds = c.checkpoint_seconds;
    d.checkpoint_interval_hours = c.spot.checkpoint_interval_seconds / kSecondsPerHour;
    d.overhead_fraction = c.spot.overhead_fraction;
    d.expected_interruptions = c.spot.expected_interruptions;
    s.spot = d;
  }
  return s;
}

void Planner::choose(const StageRequest& s, const std::vector<Candidate>& all, StagePlan& out,
                     std::vector<Candidate>& front, std::vector<Candidate>& full) {
  front = pareto_front(all, Filter::policy);
  bool relaxed = false;
  if (front.empty()) {
    front = pareto_front(all, Filter::relaxed);
    relaxed = true;
  }
  if (front.empty()) front = pareto_front(all, Filter::all);
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
    if (e_.fit_count(i, kDefaultHeadroom) != 1) continue;
    double h = e_.run_hours_at(i, 1);
    best_single = std::min(best_single, h);
    if (c_.gpus[i].segment == Segment::consumer) best_consumer = std::min(best_consumer, h);
  }
  if (best_consumer <= 24) return Category::single_gpu_small;
  if (best_single <= kMultiGpuAfterHours) return Category::single_gpu_large;
  return Category::multi_gpu;
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
    sp.why = msg("plan.why.deadline", {fixed(q_.prefs.deadline_days, 0)}) + " ";
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
      if (!sp.feasible) continue;
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
  if (r.deadline_hours > 0) r.meets_deadline = r.wall_hours <= r.deadline_hours + 1e-9;

  apply_credits(r);
  for (auto& sp : r.stages) {
    r.total_cost += sp.feasible ? sp.chosen.cost : 0;
  }
  for (size_t i = 0; i < r.stages.size(); ++i) {
    StagePlan& sp = r.stages[i];
    sp.share = r.total_cost > 0 && sp.feasible ? sp.chosen.cost / r.total_cost : 0;
    if (sp.feasible) sp.why += why(sp, chosen_[i]);

  }
  if (r.budget) r.within_budget = r.total_cost <= *r.budget + 1e-9;

  rent_or_buy(r);
  group_rental(r);
  warnings(r);
  if (with_changes && r.budget && !r.within_budget) budget_changes(r);
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


// ---------------------------------------------------------------- why

std::string Planner::why(const StagePlan& sp, const Candidate& c) {
  const StageOption& o = sp.chosen;
  const PricedOffer& offer = offers_[size_t(c.offer)];
  const Gpu& gpu = c_.gpus[offer.gpu];
  const std::string platform = offer.platform->name.in(q_.locale);
  std::string out;
  auto add = [&](std::string_view code, std::initializer_list<std::string> args) {
    if (!out.empty()) out += " ";
    out += msg(code, args);
  };
  const std::string need_gib = fixed(e_.memory_at(c.gpus_per_run).total_bytes / kGiB, 1);
  switch (sp.stage) {
    case Stage::debug:
      add("plan.why.debug", {percent(sp.data_fraction), gpu.name, platform, std::to_string(sp.runs), hours_text(o.run_hours)});
      if (gpu.segment != Segment::consumer) add("plan.why.debug_no_consumer", {});
      break;
    case Stage::formal:
      add("plan.why.formal", {gpu.name, std::to_string(o.gpus_per_run), platform, hours_text(o.run_hours), need_gib});
      break;
    case Stage::revision:
      add("plan.why.revision", {gpu.name, std::to_string(o.gpus_per_run), platform, hours_text(o.run_hours), need_gib});
      break;
  }
  if (sp.stage != Stage::debug && smallest_fit_bytes_ > 0 && !q_.hardware) {
    const double limit = kRightSizeFactor * smallest_fit_bytes_;
    bool excluded = std::any_of(offers_.begin(), offers_.end(),
                                [&](const PricedOffer& po) { return c_.gpus[po.gpu].memory_bytes >= limit; });
    if (excluded) add("plan.why.right_size", {fixed(limit / kGiB, 0)});
  }
  const int fit = fit_[offer.gpu].count;
  if (o.gpus_per_run > fit) {
    double one = e_.run_hours_at(offer.gpu, fit) * sp.data_fraction;
    add("plan.why.multi_gpu", {hours_text(one), std::to_string(o.gpus_per_run),
                               percent(e_.throughput_at(offer.gpu, o.gpus_per_run).scaling_efficiency)});
  }
  if (o.parallel_runs > 1) add("plan.why.packed", {std::to_string(sp.runs), std::to_string(o.count)});
  else if (!o.separate_rentals && sp.runs > 1) add("plan.why.queued", {std::to_string(sp.runs)});
  if (o.separate_rentals && sp.stage != Stage::debug) add("plan.why.separate", {std::to_string(sp.runs)});
  if (o.spot) {
    add("plan.why.spot", {percent(o.spot->overhead_fraction), fixed(o.spot->interruptions_per_hour * 24, 1)});
    if (o.spot->interruptions_assumed) add("plan.why.spot_assumed", {});
    if (o.spot->checkpoint_interval_hours > 0 && o.spot->checkpoint_interval_hours * 1.001 < o.run_hours)
      add("plan.why.checkpoint", {fixed(o.spot->checkpoint_interval_hours * 60, 0),
                                  fixed(o.spot->checkpoint_seconds, o.spot->checkpoint_seconds < 10 ? 1 : 0)});
  }
  if (o.billing == Billing::off_peak) add("plan.why.off_peak", {});
  if (o.billing == Billing::monthly || o.billing == Billing::yearly) add("plan.why.package", {name_of(o.billing)});
  if (o.education_discount) add("plan.why.education", {});
  return out;
}

// ---------------------------------------------------------------- education credits

// Credits from the catalog's education programmes (vouchers, research
// credits; seeds 000 and 004: "提交学生证能领代金券") when the user says they
// qualify: each platform's credits pay its stages in order, once. They do not
// change the choice: the plan's cost falls by at most the credit.
void Planner::apply_credits(PlanResult& r) {
  if (!q_.prefs.education) return;
  for (const Platform& p : c_.platforms) {
    double credit = 0;
    for (const auto& e : p.education)
      if (e.credit_amount > 0) credit += convert_currency(e.credit_amount, e.currency, currency_, c_.fx);
    for (auto& sp : r.stages) {
      if (credit <= 0) break;
      if (!sp.feasible || sp.chosen.platform != p.id) continue;
      double used = std::min(credit, sp.chosen.cost);
      sp.chosen.credit = used;
      sp.chosen.cost -= used;
      credit -= used;
    }
  }
}

// ---------------------------------------------------------------- rent or buy, group

void Planner::rent_or_buy(PlanResult& r) {
  const StagePlan* main = nullptr;
  for (const auto& sp : r.stages)
    if (sp.feasible && (!main || sp.stage == Stage::formal)) main = &sp;
  if (!main) return;
  const Gpu* gpu = c_.find_gpu(main->chosen.gpu);
  RentVsBuyPlan plan;
  plan.gpu = gpu->id;
  if (q_.buy && q_.buy->price > 0) {
    plan.purchase_per_gpu = convert_currency(q_.buy->price, q_.buy->currency, currency_, c_.fx);
    plan.source = "request";
  } else if (gpu->purchase && gpu->purchase->amount > 0) {
    plan.purchase_per_gpu = convert_currency(gpu->purchase->amount, gpu->purchase->currency, currency_, c_.fx);
    plan.source = gpu->purchase->source;
  } else {
    return;
  }
  double compute = 0;
  for (const auto& sp : r.stages) {
    if (!sp.feasible) continue;
    plan.gpu_hours += sp.chosen.hours * sp.chosen.count;
    compute += sp.chosen.compute_cost;
  }
  if (plan.gpu_hours <= 0) return;
  RentVsBuyInput in;
  in.rent_per_gpu_hour = compute / plan.gpu_hours;
  in.purchase_per_gpu = plan.purchase_per_gpu;
  in.watts_per_gpu = q_.buy && q_.buy->watts > 0 ? q_.buy->watts : gpu->tdp_watts;
  in.electricity_per_kwh = q_.buy && q_.buy->electricity_per_kwh >= 0
                               ? convert_currency(q_.buy->electricity_per_kwh, q_.buy->currency, currency_, c_.fx)
                               : convert_currency(kDefaultElectricityCnyPerKwh, "CNY", currency_, c_.fx);
  in.resale_fraction = q_.buy ? q_.buy->resale_fraction : 0;
  in.service_years = q_.buy ? q_.buy->years : 3;
  in.gpu_hours = plan.gpu_hours;
  in.gpus = main->chosen.gpus_per_run;
  RentVsBuy out = rent_vs_buy(in);
  plan.rent_per_gpu_hour = in.rent_per_gpu_hour;
  plan.electricity_per_kwh = in.electricity_per_kwh;
  plan.watts_per_gpu = in.watts_per_gpu;
  plan.rent_cost = out.rent_cost;
  plan.buy_cost = out.buy_cost;
  plan.break_even_gpu_hours = out.break_even_gpu_hours;
  plan.utilization_to_break_even = out.utilization_to_break_even;
  plan.depreciation_per_year = out.depreciation_per_year;
  plan.cheaper = out.rent_is_cheaper ? "rent" : "buy";
  r.rent_vs_buy = plan;
}

// Seed 004: several people sharing one 8-GPU machine on a package price.
void Planner::group_rental(PlanResult& r) {
  if (q_.prefs.group_size <= 1) return;
  const StagePlan* main = nullptr;
  for (const auto& sp : r.stages)
    if (sp.feasible && (!main || sp.stage == Stage::formal)) main = &sp;
  if (!main) return;
  const PricedOffer* package = nullptr;
  const PricedOffer* hourly = nullptr;
  for (const auto& o : offers_) {
    if (c_.gpus[o.gpu].id != main->chosen.gpu) continue;
    bool is_package = o.billing == Billing::monthly || o.billing == Billing::yearly;
    if (is_package && (!package || o.price < package->price)) package = &o;
    if (o.billing == Billing::on_demand && (!hourly || o.price < hourly->price)) hourly = &o;
  }
  const PricedOffer* rent = package ? package : hourly;
  if (!rent) return;
  GroupRentalPlan g;
  g.people = q_.prefs.group_size;
  g.gpus = kMachineGpus;
  g.gpu = main->chosen.gpu;
  g.platform = rent->platform->id;
  g.billing = rent->billing;
  g.machine_per_month = rent->price * kMachineGpus * kHoursPerMonth;
  g.per_person_per_month = g.machine_per_month / g.people;
  g.per_person_gpu_hours_per_month = double(kMachineGpus) * kHoursPerMonth / g.people;
  g.hourly_equivalent_per_month = g.per_person_gpu_hours_per_month * (hourly ? hourly->price : rent->price);
  g.saving_fraction = g.hourly_equivalent_per_month > 0 ? 1 - g.per_person_per_month / g.hourly_equivalent_per_month : 0;
  r.group = g;
}

// ---------------------------------------------------------------- warnings

void Planner::warnings(PlanResult& r) {
  auto warn = [&](std::string code, std::initializer_list<std::string> args) {
    for (const auto& w : r.warnings)
      if (w.code == code) {
        std::string text = message(q_.locale, "plan.warn." + code, args);
        if (w.message == text) return;  // the same warning once
      }
    r.warnings.push_back({code, message(q_.locale, "plan.warn." + code, args)});
  };
  if (!q_.data) warn("plan_needs_data", {});
  for (size_t i = 0; i < r.stages.size(); ++i) {
    const StagePlan& sp = r.stages[i];
    if (!sp.feasible) {
      if (sp.runs > 0) warn("no_option", {name_of(sp.stage)});  // a stage of 0 runs is simply skipped
      continue;
    }
    const StageOption& o = sp.chosen;
    const PricedOffer& offer = offers_[size_t(chosen_[i].offer)];
    const Gpu& gpu = c_.gpus[offer.gpu];
    const std::string gpu_name = gpu.name;
    const std::string platform = offer.platform->name.in(q_.locale);
    const double total = e_.memory_at(o.gpus_per_run).total_bytes;
    if (o.tight_memory)
      warn("memory_within_headroom", {gpu_name, fixed(total / kGiB, 1), fixed(gpu.memory_bytes / kGiB, 0),
                                      percent(kDefaultHeadroom)});
    if (o.gpus_per_run == 1 && smallest_catalog_fit_bytes_ > 0 &&
        gpu.memory_bytes >= kRightSizeFactor * smallest_catalog_fit_bytes_)
      warn("big_card_small_job", {gpu_name, fixed(gpu.memory_bytes / kGiB, 0), fixed(total * (1 + kDefaultHeadroom) / kGiB, 1)});
    // Seed 000: "有的平台写着低价，实际是包年折算价".
    const double used = o.hours;
    for (const auto& p : offers_) {
      bool is_package = p.billing == Billing::monthly || p.billing == Billing::yearly;
      if (!is_package || p.gpu != offer.gpu || p.price >= o.price_per_gpu_hour || used <= 0) continue;
      double billed = package_billed_hours(used / std::max(1, o.instances), p.billing) * std::max(1, o.instances);
      if (billed < used * 1.5) continue;  // the package is well used: not a trap
      warn("package_price_as_hourly", {p.platform->name.in(q_.locale), gpu_name, money(p.price), r.currency,
                                       name_of(p.billing), hours_text(used), money(p.price * billed / used)});
    }
    if (o.billing == Billing::spot && r.deadline_hours > 0 &&
        (q_.prefs.deadline_days <= 7 || r.wall_hours > 0.5 * r.deadline_hours))
      warn("spot_near_deadline", {fixed(q_.prefs.deadline_days, 0)});
    if (sp.upload_hours > kLongUploadHours)
      warn("long_upload", {fixed(q_.prefs.dataset_gb, 0), hours_text(sp.upload_hours), fixed(q_.prefs.upload_mbps, 0)});
    const double disk_gb = storage_gb();
    if (offer.platform->disk_bills_after_release && disk_gb > 0) {
      double per_month = storage_cost(disk_gb, offer.platform->free_storage_gb, offer.storage_per_gb_month, kHoursPerMonth);
      if (per_month > 0) warn("disk_bills_after_release", {platform, fixed(disk_gb, 0), money(per_month), r.currency});
      else warn("disk_bills_after_release_unpriced", {platform, fixed(disk_gb, 0)});
    }
    if (sp.stage == Stage::debug && r.budget && *r.budget > 0 && o.cost > kDebugMaxShare * *r.budget)
      warn("debug_over_share", {percent(o.cost / *r.budget), percent(kDebugMaxShare)});
  }
  if (!r.meets_deadline)
    warn("deadline_missed", {fixed(r.wall_hours / 24, 1), fixed(q_.prefs.deadline_days, 0)});
}

// ---------------------------------------------------------------- budget

void Planner::budget_changes(PlanResult& r) {
  auto replan = [&](const Request& changed) {
    Evaluator e(changed, c_);
    return Planner(e).run(false);
  };
  auto consider = [&](std::string code, const Request& changed, std::initializer_list<std::string> args) {
    PlanResult alt = replan(changed);
    bool all_feasible = std::all_of(alt.stages.begin(), alt.stages.end(), [](const StagePlan& s) { return s.feasible; });
    if (!all_feasible || alt.total_cost >= r.total_cost - 1e-9) return;
    BudgetChange ch;
    ch.code = code;
    ch.saving = r.total_cost - alt.total_cost;
    ch.new_total = alt.total_cost;
    ch.message = message(q_.locale, "plan.change." + code, args) + " " +
                 msg("plan.change.saving", {money(ch.saving), r.currency, money(ch.new_total)});
    r.changes.push_back(ch);
  };
  const Workload& w = q_.workload;
  if (w.mode == Mode::train && w.method != Method::qlora && q_.model.kind != ModelKind::cnn) {
    Request changed = q_;
    changed.workload.method = Method::qlora;
    consider("qlora", changed, {});
  }
  if (w.micro_batch > 1) {
    Request changed = q_;
    changed.workload.micro_batch = 1;
    changed.workload.grad_accumulation = w.grad_accumulation * w.micro_batch;  // the same effective batch
    consider("grad-accumulation", changed, {std::to_string(w.micro_batch)});
  }
  if (q_.prefs.billing != "spot") {
    Request changed = q_;
    changed.prefs.billing = "spot";
    consider("spot", changed, {});
  }
  bool many_runs = std::any_of(q_.stages.begin(), q_.stages.end(), [](const StageRequest& s) { return s.runs > 1; });
  if (many_runs) {
    Request changed = q_;
    for (auto& s : changed.stages) s.runs = std::max(1, (s.runs + 1) / 2);
    consider("fewer-runs", changed, {});
  }
  // A school or regional computing centre (seed 003): free or nearly so, with
  // a queue. Priced when the user gave its rate; otherwise its saving is at
  // most the compute of the formal and revision stages.
  for (const Platform& p : c_.platforms) {
    if (p.kind != PlatformKind::campus) continue;
    bool priced = std::any_of(q_.prices.begin(), q_.prices.end(), [&](const UserPrice& u) { return u.platform == p.id; });
    if (priced) {
      Request changed = q_;
      changed.prefs.platforms = {p.id};
      consider("campus", changed, {p.name.in(q_.locale)});
    } else {
      double compute = 0;
      for (const auto& sp : r.stages)
        if (sp.feasible && sp.stage != Stage::debug) compute += sp.chosen.compute_cost;
      if (compute <= 0) continue;
      BudgetChange ch;
      ch.code = "campus";
      ch.saving = compute;
      ch.new_total = r.total_cost - compute;
      ch.saving_is_upper_bound = true;
      ch.message = msg("plan.change.campus_unpriced", {p.name.in(q_.locale), money(compute), r.currency});
      r.changes.push_back(ch);
    }
    break;
  }
  std::stable_sort(r.changes.begin(), r.changes.end(),
                   [](const BudgetChange& a, const BudgetChange& b) { return a.saving > b.saving; });
}

}  // namespace

const char* category_id(Category c) {
  switch (c) {
    case Category::single_gpu_small: return "single-gpu-small";
    case Category::single_gpu_large: return "single-gpu-large";
    case Category::multi_gpu: return "multi-gpu";
    case Category::inference_eval: return "inference-eval";
  }
  return "single-gpu-small";
}



PlanResult plan_stages(Evaluator& evaluator) { return Planner(evaluator).run(true); }

PlanResult plan_stages(const Request& request, const Catalog& catalog) {
  Evaluator e(request, catalog);
  return plan_stages(e);
}

}  // namespace gpuplan
