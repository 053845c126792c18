// What lies between and beside the chosen stages: the data disk a later
// stage finds where an earlier one left it, stopped in between (contract
// v1.2 `disk_after_stop`), and seed 003's shrunk debug run beside the
// full-size one. Policy: docs/api.md ("Between stages", "The shrunk debug run").
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "text/names.h"
#include "plan/planner_internal.h"

namespace gpuplan::planner_detail {
namespace {

// Days the instance sits stopped before stage `s`: as given; not given, a
// revision waits for the reviews (not known), any other stage follows the
// one before it at once.
std::optional<double> gap_of(const StageRequest& s) {
  if (s.gap_days) return s.gap_days;
  if (s.stage == Stage::revision) return std::nullopt;
  return 0.0;
}

// A transformer's parameters from its dimensions (attention, MLP, embeddings
// and head), the standard accounting: the ratio of two such counts scales a
// preset's published total.
double dimension_params(const ModelSpec& m) {
  const double head_dim = m.head_dim > 0 ? m.head_dim : double(m.hidden) / std::max(1, m.heads);
  const double attention = 2.0 * m.hidden * m.heads * head_dim + 2.0 * m.hidden * m.kv_heads * head_dim;
  const double mlp = (m.gated_mlp ? 3.0 : 2.0) * m.hidden * double(m.ffn) * std::max(1, m.experts);
  return m.layers * (attention + mlp) + double(m.vocab) * m.hidden * (m.tied_embeddings ? 1 : 2);
}

}  // namespace

// Seed 003, 初探阶段: "模型隐藏层维度减半". The same layers with the hidden
// size, the MLP and the attention heads halved (each head's size kept, the
// key/value heads halved where they divide); a VLM's vision tower as it is.
// Nothing for a convolutional network or a model too small to halve.
std::optional<ModelSpec> shrunk_model(const ModelSpec& m) {
  if (m.kind == ModelKind::cnn || m.hidden < 128 || m.hidden % 2 != 0 || m.heads < 2 || m.heads % 2 != 0 ||
      m.ffn % 2 != 0 || m.layers <= 0)
    return std::nullopt;
  ModelSpec s = m;
  s.hidden = m.hidden / 2;
  s.ffn = m.ffn / 2;
  s.heads = m.heads / 2;
  s.kv_heads = m.kv_heads % 2 == 0 ? m.kv_heads / 2 : m.kv_heads;
  if (s.kv_heads <= 0 || s.heads % s.kv_heads != 0) s.kv_heads = s.heads;
  const double before = dimension_params(m);
  if (!(before > 0)) return std::nullopt;
  s.params = m.params * dimension_params(s) / before;
  // No longer the preset: nothing measured on it applies.
  s.id.clear();
  return s;
}

void Planner::disk_after_stop(PlanResult& r) {
  const double gb = storage_gb();
  if (!(gb > 0)) return;
  for (size_t i = 1; i < r.stages.size(); ++i) {
    StagePlan& sp = r.stages[i];
    if (!sp.feasible || sp.chosen.platform == "lab") continue;
    // The last earlier stage on the same platform: the plan uploads the data
    // once per platform (place_uploads), so it finds it there, kept.
    size_t j = i;
    while (j > 0 && !(r.stages[j - 1].feasible && r.stages[j - 1].chosen.platform == sp.chosen.platform)) --j;
    if (j == 0) continue;
    std::optional<double> gap = 0.0;
    for (size_t k = j; k < i + 1 && gap; ++k) {
      const std::optional<double> g = gap_of(q_.stages[k]);
      gap = g ? std::optional<double>(*gap + *g) : std::nullopt;
    }
    if (gap && *gap <= 0) continue;
    const Platform* p = c_.find_platform(sp.chosen.platform);
    if (!p) continue;
    const StoppedDiskTerms t = stopped_disk_terms(*p);
    DiskAfterStop d;
    d.platform = p->id;
    d.disk_gb = gb;
    d.gap_days = gap;
    d.bills = t.bills;
    d.wiped_after_days = t.wiped_after_days;
    d.wiped = t.wiped_after_days && (!gap || *gap > *t.wiped_after_days);
    const bool billable = t.bills.value_or(false) && gb > t.free_gb;
    if (billable && t.per_gb_month > 0) {
      d.per_month = convert_currency(stopped_disk_cost(t, gb, kHoursPerMonth / 24), p->currency, currency_, c_.fx);
      if (gap) d.cost = convert_currency(stopped_disk_cost(t, gb, *gap), p->currency, currency_, c_.fx);
    } else if (t.bills == false || (t.bills == true && !billable)) {
      d.per_month = 0.0;
      if (gap) d.cost = 0.0;
    }
    // Said when the disk bills (or may), or the platform erases it meanwhile.
    const bool unknown = !t.bills.has_value();
    if (!billable && !unknown && !d.wiped) continue;
    const std::string name = p->name.in(q_.locale);
    const std::string gb_words = gb_text(gb);
    std::string text = gap ? msg("plan.warn.disk_after_stop.gap", {stage_text(sp.stage), duration_text(*gap * 24, q_.locale)})
                           : msg("plan.warn.disk_after_stop.gap_unknown", {stage_text(sp.stage)});
    const std::string sep = q_.locale == Locale::en ? " " : "";
    if (billable && d.cost)
      text += sep + msg("plan.warn.disk_after_stop.cost", {name, gb_words, money(*d.cost), currency_});
    else if (billable && d.per_month)
      text += sep + msg("plan.warn.disk_after_stop.per_month", {name, gb_words, money(*d.per_month), currency_});
    else if (billable)
      text += sep + msg("plan.warn.disk_after_stop.unpriced", {name, gb_words});
    else if (unknown)
      text += sep + msg("plan.warn.disk_after_stop.unknown", {name, gb_words});
    if (d.wiped) text += sep + msg("plan.warn.disk_after_stop.wiped", {name, fixed(*t.wiped_after_days, 0)});
    r.warnings.push_back({"disk_after_stop", std::move(text)});
    sp.disk_after_stop = std::move(d);
  }
}

// Seed 003's debug recipe beside the full-size debug stage: the shrunk model
// on the stage's share of the data, planned as a stage of its own (the same
// offers, rules and choice, no deadline: it comes first and is short). The
// full-size debug stays the plan's: only it checks that the real job fits.
void Planner::shrunk_debug(PlanResult& r) {
  const std::optional<ModelSpec> small = shrunk_model(q_.model);
  if (!small || q_.workload.mode == Mode::science) return;
  for (size_t i = 0; i < r.stages.size() && i < q_.stages.size(); ++i) {
    StagePlan& sp = r.stages[i];
    if (q_.stages[i].stage != Stage::debug || !sp.feasible) continue;
    Request shrunk = q_;
    shrunk.model = *small;
    shrunk.stages = {q_.stages[i]};
    shrunk.prefs.deadline_days = 0;
    shrunk.warnings.clear();
    Evaluator e(shrunk, c_);
    PlanResult alt = Planner(e).run(false);
    if (alt.stages.empty() || !alt.stages[0].feasible) continue;
    StageOption o = std::move(alt.stages[0].chosen);  // alt is not read again
    std::vector<WorkloadChange> dims = {{"model.ffn", std::to_string(small->ffn)},
                                        {"model.heads", std::to_string(small->heads)},
                                        {"model.hidden", std::to_string(small->hidden)}};
    if (small->kv_heads != q_.model.kv_heads) dims.push_back({"model.kv_heads", std::to_string(small->kv_heads)});
    o.workload_changes.insert(o.workload_changes.begin(), dims.begin(), dims.end());
    const Gpu* gpu = c_.find_gpu(o.gpu);
    const Platform* platform = c_.find_platform(o.platform);
    // The separator appended on its own: `"" + std::string&&` trips GCC 12's
    // false -Wrestrict in basic_string::insert.
    if (!sp.why.empty() && q_.locale == Locale::en) sp.why += ' ';
    sp.why += msg("plan.why.shrunk", {std::to_string(q_.model.hidden), std::to_string(small->hidden),
                                      gpu ? gpu->name : o.gpu, std::to_string(o.count),
                                      platform ? platform->name.in(q_.locale) : o.platform, money(o.cost), currency_});
    sp.shrunk = std::move(o);
  }
}

}  // namespace gpuplan::planner_detail
