// Run here or rent (docs/api.md, "Lab settings: how the planner weighs them"):
// the lab's own cards and its campus centre beside the rental offers. The
// lab's cards enter the search as offers of one more platform, "lab", priced
// at their electricity (or 0), so every count, packing and topology rule of a
// rented machine applies to them too; their candidates then get the wait and
// the share of the week a student holds them, and are kept out of the
// planner's rental choice: this file weighs them against the rental it chose.
#include <algorithm>
#include <cmath>
#include <limits>

#include "text/names.h"
#include "plan/planner_internal.h"

namespace gpuplan::planner_detail {
namespace {

constexpr double kHoursPerWeek = 168;

// The texts of this file, both languages side by side. {0}, {1}... as in messages.h.
struct LabText {
  std::string_view code, zh, en;
};
constexpr LabText kLabTexts[] = {
    {"lab", "在实验室的 {0} × {1} 上：等约 {2} + 跑 {3}，{4}", "On the lab's {0} × {1}: wait about {2} + run {3}, {4}"},
    {"lab.now", "在实验室的 {0} × {1} 上：现在就能用，跑 {2}，{3}", "On the lab's {0} × {1}: free now, run {2}, {3}"},
    {"campus", "在校级算力平台的 {0} × {1} 上：排队约 {2} + 跑 {3}，{4}",
     "On the campus centre's {0} × {1}: queue about {2} + run {3}, {4}"},
    {"rent", "租 {0} × {1}（{2}）：约 {3} 完成，{4}", "renting {0} × {1} ({2}): done in about {3}, {4}"},
    {"waiting", "（你的等待按 {0}/小时 计：多等的 {1} 合 {2}）", " (your waiting at {0}/hour: the {1} longer counts as {2})"},
    {"sep", "；", "; "},
    {"end", "。", "."},
    {"pick.lab", "所以在实验室的卡上跑。", "So it runs on the lab's cards."},
    {"pick.campus", "所以交给校级算力平台。", "So it goes to the campus centre."},
    {"pick.rent", "所以租用。", "So it is rented."},
    {"late", "实验室的卡赶不上 {0}的截止日期（等 + 跑约 {1}），所以租用。",
     "The lab's cards cannot meet the {0} deadline (wait + run about {1}), so it is rented."},
    {"why", "{0}：{1} × {2}（实验室自有），每次约 {3}，装得下（约 {4} GiB，另留余量）。",
     "{0}: {1} × {2} (the lab's own), about {3} per run, holding the job (about {4} GiB plus headroom)."},
    {"why.power", "电费按 {0}/kWh × 每卡 {1} W 计（{2}）：{3}。", "Power at {0}/kWh × {1} W a card ({2}): {3}."},
    {"why.week", "每周约能用 {0} 小时，墙钟时间按此拉长。", "About {0} hours a week are free, so the wall time stretches."},
};

std::string lab_text(Locale l, std::string_view code, std::initializer_list<std::string_view> args = {}) {
  for (const auto& t : kLabTexts)
    if (t.code == code) return fill_template(l == Locale::en ? t.en : t.zh, args);
  return std::string(code);
}

}  // namespace

bool Planner::on_lab(const Candidate& c) const { return offers_[size_t(c.offer)].platform->id == "lab"; }

// The lab's cards as offers, one per group of lab.gpus: each group's platform
// (built when the request was read) carries its machine size and whether its
// machines join. The price is the power the cards draw at the tariff when the
// lab charges electricity (card TDP, catalog/gpus.json; tariff, catalog/meta.json
// or lab.electricity_per_kwh), else 0.
void Planner::add_lab_offers() {
  if (!q_.lab) return;
  const Lab& lab = *q_.lab;
  for (const LabGpus& g : lab.gpus) {
    const Gpu* gpu = c_.find_gpu(g.gpu);
    if (!gpu || (q_.hardware && q_.hardware->gpu != g.gpu)) continue;
    PricedOffer o;
    o.platform = &g.platform;
    o.gpu = size_t(gpu - c_.gpus.data());
    o.billing = Billing::on_demand;
    if (lab.electricity) {
      const double per_kwh = lab.electricity_per_kwh >= 0
                                 ? convert_currency(lab.electricity_per_kwh, lab.electricity_currency, currency_, c_.fx)
                                 : convert_currency(c_.electricity.per_kwh, c_.electricity.currency, currency_, c_.fx);
      o.price = gpu->tdp_watts / 1000 * per_kwh;
    }
    o.user = true;  // a price of 0 is a price here
    // What the stage's `offer` says (contract v1.2): the lab's own, dated by its settings.
    o.ref.platform = "lab";
    o.ref.gpu = g.gpu;
    o.ref.as_of = lab.written;
    o.ref.confidence = "quote";
    o.ref.source = "lab";
    offers_.push_back(o);
  }
}

// The lab's candidates get their group's wait and share of the week, and
// lose those that need more cards at once than the group has; the campus
// centre's (with lab.campus) get its queue and lose those past its per-user
// limits. Both stay out of the rental choice (Planner::run): weigh_lab
// decides between them and the rental.
void Planner::lab_candidates(const StageRequest& s, std::vector<Candidate>& out) {
  if (!q_.lab) return;
  const Lab& lab = *q_.lab;
  const bool debug = s.stage == Stage::debug;
  const int runs = std::max(1, s.runs);
  std::erase_if(out, [&](Candidate& c) {
    const Platform& p = *offers_[size_t(c.offer)].platform;
    // Cards held at once: debug sessions run one after another.
    const int at_once = debug ? c.gpus_per_run : c.separate ? c.gpus_per_run * c.instances : c.gpus_per_run * c.parallel;
    if (p.id == "lab") {
      const LabGpus* group = nullptr;
      for (const LabGpus& g : lab.gpus)
        if (&g.platform == &p) group = &g;
      if (!group || at_once > group->count) return true;
      c.wait_hours = group->wait_hours;
      c.wall_hours = group->wait_hours + c.wall_hours * kHoursPerWeek / group->hours_per_week;
    } else if (p.kind == PlatformKind::campus && lab.campus) {
      const LabCampus& campus = *lab.campus;
      if (campus.max_gpus > 0 && at_once > campus.max_gpus) return true;
      if (campus.max_hours > 0 && c.run_hours > campus.max_hours) return true;
      c.wait_hours = campus.wait_hours;
      // Each debug session queues again; a stage's runs queue once.
      c.wall_hours += (debug ? runs : 1) * campus.wait_hours;
    } else {
      return false;
    }
    return false;
  });
}

void Planner::lab_option(const Candidate& c, StageOption& s) const {
  s.wait_hours = c.wait_hours;
  if (!q_.lab || !q_.lab->electricity || !on_lab(c)) return;
  const Lab& lab = *q_.lab;
  const PricedOffer& o = offers_[size_t(c.offer)];
  ElectricityCharge e;
  e.watts_per_gpu = c_.gpus[o.gpu].tdp_watts;
  e.kwh = c.billed_hours * c.gpus_per_run * c.parallel * e.watts_per_gpu / 1000;
  e.per_kwh = e.watts_per_gpu > 0 ? o.price / (e.watts_per_gpu / 1000) : 0;
  e.currency = currency_;
  if (lab.electricity_per_kwh >= 0) {
    e.as_of = lab.written;
    e.source = "lab";
    e.confidence = "user";
  } else {
    e.as_of = c_.electricity.as_of;
    e.source = shown_source(c_.electricity.source);  // as the page may show it, the same in its catalog copy
    e.confidence = c_.electricity.confidence;
  }
  s.electricity = e;
}

// The choice (docs/api.md, "Run here or rent"): among the lab's candidates
// and the campus centre's, those meeting the deadline on their own (wait and
// run within it), the one of least cost plus waiting; it replaces the rental
// the planner chose when that sum is no larger than the rental's. Waiting is
// priced at prefs.time_value_per_hour on the wall time beyond the stage's
// fastest option, for every option alike, so with no time value the lab's
// free cards win whenever they hold the job and meet the deadline.
bool Planner::lab_owned(const Candidate& c) const {
  if (!q_.lab) return false;
  const Platform& p = *offers_[size_t(c.offer)].platform;
  return p.id == "lab" || (p.kind == PlatformKind::campus && q_.lab->campus);
}

void Planner::weigh_lab(const StageRequest& s, const std::vector<Candidate>& all, StagePlan& out, Candidate& chosen) {
  if (!q_.lab || !out.feasible) return;
  const Candidate rental = chosen;
  const bool waiting_rental = lab_owned(rental);  // nothing but the lab's options fit
  double fastest = std::numeric_limits<double>::infinity();
  for (const auto& c : all) fastest = std::min(fastest, c.wall_hours);
  const double value = q_.prefs.time_value_per_hour;
  auto waiting = [&](const Candidate& c) { return value * std::max(0.0, c.wall_hours - fastest); };
  auto effective = [&](const Candidate& c) { return c.cost + waiting(c); };
  const double deadline = q_.prefs.deadline_days * 24;
  const Candidate* best = nullptr;
  const Candidate* late = nullptr;  // the best waiting option, deadline aside (to say why it lost)
  for (const auto& c : all) {
    if (!lab_owned(c)) continue;
    if (!late || effective(c) < effective(*late) - 1e-9) late = &c;
    if (deadline > 0 && c.wall_hours > deadline + 1e-9) continue;
    if (!best || effective(c) < effective(*best) - 1e-9 ||
        (std::fabs(effective(c) - effective(*best)) <= 1e-9 && c.wall_hours < best->wall_hours))
      best = &c;
  }
  // A tight fit gives way to a comfortable one costing (waiting included) up
  // to kTieFraction more, as in the rental choice's tie band (planner_internal.h).
  if (best && best->tight) {
    const Candidate* easy = nullptr;
    for (const auto& c : all)
      if (lab_owned(c) && !c.tight && !(deadline > 0 && c.wall_hours > deadline + 1e-9) &&
          effective(c) <= effective(*best) * (1 + kTieFraction) + 1e-9 && (!easy || effective(c) < effective(*easy)))
        easy = &c;
    if (easy) best = easy;
  }
  if (!late) return;
  const Locale l = q_.locale;
  // "¥0", "¥30", "¥52.93": no ".00" on a whole amount.
  auto price = [&](double x) {
    std::string m = money(x);
    if (m.size() > 3 && m.compare(m.size() - 3, 3, ".00") == 0) m.resize(m.size() - 3);
    return (currency_ == "USD" ? "$" : "¥") + m;
  };
  auto describe = [&](const Candidate& c) {
    const PricedOffer& o = offers_[size_t(c.offer)];
    const std::string n = std::to_string(c.gpus_per_run * (c.separate && s.stage != Stage::debug ? c.instances : c.parallel));
    const std::string gpu = c_.gpus[o.gpu].name;
    const std::string run = duration_text(std::max(0.0, c.wall_hours - c.wait_hours), l);
    if (o.platform->id == "lab" && c.wait_hours <= 0) return lab_text(l, "lab.now", {n, gpu, run, price(c.cost)});
    return lab_text(l, o.platform->id == "lab" ? "lab" : "campus",
                    {n, gpu, duration_text(c.wait_hours, l), run, price(c.cost)});
  };
  const Candidate& shown = best ? *best : *late;
  std::string text = describe(shown);
  if (!waiting_rental) {
    const PricedOffer& ro = offers_[size_t(rental.offer)];
    text += lab_text(l, "sep") +
            lab_text(l, "rent", {std::to_string(rental.gpus_per_run * rental.parallel), c_.gpus[ro.gpu].name,
                                 ro.platform->name.in(l), duration_text(rental.wall_hours, l), price(rental.cost)});
    // The waiting that tells them apart: the lab's wall time beyond the rental's.
    const double longer = shown.wall_hours - rental.wall_hours;
    if (value > 0 && longer > 0)
      text += lab_text(l, "waiting", {price(value), duration_text(longer, l), price(value * longer)});
  }
  text += lab_text(l, "end") + " ";
  if (!best) {
    text = describe(*late) + lab_text(l, "end") + " " +
           lab_text(l, "late", {duration_text(deadline, l), duration_text(late->wall_hours, l)}) + " ";
    out.why = text + out.why;
    return;
  }
  const bool take = waiting_rental || effective(*best) <= effective(rental) + 1e-9;
  const bool lab = offers_[size_t(best->offer)].platform->id == "lab";
  text += lab_text(l, take ? (lab ? "pick.lab" : "pick.campus") : "pick.rent") + " ";
  out.why = text + out.why;
  if (!take) return;
  chosen = *best;
  out.chosen = to_option(*best);
}

// The reason of a stage on the lab's cards, in place of a rental's.
std::string Planner::lab_why(const StagePlan& sp, const Candidate& c) {
  const StageOption& o = sp.chosen;
  const PricedOffer& offer = offers_[size_t(c.offer)];
  const Locale l = q_.locale;
  std::string out = lab_text(l, "why", {stage_text(sp.stage), std::to_string(o.gpus_per_run), c_.gpus[offer.gpu].name,
                                         run_time_text(o.run_hours, l), fixed(o.memory_bytes / kGiB, 1)});
  for (const LabGpus& g : q_.lab->gpus)
    if (&g.platform == offer.platform && g.hours_per_week < kHoursPerWeek) {
      out += ' ';
      out += lab_text(l, "why.week", {hours_text(g.hours_per_week)});
    }
  if (o.electricity) {
    const ElectricityCharge& e = *o.electricity;
    std::string where;
    if (e.source == "lab") {
      where = l == Locale::en ? "the lab's rate" : "实验室给的电价";
    } else {
      where = l == Locale::en ? "tariff of " : "电价取自 ";
      where += e.as_of;
    }
    std::string cost = money(o.cost);
    cost += ' ';
    cost += currency_;
    out += ' ';
    out += lab_text(l, "why.power", {money(e.per_kwh), fixed(e.watts_per_gpu, 0), where, cost});
  }
  return out;
}

}  // namespace gpuplan::planner_detail
