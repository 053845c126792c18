// The planner's internals, shared by its two halves: the search
// (planner_search.cpp: offers, memory fit, candidates, the Pareto choice, the
// deadline) and the advice it writes (planner_advice.cpp: the reasons, the
// warnings, education credits, rent or buy, group rental, budget changes).
// Policy and cost model: docs/api.md ("How the planner decides", "Cost model").
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "estimate/evaluation.h"
#include "gpuplan/planner.h"
#include "gpuplan/pricing.h"
#include "gpuplan/throughput.h"
#include "text/messages.h"
#include "plan/offers.h"

namespace gpuplan::planner_detail {

// --- Policy constants, each from the seed articles (/docs/api.md cites them).
// Seed 003, "多卡并行训练": more GPUs are worth it when one card needs over 3
// days. No longer a rule of the choice (the front decides); the reasons quote it.
inline constexpr double kMultiGpuAfterHours = 72;
// Seed 003, "预算分配建议": debugging should not exceed 20 % of the budget.
inline constexpr double kDebugMaxShare = 0.2;
// Seed 003: "如果总预算在5000元以内，优先保证核心实验的算力".
inline constexpr double kSmallBudgetCny = 5000;
// Seed 003, "常见坑": an A100 for a 7B job wastes the budget. Only a warning
// now (big_card_small_job): where the big card is also the cheaper or the
// faster for little more, the front and the tie band below choose it.
inline constexpr double kRightSizeFactor = 3;
// The choice rule's tie band (choose_by_rule, docs/api.md "How the planner
// decides"): plans costing at most this much over the cheapest that meets
// the deadline and the budget count as costing the same, and among them the
// one with the headroom and the shorter wall time wins. About what one
// out-of-memory restart or one lost day of a student's work costs: a
// judgement, stated once, never fitted to a case.
inline constexpr double kTieFraction = 0.10;
inline constexpr double kTieCny = 20;
// The absolute part of the band is at most this fraction of the cheapest
// plan: 20 CNY is small change on a 300 CNY plan, not on a 2 CNY one.
inline constexpr double kTieCnyMaxFraction = 0.25;
// Upload time above which the user is warned.
inline constexpr double kLongUploadHours = 2;
// Pareto points listed in the response (the set is thinned evenly beyond it).
inline constexpr size_t kParetoListed = 4;

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

inline std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, std::isfinite(x) ? x : 0.0);
  return buf;
}
inline std::string money(double x) { return fixed(x, std::fabs(x) >= 100 ? 0 : 2); }
inline std::string hours_text(double h) { return fixed(h, h >= 10 ? 0 : 1); }
inline std::string percent(double f) { return fixed(100 * f, 0); }
// A duration in the unit a reader would use: days from two days up, then
// hours, minutes, "under a minute" (planner_advice.cpp). Never "0.0 days".
std::string duration_text(double hours, Locale locale);
// One run's time in a stage's reason: hours from one up, else minutes (at least 1).
std::string run_time_text(double hours, Locale locale);
// A sharding as DeepSpeed and PyTorch name it ("ZeRO-3 / FSDP"), for the reasons.
std::string sharding_label(Sharding s);
// Gigabytes with the digits that keep a small disk from reading "0 GB".
std::string gb_text(double gb);

// One way to run the whole plan: a point of each stage's front.
struct PlanPoint {
  double cost = 0;
  double wall = 0;         // stages one after another, uploads included
  int tight = 0;           // stages that fit only inside the headroom
  int alters = 0;          // stages with a change that moves the results
  int oversized = 0;       // stages on a card of kRightSizeFactor times the memory the job needs (seed 003's trap)
  uint64_t platforms = 0;  // the platforms it uploads the data to (a bit per catalog platform)
  std::vector<uint16_t> pick;  // per stage, an index into its front
};
// Keeps the plans no other beats on both cost and wall time, cheapest first.
void keep_front(std::vector<PlanPoint>& points);
// The choice rule (planner_search.cpp; docs/api.md, "How the planner decides"):
// the index in `front` (kept by keep_front) of the plan to rent.
size_t choose_by_rule(const std::vector<PlanPoint>& front, double deadline_hours, std::optional<double> budget,
                      double tie_band_abs);

// One candidate, small and index-based: thousands are built per stage.
struct Candidate {
  int offer = 0;
  int gpus_per_run = 1;
  int fewest = 1;       // the fewest GPUs of this card that hold the job on this platform
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
  bool alters = false;  // carries a change that moves the results (8-bit optimizer states)
  FitChanges changes = FitChanges::keep_results;  // what the stage lets the fit search change
  int variant = 0;      // 0: the fit search's choice; 1: its faster tight option (FitChoice::faster_tight)
  SpotEstimate spot;
  double checkpoint_seconds = 0;
  Rental rental;  // what it was priced as (price_rental), for its cost range
  double wait_hours = 0;  // the lab's cards or campus queue before it starts (lab_options.cpp)
  // The data loader bounds the run (estimate/data_loader.h): the vCPUs per
  // card it needs and the instance's; both 0 when it does not.
  int loader_vcpus_needed = 0;
  int loader_vcpus = 0;
};

// Seed 003's shrunk model for a debug run (planner_between.cpp): the hidden
// size halved; nothing for a network it does not apply to.
std::optional<ModelSpec> shrunk_model(const ModelSpec& m);

class Planner {
 public:
  Planner(Evaluator& e) : e_(e), q_(e.request()), c_(e.catalog()) {
    currency_ = q_.budget ? q_.budget->currency : "CNY";
  }

  PlanResult run(bool with_changes);

 private:
  void build_offers();
  // Planner::run's steps, in order (planner_search.cpp).
  void prepare(PlanResult& r);
  std::vector<std::vector<Candidate>> stage_fronts(PlanResult& r, std::vector<std::vector<Candidate>>& with_lab);
  void place_uploads(PlanResult& r) const;
  void sum_up(PlanResult& r);
  void closing_advice(PlanResult& r);
  void price_references(PlanResult& r);
  void fit_gpus();
  std::vector<int> counts(const Gpu& g, const PricedOffer& o) const;
  double checkpoint_bytes();
  std::vector<Candidate> candidates(const StageRequest& s);
  void offer_candidates(const StageRequest& s, size_t offer, std::vector<Candidate>& out);
  void lay_out_runs(const StageRequest& s, const RentalTerms& terms, const Candidate& base, const RunTime& t,
                    std::vector<Candidate>& out);
  void price_into(const RentalTerms& terms, Candidate c, double used_hours_per_instance, double disks,
                  std::vector<Candidate>& out);
  void list_options(const std::vector<Candidate>& front, StagePlan& out);
  void choose_plan(PlanResult& r, const std::vector<std::vector<Candidate>>& fronts);
  const FitChoice& choice_of(const Candidate& c);
  FitChanges changes_for(const StageRequest& s) const;
  StageOption to_option(const Candidate& c);
  Category classify();
  Category classify(const PlanResult& r) const;
  void budget_changes(PlanResult& r);
  void consider_change(PlanResult& r, std::string code, const Request& changed, std::initializer_list<std::string_view> args,
                       std::vector<WorkloadChange> patch);
  void workload_budget_changes(PlanResult& r);
  const Platform* campus_budget_change(PlanResult& r);
  void nothing_fits(PlanResult& r);
  void nearest_options(PlanResult& r);
  void experiment_suggestions(PlanResult& r);
  void rent_or_buy(PlanResult& r);
  void group_rental(PlanResult& r);
  void warnings(PlanResult& r);
  void warn(PlanResult& r, const std::string& code, std::initializer_list<std::string_view> args) const;
  void stage_warnings(PlanResult& r, size_t stage);
  void disk_warnings(PlanResult& r, const StagePlan& sp, const PricedOffer& offer);
  void queue_priority_advice(PlanResult& r, const Platform& campus);
  void billing_warnings(PlanResult& r);
  // Between and beside the stages (planner_between.cpp).
  void disk_after_stop(PlanResult& r);
  void shrunk_debug(PlanResult& r);
  std::string why(const StagePlan& sp, const Candidate& c);
  void apply_credits(PlanResult& r);
  // The lab's cards and campus centre beside the rentals (lab_options.cpp).
  void add_lab_offers();
  void lab_candidates(const StageRequest& s, std::vector<Candidate>& out);
  // The lab's cards and the campus centre the lab describes, as opposed to a rental.
  bool lab_owned(const Candidate& c) const;
  // Between the stage's chosen rental and the lab's options: `chosen` becomes the lab's when it wins.
  void weigh_lab(const StageRequest& s, const std::vector<Candidate>& all, StagePlan& out, Candidate& chosen);
  void lab_option(const Candidate& c, StageOption& s) const;
  bool on_lab(const Candidate& c) const;
  std::string lab_why(const StagePlan& sp, const Candidate& c);
  std::string msg(std::string_view code, std::initializer_list<std::string_view> args = {}) const {
    return message(q_.locale, code, args);
  }
  // A stage as the student names it, never the request's id ("formal").
  std::string stage_text(Stage s) const { return msg("plan.stage." + std::string(name_of(s))); }
  // A billing as the student reads it (包月, on-demand (by the hour)), from its request spelling.
  std::string billing_text(std::string_view id) const { return msg("plan.billing." + std::string(id)); }
  double storage_gb();

  Evaluator& e_;
  const Request& q_;
  const Catalog& c_;
  std::string currency_;
  std::vector<PricedOffer> offers_;
  std::vector<PricedOffer> references_;  // prices that may not price the plan, shown beside it
  double need_bytes_ = 0;            // per GPU at count 1, headroom included
  double smallest_fit_bytes_ = 0;    // smallest offered card holding the job on its own
  double smallest_catalog_fit_bytes_ = 0;  // the same over the whole catalog, offered or not
  double checkpoint_bytes_ = -1;
  std::vector<Candidate> chosen_;     // per stage, parallel to the result's stages
  // The billings the in-scope offers have before `prefs.billing` keeps one
  // (for `billing_unavailable`: a billing nobody in scope sells).
  std::vector<Billing> billings_in_scope_;
};

}  // namespace gpuplan::planner_detail
