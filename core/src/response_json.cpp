#include "response_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "oom_doctor_json.h"

namespace gpuplan {
namespace {

// NaN or Infinity must never reach a user: a non-finite figure is a bug, and
// the boundary turns it into an "internal" error rather than printing null.
double finite(double x, const char* what) {
  if (!std::isfinite(x)) throw std::runtime_error(std::string("non-finite value in ") + what);
  return x;
}

// Byte counts are integers; a request at the edge of the allowed ranges (a
// 16M-token sequence of a 16M-word vocabulary) can ask for more than an int64
// holds: saturate at 2^63 - 1024 (more than any machine) instead of wrapping.
int64_t bytes(double x, const char* what) {
  return static_cast<int64_t>(std::llround(std::min(finite(x, what), 9.2233720368547748e18)));
}

nlohmann::json memory_json(const MemoryEstimate& m) {
  nlohmann::json components = nlohmann::json::array();
  for (const auto& c : m.components) components.push_back({{"id", c.id}, {"bytes", bytes(c.bytes, "components")}});
  return {{"per_gpu",
           {{"allocated_bytes", bytes(m.allocated_bytes, "allocated_bytes")},
            {"reserved_bytes", bytes(m.reserved_bytes, "reserved_bytes")},
            {"total_bytes", bytes(m.total_bytes, "total_bytes")}}},
          {"components", components}};
}

nlohmann::json throughput_json(const Throughput& t) {
  return {{"samples_per_s", finite(t.samples_per_s, "samples_per_s")},
          {"tokens_per_s", finite(t.tokens_per_s, "tokens_per_s")},
          {"step_seconds", finite(t.step_seconds, "step_seconds")},
          {"utilization", finite(t.utilization, "utilization")},
          {"scaling_efficiency", finite(t.scaling_efficiency, "scaling_efficiency")},
          {"low_factor", finite(t.low_factor, "low_factor")},
          {"high_factor", finite(t.high_factor, "high_factor")},
          // Time model extras (docs/time-model.md): the unit the precision runs on and
          // the per-GPU rates seed 004's cost-effectiveness coefficient divides by price.
          {"compute_unit", std::string(compute_unit_name(t.unit))},
          {"peak_tflops", finite(t.peak_tflops, "peak_tflops")},
          {"achieved_tflops", finite(t.achieved_tflops, "achieved_tflops")},
          {"fp32_peak_tflops", finite(t.fp32_peak_tflops, "fp32_peak_tflops")},
          {"bandwidth_bound", t.bandwidth_bound},
          {"step_breakdown_seconds",
           {{"compute", finite(t.step.compute_seconds, "step.compute")},
            {"memory", finite(t.step.memory_seconds, "step.memory")},
            {"optimizer", finite(t.step.optimizer_seconds, "step.optimizer")},
            {"kernel_tail", finite(t.step.kernel_tail_seconds, "step.kernel_tail")},
            {"host", finite(t.step.host_seconds, "step.host")},
            {"communication", finite(t.step.communication_seconds, "step.communication")},
            {"exposed_communication", finite(t.step.exposed_communication_seconds, "step.exposed_communication")}}}};
}

// --- the planning section (contract "Planning section"; docs/api.md)

nlohmann::json option_json(const StageOption& o) {
  nlohmann::json j = {{"gpu", o.gpu},
                      {"count", o.count},
                      {"platform", o.platform},
                      {"billing", billing_id(o.billing)},
                      {"hours", finite(o.hours, "plan.hours")},
                      {"cost", finite(o.cost, "plan.cost")},
                      {"gpus_per_run", o.gpus_per_run},
                      {"parallel_runs", o.parallel_runs},
                      {"separate_rentals", o.separate_rentals},
                      {"instances", o.instances},
                      {"price_per_gpu_hour", finite(o.price_per_gpu_hour, "plan.price")},
                      {"run_hours", finite(o.run_hours, "plan.run_hours")},
                      {"wall_hours", finite(o.wall_hours, "plan.wall_hours")},
                      {"compute_cost", finite(o.compute_cost, "plan.compute_cost")},
                      {"storage_cost", finite(o.storage_cost, "plan.storage_cost")},
                      {"credit", finite(o.credit, "plan.credit")},
                      {"tight_memory", o.tight_memory},
                      {"education_discount", o.education_discount}};
  if (o.spot)
    j["spot"] = {{"interruptions_per_hour", finite(o.spot->interruptions_per_hour, "spot")},
                 {"interruptions_assumed", o.spot->interruptions_assumed},
                 {"checkpoint_seconds", finite(o.spot->checkpoint_seconds, "spot")},
                 {"checkpoint_interval_hours", finite(o.spot->checkpoint_interval_hours, "spot")},
                 {"overhead_fraction", finite(o.spot->overhead_fraction, "spot")},
                 {"expected_interruptions", finite(o.spot->expected_interruptions, "spot")}};
  return j;
}

// An alternative or a Pareto point: what tells the options apart, so the lists stay short.
nlohmann::json option_brief_json(const StageOption& o) {
  return {{"gpu", o.gpu},
          {"count", o.count},
          {"platform", o.platform},
          {"billing", billing_id(o.billing)},
          {"hours", finite(o.hours, "plan.hours")},
          {"cost", finite(o.cost, "plan.cost")},
          {"wall_hours", finite(o.wall_hours, "plan.wall_hours")},
          {"gpus_per_run", o.gpus_per_run},
          {"parallel_runs", o.parallel_runs},
          {"separate_rentals", o.separate_rentals},
          {"price_per_gpu_hour", finite(o.price_per_gpu_hour, "plan.price")}};
}

nlohmann::json plan_json(const PlanResult& p) {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& s : p.stages) {
    nlohmann::json j = s.feasible ? option_json(s.chosen) : nlohmann::json::object();
    j["stage"] = stage_id(s.stage);
    j["runs"] = s.runs;
    j["data_fraction"] = finite(s.data_fraction, "plan.data_fraction");
    j["feasible"] = s.feasible;
    j["share"] = finite(s.share, "plan.share");
    j["upload_hours"] = finite(s.upload_hours, "plan.upload_hours");
    j["why"] = s.why;
    if (!s.feasible) {
      j["hours"] = 0;
      j["cost"] = 0;
    }
    nlohmann::json alternatives = nlohmann::json::array();
    for (const auto& a : s.alternatives) {
      nlohmann::json aj = option_brief_json(a.option);
      aj["kind"] = a.kind;
      alternatives.push_back(aj);
    }
    j["alternatives"] = alternatives;
    nlohmann::json pareto = nlohmann::json::array();
    for (const auto& o : s.pareto) pareto.push_back(option_brief_json(o));
    j["pareto"] = pareto;
    stages.push_back(j);
  }
  nlohmann::json out = {{"category", category_id(p.category)},
                        {"category_advice", p.category_advice},
                        {"stages", stages},
                        {"total_cost", finite(p.total_cost, "plan.total_cost")},
                        {"currency", p.currency},
                        {"within_budget", p.within_budget},
                        {"wall_hours", finite(p.wall_hours, "plan.wall_hours")},
                        {"meets_deadline", p.meets_deadline}};
  if (p.budget) out["budget"] = finite(*p.budget, "plan.budget");
  if (p.deadline_hours > 0) out["deadline_hours"] = finite(p.deadline_hours, "plan.deadline_hours");
  nlohmann::json changes = nlohmann::json::array();
  for (const auto& c : p.changes)
    changes.push_back({{"code", c.code},
                       {"saving", finite(c.saving, "plan.changes.saving")},
                       {"new_total", finite(c.new_total, "plan.changes.new_total")},
                       {"saving_is_upper_bound", c.saving_is_upper_bound},
                       {"message", c.message}});
  out["changes"] = changes;
  nlohmann::json advice = nlohmann::json::array();
  for (const auto& a : p.advice) advice.push_back({{"code", a.code}, {"message", a.message}});
  out["advice"] = advice;
  if (p.rent_vs_buy) {
    const auto& b = *p.rent_vs_buy;
    out["rent_vs_buy"] = {{"gpu", b.gpu},
                          {"gpu_hours", finite(b.gpu_hours, "rent_vs_buy")},
                          {"rent_per_gpu_hour", finite(b.rent_per_gpu_hour, "rent_vs_buy")},
                          {"purchase_per_gpu", finite(b.purchase_per_gpu, "rent_vs_buy")},
                          {"electricity_per_kwh", finite(b.electricity_per_kwh, "rent_vs_buy")},
                          {"watts_per_gpu", finite(b.watts_per_gpu, "rent_vs_buy")},
                          {"rent_cost", finite(b.rent_cost, "rent_vs_buy")},
                          {"buy_cost", finite(b.buy_cost, "rent_vs_buy")},
                          {"break_even_gpu_hours", finite(b.break_even_gpu_hours, "rent_vs_buy")},
                          {"utilization_to_break_even", finite(b.utilization_to_break_even, "rent_vs_buy")},
                          {"depreciation_per_year", finite(b.depreciation_per_year, "rent_vs_buy")},
                          {"cheaper", b.cheaper},
                          {"source", b.source}};
  }
  if (p.group) {
    const auto& g = *p.group;
    out["group"] = {{"people", g.people},
                    {"gpus", g.gpus},
                    {"gpu", g.gpu},
                    {"platform", g.platform},
                    {"billing", billing_id(g.billing)},
                    {"machine_per_month", finite(g.machine_per_month, "group")},
                    {"per_person_per_month", finite(g.per_person_per_month, "group")},
                    {"per_person_gpu_hours_per_month", finite(g.per_person_gpu_hours_per_month, "group")},
                    {"hourly_equivalent_per_month", finite(g.hourly_equivalent_per_month, "group")},
                    {"saving_fraction", finite(g.saving_fraction, "group")}};
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const Response& r) {
  nlohmann::json out;
  nlohmann::json memory = memory_json(r.memory);
  memory["headroom"] = finite(r.headroom, "headroom");
  memory["recommended_bytes"] = bytes(r.recommended_bytes, "recommended_bytes");
  out["memory"] = memory;
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : r.gpus) {
    gpus.push_back({{"id", g.id},
                    {"fits", g.fits},
                    {"count", g.count},
                    {"memory_total_bytes", bytes(g.memory.total_bytes, "gpus.memory")},
                    {"throughput", throughput_json(g.throughput)},
                    {"hours", finite(g.hours, "hours")},
                    {"hours_low", finite(g.hours / std::max(1e-9, g.throughput.high_factor), "hours_low")},
                    {"hours_high", finite(g.hours / std::max(1e-9, g.throughput.low_factor), "hours_high")},
                    {"max_micro_batch", g.limits.max_micro_batch},
                    {"max_seq_len", g.limits.max_seq_len}});
    if (g.science)
      gpus.back()["science"] = {{"speedup", finite(g.science->speedup, "science.speedup")},
                                {"rate", finite(g.science->rate, "science.rate")},
                                {"fp64_ratio", finite(g.science->fp64_ratio, "science.fp64_ratio")},
                                {"fp64_starved", g.science->fp64_starved}};
  }
  out["gpus"] = gpus;
  nlohmann::json warnings = nlohmann::json::array();
  for (const auto& w : r.warnings) warnings.push_back({{"code", w.code}, {"message", w.message}});
  out["warnings"] = warnings;
  if (r.plan) out["plan"] = plan_json(*r.plan);
  if (r.oom_doctor) out["oom_doctor"] = to_json(*r.oom_doctor, r.locale);
  return out;
}

nlohmann::json to_json(const Error& e) {
  return {{"error", {{"code", e.code}, {"path", e.path}, {"message", e.message}}}};
}

}  // namespace gpuplan
