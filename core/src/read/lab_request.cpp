// The lab's settings (docs/api.md, "Lab settings"): its cards, its campus
// centre, its quotes and the defaults its wiki page gives every student.
#include "read/lab_request.h"

#include <cmath>
#include <utility>

#include "text/field_words.h"
#include "text/messages.h"

namespace gpuplan {
namespace {

constexpr std::string_view kLabGpuFields[] = {"gpu", "count", "machines", "wait_hours", "hours_per_week"};
constexpr std::string_view kLabCampusFields[] = {"wait_hours", "max_gpus", "max_hours", "prices", "currency"};
constexpr std::string_view kCampusPriceFields[] = {"gpu", "per_gpu_hour", "currency", "billing"};
constexpr std::string_view kLabPriceFields[] = {"platform", "gpu", "per_gpu_hour", "currency", "billing"};
constexpr std::string_view kLabBudgetFields[] = {"amount", "currency"};

// The reasons this reader gives, in both languages side by side.
std::string why(Locale l, std::string_view zh, std::string_view en) {
  return std::string(l == Locale::en ? en : zh);
}

std::string text(const Reader& r, std::string_view key, size_t max_bytes) {
  std::string s = r.string(key).value_or("");
  if (s.size() > max_bytes) {
    Locale l = r.locale();
    std::string p = r.child_path(key);
    fail(l, "out_of_range", p,
         message(l, "out_of_range", {field_words(l, p), "0", std::to_string(max_bytes) + (l == Locale::en ? " bytes" : " 字节"),
                                     std::to_string(s.size())}));
    return {};
  }
  return s;
}

std::string currency_of(const Reader& r, const std::string& fallback) {
  if (!r.choice("currency", {"CNY", "USD"})) return fallback;
  return r.json()["currency"].get<std::string>();
}

// The card's id, once the catalog knows it (empty when it does not: the error).
std::string gpu_of(const Reader& r, const Catalog& catalog) {
  const std::string id = r.string("gpu").value_or("");
  if (!catalog.find_gpu(id)) {
    Locale l = r.locale();
    std::string p = r.child_path("gpu");
    fail(l, "unknown_gpu", p, message(l, "unknown_gpu", {field_words(l, p), describe(r.json().value("gpu", nlohmann::json()))}));
    return {};
  }
  return id;
}

// The cards as a platform: cards per machine as the machine size, joined
// like a rented cluster's machines (offers.cpp, rentable: not GeForce), at
// no price and billed by the second (the lab's cards have no billing hour).
Platform lab_platform(const LabGpus& g) {
  Platform p;
  p.id = "lab";
  p.name = Text{"实验室自有显卡", "the lab's own cards"};
  p.kind = PlatformKind::campus;
  p.region = "CN";
  p.currency = "CNY";
  p.billing_granularity_seconds = 1;
  p.machine_max_gpus = std::max(1, g.count / std::max(1, g.machines));
  p.machines_joinable = g.machines > 1;
  p.queue_risk = "low";
  return p;
}

LabGpus read_lab_gpus(const Reader& r, const Catalog& catalog) {
  Locale l = r.locale();
  LabGpus g;
  g.gpu = gpu_of(r, catalog);
  if (auto v = r.integer("count", 1, kMaxGpus)) g.count = *v;
  if (auto v = r.integer("machines", 1, kMaxGpus)) g.machines = *v;
  if (g.machines > g.count || g.count % g.machines != 0) {
    std::string p = r.child_path("machines");
    fail(l, "inconsistent", p,
         message(l, "inconsistent",
                 {field_words(l, p), why(l, "卡数 " + std::to_string(g.count) + " 应能平均分到 " + std::to_string(g.machines) + " 台机器上",
                         std::to_string(g.count) + " cards must spread evenly over " + std::to_string(g.machines) +
                             " machines")}));
    return g;
  }
  if (auto v = r.number("wait_hours", 0, 24 * 3650)) g.wait_hours = *v;
  if (auto v = r.number("hours_per_week", 1, 168)) g.hours_per_week = *v;
  g.platform = lab_platform(g);
  return g;
}

UserPrice read_quote(const Reader& r, const Catalog& catalog, std::string platform, const std::string& currency) {
  UserPrice up;
  up.platform = std::move(platform);
  if (up.platform.empty()) {  // a rental quote names its platform; a campus quote is the campus template's
    up.platform = r.string("platform").value_or("");
    if (!catalog.find_platform(up.platform)) {
      Locale l = r.locale();
      std::string p = r.child_path("platform");
      fail(l, "unknown_platform", p,
           message(l, "unknown_platform", {field_words(l, p), describe(r.json().value("platform", nlohmann::json()))}));
      return up;
    }
  }
  up.gpu = gpu_of(r, catalog);
  if (auto v = r.number("per_gpu_hour", 0, 1e6)) up.per_gpu_hour = *v;
  up.currency = currency_of(r, currency);
  if (auto v = r.spelled("billing", kBillingSpellings)) up.billing = *v;
  up.lab = true;
  return up;
}

}  // namespace

void read_lab(const Reader& r, const Reader& root, Request& q, const Catalog& catalog) {
  Locale l = r.locale();
  Lab lab;
  // A settings version this build does not know is refused whole, never read in part.
  r.integer("version", 1, 1);
  lab.name = text(r, "name", 200);
  lab.written = text(r, "written", 200);
  lab.notes = text(r, "notes", kMaxLabTextBytes);
  if (const auto* models = r.array("models", kMaxLabModels)) {
    for (size_t i = 0; i < models->size(); ++i) {
      const auto& id = (*models)[i];
      std::string p = r.child_path("models") + "[" + std::to_string(i) + "]";
      if (!id.is_string() || !catalog.find_model(id.get<std::string>())) {
        fail(l, "unknown_preset", p, message(l, "unknown_preset", {field_words(l, p), describe(id)}));
        return;
      }
      lab.models.push_back(id.get<std::string>());
    }
  }
  if (const auto* gpus = r.array("gpus", kMaxLabGpuGroups))
    for (size_t i = 0; i < gpus->size() && !read_failed(); ++i)
      lab.gpus.push_back(read_lab_gpus(element(*gpus, i, r.child_path("gpus"), l, kLabGpuFields), catalog));
  std::vector<UserPrice> quotes;
  if (auto c = r.object("campus", kLabCampusFields)) {
    LabCampus campus;
    if (auto v = c->number("wait_hours", 0, 24 * 3650)) campus.wait_hours = *v;
    if (auto v = c->integer("max_gpus", 1, kMaxGpus)) campus.max_gpus = *v;
    if (auto v = c->number("max_hours", 0.1, 24 * 3650)) campus.max_hours = *v;
    const std::string currency = currency_of(*c, "CNY");
    if (const auto* prices = c->array("prices", kMaxPrices))
      for (size_t i = 0; i < prices->size() && !read_failed(); ++i)
        quotes.push_back(read_quote(element(*prices, i, c->child_path("prices"), l, kCampusPriceFields), catalog,
                                    "campus", currency));
    lab.campus = campus;
  }
  if (const auto* prices = r.array("prices", kMaxPrices))
    for (size_t i = 0; i < prices->size() && !read_failed(); ++i) {
      Reader pr = element(*prices, i, r.child_path("prices"), l, kLabPriceFields);
      if (!pr.has("platform") && !read_failed()) {
        std::string p = pr.child_path("platform");
        fail(l, "missing_field", p,
             message(l, "missing_field", {field_words(l, p), why(l, "报价要说明是哪个平台的", "a quote names its platform")}));
        return;
      }
      quotes.push_back(read_quote(pr, catalog, "", "CNY"));
    }
  if (q.prices.size() + quotes.size() > kMaxPrices) {
    std::string p = r.child_path("prices");
    fail(l, "out_of_range", p,
         message(l, "out_of_range.items", {field_words(l, p), std::to_string(kMaxPrices), std::to_string(q.prices.size() + quotes.size())}));
    return;
  }
  // A lab quote is dated by the settings it was written in.
  for (UserPrice& up : quotes) up.as_of = lab.written;
  // The student's own quotes come first: offers.cpp keeps the first of a
  // (platform, card, billing), so a student's quote wins over the lab's.
  q.prices.insert(q.prices.end(), quotes.begin(), quotes.end());
  if (auto b = r.object("budget", kLabBudgetFields)) {
    Budget budget;
    if (auto v = b->number("amount", 0, 1e12)) budget.amount = *v;
    budget.currency = currency_of(*b, "CNY");
    if (!q.budget) q.budget = std::move(budget);
  }
  if (auto v = r.spelled("scope", kScopeSpellings)) {
    const auto prefs = root.json().find("prefs");
    if (prefs == root.json().end() || !prefs->is_object() || !prefs->contains("scope")) q.prefs.scope = *v;
  }
  if (auto v = r.boolean("electricity")) lab.electricity = *v;
  if (auto v = r.number("electricity_per_kwh", 0, 100)) lab.electricity_per_kwh = *v;
  if (r.choice("electricity_currency", {"CNY", "USD"}))
    lab.electricity_currency = r.json()["electricity_currency"].get<std::string>();
  q.lab = std::move(lab);
}

}  // namespace gpuplan
