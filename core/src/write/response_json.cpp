#include "response_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "json_writer.h"
#include "messages.h"
#include "names.h"
#include "oom_doctor_json.h"

// Every object below lists its members in byte-wise ascending key order, the
// order nlohmann::json's std::map kept them in before the writer replaced it
// (JsonWriter::key() checks it). Optional members sit at their sorted place
// behind their condition. NaN or Infinity must never reach a user: a
// non-finite figure is a bug, which w.finite() and w.bytes() record in the
// writer, and the reply is then the "internal" error rather than a null.
namespace gpuplan {
namespace {

void write_memory(JsonWriter& w, const Response& r) {
  const MemoryEstimate& m = r.memory;
  w.begin_object();
  // The measured-peak correction (request baseline.memory_bytes), when one was given.
  if (m.scale != 1) w.member("baseline_scale", w.finite(m.scale, "memory.baseline_scale"));
  w.key("components").begin_array();
  for (const auto& c : m.components) {
    w.begin_object();
    w.member("bytes", w.bytes(c.bytes, "components"));
    w.member("id", c.id);
    w.end_object();
  }
  w.end_array();
  w.member("headroom", w.finite(r.headroom, "headroom"));
  w.key("per_gpu").begin_object();
  w.member("allocated_bytes", w.bytes(m.allocated_bytes, "allocated_bytes"));
  w.member("reserved_bytes", w.bytes(m.reserved_bytes, "reserved_bytes"));
  w.member("total_bytes", w.bytes(m.total_bytes, "total_bytes"));
  w.end_object();
  w.member("recommended_bytes", w.bytes(r.recommended_bytes, "recommended_bytes"));
  w.end_object();
}

void write_throughput(JsonWriter& w, const Throughput& t) {
  w.begin_object();
  w.member("achieved_tflops", w.finite(t.achieved_tflops, "achieved_tflops"));
  w.member("bandwidth_bound", t.bandwidth_bound);
  // The measured-speed correction (request baseline), when one was given.
  if (t.baseline_scale != 1) w.member("baseline_scale", w.finite(t.baseline_scale, "baseline_scale"));
  // Time model extras (docs/time-model.md): the unit the precision runs on and
  // the per-GPU rates seed 004's cost-effectiveness coefficient divides by price.
  w.member("compute_unit", compute_unit_name(t.unit));
  w.member("fp32_peak_tflops", w.finite(t.fp32_peak_tflops, "fp32_peak_tflops"));
  w.member("high_factor", w.finite(t.high_factor, "high_factor"));
  w.member("low_factor", w.finite(t.low_factor, "low_factor"));
  w.member("peak_tflops", w.finite(t.peak_tflops, "peak_tflops"));
  // DPO / GRPO / PPO (docs/objectives.md): one optimizer step by phase.
  if (t.rollout_seconds > 0 || t.scoring_seconds > 0 || t.training_seconds > 0) {
    w.key("phase_seconds").begin_object();
    w.member("rollout", w.finite(t.rollout_seconds, "phase.rollout"));
    w.member("scoring", w.finite(t.scoring_seconds, "phase.scoring"));
    w.member("training", w.finite(t.training_seconds, "phase.training"));
    w.end_object();
  }
  w.member("samples_per_s", w.finite(t.samples_per_s, "samples_per_s"));
  w.member("scaling_efficiency", w.finite(t.scaling_efficiency, "scaling_efficiency"));
  w.key("step_breakdown_seconds").begin_object();
  w.member("communication", w.finite(t.step.communication_seconds, "step.communication"));
  w.member("compute", w.finite(t.step.compute_seconds, "step.compute"));
  w.member("exposed_communication", w.finite(t.step.exposed_communication_seconds, "step.exposed_communication"));
  w.member("host", w.finite(t.step.host_seconds, "step.host"));
  w.member("kernel_tail", w.finite(t.step.kernel_tail_seconds, "step.kernel_tail"));
  w.member("memory", w.finite(t.step.memory_seconds, "step.memory"));
  w.member("optimizer", w.finite(t.step.optimizer_seconds, "step.optimizer"));
  w.end_object();
  w.member("step_seconds", w.finite(t.step_seconds, "step_seconds"));
  w.member("tokens_per_s", w.finite(t.tokens_per_s, "tokens_per_s"));
  w.member("utilization", w.finite(t.utilization, "utilization"));
  w.end_object();
}

void write_gpu(JsonWriter& w, const GpuResult& g) {
  w.begin_object();
  if (g.cost) {
    w.member("billing", name_of(g.cost->billing));
    w.member("cost", w.finite(g.cost->cost, "gpus.cost"));
  }
  w.member("count", g.count);
  w.member("fit", g.fit);
  w.member("fits", g.fits);
  w.member("hours", w.finite(g.hours, "hours"));
  w.member("hours_high", w.finite(g.hours / std::max(1e-9, g.throughput.low_factor), "hours_high"));
  w.member("hours_low", w.finite(g.hours / std::max(1e-9, g.throughput.high_factor), "hours_low"));
  w.member("id", g.id);
  w.member("max_micro_batch", g.limits.max_micro_batch);
  w.member("max_seq_len", g.limits.max_seq_len);
  w.member("memory_total_bytes", w.bytes(g.memory.total_bytes, "gpus.memory"));
  if (g.cost) w.member("platform", g.cost->platform);
  if (g.science) {
    w.key("science").begin_object();
    w.member("fp64_ratio", w.finite(g.science->fp64_ratio, "science.fp64_ratio"));
    w.member("fp64_starved", g.science->fp64_starved);
    w.member("rate", w.finite(g.science->rate, "science.rate"));
    w.member("speedup", w.finite(g.science->speedup, "science.speedup"));
    w.end_object();
  }
  w.key("throughput");
  write_throughput(w, g.throughput);
  w.end_object();
}

// --- the planning section (contract "Planning section"; docs/api.md)

void write_spot(JsonWriter& w, const SpotDetail& s) {
  w.begin_object();
  w.member("checkpoint_interval_hours", w.finite(s.checkpoint_interval_hours, "spot"));
  w.member("checkpoint_seconds", w.finite(s.checkpoint_seconds, "spot"));
  w.member("expected_interruptions", w.finite(s.expected_interruptions, "spot"));
  w.member("interruptions_assumed", s.interruptions_assumed);
  w.member("interruptions_per_hour", w.finite(s.interruptions_per_hour, "spot"));
  w.member("overhead_fraction", w.finite(s.overhead_fraction, "spot"));
  w.end_object();
}

// An alternative (with its kind) or a Pareto point (kind null): what tells the
// options apart, so the lists stay short.
void write_option_brief(JsonWriter& w, const StageOption& o, const std::string* kind) {
  w.begin_object();
  w.member("billing", name_of(o.billing));
  w.member("cost", w.finite(o.cost, "plan.cost"));
  w.member("count", o.count);
  w.member("gpu", o.gpu);
  w.member("gpus_per_run", o.gpus_per_run);
  w.member("hours", w.finite(o.hours, "plan.hours"));
  if (kind) w.member("kind", *kind);
  w.member("parallel_runs", o.parallel_runs);
  w.member("platform", o.platform);
  w.member("price_per_gpu_hour", w.finite(o.price_per_gpu_hour, "plan.price"));
  w.member("separate_rentals", o.separate_rentals);
  w.member("wall_hours", w.finite(o.wall_hours, "plan.wall_hours"));
  w.end_object();
}

// A workload change's value, kept as its JSON text: true, 2 or "adamw-8bit".
void write_change_value(JsonWriter& w, const std::string& text) {
  if (text == "true" || text == "false") w.value(text == "true");
  else if (!text.empty() && text.front() == '"') w.value(std::string_view(text).substr(1, text.size() - 2));
  else w.value(int64_t(std::strtoll(text.c_str(), nullptr, 10)));
}

// A stage: the chosen option's fields when feasible (hours and cost 0 when
// not), merged with the stage's own, in one sorted list.
void write_stage(JsonWriter& w, const StagePlan& s) {
  const StageOption& o = s.chosen;
  const bool f = s.feasible;
  w.begin_object();
  w.key("alternatives").begin_array();
  for (const auto& a : s.alternatives) write_option_brief(w, a.option, &a.kind);
  w.end_array();
  if (f) {
    w.member("billing", name_of(o.billing));
    w.member("compute_cost", w.finite(o.compute_cost, "plan.compute_cost"));
    w.member("cost", w.finite(o.cost, "plan.cost"));
    w.member("count", o.count);
    w.member("credit", w.finite(o.credit, "plan.credit"));
  } else {
    w.member("cost", 0);
  }
  w.member("data_fraction", w.finite(s.data_fraction, "plan.data_fraction"));
  if (f) w.member("education_discount", o.education_discount);
  w.member("feasible", s.feasible);
  if (f) {
    w.member("fit", o.fit);
    w.member("gpu", o.gpu);
    w.member("gpus_per_run", o.gpus_per_run);
    w.member("hours", w.finite(o.hours, "plan.hours"));
    w.member("instances", o.instances);
    w.member("memory_bytes", w.bytes(o.memory_bytes, "plan.memory_bytes"));
    w.member("parallel_runs", o.parallel_runs);
  } else {
    w.member("hours", 0);
  }
  w.key("pareto").begin_array();
  for (const auto& p : s.pareto) write_option_brief(w, p, nullptr);
  w.end_array();
  if (f) {
    w.member("platform", o.platform);
    w.member("price_per_gpu_hour", w.finite(o.price_per_gpu_hour, "plan.price"));
    w.member("run_hours", w.finite(o.run_hours, "plan.run_hours"));
  }
  w.member("runs", s.runs);
  if (f) w.member("separate_rentals", o.separate_rentals);
  if (f) w.member("sharding", name_of(o.sharding));
  w.member("share", w.finite(s.share, "plan.share"));
  if (f && o.spot) {
    w.key("spot");
    write_spot(w, *o.spot);
  }
  w.member("stage", name_of(s.stage));
  if (f) {
    w.member("storage_cost", w.finite(o.storage_cost, "plan.storage_cost"));
    w.member("tight_memory", o.tight_memory);
  }
  w.member("upload_hours", w.finite(s.upload_hours, "plan.upload_hours"));
  if (f) w.member("wall_hours", w.finite(o.wall_hours, "plan.wall_hours"));
  w.member("why", s.why);
  w.key("workload_changes").begin_array();
  if (f)
    for (const auto& c : o.workload_changes) {
      w.begin_object();
      w.member("field", c.field);
      w.key("value");
      write_change_value(w, c.value);
      w.end_object();
    }
  w.end_array();
  w.end_object();
}

void write_rent_vs_buy(JsonWriter& w, const RentVsBuyPlan& b) {
  w.begin_object();
  w.member("break_even_gpu_hours", w.finite(b.break_even_gpu_hours, "rent_vs_buy"));
  w.member("buy_cost", w.finite(b.buy_cost, "rent_vs_buy"));
  w.member("cheaper", b.cheaper);
  w.member("depreciation_per_year", w.finite(b.depreciation_per_year, "rent_vs_buy"));
  w.member("electricity_per_kwh", w.finite(b.electricity_per_kwh, "rent_vs_buy"));
  w.member("gpu", b.gpu);
  w.member("gpu_hours", w.finite(b.gpu_hours, "rent_vs_buy"));
  w.member("purchase_per_gpu", w.finite(b.purchase_per_gpu, "rent_vs_buy"));
  w.member("rent_cost", w.finite(b.rent_cost, "rent_vs_buy"));
  w.member("rent_per_gpu_hour", w.finite(b.rent_per_gpu_hour, "rent_vs_buy"));
  w.member("source", b.source);
  w.member("utilization_to_break_even", w.finite(b.utilization_to_break_even, "rent_vs_buy"));
  w.member("watts_per_gpu", w.finite(b.watts_per_gpu, "rent_vs_buy"));
  w.end_object();
}

void write_group(JsonWriter& w, const GroupRentalPlan& g) {
  w.begin_object();
  w.member("billing", name_of(g.billing));
  w.member("gpu", g.gpu);
  w.member("gpus", g.gpus);
  w.member("group_gpu_hours", w.finite(g.group_gpu_hours, "group"));
  w.member("hourly_equivalent_per_month", w.finite(g.hourly_equivalent_per_month, "group"));
  w.member("machine_per_month", w.finite(g.machine_per_month, "group"));
  w.member("months", w.finite(g.months, "group"));
  w.member("people", g.people);
  w.member("per_person_gpu_hours_per_month", w.finite(g.per_person_gpu_hours_per_month, "group"));
  w.member("per_person_per_month", w.finite(g.per_person_per_month, "group"));
  w.member("platform", g.platform);
  w.member("saving_fraction", w.finite(g.saving_fraction, "group"));
  w.member("utilization", w.finite(g.utilization, "group"));
  w.end_object();
}

void write_plan(JsonWriter& w, const PlanResult& p) {
  w.begin_object();
  w.key("advice").begin_array();
  for (const auto& a : p.advice) {
    w.begin_object();
    w.member("code", a.code);
    w.member("message", a.message);
    w.end_object();
  }
  w.end_array();
  if (p.budget) w.member("budget", w.finite(*p.budget, "plan.budget"));
  w.member("category", category_id(p.category));
  w.member("category_advice", p.category_advice);
  w.key("changes").begin_array();
  for (const auto& c : p.changes) {
    w.begin_object();
    w.member("code", c.code);
    w.member("message", c.message);
    w.member("new_total", w.finite(c.new_total, "plan.changes.new_total"));
    w.member("saving", w.finite(c.saving, "plan.changes.saving"));
    w.member("saving_is_upper_bound", c.saving_is_upper_bound);
    w.end_object();
  }
  w.end_array();
  w.member("currency", p.currency);
  if (p.deadline_hours > 0) w.member("deadline_hours", w.finite(p.deadline_hours, "plan.deadline_hours"));
  w.member("feasible", p.feasible);
  if (p.group) {
    w.key("group");
    write_group(w, *p.group);
  }
  w.member("meets_deadline", p.meets_deadline);
  if (p.rent_vs_buy) {
    w.key("rent_vs_buy");
    write_rent_vs_buy(w, *p.rent_vs_buy);
  }
  w.key("stages").begin_array();
  for (const auto& s : p.stages) write_stage(w, s);
  w.end_array();
  w.member("total_cost", w.finite(p.total_cost, "plan.total_cost"));
  w.member("wall_hours", w.finite(p.wall_hours, "plan.wall_hours"));
  w.member("within_budget", p.within_budget);
  w.end_object();
}

// The writer's text, or the "internal" error naming its first failure (the
// message a throw from the writer gave at the API boundary before).
Result<std::string> text_or_internal(JsonWriter& w) {
  if (!w.ok()) return Error{"internal", "", message(Locale::en, "internal", {w.failure()})};
  return w.take();
}

}  // namespace

Result<std::string> response_json_text(const Response& r) {
  JsonWriter w;
  w.begin_object();
  w.key("gpus").begin_array();
  for (const auto& g : r.gpus) write_gpu(w, g);
  w.end_array();
  w.key("memory");
  write_memory(w, r);
  if (r.oom_doctor) {
    w.key("oom_doctor");
    write_json(w, *r.oom_doctor, r.locale);
  }
  if (r.plan) {
    w.key("plan");
    write_plan(w, *r.plan);
  }
  w.key("warnings").begin_array();
  for (const auto& x : r.warnings) {
    w.begin_object();
    w.member("code", x.code);
    w.member("message", x.message);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return text_or_internal(w);
}

Result<std::string> error_json_text(const Error& e) {
  JsonWriter w;
  w.begin_object();
  w.key("error").begin_object();
  w.member("code", e.code);
  w.member("message", e.message);
  w.member("path", e.path);
  w.end_object();
  w.end_object();
  return text_or_internal(w);
}

}  // namespace gpuplan
