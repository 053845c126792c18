// plan(): memory for the request as given, then every GPU type (or the one the
// request names) with the fewest cards that hold the workload and its speed,
// then, when the request has stages, the plan (gpuplan/planner.h). Memory and
// speed come from one Evaluator, so each is computed once per (GPU, count).
#include "gpuplan/plan.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "estimate/evaluation.h"
#include "text/messages.h"
#include "gpuplan/pricing.h"
#include "plan/offers.h"
#include "plan/science_plan.h"

namespace gpuplan {
namespace {

// One run of the request's data on `choice`'s count of GPU `gpu_index`, on
// the cheapest of `offers` for it: the plan's own rental price.
std::optional<GpuCost> cheapest_run(Evaluator& e, size_t gpu_index, const FitChoice& choice,
                                    const std::vector<PricedOffer>& offers, double checkpoint_bytes, double disk_gb) {
  std::optional<GpuCost> best;
  if (!e.request().data || choice.fit == Fit::no || !(choice.hours > 0)) return best;
  for (const PricedOffer& o : offers) {
    if (o.gpu != gpu_index || !rentable(o, e.catalog().gpus[gpu_index], choice.count)) continue;
    const RentalTerms terms = offer_terms(o);
    const OneRun run = price_one_run(terms, choice.hours, choice.count, checkpoint_bytes, disk_gb);
    if (!run.time.feasible) continue;
    if (!best || run.cost.cost < best->cost) best = GpuCost{run.cost.cost, o.platform->id, o.billing, terms.price_per_gpu_hour, {}, o.ref};
  }
  if (best) best->effectiveness = cost_effectiveness(choice.throughput, e.catalog().gpus[gpu_index], best->price_per_gpu_hour);
  return best;
}

// The planner's own fix for the doctor's card (Evaluator::fit with workload
// changes), among the remedies where its quality ranks it, so the doctor
// never lacks what the plan does.
void add_plan_remedy(Diagnosis& d, const FitChoice& choice, const Gpu& g, const ModelSpec& model) {
  if (d.fits || choice.fit == Fit::no || choice.changes.empty()) return;
  Remedy r;
  r.id = std::string(remedy_id::plan_fit);
  r.workload = choice.workload;
  r.gpu = g.id;
  r.gpu_name = g.name;
  r.count = choice.count;
  r.memory = *choice.memory;
  r.fits = true;
  r.quality = choice.workload.optimizer != d.original.optimizer ? QualityImpact::numerics : QualityImpact::none;
  r.gradient_accumulation = std::max(1, d.original.micro_batch / std::max(1, choice.workload.micro_batch));
  const Throughput before = estimate_throughput(model, d.original, g, d.count);
  if (before.samples_per_s > 0 && choice.throughput.samples_per_s > 0) {
    r.time_factor = before.samples_per_s / choice.throughput.samples_per_s;
    r.gpu_hours_factor = r.time_factor * choice.count / std::max(1, d.count);
  }
  auto pos = std::find_if(d.remedies.begin(), d.remedies.end(),
                          [&](const Remedy& x) { return int(x.quality) > int(r.quality); });
  d.remedies.insert(pos, std::move(r));
}

GpuResult evaluate(Evaluator& e, size_t gpu_index) {
  const Request& q = e.request();
  const Gpu& g = e.catalog().gpus[gpu_index];
  GpuResult r;
  r.id = g.id;
  // With a given count, check that count only; otherwise search upward.
  const int first = q.hardware ? q.hardware->count : std::max(1, q.workload.gpus);
  const int last = q.hardware ? q.hardware->count : kMaxGpusSearched;
  const FitChoice* choice = nullptr;
  for (int n = first; n <= std::max(first, last); n = next_gpu_count(n)) {
    choice = &e.fit(gpu_index, n, false);
    if (choice->fit != Fit::no) break;
    if (q.hardware) break;
  }
  r.count = choice->count;
  r.memory = *choice->memory;
  r.engine_pool_bytes = engine_pool_bytes(choice->workload, g.memory_bytes);
  r.fits = choice->fit != Fit::no;
  r.fit = fit_name(choice->fit);
  r.throughput = choice->throughput;
  r.hours = choice->hours;
  // Reverse questions at the count shown: how far batch and length can go.
  r.limits = e.limits_for(*choice, usable_capacity_bytes(choice->workload, g.memory_bytes));
  return r;
}

// Per-GPU micro-batches above this are beyond every published recipe for
// the catalog's models (ResNet-50's large-batch runs use 32-256 per GPU,
// Goyal et al. 2017; LLM fine-tunes 1-64): such a figure is more likely the
// dataset size or the global batch typed in the wrong field.
constexpr int kAbsurdMicroBatch = 4096;

// Inputs the mode ignores, or that are out of any sensible range: said, not
// planned in silence.
void input_warnings(const Request& q, Response& out) {
  const Workload& w = q.workload;
  if (w.mode == Mode::infer) {
    std::vector<std::string> ignored;
    // An optimizer the request names (any, the default's spelling too); the
    // default the reader filled in is nobody's input.
    if (w.optimizer_requested) ignored.push_back("workload.optimizer");
    if (w.grad_checkpointing) ignored.push_back("workload.grad_checkpointing");
    if (w.cpu_offload) ignored.push_back("workload.cpu_offload");
    if (w.grad_accumulation > 1) ignored.push_back("workload.grad_accumulation");
    for (const auto& field : ignored)
      out.warnings.push_back({"input_ignored", message(q.locale, "warn.input_ignored", {field})});
  }
  if (w.micro_batch > kAbsurdMicroBatch)
    out.warnings.push_back({"micro_batch_absurd", message(q.locale, "warn.micro_batch_absurd",
                                                          {std::to_string(w.micro_batch), "512"})});
}

}  // namespace

namespace {

DisplayRates display_rates(const Request& q, const Catalog& catalog) {
  DisplayRates d;
  d.currency = q.prefs.display_currency.empty() ? "CNY" : q.prefs.display_currency;
  const bool rate = catalog.fx.cny_per_usd > 0 && std::isfinite(catalog.fx.cny_per_usd);
  if (rate) d.as_of = catalog.fx.as_of;
  for (const char* c : {"CNY", "USD"})
    if (c == d.currency || rate) d.rates.emplace_back(c, convert_currency(1, c, d.currency, catalog.fx));
  return d;
}

Response plan_request(const Request& q, const Catalog& catalog);

}  // namespace

Response plan(const Request& q, const Catalog& catalog) {
  // Scientific computing has no network to size: its own path (gpuplan/science.h).
  Response out = q.workload.mode == Mode::science ? plan_science(q, catalog) : plan_request(q, catalog);
  out.display = display_rates(q, catalog);
  return out;
}

namespace {

Response plan_request(const Request& q, const Catalog& catalog) {
  Response out;
  Evaluator e(q, catalog);
  out.locale = q.locale;
  for (const auto& w : q.warnings) out.warnings.push_back({w.code, w.message});  // found while reading (params_mismatch)
  input_warnings(q, out);
  out.memory = estimate_memory(q.model, q.workload);
  out.recommended_bytes = out.memory.total_bytes * (1 + out.headroom);
  const std::string currency = q.budget ? q.budget->currency : "CNY";
  const std::vector<PricedOffer> offers = q.data ? priced_offers(q, catalog, currency) : std::vector<PricedOffer>{};
  const double checkpoint = q.data ? checkpoint_bytes(q) : 0;
  const double disk = q.data ? storage_gb(q, checkpoint) : 0;
  for (size_t i = 0; i < catalog.gpus.size(); ++i)
    if (!q.hardware || catalog.gpus[i].id == q.hardware->gpu) {
      out.gpus.push_back(evaluate(e, i));
      const FitChoice& choice = e.fit(i, out.gpus.back().count, false);
      out.gpus.back().cost = cheapest_run(e, i, choice, offers, checkpoint, disk);
    }
  // With a chosen card: the OOM doctor (gpuplan/oom_doctor.h) on the workload
  // as gpus[] runs it at that count (the same sharding), so the two agree.
  if (q.hardware) {
    const Gpu& g = *catalog.find_gpu(q.hardware->gpu);
    const size_t gi = size_t(&g - catalog.gpus.data());
    out.oom_doctor.emplace(
        diagnose(q.model, e.fit(gi, q.hardware->count, false).workload, g, q.hardware->count, catalog));
    add_plan_remedy(*out.oom_doctor, e.fit(gi, q.hardware->count, true), g, q.model);
  }
  if (!q.stages.empty()) {
    out.plan.emplace(plan_stages(e));  // emplace: a fresh response has none to assign over
    for (const auto& w : out.plan->warnings) out.warnings.push_back({w.code, w.message});
  }
  return out;
}

}  // namespace

}  // namespace gpuplan
