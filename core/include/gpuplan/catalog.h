// The catalog: GPUs, platforms with their offers, and model presets. It is data
// with provenance (catalog/*.json); this header holds its typed form. Every
// figure the planner uses comes from here or from the request, never from code.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/error.h"
#include "gpuplan/locale.h"
#include "gpuplan/model.h"

namespace gpuplan {

enum class Segment { consumer, workstation, datacenter };

// Dense (no sparsity) peak rates in TFLOP/s (TOPS for int8). A zero means the
// card has no such unit (e.g. no BF16 tensor cores on Turing or Volta) or that
// no source gave the figure (the catalog leaves the field out; see the GPU's
// notes), so a zero must never be divided by.
struct PeakTflops {
  double fp32 = 0;         // CUDA-core FP32
  double tf32 = 0;         // tensor-core TF32 (Ampere and later)
  double fp16_tensor = 0;  // FP16 tensor with FP32 accumulate: what AMP uses
                           // (GeForce cards run this at half the FP16-accumulate headline)
  double bf16_tensor = 0;  // BF16 tensor with FP32 accumulate
  double fp8_tensor = 0;
  double int8_tensor = 0;  // TOPS
  double fp64 = 0;         // FP64 (vector; tensor-core FP64 where it is higher)
};

struct PurchasePrice {
  double amount = 0;
  std::string currency;
  std::string as_of;
  std::string source;
};

struct Gpu {
  std::string id;
  std::string name;
  std::vector<std::string> device_names;  // as nvidia-smi prints them ("NVIDIA H800"): calibration matches on them
  std::string arch;  // "Ampere", "Hopper", ...
  Segment segment = Segment::datacenter;
  int launch_year = 0;
  double memory_bytes = 0;                // capacity as the driver reports it
  std::string memory_basis;               // "driver" (nvidia-smi MiB x 2^20) or "nominal" (GiB x 2^30)
  double memory_bandwidth_bytes_per_s = 0;
  PeakTflops tflops;
  double tdp_watts = 0;
  double nvlink_bytes_per_s = 0;  // per GPU, both directions summed as NVIDIA quotes; 0 = none
  int pcie_gen = 4;
  bool cuda = true;  // false: CUDA software does not run (Huawei Ascend)
  std::optional<PurchasePrice> purchase;
  std::string confidence;  // "high", "medium", "low": how far the figures were cross-checked
  std::string notes;       // caveats a maintainer or a careful user should read
  std::vector<std::string> sources;  // one entry per field group, "field, field: source"
};

// How an offer is billed. daily / weekly / monthly / yearly are packages
// (包天 / 包周 / 包月 / 包年): paid for the whole period up front whatever the use
// (is_package(), gpuplan/pricing.h). weekly and daily (contract v1.1) come after
// the first five so that no existing value moves.
enum class Billing { on_demand, spot, monthly, yearly, off_peak, weekly, daily };
inline constexpr Spelling<Billing> kBillingSpellings[] = {
    {Billing::on_demand, "on-demand"}, {Billing::spot, "spot"},       {Billing::monthly, "monthly"},
    {Billing::yearly, "yearly"},       {Billing::off_peak, "off-peak"}, {Billing::weekly, "weekly"},
    {Billing::daily, "daily"}};
static_assert(spells_each_once(kBillingSpellings, Billing::daily));

// What kind of figure an offer's price is (contract v1.1). Only a `list` price
// (the platform's own price page or API, or a dated record of it) stands as
// what a user should expect to pay; a `floor` (the cheapest listing seen, a
// marketplace "from" price) and a `promo` (a time-limited or new-user price)
// are shown as such and never planned with as typical.
enum class PriceKind { list, floor, promo };
inline constexpr Spelling<PriceKind> kPriceKindSpellings[] = {
    {PriceKind::list, "list"}, {PriceKind::floor, "floor"}, {PriceKind::promo, "promo"}};
static_assert(spells_each_once(kPriceKindSpellings, PriceKind::promo));

struct PriceRange {
  double low = 0;
  double typical = 0;
  double high = 0;
};

// What an offer's confidence rests on (contract v1.2, docs/catalog.md
// "Confidence"): `high` a first-hand read of the platform's own price page,
// docs or API (platform_read, with its URL and the day); `medium` a dated
// machine read of the platform's own page or API recorded by a third party
// (third_party_read), or two independent dated notes agreeing within 5 %
// (agreeing_notes); `low` anything else (note). The validator checks the
// evidence an offer names against its level; the page's copy leaves it out.
enum class EvidenceKind { platform_read, third_party_read, agreeing_notes, note };
inline constexpr Spelling<EvidenceKind> kEvidenceKindSpellings[] = {
    {EvidenceKind::platform_read, "platform_read"},
    {EvidenceKind::third_party_read, "third_party_read"},
    {EvidenceKind::agreeing_notes, "agreeing_notes"},
    {EvidenceKind::note, "note"}};
static_assert(spells_each_once(kEvidenceKindSpellings, EvidenceKind::note));

// The CPU an instance gives with each card (catalog `cpu`, on a platform or,
// where the platform's pages differ by card, on an offer): what feeds a data
// loader that decodes and augments images (estimate/data_loader.h). Absent:
// unknown, and the planner claims nothing about the loader.
struct CpuAllowance {
  int vcpus_per_gpu = 0;
  std::string as_of;
  std::string source;
  std::string confidence;
};

struct Offer {
  std::string gpu;  // Gpu::id
  Billing billing = Billing::on_demand;
  PriceKind price_kind = PriceKind::list;
  // In `currency`. For a floor or promo the catalog gives no typical (the
  // validator refuses one); the typed `typical` then holds `low`, so no zero
  // ever reads as a price, and only price_kind says whether it is typical.
  PriceRange per_gpu_hour;
  // A package's price for one GPU for its whole period (a day, week, 30-day
  // month or year), as the platform quotes it; per_gpu_hour is then this over
  // the period's hours. nullopt for hourly billing.
  std::optional<PriceRange> per_period;
  std::string currency;     // "CNY" or "USD"
  std::string as_of;
  std::string source;
  std::string confidence;  // "high", "medium", "low" (required on an offer)
  std::string note;        // caveat for this price (form factor assumed, 8-GPU only, ...)
  int max_gpus = 0;        // cards one instance of this product carries (1: a single-GPU product such as
                           // Tencent HAI); 0: the platform's machine size
  std::optional<EvidenceKind> evidence;  // nullopt only in the page's copy
  std::optional<CpuAllowance> cpu;       // this product's vCPUs per card; nullopt: the platform's

  bool typical_known() const { return price_kind == PriceKind::list; }
  // Whether this price may price a plan (contract v1.2): a list price of
  // medium or high confidence. Floors, promotions and low-confidence figures
  // are shown beside the plan as references, never as its cost.
  bool of_standing() const { return typical_known() && (confidence == "high" || confidence == "medium"); }
};

enum class PlatformKind { cloud, marketplace, campus };
inline constexpr Spelling<PlatformKind> kPlatformKindSpellings[] = {
    {PlatformKind::cloud, "cloud"}, {PlatformKind::marketplace, "marketplace"}, {PlatformKind::campus, "campus"}};
static_assert(spells_each_once(kPlatformKindSpellings, PlatformKind::campus));

// A student or research credit programme. credit_amount 0 = amount unknown.
struct EducationProgram {
  Text name;
  double credit_amount = 0;  // in `currency`
  std::string currency;
  Text eligibility;
  std::string as_of;
  std::string source;
};

// How a reference rate's range reads. `range`: one price or a spread of
// prices (low <= typical <= high). `queue_priority`: a centre that prices by
// queue priority (PKU's low / normal / high QOS): low, typical and high are
// the low-, normal- and high-priority queues' rates, strictly rising, and the
// planner's campus advice quotes them.
enum class RatePricedBy { range, queue_priority };
inline constexpr Spelling<RatePricedBy> kRatePricedBySpellings[] = {
    {RatePricedBy::range, "range"}, {RatePricedBy::queue_priority, "queue_priority"}};
static_assert(spells_each_once(kRatePricedBySpellings, RatePricedBy::queue_priority));

// A published rate that is not an offer: a university's card-hour price shown
// beside the campus template, where the user's own rate is what counts.
struct ReferenceRate {
  Text name;
  PriceRange per_gpu_hour;
  RatePricedBy priced_by = RatePricedBy::range;
  std::string currency;
  std::string as_of;
  std::string source;      // empty in the page's copy (CatalogProfile::page)
  std::string confidence;  // required on a queue_priority rate (the planner quotes it)
  Text note;
};

// How a platform bills beyond the hourly price. Every rule is
// nullopt where no source states it: the planner says "unknown" then, and
// never prices an unknown rule at zero. Amounts are in the platform's
// `currency`.
// The smallest amount one start of an instance bills (AutoDL: 最低 0.01 元),
// with where the rule was read.
struct MinimumCharge {
  double amount = 0;  // in the platform's currency
  std::string currency;
  std::string as_of;
  std::string source;  // empty in the page's copy (CatalogProfile::page)
  std::string confidence;
};

struct BillingRules {
  std::optional<double> granularity_seconds;     // time is rounded up to this (1 = per second)
  std::optional<double> minimum_charge_seconds;  // smallest billed time per start
  std::optional<MinimumCharge> minimum_charge;   // smallest billed amount per start
  std::optional<double> minimum_balance;         // balance needed to start pay-as-you-go
  std::optional<double> release_after_stopped_days;  // a shut-down instance (and its disks) is released after this
  std::vector<Billing> packages;                 // packages the platform sells, priced in offers or not
  std::optional<double> disk_per_gb_day;         // paid data disk beyond the free quota
  std::optional<bool> disk_bills_while_stopped;  // the data disk bills while the instance is shut down
  std::optional<double> free_disk_gb;            // data disk included with an instance
  std::optional<double> egress_per_gb;           // internet egress
  std::optional<double> low_cost_mode_per_hour;  // GPU-less mode for setup and downloads (AutoDL 无卡模式)
  Text low_cost_mode;                            // that mode's name and what it gives
};

struct Platform {
  std::string id;
  Text name;
  PlatformKind kind = PlatformKind::marketplace;
  std::string region;
  std::string currency;
  double billing_granularity_seconds = 3600;  // the unit time is rounded up to
  double minimum_charge_seconds = 0;
  double minimum_charge = 0;                  // smallest amount one start bills, in `currency`; 0 when none is stated
  bool disk_bills_after_release = false;      // a released or stopped instance still bills its disks
  double storage_per_gb_month = 0;            // in `currency`; 0 when unknown
  double free_storage_gb = 0;
  double egress_per_gb = 0;
  double spot_discount = 0;                   // typical fraction off on-demand (0.7 = pays 30 %)
  double spot_interruptions_per_hour = 0;     // expected reclaim rate when spot exists
  double off_peak_discount = 0;
  double education_discount = 0;              // fraction off for verified students
  std::string queue_risk;                     // "low", "medium", "high"
  Text notes;
  std::vector<std::string> sources;
  std::vector<Offer> offers;

  // What is known beyond the numbers above (all optional in the catalog).
  Text billing_notes;
  double storage_stopped_per_gb_month = 0;    // volume price while the instance is stopped; 0 = unknown
  Text storage_notes;
  double cpu_only_per_hour = 0;               // GPU-less mode for downloads and setup; 0 = none or unknown
  std::optional<bool> spot_available;         // nullopt = unknown
  double spot_max_discount = 0;               // the largest discount claimed ("as low as 30 %" = 0.7)
  Text spot_notes;
  Text queue_notes;
  std::vector<EducationProgram> education;
  bool prices_known = true;                   // false: no public price, the page asks for the user's quote
  bool priced_by_user = false;                // the campus template: the user's own rate, never a catalog price
  std::vector<ReferenceRate> reference_rates;

  // The rules above as optionals: nullopt where the catalog does not say.
  // The plain fields (billing_granularity_seconds, storage_per_gb_month,
  // egress_per_gb, cpu_only_per_hour, spot_discount ...) read the same JSON
  // with 0 (3600 for the granularity) standing for unknown.
  BillingRules rules;

  // Machines, not counts: what one rented machine carries and
  // whether several can be joined for one job (catalog `machines`; by
  // default 1 to 8 cards of one machine, joined only where `joinable` says
  // so: clouds with a stated network, campus clusters).
  int machine_max_gpus = 8;                   // cards one machine carries; any count up to it is rented
  bool machines_joinable = false;             // several machines for one job (data-centre cards only)
  double network_gbps = 0;                    // per machine between machines; 0 = unknown
  Text machines_notes;
  std::optional<CpuAllowance> cpu;            // vCPUs an instance gives per card; nullopt = unknown
};

struct ExchangeRate {
  double cny_per_usd = 0;
  std::string as_of;
  std::string source;
};

// The electricity tariff rent-or-buy charges a bought card's power at when
// the request gives none (`buy.electricity_per_kwh`): catalog/meta.json
// `electricity`, with its source, date and confidence.
struct ElectricityTariff {
  double per_kwh = 0;      // in `currency`
  std::string currency;
  std::string as_of;
  std::string source;      // empty in the page's copy (CatalogProfile::page)
  std::string confidence;
  std::string note;        // the range behind the figure; empty in the page's copy
};

struct Catalog {
  std::string version;
  ExchangeRate fx;
  ElectricityTariff electricity;
  std::vector<Gpu> gpus;
  std::vector<Platform> platforms;
  std::vector<ModelSpec> models;

  const Gpu* find_gpu(std::string_view id) const;
  const Platform* find_platform(std::string_view id) const;
  const ModelSpec* find_model(std::string_view id) const;
};

// Whether a price dated `as_of` ("2026", "2026-05" or "2026-05-30"; a missing
// month or day reads as the first) is more than six months older than
// `reference` (the catalog's date, meta.json `version`): the one rule of a
// price's age. The response marks its offers by it (`offer.stale`), the
// page's copy of the catalog its offers (`stale: true`), and the page says
// to check such a price on the platform (core/src/read/price_age.cpp).
bool price_is_stale(std::string_view as_of, std::string_view reference);

// Which copy of the catalog a build carries. `full`: every field and every
// source, required (the CLI, the Node module, `gpuplan catalog`). `page`: the
// page's module leaves out the provenance prose the page never shows (GPU and
// model sources and notes, platform prose the page does not render), to keep
// the page within its weight budget (docs/performance.md); the page
// says where those sources are. A page copy is only ever made from a catalog
// already validated in full (tools/catalog_embed.cpp), so its reader accepts
// the missing prose and nothing else.
enum class CatalogProfile { full, page };

// Parses and validates catalog JSON (the merged form `gpuplan catalog` prints).
// Errors name the JSON path, e.g. "platforms[2].offers[0].source".
Result<Catalog> parse_catalog(std::string_view json_text, CatalogProfile profile = CatalogProfile::full);

// The catalog JSON of `profile` made from the full catalog's text: for `page`,
// without the fields listed in core/src/read/catalog_profile.cpp and with
// "provenance": "page" at its root. Build-time only (the embed step).
Result<std::string> catalog_profile_json(std::string_view full_json, CatalogProfile profile);

// A price's source as the page shows it, and as the page's copy of the
// catalog and every response's `offer.source` carry it: the site a student can
// open (the host, or "github.com/owner/repo"), or one of the words the page
// translates, "student article" (one of the articles students wrote, unverified) and "unverified" (web/src/views/words.ts,
// sourceText). Never a file name, a tag or a note.
std::string page_source_label(std::string_view source);
// A catalog entry's source as a response carries it: page_source_label() of it,
// except in the page's module (GPUPLAN_TRUSTED_CATALOG), whose copy of the
// catalog holds the labels already, made by page_source_label() at build time
// (catalog_profile_json; tests/core/catalog_profile_test.cpp holds each label to
// be its own), so the module carries no labelling code.
std::string shown_source(std::string_view source);
// A scenario's source as the page shows it: the repository, the paper
// (authors, year, arXiv id), the site or the document's name, or "unverified".
std::string page_citation(std::string_view source);

// The catalog compiled into this build (validated at build time).
const Catalog& embedded_catalog();
// Its JSON text, as `gpuplan catalog` prints it.
std::string_view embedded_catalog_json();
// Which profile it is: `page` only in the page's module.
CatalogProfile embedded_catalog_profile();

}  // namespace gpuplan
