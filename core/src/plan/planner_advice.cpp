// The advice the planner writes around its choice: the reason for each
// stage, education credits, rent or buy, group rental, the warnings and the
// budget changes. The search that makes the choice: planner_search.cpp.
// One unit past 500 lines: each part reads the same chosen plan and the
// Planner's state (planner_internal.h), and writes it in the same order.
#include <algorithm>
#include <cmath>
#include <utility>

#include "gpuplan/memory.h"
#include "text/names.h"
#include "text/order.h"
#include "plan/planner_internal.h"

namespace gpuplan::planner_detail {

// ---------------------------------------------------------------- texts

std::string duration_text(double hours, Locale locale) {
  if (!(hours > 0) || !std::isfinite(hours) || hours * 60 < 1) return message(locale, "duration.under_a_minute");
  if (hours >= 48) return message(locale, "duration.days", {fixed(hours / 24, hours >= 240 ? 0 : 1)});
  if (hours >= 1) return message(locale, "duration.hours", {hours_text(hours)});
  return message(locale, "duration.minutes", {fixed(hours * 60, 0)});
}

// One run's time in a stage's reason: hours from one up ("about 35 h per
// run", long runs stay in hours to compare with the 72 h rule beside them),
// then whole minutes, at least one, so a short run never reads "0.0 h".
std::string run_time_text(double hours, Locale locale) {
  if (std::isfinite(hours) && hours >= 1) return message(locale, "duration.hours", {hours_text(hours)});
  const double minutes = std::isfinite(hours) && hours > 0 ? std::round(hours * 60) : 0;
  return message(locale, "duration.minutes", {fixed(std::max(1.0, minutes), 0)});
}

// A sharding as DeepSpeed and PyTorch name it in their documentation, for the
// reasons a student reads (the request's spelling, "zero3", is for the API).
std::string sharding_label(Sharding s) {
  switch (s) {
    case Sharding::ddp: return "DDP";
    case Sharding::zero1: return "ZeRO-1";
    case Sharding::zero2: return "ZeRO-2";
    case Sharding::zero3: return "ZeRO-3 / FSDP";
    // Several cards with no sharding named run data-parallel, a full copy on
    // each (memory.cpp and throughput.cpp settle it as DDP).
    case Sharding::none: return "DDP";
    default: return std::string(name_of(s));
  }
}

std::string gb_text(double gb) {
  if (gb >= 10) return fixed(gb, 0);
  if (gb >= 1) return fixed(gb, 1);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", std::isfinite(gb) && gb > 0 ? gb : 0.0);
  return buf;
}

// ---------------------------------------------------------------- why

std::string Planner::why(const StagePlan& sp, const Candidate& c) {
  const StageOption& o = sp.chosen;
  const PricedOffer& offer = offers_[size_t(c.offer)];
  const Gpu& gpu = c_.gpus[offer.gpu];
  const std::string platform = offer.platform->name.in(q_.locale);
  std::string out;
  auto add = [&](std::string_view code, std::initializer_list<std::string_view> args) {
    if (!out.empty()) out += " ";
    out += msg(code, args);
  };
  const FitChoice& choice = choice_of(c);
  const std::string need_gib = fixed(o.memory_bytes / kGiB, 1);
  switch (sp.stage) {
    case Stage::debug:
      add("plan.why.debug", {percent(sp.data_fraction), gpu.name, platform, std::to_string(sp.runs), run_time_text(o.run_hours, q_.locale)});
      break;
    case Stage::formal:
      add("plan.why.formal", {gpu.name, std::to_string(o.gpus_per_run), platform, run_time_text(o.run_hours, q_.locale), need_gib});
      break;
    case Stage::revision:
      add("plan.why.revision", {gpu.name, std::to_string(o.gpus_per_run), platform, run_time_text(o.run_hours, q_.locale), need_gib});
      break;
  }
  const int fit = c.fewest;
  if (o.gpus_per_run > fit) {
    double one = e_.fit(offer.gpu, fit, c.changes).hours * sp.data_fraction;
    // More cards than hold the job: cheaper in all (the fewest hold it only
    // with slow changes), or faster for a cost the choice rule accepts.
    const double one_cost_hours = one * fit, many_hours = o.run_hours * o.gpus_per_run;
    add(many_hours < one_cost_hours ? "plan.why.multi_gpu_cheaper" : "plan.why.multi_gpu",
        {run_time_text(one, q_.locale), std::to_string(o.gpus_per_run), percent(choice.throughput.scaling_efficiency)});
  }
  if (o.gpus_per_run > 1 && q_.workload.mode == Mode::infer) {
    // Inference has no gradients to shard: the cards either split the
    // weights or each hold a copy (throughput.cpp, "How a generating model
    // spans several GPUs").
    add(o.sharding != Sharding::zero3            ? "plan.why.infer_replicas"
        : tensor_parallel_decode(q_.workload) ? "plan.why.infer_tensor_parallel"
                                              : "plan.why.infer_layer_split",
        {std::to_string(o.gpus_per_run)});
  } else if (o.gpus_per_run > 1) {
    add(q_.workload.sharding_requested ? "plan.why.sharding_requested" : "plan.why.sharding",
        {std::to_string(o.gpus_per_run), sharding_label(o.sharding)});
  }
  if (!o.workload_changes.empty()) {
    std::string list;
    const std::string sep = q_.locale == Locale::en ? "; " : "；";
    const Workload& w = choice.workload;
    auto item = [&](const std::string& text) { list += (list.empty() ? "" : sep) + text; };
    if (w.grad_checkpointing && !q_.workload.grad_checkpointing) item(msg("plan.why.change.grad_checkpointing"));
    if (w.optimizer != q_.workload.optimizer) item(msg("plan.why.change.optimizer"));
    if (w.loss != q_.workload.loss) item(msg("plan.why.change.loss"));
    if (w.micro_batch != q_.workload.micro_batch)
      item(msg("plan.why.change.micro_batch", {std::to_string(w.micro_batch), std::to_string(w.grad_accumulation)}));
    if (w.cpu_offload && !q_.workload.cpu_offload) item(msg("plan.why.change.cpu_offload"));
    add("plan.why.changes", {list});
  }
  if (o.tight_memory) add("plan.why.tight", {});
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
  // A package the search chose is the cheaper for this use; one the user
  // forced may not be (then billing_warnings says what it costs more).
  if (is_package(o.billing))
    add(q_.prefs.billing == name_of(o.billing) ? "plan.why.package_forced" : "plan.why.package", {billing_text(name_of(o.billing))});
  if (o.education_discount) add("plan.why.education", {});
  // The instance's CPU, not the card, sets the pace (estimate/data_loader.h).
  if (c.loader_vcpus_needed > 0)
    add("plan.why.data_loader_bound", {std::to_string(c.loader_vcpus_needed), gpu.name, platform, std::to_string(c.loader_vcpus)});
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
      sp.chosen.cost_low = std::max(0.0, sp.chosen.cost_low - used);
      sp.chosen.cost_high = std::max(0.0, sp.chosen.cost_high - used);
      credit -= used;
    }
  }
}

// ---------------------------------------------------------------- references

// A lower price the catalog holds for the stage's card but may not plan with
// (a floor, a promotion, a low-confidence figure; contract v1.2): the chosen
// rental priced at it, shown beside the stage and never as its cost.
void Planner::price_references(PlanResult& r) {
  for (size_t i = 0; i < r.stages.size(); ++i) {
    StagePlan& sp = r.stages[i];
    if (!sp.feasible) continue;
    const Candidate& chosen = chosen_[i];
    const PricedOffer& planned = offers_[size_t(chosen.offer)];
    const PricedOffer* best = nullptr;
    double best_cost = 0;
    for (const PricedOffer& ref : references_) {
      if (ref.gpu != planned.gpu || !(ref.price_low < planned.price) ||
          !rentable(ref, c_.gpus[ref.gpu], chosen.gpus_per_run * chosen.parallel))
        continue;
      const double cost = price_rental(offer_terms(ref, PriceEnd::low), chosen.rental).cost - sp.chosen.credit;
      if (cost < sp.chosen.cost && (!best || cost < best_cost)) {
        best = &ref;
        best_cost = cost;
      }
    }
    if (!best) continue;
    PriceReference pr;
    pr.offer = best->ref;
    pr.price_per_gpu_hour = best->price_low;
    pr.cost = std::max(0.0, best_cost);
    const char* kind = best->ref.price_kind == PriceKind::floor   ? "plan.reference.floor"
                       : best->ref.price_kind == PriceKind::promo ? "plan.reference.promo"
                       : best->billing == Billing::spot            ? "plan.reference.spot"
                                                                   : "plan.reference.low";
    pr.message = msg("plan.reference.as_low_as",
                     {money(pr.cost), currency_, best->platform->name.in(q_.locale), msg(kind), money(pr.price_per_gpu_hour),
                      best->ref.as_of});
    sp.reference = pr;
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
    plan.source = shown_source(gpu->purchase->source);  // as the page shows it, as offers' sources are
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
  // The user's rate, else the catalog's sourced default (catalog/meta.json
  // `electricity`: a second-tier residential tariff, docs/catalog.md).
  in.electricity_per_kwh =
      q_.buy && q_.buy->electricity_per_kwh >= 0
          ? convert_currency(q_.buy->electricity_per_kwh, q_.buy->currency, currency_, c_.fx)
          : convert_currency(c_.electricity.per_kwh, c_.electricity.currency, currency_, c_.fx);
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

// Seed 004: several people sharing one 8-GPU machine on a package price
// ("8人合租一台8卡A100的机器，按年付费折算下来每人每天成本可能比按小时租用低60%").
// The saving depends on use: each member needs this plan's GPU-hours H; the
// group's people × H fill the machine's 8 × 720 GPU-hours a month for as many
// whole months as that takes (at least one); each member pays the machine's
// months / people, against H at the cheapest on-demand price. A small group or
// a light use leaves the machine idle, and the saving turns negative: sharing
// then costs more than renting by the hour, and the figure says so.
void Planner::group_rental(PlanResult& r) {
  if (q_.prefs.group_size <= 1) return;
  const StagePlan* main = nullptr;
  for (const auto& sp : r.stages)
    if (sp.feasible && (!main || sp.stage == Stage::formal)) main = &sp;
  if (!main) return;
  // The group chooses between a package and on-demand whatever billing this
  // member's own plan was asked for: the offers without that filter.
  std::vector<PricedOffer> scope = offers_;
  if (!q_.prefs.billing.empty()) {
    Request open = q_;
    open.prefs.billing.clear();
    scope = priced_offers(open, c_, currency_);
  }
  const PricedOffer* package = nullptr;
  const PricedOffer* hourly = nullptr;
  for (const auto& o : scope) {
    if (c_.gpus[o.gpu].id != main->chosen.gpu) continue;
    if (is_package(o.billing) && (!package || o.price < package->price)) package = &o;
    if (o.billing == Billing::on_demand && (!hourly || o.price < hourly->price)) hourly = &o;
  }
  const PricedOffer* rent = package ? package : hourly;
  if (!rent) return;
  // The member's GPU hours in use: billed hours, except that a package's
  // billed hours are whole periods, so there the runs' own hours count.
  double member_gpu_hours = 0;
  for (const auto& sp : r.stages) {
    if (!sp.feasible) continue;
    const StageOption& o = sp.chosen;
    const bool package = is_package(o.billing);
    member_gpu_hours += package ? o.run_hours * sp.runs * o.gpus_per_run : o.hours * o.count;
  }
  if (member_gpu_hours <= 0) return;
  GroupRentalPlan g;
  g.people = q_.prefs.group_size;
  // The machine the platform sells (seed 004's example is an 8-card A100).
  const int machine_gpus = std::max(1, rent->platform->machine_max_gpus);
  g.gpus = machine_gpus;
  g.gpu = main->chosen.gpu;
  g.platform = rent->platform->id;
  g.billing = rent->billing;
  const double machine_month_gpu_hours = double(machine_gpus) * kHoursPerMonth;
  g.group_gpu_hours = g.people * member_gpu_hours;
  g.months = std::max(1.0, std::ceil(g.group_gpu_hours / machine_month_gpu_hours - 1e-9));
  g.utilization = g.group_gpu_hours / (g.months * machine_month_gpu_hours);
  g.machine_per_month = machine_month_cost(offer_terms(*rent), machine_gpus);
  g.per_person_per_month = g.machine_per_month / g.people;
  g.per_person_gpu_hours_per_month = member_gpu_hours / g.months;
  g.hourly_equivalent_per_month = g.per_person_gpu_hours_per_month * (hourly ? hourly->price : rent->price);
  g.saving_fraction = g.hourly_equivalent_per_month > 0 ? 1 - g.per_person_per_month / g.hourly_equivalent_per_month : 0;
  r.group = g;
}

// ---------------------------------------------------------------- warnings

// A warning in the request's locale, the same text once.
void Planner::warn(PlanResult& r, const std::string& code, std::initializer_list<std::string_view> args) const {
  for (const auto& w : r.warnings)
    if (w.code == code) {
      std::string text = message(q_.locale, "plan.warn." + code, args);
      if (w.message == text) return;  // the same warning once
    }
  r.warnings.push_back({code, message(q_.locale, "plan.warn." + code, args)});
}

void Planner::warnings(PlanResult& r) {
  // No data, or data of no size (samples: 0): durations are zero, costs only start-up.
  if (!q_.data || (q_.data->tokens <= 0 && q_.data->samples * q_.data->epochs <= 0)) warn(r, "plan_needs_data", {});
  for (size_t i = 0; i < r.stages.size(); ++i) {
    const StagePlan& sp = r.stages[i];
    if (!sp.feasible) {
      // A stage of 0 runs is simply skipped; one that found no offer because
      // nobody sells the requested billing is billing_warnings' to explain.
      if (sp.runs > 0 && !(offers_.empty() && !q_.prefs.billing.empty())) warn(r, "no_option", {stage_text(sp.stage)});
      continue;
    }
    stage_warnings(r, i);
  }
  if (!r.meets_deadline)
    warn(r, "deadline_missed", {duration_text(r.wall_hours, q_.locale), duration_text(r.deadline_hours, q_.locale)});
  billing_warnings(r);
  // A stage on a campus centre: how its queues are priced.
  for (const auto& sp : r.stages) {
    const Platform* p = sp.feasible ? c_.find_platform(sp.chosen.platform) : nullptr;
    if (p && p->kind == PlatformKind::campus) queue_priority_advice(r, *p);
  }
}

// What a labmate would say about one feasible stage's chosen option: its
// memory, its card's size, package prices, spot, the deadline, the platform.
void Planner::stage_warnings(PlanResult& r, size_t i) {
  const StagePlan& sp = r.stages[i];
  const StageOption& o = sp.chosen;
  const PricedOffer& offer = offers_[size_t(chosen_[i].offer)];
  const Gpu& gpu = c_.gpus[offer.gpu];
  const std::string gpu_name = gpu.name;
  const std::string platform = offer.platform->name.in(q_.locale);
  const double total = o.memory_bytes;  // per GPU, as planned (to_option)
  if (o.tight_memory)
    warn(r, "memory_within_headroom", {gpu_name, fixed(total / kGiB, 1), fixed(gpu.memory_bytes / kGiB, 0),
                                       percent(kDefaultHeadroom)});
  if (o.gpus_per_run == 1 && smallest_catalog_fit_bytes_ > 0 &&
      gpu.memory_bytes >= kRightSizeFactor * smallest_catalog_fit_bytes_)
    warn(r, "big_card_small_job", {gpu_name, fixed(gpu.memory_bytes / kGiB, 0), fixed(total * (1 + kDefaultHeadroom) / kGiB, 1)});
  // Seed 000: "有的平台写着低价，实际是包年折算价".
  const double used = o.hours;
  for (const auto& p : offers_) {
    if (!is_package(p.billing) || p.gpu != offer.gpu || p.price >= o.price_per_gpu_hour || used <= 0) continue;
    double billed = package_billed_hours(used / std::max(1, o.instances), p.billing) * std::max(1, o.instances);
    if (billed < used * 1.5) continue;  // the package is well used: not a trap
    warn(r, "package_price_as_hourly", {p.platform->name.in(q_.locale), gpu_name, money(p.price), r.currency,
                                        billing_text(name_of(p.billing)), hours_text(used), money(p.price * billed / used)});
  }
  // Seed 004 §3.1: a reclaimed spot run is lost unless it resumes from a
  // checkpoint. Every spot plan says so, with the interval it is priced at.
  if (o.billing == Billing::spot && o.spot)
    warn(r, "spot_interruptions", {platform, fixed(o.spot->interruptions_per_hour * 24, 1),
                                   fixed(std::max(1.0, o.spot->checkpoint_interval_hours * 60), 0)});
  if (o.billing == Billing::spot && r.deadline_hours > 0 &&
      (q_.prefs.deadline_days <= 7 || r.wall_hours > 0.5 * r.deadline_hours))
    warn(r, "spot_near_deadline", {duration_text(r.deadline_hours, q_.locale)});
  // Seed 003 on campus centres: "排队周期长、时间不可控". The plan's wall time
  // counts no queue, so a deadline "met" there is met only if the queue is short.
  if (r.deadline_hours > 0 && offer.platform->queue_risk == "high")
    warn(r, "queue_before_deadline", {platform, duration_text(r.deadline_hours, q_.locale)});
  // prefs.scope global under zh-CN: an overseas platform's costs beyond its price.
  if (q_.locale == Locale::zh_CN && offer.platform->currency != "CNY")
    warn(r, "cross_border", {platform, "1 USD = " + fixed(c_.fx.cny_per_usd, 2) + " CNY (" + c_.fx.as_of + ")"});
  // Seed 003: decoding and augmenting ImageNet takes about 12 CPU cores per
  // 3090; an instance with fewer leaves the card waiting (estimate/data_loader.h).
  if (chosen_[i].loader_vcpus_needed > 0)
    warn(r, "data_loader_bound", {platform, std::to_string(chosen_[i].loader_vcpus), gpu_name,
                                  std::to_string(chosen_[i].loader_vcpus_needed)});
  if (sp.upload_hours > kLongUploadHours)
    warn(r, "long_upload", {fixed(q_.prefs.dataset_gb, 0), hours_text(sp.upload_hours), fixed(q_.prefs.upload_mbps, 0)});
  disk_warnings(r, sp, offer);
  if (!offer.platform->priced_by_user && !offer.platform->rules.granularity_seconds)
    warn(r, "billing_granularity_unknown", {platform});
  if (sp.stage == Stage::debug && r.budget && *r.budget > 0 && o.cost > kDebugMaxShare * *r.budget)
    warn(r, "debug_over_share", {percent(o.cost / *r.budget), percent(kDebugMaxShare)});
}

// The stage's disk: billed after the instance is released, or at a price
// the catalog does not know (then with what it could cost).
void Planner::disk_warnings(PlanResult& r, const StagePlan& sp, const PricedOffer& offer) {
  const StageOption& o = sp.chosen;
  const std::string platform = offer.platform->name.in(q_.locale);
  const double disk_gb = storage_gb();
  if (offer.platform->disk_bills_after_release && disk_gb > 0) {
    double per_month = storage_cost(disk_gb, offer.platform->free_storage_gb, offer.storage_per_gb_month, kHoursPerMonth);
    if (per_month > 0) warn(r, "disk_bills_after_release", {platform, gb_text(disk_gb), money(per_month), r.currency});
    else warn(r, "disk_bills_after_release_unpriced", {platform, gb_text(disk_gb)});
  }
  // Unknown is not zero: a disk the catalog has no price for, with what it could cost.
  const Platform& pl = *offer.platform;
  const double billable_gb = disk_gb - pl.free_storage_gb;
  if (!pl.priced_by_user && !pl.rules.disk_per_gb_day && billable_gb > 0) {
    double dearest = 0;  // the dearest disk price the in-scope catalog knows, per GB-month
    for (const Platform& other : c_.platforms)
      if (platform_in_scope(q_, other) && other.rules.disk_per_gb_day)
        dearest = std::max(dearest, convert_currency(other.storage_per_gb_month, other.currency, currency_, c_.fx));
    const double upper = storage_cost(disk_gb, pl.free_storage_gb, dearest, o.wall_hours);
    warn(r, "storage_price_unknown", {platform, gb_text(billable_gb), hours_text(o.wall_hours), money(upper), r.currency,
                                      fixed(dearest, 2)});
  }
}

// ---------------------------------------------------------------- campus queues

// Issue 14, item 6: a campus centre often prices by queue priority, and
// priority costs more (PKU's Weiming-2, a 2018 price list: 4 / 6 / 8 CNY per
// card-hour on its 80 GB cards for low / normal / high priority). When a
// centre is in play (a stage runs there, or the `campus` change is listed),
// the advice quotes the centre's first queue-priority reference rate from the
// catalog with its date, and says which work a low queue suits (debugging and
// ablations that can wait) and when priority pays (a deadline). A centre with
// no such rate gets no advice: the figures are the catalog's, never the code's.
void Planner::queue_priority_advice(PlanResult& r, const Platform& campus) {
  constexpr std::string_view kCode = "campus-queue-priority";
  if (std::any_of(r.advice.begin(), r.advice.end(), [&](const Advice& a) { return a.code == kCode; })) return;
  const auto& rates = campus.reference_rates;
  auto rate = std::find_if(rates.begin(), rates.end(),
                           [](const ReferenceRate& rr) { return rr.priced_by == RatePricedBy::queue_priority; });
  if (rate == rates.end()) return;
  const std::string& name = rate->name.in(q_.locale).empty() ? rate->name.en + rate->name.zh : rate->name.in(q_.locale);
  r.advice.push_back({std::string(kCode), msg("plan.advice.campus_queue_priority",
                                              {name, rate->as_of.substr(0, 4), format_number(rate->per_gpu_hour.low),
                                               format_number(rate->per_gpu_hour.typical),
                                               format_number(rate->per_gpu_hour.high), rate->currency})});
}

// ---------------------------------------------------------------- billing

// Issue 13, "Billing stories that are not true". A requested billing that no
// in-scope offer has is said as such (not blamed on memory); a package the
// user forced is kept, and when it costs more than on-demand for this use the
// warning gives both figures (the on-demand one from the same request planned
// with on-demand billing, by the same rules).
void Planner::billing_warnings(PlanResult& r) {
  if (q_.prefs.billing.empty()) return;
  const bool some_infeasible =
      std::any_of(r.stages.begin(), r.stages.end(), [](const StagePlan& s) { return !s.feasible && s.runs > 0; });
  if (offers_.empty() && some_infeasible) {
    std::string offered;
    const std::string sep = q_.locale == Locale::en ? ", " : "、";
    for (Billing b : billings_in_scope_) offered += (offered.empty() ? "" : sep) + billing_text(name_of(b));
    if (offered.empty()) r.warnings.push_back({"billing_unavailable", msg("plan.warn.billing_unavailable_none")});
    else r.warnings.push_back({"billing_unavailable", msg("plan.warn.billing_unavailable", {billing_text(q_.prefs.billing), offered})});
    return;
  }
  // Every package (daily, weekly, monthly, yearly) against on-demand for the same use.
  const std::optional<Billing> asked = value_of(kBillingSpellings, q_.prefs.billing);
  if (!asked || !is_package(*asked) || some_infeasible) return;
  Request hourly = q_;
  hourly.prefs.billing = name_of(Billing::on_demand);
  Evaluator e(hourly, c_);
  PlanResult alt = Planner(e).run(false);
  const bool alt_feasible = !alt.stages.empty() && std::all_of(alt.stages.begin(), alt.stages.end(), [](const StagePlan& s) {
    return s.feasible || s.runs == 0;
  });
  if (!alt_feasible || r.total_cost <= alt.total_cost * (1 + 1e-9)) return;
  r.warnings.push_back({"package_costs_more", msg("plan.warn.package_costs_more",
                                                  {billing_text(q_.prefs.billing), money(r.total_cost), money(alt.total_cost),
                                                   r.currency, money(r.total_cost - alt.total_cost)})});
}

// ---------------------------------------------------------------- budget

void Planner::budget_changes(PlanResult& r) {
  workload_budget_changes(r);
  const Platform* campus = campus_budget_change(r);
  // The campus change listed: how the centre's queues are priced.
  if (campus && std::any_of(r.changes.begin(), r.changes.end(), [](const BudgetChange& ch) { return ch.code == "campus"; }))
    queue_priority_advice(r, *campus);
  stable_sort_by(r.changes, [](const BudgetChange& a, const BudgetChange& b) { return a.saving > b.saving; });
}

// A change listed when the same request planned with it costs less.
// patch: the request fields the change sets, as the request spells them
// (the merge patch a page applies: contract v1.2 `plan.changes[].patch`).
void Planner::consider_change(PlanResult& r, std::string code, const Request& changed,
                              std::initializer_list<std::string_view> args, std::vector<WorkloadChange> patch) {
  Evaluator e(changed, c_);
  PlanResult alt = Planner(e).run(false);
  bool all_feasible = std::all_of(alt.stages.begin(), alt.stages.end(), [](const StagePlan& s) { return s.feasible; });
  if (!all_feasible || alt.total_cost >= r.total_cost - 1e-9) return;
  BudgetChange ch;
  ch.code = code;
  ch.patch = std::move(patch);
  if (changed.stages.size() == q_.stages.size() &&
      !std::equal(changed.stages.begin(), changed.stages.end(), q_.stages.begin(),
                  [](const StageRequest& a, const StageRequest& b) { return a.runs == b.runs; }))
    ch.stages = changed.stages;
  ch.saving = r.total_cost - alt.total_cost;
  ch.new_total = alt.total_cost;
  ch.message = message(q_.locale, "plan.change." + code, args) + " " +
               msg("plan.change.saving", {money(ch.saving), r.currency, money(ch.new_total)});
  r.changes.push_back(std::move(ch));
}

// The changes to the job and its billing: QLoRA, a smaller micro-batch with
// accumulation, spot, fewer runs.
void Planner::workload_budget_changes(PlanResult& r) {
  const Workload& w = q_.workload;
  if (w.mode == Mode::train && w.method != Method::qlora && q_.model.kind != ModelKind::cnn) {
    Request changed = q_;
    changed.workload.method = Method::qlora;
    consider_change(r, "qlora", changed, {}, {{"workload.method", "\"qlora\""}});
  }
  if (w.micro_batch > 1) {
    Request changed = q_;
    changed.workload.micro_batch = 1;
    changed.workload.grad_accumulation = w.grad_accumulation * w.micro_batch;  // the same effective batch
    consider_change(r, "grad-accumulation", changed, {std::to_string(w.micro_batch)},
                    {{"workload.grad_accumulation", std::to_string(changed.workload.grad_accumulation)},
                     {"workload.micro_batch", "1"}});
  }
  if (q_.prefs.billing != "spot") {
    Request changed = q_;
    changed.prefs.billing = "spot";
    consider_change(r, "spot", changed, {}, {{"prefs.billing", "\"spot\""}});
  }
  bool many_runs = std::any_of(q_.stages.begin(), q_.stages.end(), [](const StageRequest& s) { return s.runs > 1; });
  if (many_runs) {
    Request changed = q_;
    for (auto& s : changed.stages) s.runs = std::max(1, (s.runs + 1) / 2);
    consider_change(r, "fewer-runs", changed, {}, {});
  }
}

// A school or regional computing centre (seed 003): free or nearly so, with
// a queue. Priced when the user gave its rate; otherwise its saving is at
// most the compute of the formal and revision stages. Returns the centre.
const Platform* Planner::campus_budget_change(PlanResult& r) {
  for (const Platform& p : c_.platforms) {
    if (p.kind != PlatformKind::campus) continue;
    bool priced = std::any_of(q_.prices.begin(), q_.prices.end(), [&](const UserPrice& u) { return u.platform == p.id; });
    if (priced) {
      Request changed = q_;
      changed.prefs.platforms = {p.id};
      consider_change(r, "campus", changed, {p.name.in(q_.locale)}, {{"prefs.platforms", "[\"" + p.id + "\"]"}});
      return &p;
    }
    // Issue 20, item 8: the saving is taken from the same total it is
    // subtracted from. The plan's total already has its education credits
    // taken off; with the formal and revision compute free, the credits pay
    // what is left first, so the total falls to max(0, total before
    // credits - compute - credits) and the saving is min(compute, total).
    double compute = 0;
    for (const auto& sp : r.stages)
      if (sp.feasible && sp.stage != Stage::debug) compute += sp.chosen.compute_cost;
    const double saving = std::min(compute, r.total_cost);
    if (saving <= 0) continue;
    BudgetChange ch;
    ch.code = "campus";
    ch.saving = saving;
    ch.new_total = r.total_cost - saving;
    ch.saving_is_upper_bound = true;
    ch.message = msg("plan.change.campus_unpriced", {p.name.in(q_.locale), money(saving), r.currency});
    r.changes.push_back(std::move(ch));
    return &p;
  }
  return nullptr;
}
}  // namespace gpuplan::planner_detail
