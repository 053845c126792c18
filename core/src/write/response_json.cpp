// The response's JSON (fields: docs/api.md), one writer function per object.
// One unit past 500 lines: the response's field order is written here alone,
// top to bottom, and the objects' writers share its finite-figure helpers.
#include "write/response_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "text/json_writer.h"
#include "text/messages.h"
#include "text/names.h"
#include "text/order.h"
#include "write/oom_doctor_json.h"

// Every object below lists its members in byte-wise ascending key order, the
// order nlohmann::json's std::map kept them in before the writer replaced it
// (JsonWriter::key() checks it). Optional members sit at their sorted place
// behind their condition. NaN or Infinity must never reach a user: a
// non-finite figure is a bug, which the writer records (naming the member's
// key), and the reply is then the "internal" error rather than a null.
namespace gpuplan {
namespace {

void write_memory(JsonWriter& w, const Response& r) {
  const MemoryEstimate& m = r.memory;
  w.begin_object();
  // The measured-peak correction (request baseline.memory_bytes), when one was given.
  if (m.scale != 1) w.member("baseline_scale", m.scale);
  w.key("components").begin_array();
  for (const auto& c : m.components) {
    w.begin_object();
    w.member("bytes", Bytes{c.bytes});
    w.member("id", c.id);
    w.end_object();
  }
  w.end_array();
  w.member("headroom", r.headroom);
  w.key("per_gpu").begin_object();
  w.member("allocated_bytes", Bytes{m.allocated_bytes});
  w.member("reserved_bytes", Bytes{m.reserved_bytes});
  w.member("total_bytes", Bytes{m.total_bytes});
  w.end_object();
  w.member("recommended_bytes", Bytes{r.recommended_bytes});
  w.end_object();
}

void write_throughput(JsonWriter& w, const Throughput& t) {
  w.begin_object();
  w.member("achieved_tflops", t.achieved_tflops);
  w.member("bandwidth_bound", t.bandwidth_bound);
  // The measured-speed correction (request baseline), when one was given.
  if (t.baseline_scale != 1) w.member("baseline_scale", t.baseline_scale);
  // Time model extras (docs/time-model.md): the unit the precision runs on and
  // the per-GPU rates seed 004's cost-effectiveness coefficient divides by price.
  w.member("compute_unit", compute_unit_name(t.unit));
  w.member("fp32_peak_tflops", t.fp32_peak_tflops);
  w.member("high_factor", t.high_factor);
  w.member("low_factor", t.low_factor);
  w.member("peak_tflops", t.peak_tflops);
  // DPO / GRPO / PPO (docs/objectives.md): one optimizer step by phase.
  if (t.rollout_seconds > 0 || t.scoring_seconds > 0 || t.training_seconds > 0) {
    w.key("phase_seconds").begin_object();
    w.member("rollout", t.rollout_seconds);
    w.member("scoring", t.scoring_seconds);
    w.member("training", t.training_seconds);
    w.end_object();
  }
  w.member("samples_per_s", t.samples_per_s);
  w.member("scaling_efficiency", t.scaling_efficiency);
  w.key("step_breakdown_seconds").begin_object();
  w.member("communication", t.step.communication_seconds);
  w.member("compute", t.step.compute_seconds);
  w.member("exposed_communication", t.step.exposed_communication_seconds);
  w.member("host", t.step.host_seconds);
  w.member("kernel_tail", t.step.kernel_tail_seconds);
  w.member("memory", t.step.memory_seconds);
  w.member("optimizer", t.step.optimizer_seconds);
  w.end_object();
  w.member("step_seconds", t.step_seconds);
  w.member("tokens_per_s", t.tokens_per_s);
  w.member("utilization", t.utilization);
  w.end_object();
}

// What a price is (contract v1.2): its platform, kind, date, confidence and
// the source as the page may show it; `stale` when it is more than six
// months older than the catalog, `derived` when computed from a discount.
void write_offer(JsonWriter& w, const OfferRef& o) {
  w.begin_object();
  w.member("as_of", o.as_of);
  w.member("billing", name_of(o.billing));
  w.member("confidence", o.confidence);
  w.member("derived", o.derived);
  w.member("gpu", o.gpu);
  w.member("platform", o.platform);
  w.member("price_kind", name_of(o.price_kind));
  w.member("source", o.source);
  w.member("stale", o.stale);
  w.end_object();
}

void write_gpu(JsonWriter& w, const GpuResult& g) {
  w.begin_object();
  if (g.cost) {
    w.member("billing", name_of(g.cost->billing));
    w.member("cost", g.cost->cost);
    // Seed 004's coefficient (throughput.h), on the precision the workload
    // runs and, as the seed computes it, on the FP32 peak; 0 on a free offer.
    w.member("cost_effectiveness", g.cost->effectiveness.workload_precision);
    w.member("cost_effectiveness_fp32", g.cost->effectiveness.fp32_as_seed);
  }
  w.member("count", g.count);
  w.member("fit", g.fit);
  w.member("fits", g.fits);
  w.member("hours", g.hours);
  w.member("hours_high", g.hours / std::max(1e-9, g.throughput.low_factor));
  w.member("hours_low", g.hours / std::max(1e-9, g.throughput.high_factor));
  w.member("id", g.id);
  w.member("max_micro_batch", g.limits.max_micro_batch);
  w.member("max_seq_len", g.limits.max_seq_len);
  // vLLM's pre-allocated pool, beside the batch's need (docs/api.md).
  if (g.engine_pool_bytes > 0) w.member("memory_engine_pool_bytes", Bytes{g.engine_pool_bytes});
  w.member("memory_total_bytes", Bytes{g.memory.total_bytes});
  if (g.cost) {
    w.key("offer");
    write_offer(w, g.cost->offer);
    w.member("platform", g.cost->platform);
  }
  if (g.science) {
    w.key("science").begin_object();
    w.member("fp64_ratio", g.science->fp64_ratio);
    w.member("fp64_starved", g.science->fp64_starved);
    w.member("rate", g.science->rate);
    w.member("speedup", g.science->speedup);
    w.end_object();
  }
  w.key("throughput");
  write_throughput(w, g.throughput);
  w.end_object();
}

// --- the planning section (contract "Planning section"; docs/api.md)

void write_spot(JsonWriter& w, const SpotDetail& s) {
  w.begin_object();
  w.member("checkpoint_interval_hours", s.checkpoint_interval_hours);
  w.member("checkpoint_seconds", s.checkpoint_seconds);
  w.member("expected_interruptions", s.expected_interruptions);
  w.member("interruptions_assumed", s.interruptions_assumed);
  w.member("interruptions_per_hour", s.interruptions_per_hour);
  w.member("overhead_fraction", s.overhead_fraction);
  w.end_object();
}

void write_change_value(JsonWriter& w, const std::string& text);

// The option's workload changes (contract v1.1 on the stage, v1.2 on each alternative).
void write_changes(JsonWriter& w, const StageOption& o) {
  w.key("workload_changes").begin_array();
  for (const auto& c : o.workload_changes) {
    w.begin_object();
    w.member("field", c.field);
    w.key("value");
    write_change_value(w, c.value);
    w.end_object();
  }
  w.end_array();
}

// An alternative (with its kind) or a Pareto point (kind null): what tells the
// options apart, so the lists stay short.
void write_option_brief(JsonWriter& w, const StageOption& o, const std::string* kind) {
  w.begin_object();
  w.member("billing", name_of(o.billing));
  w.member("cost", o.cost);
  w.member("count", o.count);
  w.member("gpu", o.gpu);
  w.member("gpus_per_run", o.gpus_per_run);
  w.member("hours", o.hours);
  if (kind) w.member("kind", *kind);
  w.member("parallel_runs", o.parallel_runs);
  w.member("platform", o.platform);
  w.member("price_per_gpu_hour", o.price_per_gpu_hour);
  w.member("separate_rentals", o.separate_rentals);
  w.member("wait_hours", o.wait_hours);
  w.member("wall_hours", o.wall_hours);
  write_changes(w, o);
  w.end_object();
}

// The power a stage on the lab's cards is charged (lab.electricity), with the
// tariff's date, source and standing.
void write_electricity(JsonWriter& w, const ElectricityCharge& e) {
  w.key("electricity").begin_object();
  w.member("as_of", e.as_of);
  w.member("confidence", e.confidence);
  w.member("currency", e.currency);
  w.member("kwh", e.kwh);
  w.member("per_kwh", e.per_kwh);
  w.member("source", e.source);
  w.member("watts_per_gpu", e.watts_per_gpu);
  w.end_object();
}

// A workload change's value, kept as its JSON text: true, 2 or "adamw-8bit".
void write_change_value(JsonWriter& w, const std::string& text) {
  if (text == "true" || text == "false") w.value(text == "true");
  else if (!text.empty() && text.front() == '"') w.value(std::string_view(text).substr(1, text.size() - 2));
  else w.value(int64_t(std::strtoll(text.c_str(), nullptr, 10)));
}

// A change's value as JSON: write_change_value's, or a list of ids
// (["campus-id"]: prefs.platforms).
void write_patch_value(JsonWriter& w, const std::string& text) {
  if (text.empty() || text.front() != '[') return write_change_value(w, text);
  w.begin_array();
  size_t at = 0;
  while ((at = text.find('"', at)) != std::string::npos) {
    const size_t end = text.find('"', at + 1);
    if (end == std::string::npos) break;
    w.value(std::string_view(text).substr(at + 1, end - at - 1));
    at = end + 1;
  }
  w.end_array();
}

// A budget change or a suggestion as a JSON merge patch (RFC 7396) on the
// request: {"prefs": {...}, "stages": [...], "workload": {...}}, members in
// sorted order (fields "head.key", sorted, one level deep).
void write_change_patch(JsonWriter& w, const BudgetChange& c) {
  std::vector<const WorkloadChange*> fields;
  for (const auto& f : c.patch) fields.push_back(&f);
  stable_sort_by(fields, [](const WorkloadChange* a, const WorkloadChange* b) { return a->field < b->field; });
  auto head = [](const WorkloadChange* f) { return std::string_view(f->field).substr(0, f->field.find('.')); };
  auto write_head = [&](std::string_view name) {
    bool open = false;
    for (const WorkloadChange* f : fields) {
      if (head(f) != name) continue;
      if (!open) w.key(name).begin_object();
      open = true;
      w.key(std::string_view(f->field).substr(name.size() + 1));
      write_patch_value(w, f->value);
    }
    if (open) w.end_object();
  };
  w.begin_object();
  write_head("prefs");
  if (!c.stages.empty()) {
    w.key("stages").begin_array();
    for (const auto& st : c.stages) {
      w.begin_object();
      w.member("data_fraction", st.data_fraction);
      if (st.gap_days) w.member("gap_days", *st.gap_days);  // a patch replaces the whole list: keep what the student gave
      w.member("runs", st.runs);
      w.member("stage", name_of(st.stage));
      w.end_object();
    }
    w.end_array();
  }
  write_head("workload");
  w.end_object();
}

// The disk a stage finds where an earlier stage left it, stopped in between;
// null where a figure is not known.
void write_disk_after_stop(JsonWriter& w, const DiskAfterStop& d) {
  auto maybe = [&](std::string_view key, const std::optional<double>& v) {
    if (v) w.member(key, *v);
    else w.key(key).null();
  };
  w.key("disk_after_stop").begin_object();
  if (d.bills) w.member("bills", *d.bills);
  else w.key("bills").null();
  maybe("cost", d.cost);
  w.member("disk_gb", d.disk_gb);
  maybe("gap_days", d.gap_days);
  maybe("per_month", d.per_month);
  w.member("platform", d.platform);
  w.member("wiped", d.wiped);
  maybe("wiped_after_days", d.wiped_after_days);
  w.end_object();
}

// A lower price the catalog holds for the stage's card that may not price a
// plan (docs/api.md, plan.stages[].reference).
void write_reference(JsonWriter& w, const PriceReference& r) {
  w.key("reference").begin_object();
  w.member("cost", r.cost);
  w.member("message", r.message);
  w.key("offer");
  write_offer(w, r.offer);
  w.member("price_per_gpu_hour", r.price_per_gpu_hour);
  w.end_object();
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
    w.member("compute_cost", o.compute_cost);
    w.member("cost", o.cost);
    w.member("cost_high", o.cost_high);
    w.member("cost_low", o.cost_low);
    w.member("count", o.count);
    w.member("credit", o.credit);
  } else {
    w.member("cost", 0);
  }
  w.member("data_fraction", s.data_fraction);
  if (s.disk_after_stop) write_disk_after_stop(w, *s.disk_after_stop);
  if (f) w.member("education_discount", o.education_discount);
  if (f && o.electricity) write_electricity(w, *o.electricity);
  w.member("feasible", s.feasible);
  if (f) {
    w.member("fit", o.fit);
    w.member("gpu", o.gpu);
    w.member("gpus_per_run", o.gpus_per_run);
    w.member("hours", o.hours);
    w.member("instances", o.instances);
    w.member("memory_bytes", Bytes{o.memory_bytes});
    w.key("offer");
    write_offer(w, o.offer);
    w.member("parallel_runs", o.parallel_runs);
  } else {
    w.member("hours", 0);
  }
  w.key("pareto").begin_array();
  for (const auto& p : s.pareto) write_option_brief(w, p, nullptr);
  w.end_array();
  if (f) {
    w.member("platform", o.platform);
    w.member("price_per_gpu_hour", o.price_per_gpu_hour);
    if (s.reference) write_reference(w, *s.reference);
    w.member("run_hours", o.run_hours);
  }
  w.member("runs", s.runs);
  if (f) w.member("separate_rentals", o.separate_rentals);
  if (f) w.member("sharding", o.sharding_name);
  w.member("share", s.share);
  if (s.shrunk) {
    w.key("shrunk");
    write_option_brief(w, *s.shrunk, nullptr);
  }
  if (f && o.spot) {
    w.key("spot");
    write_spot(w, *o.spot);
  }
  w.member("stage", name_of(s.stage));
  if (f) {
    w.member("storage_cost", o.storage_cost);
    w.member("tight_memory", o.tight_memory);
  }
  w.member("upload_hours", s.upload_hours);
  w.member("wait_hours", f ? o.wait_hours : 0);
  if (f) w.member("wall_hours", o.wall_hours);
  w.member("why", s.why);
  if (f) {
    write_changes(w, o);
  } else {
    w.key("workload_changes").begin_array();
    w.end_array();
  }
  w.end_object();
}

void write_rent_vs_buy(JsonWriter& w, const RentVsBuyPlan& b) {
  w.begin_object();
  w.member("break_even_gpu_hours", b.break_even_gpu_hours);
  w.member("buy_cost", b.buy_cost);
  w.member("cheaper", b.cheaper);
  w.member("depreciation_per_year", b.depreciation_per_year);
  w.member("electricity_per_kwh", b.electricity_per_kwh);
  w.member("gpu", b.gpu);
  w.member("gpu_hours", b.gpu_hours);
  w.member("purchase_per_gpu", b.purchase_per_gpu);
  w.member("rent_cost", b.rent_cost);
  w.member("rent_per_gpu_hour", b.rent_per_gpu_hour);
  w.member("source", b.source);
  w.member("utilization_to_break_even", b.utilization_to_break_even);
  w.member("watts_per_gpu", b.watts_per_gpu);
  w.end_object();
}

void write_group(JsonWriter& w, const GroupRentalPlan& g) {
  w.begin_object();
  w.member("billing", name_of(g.billing));
  w.member("gpu", g.gpu);
  w.member("gpus", g.gpus);
  w.member("group_gpu_hours", g.group_gpu_hours);
  w.member("hourly_equivalent_per_month", g.hourly_equivalent_per_month);
  w.member("machine_per_month", g.machine_per_month);
  w.member("months", g.months);
  w.member("people", g.people);
  w.member("per_person_gpu_hours_per_month", g.per_person_gpu_hours_per_month);
  w.member("per_person_per_month", g.per_person_per_month);
  w.member("platform", g.platform);
  w.member("saving_fraction", g.saving_fraction);
  w.member("utilization", g.utilization);
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
  if (p.billings.size()) {
    w.key("billings").begin_array();
    for (Billing b : p.billings) w.value(name_of(b));
    w.end_array();
  }
  if (p.budget) w.member("budget", *p.budget);
  w.member("category", category_id(p.category));
  w.member("category_advice", p.category_advice);
  w.key("changes").begin_array();
  for (const auto& c : p.changes) {
    w.begin_object();
    w.member("code", c.code);
    w.member("message", c.message);
    w.member("new_total", c.new_total);
    if (!c.patch.empty() || !c.stages.empty()) {
      w.key("patch");
      write_change_patch(w, c);
    }
    w.member("saving", c.saving);
    w.member("saving_is_upper_bound", c.saving_is_upper_bound);
    w.end_object();
  }
  w.end_array();
  w.member("currency", p.currency);
  if (p.deadline_hours > 0) w.member("deadline_hours", p.deadline_hours);
  w.member("feasible", p.feasible);
  if (p.group) {
    w.key("group");
    write_group(w, *p.group);
  }
  w.member("meets_deadline", p.meets_deadline);
  if (p.platforms.size()) {
    w.key("platforms").begin_array();
    for (const std::string& id : p.platforms) w.value(id);
    w.end_array();
  }
  if (p.rent_vs_buy) {
    w.key("rent_vs_buy");
    write_rent_vs_buy(w, *p.rent_vs_buy);
  }
  w.key("stages").begin_array();
  for (const auto& s : p.stages) write_stage(w, s);
  w.end_array();
  w.member("total_cost", p.total_cost);
  w.member("total_cost_high", p.total_cost_high);
  w.member("total_cost_low", p.total_cost_low);
  w.member("wall_hours", p.wall_hours);
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
  w.key("display").begin_object();
  if (!r.display.as_of.empty()) w.member("as_of", r.display.as_of);
  w.member("currency", r.display.currency);
  w.key("rates").begin_object();
  for (const auto& [c, k] : r.display.rates) w.member(c, k);
  w.end_object();
  w.end_object();
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
