// Honest failure: when nothing holds a stage, the plan is
// infeasible, never cheap; this file finds the nearest option that would hold
// and the constraint to drop for it, and what would change the experiment
// itself, as suggestions. The search it replans with: planner_search.cpp.
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/oom_doctor.h"
#include "text/names.h"
#include "plan/planner_internal.h"

namespace gpuplan::planner_detail {

namespace {
// The same request planned again with one thing changed, without the
// changes and suggestions of its own.
PlanResult replan(const Request& changed, const Catalog& c) {
  Evaluator e(changed, c);
  return Planner(e).run(false);
}
}  // namespace

void Planner::nothing_fits(PlanResult& r) {
  nearest_options(r);
  experiment_suggestions(r);
}

// For each stage nothing holds: the nearest option that would, and the
// constraint to drop for it, trying each of the user's constraints alone
// (the pinned card, the platform list, the domestic scope, the billing),
// then all of them together.
void Planner::nearest_options(PlanResult& r) {
  struct Relaxation {
    const char* constraint;
    bool applies;
    void (*apply)(Request&);
  };
  const Relaxation relaxations[] = {
      {"hardware", q_.hardware.has_value(), [](Request& q) { q.hardware.reset(); }},
      {"platforms", !q_.prefs.platforms.empty(), [](Request& q) { q.prefs.platforms.clear(); }},
      {"scope", q_.prefs.scope == Scope::cn && q_.prefs.platforms.empty(), [](Request& q) { q.prefs.scope = Scope::global; }},
      {"billing", !q_.prefs.billing.empty(), [](Request& q) { q.prefs.billing.clear(); }},
  };
  const std::string sep = q_.locale == Locale::en ? ", " : "、";
  std::vector<PlanResult> singles;
  std::vector<std::string> names;
  Request all = q_;
  std::string all_names;
  for (const auto& x : relaxations) {
    if (!x.applies) continue;
    Request changed = q_;
    x.apply(changed);
    x.apply(all);
    singles.push_back(replan(changed, c_));
    names.push_back(msg(std::string("plan.constraint.") + x.constraint));
    all_names += (all_names.empty() ? "" : sep) + names.back();
  }
  std::optional<PlanResult> together;
  for (size_t i = 0; i < r.stages.size(); ++i) {
    const StagePlan& sp = r.stages[i];
    if (sp.feasible || sp.runs <= 0) continue;
    const StageOption* nearest = nullptr;
    std::string constraint;
    for (size_t k = 0; k < singles.size() && !nearest; ++k)
      if (singles[k].stages[i].feasible) {
        nearest = &singles[k].stages[i].chosen;
        constraint = names[k];
      }
    if (!nearest && singles.size() > 1) {
      if (!together) together.emplace(replan(all, c_));  // constructed, never assigned over
      if (together->stages[i].feasible) {
        nearest = &together->stages[i].chosen;
        constraint = all_names;
      }
    }
    std::string message;
    if (nearest) {
      const Gpu* gpu = c_.find_gpu(nearest->gpu);
      const Platform* platform = c_.find_platform(nearest->platform);
      message = msg("plan.warn.nothing_fits", {stage_text(sp.stage), gpu ? gpu->name : nearest->gpu,
                                               std::to_string(nearest->count),
                                               platform ? platform->name.in(q_.locale) : nearest->platform,
                                               money(nearest->cost), r.currency, constraint});
    } else {
      message = msg("plan.warn.nothing_fits_anywhere", {stage_text(sp.stage)});
    }
    r.warnings.push_back({"nothing_fits", std::move(message)});
  }
}

// What would change the experiment itself: suggestions with their effect,
// never applied (full -> LoRA or QLoRA, a shorter sequence).
void Planner::experiment_suggestions(PlanResult& r) {
  auto suggest = [&](std::string code, const Request& changed, std::initializer_list<std::string_view> args,
                     std::vector<WorkloadChange> patch) {
    PlanResult alt = replan(changed, c_);
    if (!alt.feasible) return;
    BudgetChange ch;
    ch.code = code;
    ch.patch = std::move(patch);
    ch.new_total = alt.total_cost;
    ch.message = message(q_.locale, "plan.change." + code, args) + " " +
                 msg("plan.change.makes_feasible", {money(alt.total_cost), r.currency});
    r.changes.push_back(std::move(ch));
  };
  const Workload& w = q_.workload;
  if (w.mode == Mode::train && w.method == Method::full && q_.model.kind != ModelKind::cnn) {
    Request changed = q_;
    changed.workload.method = Method::lora;
    suggest(std::string(remedy_id::lora), changed, {}, {{"workload.method", "\"lora\""}});
  }
  if (w.mode == Mode::train && w.method != Method::qlora && q_.model.kind != ModelKind::cnn) {
    Request changed = q_;
    changed.workload.method = Method::qlora;
    suggest(std::string(remedy_id::qlora), changed, {}, {{"workload.method", "\"qlora\""}});
  }
  if (q_.model.kind != ModelKind::cnn && w.seq_len >= 256) {
    Request changed = q_;
    changed.workload.seq_len = w.seq_len / 2;
    suggest("shorter-sequence", changed, {std::to_string(changed.workload.seq_len)},
            {{"workload.seq_len", std::to_string(changed.workload.seq_len)}});
  }
}

}  // namespace gpuplan::planner_detail
