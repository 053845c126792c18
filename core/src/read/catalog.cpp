// Catalog parsing and validation. The same code checks the catalog at build
// time (tools/catalog_embed.cpp) and reads it at run time, so a catalog that
// built is a catalog that loads. Field reference: docs/catalog.md.
// One unit past 500 lines for the reason request.cpp is: each object's
// fields and rules stand beside the function that reads them.
#include "gpuplan/catalog.h"

#include <iterator>
#include <optional>
#include <set>
#include <tuple>
#include <string>
#include <utility>

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "estimate/cnn_architecture.h"
#include "read/cnn_architecture_json.h"
#include "read/json_reader.h"
#include "text/messages.h"
#include "gpuplan/pricing.h"
#include "read/vision_json.h"

namespace gpuplan {
namespace {

constexpr Locale kL = Locale::en;  // catalog errors are for maintainers
constexpr size_t kMaxCatalogBytes = 16 << 20;
constexpr int kMaxDepth = 16;

// A broken rule of the catalog, with where and what (for the maintainers),
// recorded as the parse's error (read/json_reader.h); where what follows
// would act on the value that broke it, the function returns an empty value
// at once, as the throw this replaced did, and the parse stops at its next
// read_failed(). The page's module reads only the catalog its build validated with this same
// code: tools/catalog_embed.cpp reads the full catalog, then the very text the
// module embeds under its page profile (catalog_profile_json), every rule with
// its message, and fails the build on a broken one. So there no rule can
// break: the module carries neither the rules' messages nor their checks,
// which the compiler drops as unreachable (GPUPLAN_TRUSTED_CATALOG,
// core/CMakeLists.txt; docs/performance.md).
// The checks across entries keep sets of what was read (ids, device names,
// priced offers) for the rules alone; there they keep none (kRulesChecked).
#ifdef GPUPLAN_TRUSTED_CATALOG
#define GPUPLAN_CATALOG_INVALID(path, what) (static_cast<void>(sizeof(path)), __builtin_unreachable())
constexpr bool kRulesChecked = false;
#else
constexpr bool kRulesChecked = true;
void invalid(const std::string& path, const std::string& what) {
  fail(kL, "invalid_catalog", path, path + ": " + what);
}
#define GPUPLAN_CATALOG_INVALID(path, what) invalid(path, what)
#endif

std::string required_string(const Reader& r, std::string_view key) {
  auto v = r.string(key);
  if (!v || v->empty()) {
    GPUPLAN_CATALOG_INVALID(r.child_path(key), "required text is missing");
    return {};
  }
  return *v;
}

double required_number(const Reader& r, std::string_view key, double min, double max) {
  auto v = r.number(key, min, max);
  if (!v) {
    GPUPLAN_CATALOG_INVALID(r.child_path(key), "required number is missing");
    return 0;
  }
  return *v;
}

// The page's copy (CatalogProfile::page) leaves some entries' sources out;
// it is made from a catalog that was read in full, so absent is all it allows.
std::vector<std::string> sources(const Reader& r, CatalogProfile profile) {
  std::vector<std::string> out;
  const auto* list = r.array("sources");
  if (!list) {
    if (auto one = r.string("source"); one && !one->empty()) return {*one};
    if (profile == CatalogProfile::page) return out;
    GPUPLAN_CATALOG_INVALID(r.child_path("sources"), "every entry needs its sources");
    return out;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    const auto& s = (*list)[i];
    if (!s.is_string() || s.get<std::string>().empty()) {
      GPUPLAN_CATALOG_INVALID(r.child_path("sources") + "[" + std::to_string(i) + "]", "a source must be non-empty text");
      return out;
    }
    out.push_back(s.get<std::string>());
  }
  if (out.empty()) GPUPLAN_CATALOG_INVALID(r.child_path("sources"), "every entry needs at least one source");
  return out;
}

// Field by field, every price or spec figure names its source (docs/catalog.md,
// "Sources"): a source's label, the text before its first ':' (after any
// leading "unverified:"), names the fields it stands for ("billing_rules,
// storage: https://..."); a source with no label stands for every figure of
// its entry. An entry whose labelled sources leave a figure out fails here,
// with the figure's path.
struct SourceLabels {
  bool everything = false;
  std::set<std::string> names;
};

SourceLabels source_labels(const std::vector<std::string>& sources) {
  SourceLabels out;
  for (std::string s : sources) {
    for (;;) {
      const size_t start = s.find_first_not_of(' ');
      s = start == std::string::npos ? std::string() : s.substr(start);
      if (s.rfind("unverified:", 0) != 0) break;
      s = s.substr(11);
    }
    const size_t colon = s.find(':');
    if (colon == std::string::npos || s.compare(colon, 3, "://") == 0 || s.substr(0, colon).find("http") != std::string::npos) {
      out.everything = true;
      continue;
    }
    std::string word;
    auto flush = [&] {
      if (word.empty()) return;
      out.names.insert(word);
      out.names.insert(word.substr(0, word.find('.')));  // "billing_rules.granularity_seconds" names billing_rules
      word.clear();
    };
    for (size_t i = 0; i < colon; ++i) {
      const char ch = char(std::tolower(static_cast<unsigned char>(s[i])));
      if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.') word += ch;
      else flush();
    }
    flush();
  }
  return out;
}

void require_named(const SourceLabels& labels, const std::string& path, std::initializer_list<std::string_view> names) {
  if (labels.everything) return;
  for (std::string_view n : names)
    if (labels.names.count(std::string(n))) return;
  GPUPLAN_CATALOG_INVALID(path, "this figure has no source: name it (\"" + std::string(*names.begin()) +
                                    ": ...\") in one of the entry's sources");
}

bool has_any(const Reader& r, std::string_view object, std::initializer_list<std::string_view> keys) {
  if (!r.json().contains(object) || !r.json()[std::string(object)].is_object()) return false;
  const auto& o = r.json()[std::string(object)];
  for (std::string_view k : keys)
    if (o.contains(std::string(k))) return true;
  return false;
}

// A GPU's spec figures: memory, bandwidth, each peak rate, power and NVLink.
void check_gpu_sources(const Reader& r, const std::vector<std::string>& sources) {
  const SourceLabels l = source_labels(sources);
  require_named(l, r.child_path("memory_bytes"), {"memory_bytes"});
  require_named(l, r.child_path("memory_bandwidth_gb_s"), {"memory_bandwidth_gb_s"});
  if (r.json().contains("tdp_w")) require_named(l, r.child_path("tdp_w"), {"tdp_w"});
  if (r.json().value("nvlink_gb_s", 0.0) > 0) require_named(l, r.child_path("nvlink_gb_s"), {"nvlink_gb_s"});
  if (r.json().contains("tflops") && r.json()["tflops"].is_object())
    for (const auto& [rate, v] : r.json()["tflops"].items())
      require_named(l, r.child_path("tflops") + "." + rate, {rate, "tflops"});
}

// A platform's own figures (its offers, programmes and reference rates carry
// their own source): billing rules, storage and network prices, discounts.
void check_platform_sources(const Reader& r, const std::vector<std::string>& sources) {
  const SourceLabels l = source_labels(sources);
  if (has_any(r, "billing_rules", {"granularity_seconds", "minimum_charge_seconds", "minimum_charge", "minimum_balance", "release_after_stopped_days"}))
    require_named(l, r.child_path("billing_rules"), {"billing_rules"});
  if (has_any(r, "storage", {"per_gb_day", "per_gb_month", "stopped_per_gb_month", "free_gb", "network_volume_per_gb_month"}))
    require_named(l, r.child_path("storage"), {"storage"});
  if (r.json().contains("egress_per_gb")) require_named(l, r.child_path("egress_per_gb"), {"egress_per_gb", "egress"});
  if (r.json().contains("cpu_only_per_hour")) require_named(l, r.child_path("cpu_only_per_hour"), {"cpu_only_per_hour", "low_cost_mode"});
  if (has_any(r, "spot", {"discount", "max_discount", "interruptions_per_hour"})) require_named(l, r.child_path("spot"), {"spot"});
  if (r.json().contains("off_peak_discount")) require_named(l, r.child_path("off_peak_discount"), {"off_peak_discount", "off_peak"});
  if (r.json().contains("education_discount"))
    require_named(l, r.child_path("education_discount"), {"education_discount", "education"});
  if (has_any(r, "machines", {"network_gbps"})) require_named(l, r.child_path("machines") + ".network_gbps", {"network_gbps", "machines"});
}

// A source names no file of this project's own making (its reference notes
// are not public): what it cites is an address or a public repository's file.
void check_no_internal_file(const std::string& source, const std::string& path) {
  for (const char* internal : {"shared/reference", "catalog-sources.md", "gpuplan reference compilation"})
    if (source.find(internal) != std::string::npos)
      GPUPLAN_CATALOG_INVALID(path, std::string("a source names this project's own notes (\"") + internal +
                                        "\"): cite the public page or repository they came from");
}

// Bilingual text {zh, en}, or one string used for both.
Text text(const Reader& r, std::string_view key) {
  Text t;
  auto it = r.json().find(key);
  if (it != r.json().end() && it->is_string()) {
    t.zh = t.en = it->get<std::string>();
  } else if (auto o = r.object(key)) {
    t.zh = o->string("zh").value_or("");
    t.en = o->string("en").value_or("");
  }
  return t;
}

// How far a figure was cross-checked; "unknown" when the entry does not say.
std::string confidence(const Reader& r) {
  static constexpr const char* kLevels[] = {"high", "medium", "low"};
  auto c = r.choice("confidence", {"high", "medium", "low"});
  return c ? kLevels[*c] : "unknown";
}

// A date as precise as the source gives it: "2026", "2026-11" or "2026-11-09".
std::string required_date(const Reader& r, std::string_view key) {
  std::string d = required_string(r, key);
  auto digits = [&](size_t from, size_t n) {
    for (size_t i = from; i < from + n; ++i)
      if (i >= d.size() || d[i] < '0' || d[i] > '9') return false;
    return true;
  };
  bool ok = digits(0, 4) && (d.size() == 4 || (d.size() >= 7 && d[4] == '-' && digits(5, 2) &&
                                                (d.size() == 7 || (d.size() == 10 && d[7] == '-' && digits(8, 2)))));
  if (ok && d.size() >= 7) ok = d.substr(5, 2) >= "01" && d.substr(5, 2) <= "12";
  if (ok && d.size() == 10) ok = d.substr(8, 2) >= "01" && d.substr(8, 2) <= "31";
  if (!ok) GPUPLAN_CATALOG_INVALID(r.child_path(key), "a date YYYY, YYYY-MM or YYYY-MM-DD is required, got \"" + d + "\"");
  return d;
}

std::string required_currency(const Reader& r, std::string_view key) {
  std::string c = required_string(r, key);
  if (c != "CNY" && c != "USD") GPUPLAN_CATALOG_INVALID(r.child_path(key), "currency must be CNY or USD");
  return c;
}

// low <= typical <= high, none negative: a range that cannot be misread.
// `max`: 1e5 per GPU-hour; a package's whole-period price (a year of an H100) goes higher.
PriceRange price_range(const Reader& r, std::string_view key, double max = 1e5) {
  auto price = r.object(key);
  if (!price) {
    GPUPLAN_CATALOG_INVALID(r.child_path(key), "a price range {low, typical, high} is required");
    return {};
  }
  PriceRange out;
  out.low = required_number(*price, "low", 0, max);
  out.typical = required_number(*price, "typical", 0, max);
  out.high = required_number(*price, "high", 0, max);
  if (!(out.low <= out.typical && out.typical <= out.high)) GPUPLAN_CATALOG_INVALID(price->path(), "low <= typical <= high is required");
  return out;
}

// An offer's confidence is required: a price nobody judged is not a price.
std::string required_confidence(const Reader& r) {
  if (!r.json().contains("confidence")) GPUPLAN_CATALOG_INVALID(r.child_path("confidence"), "required: high, medium or low");
  return confidence(r);
}


void check_unique(std::set<std::string>& seen, const std::string& id, const std::string& path) {
  if (kRulesChecked && !seen.insert(id).second) GPUPLAN_CATALOG_INVALID(path, "duplicate id \"" + id + "\"");
}

// The names the driver reports for the card (what nvidia-smi and
// torch.cuda.get_device_name() print): a calibration pasted from a run is
// matched on them. Every GPU of the shipped catalog has them
// (tests/core/device_names_test.cpp); a list given is never empty.
std::vector<std::string> device_names(const Reader& r) {
  std::vector<std::string> out;
  if (!r.json().contains("device_names")) return out;
  const auto* list = r.array("device_names");
  if (!list || list->empty()) {
    GPUPLAN_CATALOG_INVALID(r.child_path("device_names"), "a list of the names nvidia-smi prints for this card");
    return out;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    const auto& s = (*list)[i];
    if (!s.is_string() || s.get<std::string>().empty() || s.get<std::string>().size() > 100) {
      GPUPLAN_CATALOG_INVALID(r.child_path("device_names") + "[" + std::to_string(i) + "]", "a device name is non-empty text of at most 100 characters");
      return out;
    }
    out.push_back(s.get<std::string>());
  }
  return out;
}

// Device names compare without case: two cards may not share one.
void check_device_names(std::set<std::string>& seen, const Gpu& g, const std::string& path) {
  if (!kRulesChecked) return;
  for (const std::string& n : g.device_names) {
    std::string key = n;
    for (char& ch : key) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    if (!seen.insert(key).second) GPUPLAN_CATALOG_INVALID(path, "device name \"" + n + "\" names two GPUs");
  }
}

Gpu read_gpu(const Reader& r, CatalogProfile profile) {
  Gpu g;
  g.id = required_string(r, "id");
  g.name = required_string(r, "name");
  g.device_names = device_names(r);
  g.arch = r.string("arch").value_or("");
  if (auto s = r.choice("segment", {"consumer", "workstation", "datacenter"})) g.segment = Segment(*s);
  g.launch_year = r.integer("launch_year", 1990, 2100).value_or(0);
  g.memory_bytes = required_number(r, "memory_bytes", 1 << 30, 1e13);
  auto basis = r.choice("memory_basis", {"driver", "nominal"});
  if (!basis) {
    GPUPLAN_CATALOG_INVALID(r.child_path("memory_basis"), "say whether memory_bytes is the driver's figure or the nominal size");
    return g;
  }
  g.memory_basis = *basis == 0 ? "driver" : "nominal";
  g.memory_bandwidth_bytes_per_s = required_number(r, "memory_bandwidth_gb_s", 1, 1e5) * 1e9;
  if (auto t = r.object("tflops")) {
    // Every rate may be unknown (left out, read as 0), but a GPU with no rate
    // at all could not be timed.
    g.tflops.fp32 = t->number("fp32", 0, 1e5).value_or(0);
    g.tflops.tf32 = t->number("tf32", 0, 1e5).value_or(0);
    g.tflops.fp16_tensor = t->number("fp16_tensor", 0, 1e5).value_or(0);
    g.tflops.bf16_tensor = t->number("bf16_tensor", 0, 1e5).value_or(0);
    g.tflops.fp8_tensor = t->number("fp8_tensor", 0, 1e5).value_or(0);
    g.tflops.int8_tensor = t->number("int8_tensor", 0, 1e5).value_or(0);
    g.tflops.fp64 = t->number("fp64", 0, 1e5).value_or(0);
    if (g.tflops.fp32 <= 0 && g.tflops.fp16_tensor <= 0 && g.tflops.bf16_tensor <= 0)
      GPUPLAN_CATALOG_INVALID(t->path(), "at least one of fp32, fp16_tensor, bf16_tensor is required");
  } else {
    GPUPLAN_CATALOG_INVALID(r.child_path("tflops"), "peak rates are required");
  }
  g.tdp_watts = r.number("tdp_w", 0, 1e5).value_or(0);
  g.nvlink_bytes_per_s = r.number("nvlink_gb_s", 0, 1e5).value_or(0) * 1e9;
  g.pcie_gen = r.integer("pcie_gen", 1, 7).value_or(4);
  g.cuda = r.boolean("cuda").value_or(true);
  g.confidence = confidence(r);
  g.notes = r.string("notes").value_or("");
  if (auto p = r.object("purchase")) {
    PurchasePrice pp;
    pp.amount = required_number(*p, "amount", 0, 1e9);
    pp.currency = required_currency(*p, "currency");
    pp.as_of = required_date(*p, "as_of");
    pp.source = required_string(*p, "source");
    if (profile == CatalogProfile::full) check_no_internal_file(pp.source, p->child_path("source"));
    g.purchase = std::move(pp);
  }
  g.sources = sources(r, profile);
  // The checks below read the entry's JSON again, typed as the reads above
  // found it (value("nvlink_gb_s", 0.0) of a string would abort).
  if (read_failed()) return g;
  if (profile == CatalogProfile::full) {
    check_gpu_sources(r, g.sources);
    for (size_t i = 0; i < g.sources.size(); ++i) check_no_internal_file(g.sources[i], r.child_path("sources") + "[" + std::to_string(i) + "]");
  }
  return g;
}

// The evidence an offer names for its confidence (docs/catalog.md,
// "Confidence"): each level asks for what its definition says.
bool full_date(const std::string& d) { return d.size() == 10; }

void check_evidence(const Reader& r, Offer& o) {
  auto ev = r.object("evidence");
  if (!ev) {
    GPUPLAN_CATALOG_INVALID(r.child_path("evidence"),
                            "name the evidence for the confidence: platform_read, third_party_read, agreeing_notes or note");
    return;
  }
  auto kind = ev->spelled("kind", kEvidenceKindSpellings);
  if (!kind) {
    GPUPLAN_CATALOG_INVALID(ev->child_path("kind"), "platform_read, third_party_read, agreeing_notes or note");
    return;
  }
  o.evidence = *kind;
  // What the source shows, as it shows it: a "from" price read as a list price is a floor.
  const std::string read = required_string(*ev, "read");
  std::string lower = read;
  for (char& ch : lower) ch = char(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  const bool from = lower.rfind("from ", 0) == 0 || lower.find(" from ") != std::string::npos;
  if (o.price_kind == PriceKind::list && (read.find("起") != std::string::npos || from))
    GPUPLAN_CATALOG_INVALID(ev->child_path("read"), "a 'from' (起) price is a floor, not a list price");
  switch (*kind) {
    case EvidenceKind::platform_read:
      required_string(*ev, "url");
      if (!full_date(required_date(*ev, "read_on")))
        GPUPLAN_CATALOG_INVALID(ev->child_path("read_on"), "a first-hand read gives the day it was read (YYYY-MM-DD)");
      break;
    case EvidenceKind::third_party_read:
      required_string(*ev, "url");
      required_string(*ev, "recorded_in");
      if (required_date(*ev, "read_on").size() < 7)
        GPUPLAN_CATALOG_INVALID(ev->child_path("read_on"), "a recorded read gives at least its month (YYYY-MM)");
      break;
    case EvidenceKind::agreeing_notes:
    case EvidenceKind::note: break;
  }
  // Dated notes with the price each gives; agreeing_notes needs two that agree within 5 %.
  double lowest = 0, highest = 0;
  std::set<std::string> where;
  if (const auto* notes = ev->array("notes"))
    for (size_t i = 0; i < notes->size(); ++i) {
      Reader n = element(*notes, i, ev->child_path("notes"), kL);
      where.insert(required_string(n, "source"));
      required_date(n, "as_of");
      const double price = required_number(n, "price", 0, 1e9);
      lowest = i == 0 ? price : std::min(lowest, price);
      highest = i == 0 ? price : std::max(highest, price);
    }
  if (*kind == EvidenceKind::agreeing_notes && (where.size() < 2 || !(highest <= lowest * 1.05)))
    GPUPLAN_CATALOG_INVALID(ev->child_path("notes"), "agreeing_notes needs two independent dated notes agreeing within 5 %");
  const bool allowed = o.confidence == "high"     ? *kind == EvidenceKind::platform_read
                       : o.confidence == "medium" ? *kind == EvidenceKind::third_party_read ||
                                                        *kind == EvidenceKind::agreeing_notes
                                                  : true;
  if (!allowed)
    GPUPLAN_CATALOG_INVALID(r.child_path("confidence"),
                            o.confidence == "high"
                                ? "high is a first-hand read of the platform's own page, docs or API (evidence platform_read)"
                                : "medium is a dated machine read recorded by a third party (third_party_read) or two "
                                  "dated notes agreeing within 5 % (agreeing_notes)");
}

// The vCPUs an instance gives per card (`cpu`, on a platform or an offer),
// with its own date, source and confidence; the source names the field it
// stands for (`vcpus_per_gpu: https://...`), like every platform figure's.
// The page's copy keeps only the count (catalog_profile.cpp).
std::optional<CpuAllowance> read_cpu(const Reader& r, CatalogProfile profile) {
  auto m = r.object("cpu");
  if (!m) return std::nullopt;
  CpuAllowance a;
  a.vcpus_per_gpu = int(m->integer("vcpus_per_gpu", 1, 512).value_or(0));
  if (a.vcpus_per_gpu <= 0) {
    GPUPLAN_CATALOG_INVALID(m->child_path("vcpus_per_gpu"), "the vCPUs one card comes with (1 to 512) is required");
    return std::nullopt;
  }
  if (profile == CatalogProfile::full) {
    a.as_of = required_date(*m, "as_of");
    a.source = required_string(*m, "source");
    if (a.source.find("vcpus_per_gpu") == std::string::npos)
      GPUPLAN_CATALOG_INVALID(m->child_path("source"), "the source names the field it stands for (\"vcpus_per_gpu: ...\")");
    check_no_internal_file(a.source, m->child_path("source"));
    a.confidence = required_confidence(*m);
  }
  return a;
}

Offer read_offer(const Reader& r, const std::set<std::string>& gpu_ids, CatalogProfile profile) {
  Offer o;
  o.gpu = required_string(r, "gpu");
  if (!gpu_ids.count(o.gpu)) GPUPLAN_CATALOG_INVALID(r.child_path("gpu"), "unknown GPU \"" + o.gpu + "\"");
  if (auto b = r.spelled("billing", kBillingSpellings)) o.billing = *b;
  auto kind = r.spelled("price_kind", kPriceKindSpellings);
  if (!kind) {
    GPUPLAN_CATALOG_INVALID(r.child_path("price_kind"),
            "say what kind of price this is: list (the platform's price page or API), floor (the cheapest listing "
            "seen) or promo");
    return o;
  }
  o.price_kind = *kind;
  // A floor or a promotion is not what a user should expect: it carries no
  // typical price, so it can never stand as one.
  const bool typical_allowed = o.price_kind == PriceKind::list;
  auto range = [&](std::string_view key, double max) -> PriceRange {
    auto price = r.object(key);
    if (!price) {
      GPUPLAN_CATALOG_INVALID(r.child_path(key), "a price range {low, typical, high} is required");
      return {};
    }
    if (typical_allowed) return price_range(r, key, max);
    if (price->json().contains("typical")) {
      GPUPLAN_CATALOG_INVALID(price->child_path("typical"), std::string("a ") + (o.price_kind == PriceKind::floor ? "floor" : "promo") +
                                                " price is not a typical price: give low and high, leave typical out");
      return {};
    }
    PriceRange out;
    out.low = required_number(*price, "low", 0, max);
    out.high = required_number(*price, "high", 0, max);
    if (!(out.low <= out.high)) GPUPLAN_CATALOG_INVALID(price->path(), "low <= high is required");
    out.typical = out.low;
    return out;
  };
  o.per_gpu_hour = range("per_gpu_hour", 1e5);
  if (!(o.per_gpu_hour.high > 0)) GPUPLAN_CATALOG_INVALID(r.child_path("per_gpu_hour"), "a price of zero is not a price");
  // A package as the platform quotes it (1052 per month), beside its hourly
  // equivalent (which the contract's per_gpu_hour always is): they must agree
  // to the rounding of the hourly figure (half a cent, or 0.5 %).
  if (r.json().contains("per_period")) {
    const double hours = package_period_hours(o.billing);
    if (hours <= 0) {
      GPUPLAN_CATALOG_INVALID(r.child_path("per_period"), "only a daily, weekly, monthly or yearly package has a period price");
      return o;
    }
    PriceRange period = range("per_period", 1e9);
    auto agrees = [&](double per_period, double per_hour) {
      return std::fabs(per_period / hours - per_hour) <= std::max(0.005, 0.005 * per_hour);
    };
    if (!agrees(period.low, o.per_gpu_hour.low) || !agrees(period.typical, o.per_gpu_hour.typical) ||
        !agrees(period.high, o.per_gpu_hour.high))
      GPUPLAN_CATALOG_INVALID(r.child_path("per_gpu_hour"), "per_gpu_hour must be per_period over the period's " +
                                                format_number(hours) + " hours");
    o.per_period = period;
  }
  o.currency = required_currency(r, "currency");
  o.as_of = required_date(r, "as_of");
  o.source = required_string(r, "source");
  if (profile == CatalogProfile::full) check_no_internal_file(o.source, r.child_path("source"));
  o.confidence = required_confidence(r);
  o.note = r.string("note").value_or("");
  o.max_gpus = r.integer("max_gpus", 1, 16).value_or(0);
  o.cpu = read_cpu(r, profile);
  if (profile == CatalogProfile::full) check_evidence(r, o);
  return o;
}

// read_platform's steps, in the order the catalog's fields come.
void read_billing_rules(const Reader& r, Platform& p, CatalogProfile profile) {
  BillingRules& rules = p.rules;
  if (auto b = r.object("billing_rules")) {
    rules.granularity_seconds = b->number("granularity_seconds", 1, 1e8);
    rules.minimum_charge_seconds = b->number("minimum_charge_seconds", 0, 1e8);
    if (auto m = b->object("minimum_charge")) {
      MinimumCharge mc;
      mc.amount = required_number(*m, "amount", 0, 1e4);
      mc.currency = required_currency(*m, "currency");
      if (mc.currency != p.currency) GPUPLAN_CATALOG_INVALID(m->child_path("currency"), "a minimum charge is in the platform's currency");
      mc.as_of = required_date(*m, "as_of");
      mc.source = profile == CatalogProfile::full ? required_string(*m, "source") : m->string("source").value_or("");
      mc.confidence = required_confidence(*m);
      p.minimum_charge = mc.amount;
      rules.minimum_charge = std::move(mc);
    }
    rules.minimum_balance = b->number("minimum_balance", 0, 1e7);
    rules.release_after_stopped_days = b->number("release_after_stopped_days", 0.01, 3650);
    if (const auto* list = b->array("packages"))
      for (size_t i = 0; i < list->size(); ++i) {
        const std::string path = b->child_path("packages") + "[" + std::to_string(i) + "]";
        const auto& v = (*list)[i];
        const std::optional<Billing> pkg =
            v.is_string() ? value_of(kBillingSpellings, v.get<std::string>()) : std::nullopt;
        if (!pkg || !is_package(*pkg)) {
          GPUPLAN_CATALOG_INVALID(path, "a package is daily, weekly, monthly or yearly");
          return;
        }
        rules.packages.push_back(*pkg);
      }
    p.disk_bills_after_release = b->boolean("disk_bills_after_release").value_or(false);
    p.billing_notes = text(*b, "notes");
  }
}

void read_storage(const Reader& r, Platform& p) {
  BillingRules& rules = p.rules;
  if (auto s = r.object("storage")) {
    auto per_day = s->number("per_gb_day", 0, 1e3);
    auto per_month = s->number("per_gb_month", 0, 1e4);
    if (per_day && per_month) GPUPLAN_CATALOG_INVALID(s->child_path("per_gb_day"), "give per_gb_day or per_gb_month, not both");
    if (per_month) per_day = *per_month * 24 / kHoursPerMonth;
    rules.disk_per_gb_day = per_day;
    p.storage_per_gb_month = per_day ? *per_day * kHoursPerMonth / 24 : 0;
    p.storage_stopped_per_gb_month = s->number("stopped_per_gb_month", 0, 1e4).value_or(0);
    rules.disk_bills_while_stopped = s->boolean("bills_while_stopped");
    if (rules.disk_bills_while_stopped == false && p.storage_stopped_per_gb_month > 0)
      GPUPLAN_CATALOG_INVALID(s->child_path("stopped_per_gb_month"), "a disk that does not bill while stopped has no stopped price");
    rules.free_disk_gb = s->number("free_gb", 0, 1e6);
    p.free_storage_gb = rules.free_disk_gb.value_or(0);
    p.storage_notes = text(*s, "notes");
  }
}

// The plain fields read the rules with 0 (3600 for the granularity) for unknown.
void read_plain_rules(const Reader& r, Platform& p) {
  BillingRules& rules = p.rules;
  rules.egress_per_gb = r.number("egress_per_gb", 0, 1e4);
  rules.low_cost_mode_per_hour = r.number("cpu_only_per_hour", 0, 1e4);
  rules.low_cost_mode = text(r, "low_cost_mode");
  p.billing_granularity_seconds = rules.granularity_seconds.value_or(3600);
  p.minimum_charge_seconds = rules.minimum_charge_seconds.value_or(0);
  p.egress_per_gb = rules.egress_per_gb.value_or(0);
  p.cpu_only_per_hour = rules.low_cost_mode_per_hour.value_or(0);
}

void read_spot(const Reader& r, Platform& p) {
  if (auto s = r.object("spot")) {
    p.spot_available = s->boolean("available");
    p.spot_discount = s->number("discount", 0, 0.99).value_or(0);
    p.spot_max_discount = s->number("max_discount", 0, 0.99).value_or(p.spot_discount);
    if (p.spot_max_discount < p.spot_discount)
      GPUPLAN_CATALOG_INVALID(s->child_path("max_discount"), "the largest claimed discount cannot be below the typical one");
    p.spot_interruptions_per_hour = s->number("interruptions_per_hour", 0, 10).value_or(0);
    p.spot_notes = text(*s, "notes");
    if (p.spot_available == false && p.spot_discount > 0)
      GPUPLAN_CATALOG_INVALID(s->child_path("discount"), "a platform without spot instances has no spot discount");
  }
}

void read_education(const Reader& r, Platform& p, CatalogProfile profile) {
  // The page shows no programme's name, eligibility or source (its copy
  // leaves them out); the credit it does use stays required.
  const bool full = profile == CatalogProfile::full;
  if (const auto* list = r.array("education"))
    for (size_t i = 0; i < list->size(); ++i) {
      Reader e = element(*list, i, r.child_path("education"), kL);
      EducationProgram ed;
      ed.name = text(e, "name");
      if (full && ed.name.en.empty() && ed.name.zh.empty()) GPUPLAN_CATALOG_INVALID(e.child_path("name"), "required text is missing");
      ed.credit_amount = e.number("credit", 0, 1e7).value_or(0);
      if (ed.credit_amount > 0) ed.currency = required_currency(e, "currency");
      ed.eligibility = text(e, "eligibility");
      ed.as_of = required_date(e, "as_of");
      ed.source = full ? required_string(e, "source") : e.string("source").value_or("");
      p.education.push_back(std::move(ed));
    }
}

void read_reference_rates(const Reader& r, Platform& p, CatalogProfile profile) {
  const bool full = profile == CatalogProfile::full;
  if (const auto* list = r.array("reference_rates"))
    for (size_t i = 0; i < list->size(); ++i) {
      Reader e = element(*list, i, r.child_path("reference_rates"), kL);
      ReferenceRate rr;
      rr.name = text(e, "name");
      if (rr.name.en.empty() && rr.name.zh.empty()) GPUPLAN_CATALOG_INVALID(e.child_path("name"), "required text is missing");
      rr.per_gpu_hour = price_range(e, "per_gpu_hour");
      if (auto by = e.spelled("priced_by", kRatePricedBySpellings)) rr.priced_by = *by;
      rr.currency = required_currency(e, "currency");
      rr.as_of = required_date(e, "as_of");
      // The page keeps the queue-priority rates the planner quotes, without
      // their sources (core/src/read/catalog_profile.cpp).
      rr.source = full ? required_string(e, "source") : e.string("source").value_or("");
      rr.note = text(e, "note");
      if (rr.priced_by == RatePricedBy::queue_priority) {
        // Priority costs more: each queue above the last, or it is no tier.
        if (!(rr.per_gpu_hour.low < rr.per_gpu_hour.typical && rr.per_gpu_hour.typical < rr.per_gpu_hour.high))
          GPUPLAN_CATALOG_INVALID(e.child_path("per_gpu_hour"),
                  "a queue_priority rate is the low, normal and high priority queues' prices: low < typical < high");
        rr.confidence = required_confidence(e);
      } else {
        rr.confidence = confidence(e);
      }
      p.reference_rates.push_back(std::move(rr));
    }
}

void read_offers(const Reader& r, Platform& p, const std::set<std::string>& gpu_ids, CatalogProfile profile) {
  // One offer per (GPU, billing, price kind): a list price and the floor seen
  // beside it may both stand, two list prices are one range.
  std::set<std::tuple<std::string, int, int>> priced;
  if (const auto* offers = r.array("offers"))
    for (size_t i = 0; i < offers->size(); ++i) {
      Reader e = element(*offers, i, r.child_path("offers"), kL);
      p.offers.push_back(read_offer(e, gpu_ids, profile));
      const Offer& o = p.offers.back();
      if (kRulesChecked && !priced.insert({o.gpu, int(o.billing), int(o.price_kind)}).second)
        GPUPLAN_CATALOG_INVALID(e.child_path("gpu"), "a second offer for \"" + o.gpu +
                                         "\" with the same billing and price kind; merge them into one price range");
    }
}

void read_machines(const Reader& r, Platform& p) {
  // Several machines join for one job only where the catalog says so: a job
  // spread over a network nobody measured (a cloud's plain VPC, often tens of
  // Gb/s per VM, against the 100 Gb/s per GPU the time model assumes across
  // machines) would be planned faster than it runs.
  p.machines_joinable = false;
  if (auto m = r.object("machines")) {
    p.machine_max_gpus = int(m->integer("max_gpus", 1, 16).value_or(8));
    p.machines_joinable = m->boolean("joinable").value_or(false);
    p.network_gbps = m->number("network_gbps", 0, 1e5).value_or(0);
    p.machines_notes = text(*m, "notes");
  }
}

Platform read_platform(const Reader& r, const std::set<std::string>& gpu_ids, CatalogProfile profile) {
  Platform p;
  p.id = required_string(r, "id");
  p.name.en = required_string(r, "name");
  p.name.zh = r.string("name_zh").value_or(p.name.en);
  auto kind = r.spelled("kind", kPlatformKindSpellings);
  if (!kind) {
    GPUPLAN_CATALOG_INVALID(r.child_path("kind"), "kind is required (cloud, marketplace, campus)");
    return p;
  }
  p.kind = *kind;
  p.region = r.string("region").value_or("");
  p.currency = required_currency(r, "currency");
  read_billing_rules(r, p, profile);
  read_storage(r, p);
  read_plain_rules(r, p);
  read_spot(r, p);
  p.off_peak_discount = r.number("off_peak_discount", 0, 0.99).value_or(0);
  p.education_discount = r.number("education_discount", 0, 0.99).value_or(0);
  if (auto q = r.choice("queue_risk", {"low", "medium", "high"})) {
    static constexpr const char* kRisk[] = {"low", "medium", "high"};
    p.queue_risk = kRisk[*q];
  } else {
    p.queue_risk = "unknown";
  }
  p.queue_notes = text(r, "queue_notes");
  p.notes = text(r, "notes");
  p.sources = sources(r, profile);
  if (profile == CatalogProfile::full) {
    check_platform_sources(r, p.sources);
    for (size_t i = 0; i < p.sources.size(); ++i) check_no_internal_file(p.sources[i], r.child_path("sources") + "[" + std::to_string(i) + "]");
  }
  read_education(r, p, profile);
  p.priced_by_user = r.boolean("priced_by_user").value_or(false);
  read_reference_rates(r, p, profile);
  read_offers(r, p, gpu_ids, profile);
  p.prices_known = r.boolean("prices_known").value_or(!p.offers.empty());
  read_machines(r, p);
  p.cpu = read_cpu(r, profile);
  if (p.priced_by_user && !p.offers.empty())
    GPUPLAN_CATALOG_INVALID(r.child_path("offers"), "a platform priced by the user's own rate carries no catalog offers");
  if (!p.prices_known && !p.offers.empty())
    GPUPLAN_CATALOG_INVALID(r.child_path("prices_known"), "prices_known is false but the platform has offers");
  return p;
}

// A convolutional preset with its published dimensions: the parameter count
// the expansion finds must be the catalog's (published) one, and the catalog's
// activation_bytes_per_sample (fp32 training at reference_image_size, what
// `gpuplan catalog` lists) must be what the core computes, so neither can drift
// from the architecture. Frozen components (a diffusion UNet's text encoders
// and VAE) are held beside it; a VAE's count is checked against its dimensions.
void read_cnn_preset(const Reader& r, const Reader& arch, ModelSpec& m, CatalogProfile profile) {
  m.architecture = read_cnn_architecture(arch);
  if (read_failed()) return;  // a partly read architecture is not expanded
  const CnnFootprint f = expand_cnn(m.architecture, m.reference_image_size, CnnPass{});
  if (std::fabs(f.params - m.params) > 0.5)
    GPUPLAN_CATALOG_INVALID(r.child_path("params"), "the architecture has " + format_number(f.params) + " parameters, the entry says " +
                                        format_number(m.params));
  if (auto given = r.number("activation_bytes_per_sample", 1, 1e13)) {
    if (std::fabs(*given - f.saved_bytes) > 1e-9 * f.saved_bytes)
      GPUPLAN_CATALOG_INVALID(r.child_path("activation_bytes_per_sample"),
              "the architecture saves " + format_number(f.saved_bytes) + " bytes per sample (fp32 training at " +
                  std::to_string(m.reference_image_size) + " px); update the entry");
  }
  m.activation_bytes_per_sample = f.saved_bytes;
  m.frozen_gflops_per_sample = 2 * f.encode_macs / 1e9;
  if (const auto* list = r.array("frozen_components")) {
    for (size_t i = 0; i < list->size(); ++i) {
      Reader e = element(*list, i, r.child_path("frozen_components"), kL);
      std::string id = required_string(e, "id");
      double params = required_number(e, "params", 1, 1e13);
      sources(e, profile);
      if (id == "vae" && std::fabs(params - f.vae_params) > 0.5)
        GPUPLAN_CATALOG_INVALID(e.child_path("params"), "the architecture's VAE has " + format_number(f.vae_params) + " parameters");
      m.frozen_params += params;
      if (id.rfind("text_encoder", 0) == 0) m.frozen_text_params += params;
    }
  }
}

ModelSpec read_model(const Reader& r, CatalogProfile profile) {
  ModelSpec m;
  m.id = required_string(r, "id");
  m.name = r.string("name").value_or(m.id);
  auto kind = r.spelled("kind", kModelKindSpellings);
  if (!kind) {
    GPUPLAN_CATALOG_INVALID(r.child_path("kind"), "kind is required");
    return m;
  }
  m.kind = *kind;
  m.params = required_number(r, "params", 1e3, 1e14);
  if (m.kind == ModelKind::cnn) {
    m.reference_image_size = r.integer("reference_image_size", 8, 16384).value_or(224);
    if (auto arch = r.object("architecture")) {
      read_cnn_preset(r, *arch, m, profile);
    } else {
      m.activation_bytes_per_sample = required_number(r, "activation_bytes_per_sample", 1, 1e13);
    }
  } else {
    m.layers = int(required_number(r, "layers", 1, 1000));
    m.hidden = int(required_number(r, "hidden", 1, 1 << 20));
    m.heads = int(required_number(r, "heads", 1, 4096));
    m.kv_heads = r.integer("kv_heads", 1, 4096).value_or(m.heads);
    m.ffn = int(required_number(r, "ffn", 1, 1 << 22));
    m.vocab = int(required_number(r, "vocab", 1, 1 << 24));
  }
  m.gated_mlp = r.boolean("gated_mlp").value_or(false);
  m.tied_embeddings = r.boolean("tied_embeddings").value_or(false);
  m.experts = r.integer("experts", 1, 1024).value_or(1);
  m.experts_per_token = r.integer("experts_per_token", 1, 1024).value_or(1);
  m.head_dim = r.integer("head_dim", 1, 4096).value_or(0);
  if (m.kind == ModelKind::encoder) m.patch_size = r.integer("patch_size", 1, 4096).value_or(0);
  if (m.kind == ModelKind::vlm) {
    // The tower's count must be what its dimensions give (docs/vlm.md).
    auto vision = r.object("vision");
    if (!vision) {
      GPUPLAN_CATALOG_INVALID(r.child_path("vision"), "a vlm preset needs its vision tower's dimensions");
      return m;
    }
    const double given = required_number(*vision, "params", 1e3, 1e13);
    read_vision_tower(*vision, m);
    double projector = 0;
    const double counted = vision_tower_params(m.vision, m.hidden, &projector);
    if (std::fabs(given - counted) > 0.5)
      GPUPLAN_CATALOG_INVALID(vision->child_path("params"), "the vision tower's dimensions give " + format_number(counted) + " parameters");
  }
  m.gflops_per_sample = r.number("gflops_per_sample", 0, 1e9).value_or(0);
  m.sources = sources(r, profile);
  if (profile == CatalogProfile::full)
    for (size_t i = 0; i < m.sources.size(); ++i) check_no_internal_file(m.sources[i], r.child_path("sources") + "[" + std::to_string(i) + "]");
  return m;
}

}  // namespace

const Gpu* Catalog::find_gpu(std::string_view id) const {
  for (const auto& g : gpus)
    if (g.id == id) return &g;
  return nullptr;
}
const Platform* Catalog::find_platform(std::string_view id) const {
  for (const auto& p : platforms)
    if (p.id == id) return &p;
  return nullptr;
}
const ModelSpec* Catalog::find_model(std::string_view id) const {
  for (const auto& m : models)
    if (m.id == id) return &m;
  return nullptr;
}

Result<Catalog> parse_catalog(std::string_view json_text, CatalogProfile profile) {
  ReadErrors errors;
  nlohmann::json root = parse_json_text(json_text, kL, kMaxCatalogBytes, kMaxDepth);
  if (!errors.ok()) return errors.first();
  if (!root.is_object()) {
    GPUPLAN_CATALOG_INVALID("", "the catalog must be a JSON object");
    return errors.first();
  }
  Reader r(root, "", kL);
  Catalog c;
  c.version = required_string(r, "version");
  auto fx = r.object("fx");
  if (!fx) GPUPLAN_CATALOG_INVALID("fx", "the exchange rate is required");
  if (!errors.ok()) return errors.first();
  c.fx.cny_per_usd = required_number(*fx, "cny_per_usd", 1, 100);
  c.fx.as_of = required_date(*fx, "as_of");
  c.fx.source = required_string(*fx, "source");
  // Rent or buy's default power price (a figure, so sourced like a price);
  // the page's copy keeps the figure and drops its provenance prose.
  auto power = r.object("electricity");
  if (!power) GPUPLAN_CATALOG_INVALID("electricity", "the default electricity tariff {per_kwh, currency, as_of, source, confidence} is required");
  if (!errors.ok()) return errors.first();
  c.electricity.per_kwh = required_number(*power, "per_kwh", 0.001, 100);
  c.electricity.currency = required_currency(*power, "currency");
  c.electricity.as_of = required_date(*power, "as_of");
  c.electricity.source =
      profile == CatalogProfile::full ? required_string(*power, "source") : power->string("source").value_or("");
  c.electricity.confidence = required_confidence(*power);
  c.electricity.note = power->string("note").value_or("");

  // Each entry is read only while the ones before it read in full: the
  // checks across entries (unique ids, offers' GPUs) see only whole entries.
  std::set<std::string> gpu_ids, platform_ids, model_ids, device_name_keys;
  const auto* gpus = r.array("gpus");
  if (!gpus) GPUPLAN_CATALOG_INVALID("gpus", "the GPU list is required");
  if (!errors.ok()) return errors.first();
  for (size_t i = 0; i < gpus->size() && errors.ok(); ++i) {
    Reader e = element(*gpus, i, "gpus", kL);
    c.gpus.push_back(read_gpu(e, profile));
    check_unique(gpu_ids, c.gpus.back().id, e.child_path("id"));
    check_device_names(device_name_keys, c.gpus.back(), e.child_path("device_names"));
  }
  if (const auto* platforms = r.array("platforms")) {
    for (size_t i = 0; i < platforms->size() && errors.ok(); ++i) {
      Reader e = element(*platforms, i, "platforms", kL);
      c.platforms.push_back(read_platform(e, gpu_ids, profile));
      check_unique(platform_ids, c.platforms.back().id, e.child_path("id"));
    }
  }
  if (!errors.ok()) return errors.first();
  const auto* models = r.array("models");
  if (!models) GPUPLAN_CATALOG_INVALID("models", "the model presets are required");
  if (!errors.ok()) return errors.first();
  for (size_t i = 0; i < models->size() && errors.ok(); ++i) {
    Reader e = element(*models, i, "models", kL);
    c.models.push_back(read_model(e, profile));
    check_unique(model_ids, c.models.back().id, e.child_path("id"));
  }
  if (!errors.ok()) return errors.first();
  return c;
}

}  // namespace gpuplan
