// The catalog: the embedded one is complete, and broken ones are refused with
// a message naming the place.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/pricing.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

TEST(Catalog, EmbeddedCatalogParses) {
  Result<Catalog> c = parse_catalog(embedded_catalog_json());
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_FALSE(c.value().gpus.empty());
  EXPECT_FALSE(c.value().models.empty());
}

TEST(Catalog, SkeletonPresetsArePresent) {
  for (const char* id : {"llama-3.1-8b", "llama-2-7b", "bert-large"})
    EXPECT_NE(embedded_catalog().find_model(id), nullptr) << id;
}

TEST(Catalog, MinimalCatalogIsValid) {
  Result<Catalog> c = parse_catalog(minimal_catalog().dump());
  ASSERT_TRUE(c.ok()) << c.error().message;
}

struct Breakage {
  const char* name;
  const char* json_pointer;  // where to change the minimal catalog
  nlohmann::json value;      // new value; null removes the field
  const char* path;          // expected error path
};

class BrokenCatalog : public ::testing::TestWithParam<Breakage> {};

TEST_P(BrokenCatalog, IsRefusedWithThePath) {
  nlohmann::json c = minimal_catalog();
  nlohmann::json::json_pointer ptr(GetParam().json_pointer);
  if (GetParam().value.is_null()) c[ptr.parent_pointer()].erase(ptr.back());
  else c[ptr] = GetParam().value;
  Result<Catalog> r = parse_catalog(c.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, GetParam().path) << r.error().message;
  EXPECT_NE(r.error().message.find(GetParam().path), std::string::npos) << r.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Validation, BrokenCatalog,
    ::testing::Values(
        Breakage{"missing_offer_source", "/platforms/0/offers/0/source", nullptr, "platforms[0].offers[0].source"},
        Breakage{"missing_gpu_sources", "/gpus/0/sources", nullptr, "gpus[0].sources"},
        Breakage{"negative_price", "/platforms/0/offers/0/per_gpu_hour/low", -1, "platforms[0].offers[0].per_gpu_hour.low"},
        Breakage{"unordered_price", "/platforms/0/offers/0/per_gpu_hour/high", 1.5, "platforms[0].offers[0].per_gpu_hour"},
        Breakage{"unknown_gpu_in_offer", "/platforms/0/offers/0/gpu", "g9", "platforms[0].offers[0].gpu"},
        Breakage{"duplicate_gpu", "/gpus/1", nlohmann::json::parse(R"({"id":"g1","name":"again","memory_bytes":25769803776,"memory_basis":"nominal","memory_bandwidth_gb_s":1,"tflops":{"fp32":1},"sources":["x"]})"), "gpus[1].id"},
        Breakage{"missing_as_of", "/platforms/0/offers/0/as_of", nullptr, "platforms[0].offers[0].as_of"},
        Breakage{"bad_kind", "/platforms/0/kind", "reseller", "platforms[0].kind"},
        Breakage{"missing_platform_sources", "/platforms/0/sources", nullptr, "platforms[0].sources"},
        Breakage{"negative_typical", "/platforms/0/offers/0/per_gpu_hour/typical", -2, "platforms[0].offers[0].per_gpu_hour.typical"},
        Breakage{"low_above_typical", "/platforms/0/offers/0/per_gpu_hour/low", 2.5, "platforms[0].offers[0].per_gpu_hour"},
        Breakage{"missing_price_range", "/platforms/0/offers/0/per_gpu_hour", nullptr, "platforms[0].offers[0].per_gpu_hour"},
        Breakage{"as_of_not_a_date", "/platforms/0/offers/0/as_of", "recent", "platforms[0].offers[0].as_of"},
        Breakage{"as_of_bad_month", "/platforms/0/offers/0/as_of", "2026-13", "platforms[0].offers[0].as_of"},
        Breakage{"empty_offer_source", "/platforms/0/offers/0/source", "", "platforms[0].offers[0].source"},
        Breakage{"offer_currency", "/platforms/0/offers/0/currency", "EUR", "platforms[0].offers[0].currency"},
        Breakage{"unknown_billing", "/platforms/0/offers/0/billing", "hourly", "platforms[0].offers[0].billing"},
        Breakage{"second_offer_same_billing", "/platforms/0/offers/1",
                 nlohmann::json::parse(R"({"gpu":"g1","billing":"on-demand","price_kind":"list","per_gpu_hour":{"low":1,"typical":1,"high":1},"currency":"CNY","as_of":"2026","source":"s","confidence":"low", "evidence": {"kind": "note", "read": "test"}})"),
                 "platforms[0].offers[1].gpu"},
        Breakage{"duplicate_platform", "/platforms/1",
                 nlohmann::json::parse(R"({"id":"p1","name":"again","kind":"cloud","currency":"USD","sources":["x"]})"), "platforms[1].id"},
        Breakage{"offers_on_user_priced", "/platforms/0/priced_by_user", true, "platforms[0].offers"},
        Breakage{"offers_with_unknown_prices", "/platforms/0/prices_known", false, "platforms[0].prices_known"},
        Breakage{"max_discount_below_typical", "/platforms/0/spot",
                 nlohmann::json::parse(R"({"available":true,"discount":0.6,"max_discount":0.5})"), "platforms[0].spot.max_discount"},
        Breakage{"discount_without_spot", "/platforms/0/spot",
                 nlohmann::json::parse(R"({"available":false,"discount":0.5})"), "platforms[0].spot.discount"},
        Breakage{"education_without_source", "/platforms/0/education",
                 nlohmann::json::parse(R"([{"name":"credits","credit":100,"currency":"USD","as_of":"2026"}])"), "platforms[0].education[0].source"},
        Breakage{"education_without_as_of", "/platforms/0/education",
                 nlohmann::json::parse(R"([{"name":"credits","source":"site"}])"), "platforms[0].education[0].as_of"},
        Breakage{"reference_rate_disorder", "/platforms/0/reference_rates",
                 nlohmann::json::parse(R"([{"name":"uni","per_gpu_hour":{"low":3,"typical":2,"high":4},"currency":"CNY","as_of":"2025","source":"s"}])"),
                 "platforms[0].reference_rates[0].per_gpu_hour"},
        Breakage{"missing_memory_basis", "/gpus/0/memory_basis", nullptr, "gpus[0].memory_basis"},
        Breakage{"no_rate_at_all", "/gpus/0/tflops", nlohmann::json::parse(R"({"fp64": 1})"), "gpus[0].tflops"},
        Breakage{"negative_fp32", "/gpus/0/tflops/fp32", -1, "gpus[0].tflops.fp32"},
        Breakage{"purchase_without_as_of", "/gpus/0/purchase",
                 nlohmann::json::parse(R"({"amount":1599,"currency":"USD","source":"msrp"})"), "gpus[0].purchase.as_of"},
        Breakage{"purchase_negative", "/gpus/0/purchase",
                 nlohmann::json::parse(R"({"amount":-1,"currency":"USD","as_of":"2022","source":"msrp"})"), "gpus[0].purchase.amount"},
        Breakage{"missing_price_kind", "/platforms/0/offers/0/price_kind", nullptr, "platforms[0].offers[0].price_kind"},
        Breakage{"unknown_price_kind", "/platforms/0/offers/0/price_kind", "typical", "platforms[0].offers[0].price_kind"},
        Breakage{"missing_offer_confidence", "/platforms/0/offers/0/confidence", nullptr, "platforms[0].offers[0].confidence"},
        // A floor (the cheapest listing seen) or a promotion used as the typical price.
        Breakage{"floor_as_typical", "/platforms/0/offers/0/price_kind", "floor", "platforms[0].offers[0].per_gpu_hour.typical"},
        Breakage{"promo_as_typical", "/platforms/0/offers/0/price_kind", "promo", "platforms[0].offers[0].per_gpu_hour.typical"},
        Breakage{"zero_price", "/platforms/0/offers/0/per_gpu_hour", nlohmann::json::parse(R"({"low":0,"typical":0,"high":0})"),
                 "platforms[0].offers[0].per_gpu_hour"},
        Breakage{"period_price_on_hourly_billing", "/platforms/0/offers/0/per_period",
                 nlohmann::json::parse(R"({"low":720,"typical":1440,"high":2160})"), "platforms[0].offers[0].per_period"},
        Breakage{"package_not_a_billing", "/platforms/0/billing_rules",
                 nlohmann::json::parse(R"({"packages":["monthly","on-demand"]})"), "platforms[0].billing_rules.packages[1]"},
        Breakage{"disk_priced_twice", "/platforms/0/storage", nlohmann::json::parse(R"({"per_gb_day":0.0066,"per_gb_month":0.2})"),
                 "platforms[0].storage.per_gb_day"},
        Breakage{"stopped_price_on_disk_free_while_stopped", "/platforms/0/storage",
                 nlohmann::json::parse(R"({"per_gb_month":0.2,"bills_while_stopped":false,"stopped_per_gb_month":0.2})"),
                 "platforms[0].storage.stopped_per_gb_month"},
        Breakage{"release_after_zero_days", "/platforms/0/billing_rules", nlohmann::json::parse(R"({"release_after_stopped_days":0})"),
                 "platforms[0].billing_rules.release_after_stopped_days"},
        Breakage{"negative_minimum_balance", "/platforms/0/billing_rules", nlohmann::json::parse(R"({"minimum_balance":-1})"),
                 "platforms[0].billing_rules.minimum_balance"},
        Breakage{"fx_without_source", "/fx/source", nullptr, "fx.source"},
        Breakage{"fx_without_as_of", "/fx/as_of", nullptr, "fx.as_of"},
        // Rent or buy's default power price is a figure like any price (issue #17).
        Breakage{"electricity_missing", "/electricity", nullptr, "electricity"},
        Breakage{"electricity_without_source", "/electricity/source", nullptr, "electricity.source"},
        Breakage{"electricity_without_as_of", "/electricity/as_of", nullptr, "electricity.as_of"},
        Breakage{"electricity_without_confidence", "/electricity/confidence", nullptr, "electricity.confidence"},
        Breakage{"electricity_without_value", "/electricity/per_kwh", nullptr, "electricity.per_kwh"},
        Breakage{"electricity_free", "/electricity/per_kwh", 0, "electricity.per_kwh"},
        Breakage{"electricity_currency", "/electricity/currency", "EUR", "electricity.currency"},
        // Queue-priority tiers: priority costs more, and the planner quotes them.
        Breakage{"queue_priority_flat", "/platforms/0/reference_rates",
                 nlohmann::json::parse(R"([{"name":"uni","per_gpu_hour":{"low":4,"typical":4,"high":8},"priced_by":"queue_priority","currency":"CNY","as_of":"2018","source":"s","confidence":"high"}])"),
                 "platforms[0].reference_rates[0].per_gpu_hour"},
        Breakage{"queue_priority_without_confidence", "/platforms/0/reference_rates",
                 nlohmann::json::parse(R"([{"name":"uni","per_gpu_hour":{"low":4,"typical":6,"high":8},"priced_by":"queue_priority","currency":"CNY","as_of":"2018","source":"s"}])"),
                 "platforms[0].reference_rates[0].confidence"},
        Breakage{"queue_priority_without_source", "/platforms/0/reference_rates",
                 nlohmann::json::parse(R"([{"name":"uni","per_gpu_hour":{"low":4,"typical":6,"high":8},"priced_by":"queue_priority","currency":"CNY","as_of":"2018","confidence":"high"}])"),
                 "platforms[0].reference_rates[0].source"},
        Breakage{"unknown_priced_by", "/platforms/0/reference_rates",
                 nlohmann::json::parse(R"([{"name":"uni","per_gpu_hour":{"low":4,"typical":6,"high":8},"priced_by":"priority","currency":"CNY","as_of":"2018","source":"s"}])"),
                 "platforms[0].reference_rates[0].priced_by"}),
    [](const ::testing::TestParamInfo<Breakage>& info) { return std::string(info.param.name); });

// A monthly package as the platform quotes it, beside its hourly equivalent.
nlohmann::json monthly_offer(double per_month, double per_hour) {
  return {{"gpu", "g1"},          {"billing", "monthly"},
          {"price_kind", "list"}, {"per_period", {{"low", per_month}, {"typical", per_month}, {"high", per_month}}},
          {"per_gpu_hour", {{"low", per_hour}, {"typical", per_hour}, {"high", per_hour}}},
          {"currency", "CNY"},    {"as_of", "2026-10"},
          {"source", "https://example.org/price"},
          {"confidence", "medium"},
          {"evidence", {{"kind", "third_party_read"}, {"read", "包月"}, {"url", "https://example.org/price"},
                        {"recorded_in", "a note"}, {"read_on", "2026-10"}}}};
}

TEST(Catalog, AFloorIsKeptButNeverTypical) {
  nlohmann::json c = minimal_catalog();
  c["platforms"][0]["offers"].push_back({{"gpu", "g1"}, {"billing", "on-demand"}, {"price_kind", "floor"},
                                         {"per_gpu_hour", {{"low", 0.76}, {"high", 1.2}}}, {"currency", "CNY"},
                                         {"as_of", "2026"}, {"source", "unverified"}, {"confidence", "low"},
                                         {"evidence", {{"kind", "note"}, {"read", "0.76 起"}}}});
  Result<Catalog> r = parse_catalog(c.dump());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& offers = r.value().platforms[0].offers;
  ASSERT_EQ(offers.size(), 2u);
  EXPECT_TRUE(offers[0].typical_known());
  EXPECT_EQ(offers[1].price_kind, PriceKind::floor);
  EXPECT_FALSE(offers[1].typical_known());
  // Never a zero that could read as free.
  EXPECT_EQ(offers[1].per_gpu_hour.typical, 0.76);
  // A second floor for the same card and billing is one range.
  c["platforms"][0]["offers"].push_back(c["platforms"][0]["offers"][1]);
  r = parse_catalog(c.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "platforms[0].offers[2].gpu");
}

TEST(Catalog, APackageQuotedPerPeriodMustAgreeWithItsHourlyFigure) {
  nlohmann::json c = minimal_catalog();
  c["platforms"][0]["offers"].push_back(monthly_offer(1052, 1052.0 / 720));
  Result<Catalog> r = parse_catalog(c.dump());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Offer& o = r.value().platforms[0].offers[1];
  ASSERT_TRUE(o.per_period.has_value());
  EXPECT_EQ(o.per_period->typical, 1052);
  EXPECT_TRUE(is_package(o.billing));
  // 1052 a month read as 1052 / 730 h (a calendar month) is off by 1.4 %: refused.
  c["platforms"][0]["offers"][1] = monthly_offer(1052, 1052.0 / 730);
  r = parse_catalog(c.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "platforms[0].offers[1].per_gpu_hour");
  // Weekly and daily packages: 7 x 24 and 24 hours.
  nlohmann::json weekly = monthly_offer(168, 1);
  weekly["billing"] = "weekly";
  nlohmann::json daily = monthly_offer(36, 1.5);
  daily["billing"] = "daily";
  c["platforms"][0]["offers"][1] = weekly;
  c["platforms"][0]["offers"].push_back(daily);
  r = parse_catalog(c.dump());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().platforms[0].offers[1].billing, Billing::weekly);
  EXPECT_EQ(r.value().platforms[0].offers[2].billing, Billing::daily);
}

TEST(Catalog, BillingRulesNobodyStatedAreUnknownNotZero) {
  Result<Catalog> bare = parse_catalog(minimal_catalog().dump());
  ASSERT_TRUE(bare.ok());
  const BillingRules& none = bare.value().platforms[0].rules;
  EXPECT_FALSE(none.granularity_seconds);
  EXPECT_FALSE(none.disk_per_gb_day);
  EXPECT_FALSE(none.disk_bills_while_stopped);
  EXPECT_FALSE(none.release_after_stopped_days);
  EXPECT_FALSE(none.egress_per_gb);
  EXPECT_FALSE(none.minimum_balance);
  EXPECT_FALSE(none.low_cost_mode_per_hour);
  EXPECT_TRUE(none.packages.empty());

  nlohmann::json c = minimal_catalog();
  auto& p = c["platforms"][0];
  p["billing_rules"] = {{"granularity_seconds", 1}, {"minimum_balance", 100}, {"release_after_stopped_days", 15},
                        {"packages", {"daily", "weekly", "monthly"}}};
  p["storage"] = {{"per_gb_day", 0.0066}, {"bills_while_stopped", true}, {"free_gb", 50}};
  p["egress_per_gb"] = 0;  // a stated zero is a rule: free egress
  p["cpu_only_per_hour"] = 0.1;
  Result<Catalog> r = parse_catalog(c.dump());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Platform& got = r.value().platforms[0];
  EXPECT_EQ(got.rules.granularity_seconds, 1);
  EXPECT_EQ(got.rules.minimum_balance, 100);
  EXPECT_EQ(got.rules.release_after_stopped_days, 15);
  EXPECT_EQ(got.rules.packages, (std::vector<Billing>{Billing::daily, Billing::weekly, Billing::monthly}));
  EXPECT_EQ(got.rules.disk_per_gb_day, 0.0066);
  EXPECT_EQ(got.rules.disk_bills_while_stopped, true);
  EXPECT_EQ(got.rules.egress_per_gb, 0.0);
  EXPECT_EQ(got.rules.low_cost_mode_per_hour, 0.1);
  // The per-month figure the planner's storage cost reads: 0.0066 x 30 days.
  EXPECT_NEAR(got.storage_per_gb_month, 0.198, 1e-12);
}

// The ids outside checks rely on (the contract's "Catalog ids" section).
const std::vector<std::string> kContractGpus = {
    "t4", "v100-sxm2-16g", "v100-sxm2-32g", "rtx-2080ti", "rtx-3060", "rtx-3080", "rtx-3090",
    "rtx-4090", "rtx-4090d", "rtx-5090", "rtx-a6000", "titan-rtx", "a10", "a10g", "l4", "l20", "l40s",
    "a100-pcie-40g", "a100-sxm4-40g", "a100-pcie-80g", "a100-sxm4-80g", "a800-80g", "h100-pcie",
    "h100-sxm", "h20", "h200", "b200", "ascend-910b",
    // contract v1.1
    "h800", "a40", "rtx-3080ti", "rtx-4080s", "rtx-pro-6000"};
const std::vector<std::string> kContractPlatforms = {
    "autodl", "gpushare", "zhixingyun", "jianmi", "kufan", "aliyun", "tencentcloud", "huaweicloud",
    "campus", "aws", "gcp", "azure", "runpod", "vast", "lambda"};
const std::vector<std::string> kContractModels = {
    "resnet-50", "bert-base", "bert-large", "gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl",
    "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.2-3b",
    "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-72b", "mistral-7b", "mixtral-8x7b"};

TEST(EmbeddedCatalog, HasEveryContractGpuPlatformAndModel) {
  const Catalog& c = embedded_catalog();
  for (const auto& id : kContractGpus) EXPECT_NE(c.find_gpu(id), nullptr) << "GPU " << id;
  for (const auto& id : kContractPlatforms) EXPECT_NE(c.find_platform(id), nullptr) << "platform " << id;
  for (const auto& id : kContractModels) EXPECT_NE(c.find_model(id), nullptr) << "model " << id;
}

TEST(EmbeddedCatalog, EveryPriceHasSourceDateAndOrderedPositiveRange) {
  const Catalog& c = embedded_catalog();
  size_t offers = 0;
  for (const auto& p : c.platforms) {
    EXPECT_FALSE(p.sources.empty()) << p.id;
    for (const auto& o : p.offers) {
      ++offers;
      std::string where = p.id + " / " + o.gpu;
      EXPECT_FALSE(o.source.empty()) << where;
      EXPECT_GE(o.as_of.size(), 4u) << where;
      // A price dated after the catalog's own version would be a typo or an invention.
      EXPECT_LE(o.as_of, c.version) << where;
      EXPECT_GT(o.per_gpu_hour.low, 0) << where;
      EXPECT_LE(o.per_gpu_hour.low, o.per_gpu_hour.typical) << where;
      EXPECT_LE(o.per_gpu_hour.typical, o.per_gpu_hour.high) << where;
      EXPECT_TRUE(o.currency == "CNY" || o.currency == "USD") << where;
      EXPECT_NE(o.confidence, "unknown") << where << ": say how far the price was checked";
    }
    for (const auto& r : p.reference_rates) {
      EXPECT_FALSE(r.source.empty()) << p.id;
      EXPECT_LE(r.as_of, c.version) << p.id;
    }
  }
  EXPECT_GE(offers, 40u) << "the catalog lost most of its prices";
  EXPECT_FALSE(c.fx.source.empty());
  EXPECT_LE(c.fx.as_of, c.version);
  EXPECT_LE(c.electricity.as_of, c.version);
  EXPECT_NE(c.electricity.confidence, "unknown");
}

// The electricity rent or buy charges when the request gives none: the
// catalog's sourced figure (issue #17), which the parser reads as written.
TEST(EmbeddedCatalog, ElectricityDefaultIsTheSourcedTariff) {
  const nlohmann::json meta = nlohmann::json::parse(read_file("catalog/meta.json"));
  // `gpuplan catalog` prints the embedded document: the tariff with its source.
  EXPECT_EQ(nlohmann::json::parse(embedded_catalog_json())["electricity"], meta["electricity"]);
  const ElectricityTariff& e = embedded_catalog().electricity;
  EXPECT_EQ(e.per_kwh, meta["electricity"]["per_kwh"].get<double>());
  EXPECT_EQ(e.currency, "CNY");
  EXPECT_EQ(e.source, meta["electricity"]["source"].get<std::string>());
  // The tariffs it cites: Beijing's first tier (0.4883) up to Zhejiang's third (0.838).
  EXPECT_GE(e.per_kwh, 0.4883);
  EXPECT_LE(e.per_kwh, 0.838);
  EXPECT_FALSE(e.note.empty()) << "say which tier the default is and why";
}

// The campus template carries the queue-priority tiers the advice quotes
// (issue #14, item 6): PKU's Weiming-2, dated and sourced.
TEST(EmbeddedCatalog, CampusCarriesQueuePriorityTiers) {
  const Platform* campus = embedded_catalog().find_platform("campus");
  ASSERT_NE(campus, nullptr);
  int tiered = 0;
  for (const auto& r : campus->reference_rates) {
    if (r.priced_by != RatePricedBy::queue_priority) continue;
    ++tiered;
    EXPECT_LT(r.per_gpu_hour.low, r.per_gpu_hour.typical) << r.name.en;
    EXPECT_LT(r.per_gpu_hour.typical, r.per_gpu_hour.high) << r.name.en;
    EXPECT_NE(r.confidence, "unknown") << r.name.en;
  }
  EXPECT_GE(tiered, 1);
  const ReferenceRate& first = campus->reference_rates.front();
  EXPECT_EQ(first.priced_by, RatePricedBy::queue_priority);
  EXPECT_EQ(first.per_gpu_hour.low, 4);
  EXPECT_EQ(first.per_gpu_hour.typical, 6);
  EXPECT_EQ(first.per_gpu_hour.high, 8);
  EXPECT_EQ(first.as_of.substr(0, 4), "2018");
}

// What the page shows as a price's source is something a student can open, or
// an honest "unverified": never an internal file, a seed article's name or a
// judgement of a guide's style (issue #14).
TEST(EmbeddedCatalog, EveryPriceSourceIsAnAddressOrSaysUnverified) {
  const Catalog& c = embedded_catalog();
  auto check = [](const std::string& source, const std::string& where) {
    const bool address = source.find("https://") != std::string::npos || source.find("http://") != std::string::npos;
    EXPECT_TRUE(address || source.rfind("unverified", 0) == 0) << where << ": " << source;
    for (const char* internal : {".txt", "种子文章", "seed article", "Seed 0", "LLM-style", "LLM-written"})
      EXPECT_EQ(source.find(internal), std::string::npos) << where << " names \"" << internal << "\": " << source;
  };
  for (const auto& p : c.platforms) {
    for (const auto& o : p.offers) check(o.source, p.id + " / " + o.gpu);
    for (const auto& r : p.reference_rates) check(r.source, p.id + " / " + r.name.en);
  }
  check(c.electricity.source, "electricity");
}

// Issue #14: a domestic plan needs current Chinese prices. Every CNY offer is
// dated within the last year of the catalog's version, and the 80 GB cards
// Chinese platforms rent (A800, H800, H20) and the 4090D / 5090 have offers.
TEST(EmbeddedCatalog, ChinesePlatformsListTheCardsStudentsRent) {
  const Catalog& c = embedded_catalog();
  const std::string year_before = std::to_string(std::stoi(c.version.substr(0, 4)) - 1) + c.version.substr(4);
  std::set<std::string> cards;
  for (const auto& p : c.platforms)
    for (const auto& o : p.offers) {
      if (o.currency != "CNY") continue;
      EXPECT_GE(o.as_of, year_before.substr(0, o.as_of.size())) << p.id << " / " << o.gpu << " is stale";
      if (o.typical_known()) cards.insert(o.gpu);
    }
  for (const char* gpu : {"rtx-4090", "rtx-4090d", "rtx-5090", "rtx-3090", "a800-80g", "h800", "h20"})
    EXPECT_TRUE(cards.count(gpu)) << gpu << " has no list price on a Chinese platform";
}

TEST(EmbeddedCatalog, EveryGpuFigureHasItsSource) {
  for (const auto& g : embedded_catalog().gpus) {
    ASSERT_FALSE(g.sources.empty()) << g.id;
    bool memory_sourced = false;
    for (const auto& s : g.sources) memory_sourced |= s.find("memory_bytes") != std::string::npos;
    EXPECT_TRUE(memory_sourced) << g.id << ": no source says where memory_bytes comes from";
    EXPECT_TRUE(g.memory_basis == "driver" || g.memory_basis == "nominal") << g.id;
    // The driver reports whole MiB; a nominal size is whole GiB.
    double unit = g.memory_basis == "driver" ? 1024.0 * 1024.0 : kGiB;
    EXPECT_EQ(std::fmod(g.memory_bytes, unit), 0.0) << g.id;
    EXPECT_GT(g.memory_bandwidth_bytes_per_s, 0) << g.id;
    EXPECT_NE(g.confidence, "unknown") << g.id;
    if (g.purchase) {
      EXPECT_FALSE(g.purchase->source.empty()) << g.id;
      EXPECT_LE(g.purchase->as_of, embedded_catalog().version) << g.id;
    }
  }
}

// GeForce Ampere/Ada/Blackwell cards run FP16/BF16 tensor math with FP32
// accumulate (what AMP uses) at half the FP16-accumulate headline, which makes
// it twice the FP32 rate (3090: 71 vs 35.6; 4090: 165.2 vs 82.6). A catalog
// that carried the headline instead would show 4x and overstate speed 2x.
TEST(EmbeddedCatalog, GeForceTensorRatesAreTheFp32AccumulateRates) {
  int checked = 0;
  for (const auto& g : embedded_catalog().gpus) {
    bool geforce = g.name.rfind("GeForce", 0) == 0;
    bool tensor_fp32_double = g.arch == "Ampere" || g.arch == "Ada" || g.arch == "Blackwell";
    if (!geforce || !tensor_fp32_double) continue;
    ++checked;
    double ratio = g.tflops.fp16_tensor / g.tflops.fp32;
    EXPECT_GT(ratio, 1.7) << g.id;
    EXPECT_LT(ratio, 2.2) << g.id << ": looks like the FP16-accumulate headline";
    EXPECT_NEAR(g.tflops.bf16_tensor, g.tflops.fp16_tensor, 0.01 * g.tflops.fp16_tensor) << g.id;
  }
  EXPECT_GE(checked, 6);
}

TEST(EmbeddedCatalog, PlatformsWithoutPricesAskForTheUsersQuote) {
  const Catalog& c = embedded_catalog();
  for (const char* id : {"jianmi", "kufan"}) {
    const Platform* p = c.find_platform(id);
    ASSERT_NE(p, nullptr) << id;
    EXPECT_TRUE(p->offers.empty()) << id << ": no public price was found, so none may be invented";
    EXPECT_FALSE(p->prices_known) << id;
    EXPECT_FALSE(p->billing_notes.zh.empty()) << id << ": what is known (billing rules) belongs in the entry";
  }
  for (const auto& p : c.platforms) {
    if (p.offers.empty()) {
      EXPECT_FALSE(p.prices_known) << p.id;
    }
  }
  const Platform* campus = c.find_platform("campus");
  ASSERT_NE(campus, nullptr);
  EXPECT_EQ(campus->kind, PlatformKind::campus);
  EXPECT_TRUE(campus->priced_by_user);
  EXPECT_TRUE(campus->offers.empty());
  EXPECT_FALSE(campus->reference_rates.empty());
}

TEST(EmbeddedCatalog, AscendIsMarkedAsNotRunningCuda) {
  const Gpu* ascend = embedded_catalog().find_gpu("ascend-910b");
  ASSERT_NE(ascend, nullptr);
  EXPECT_FALSE(ascend->cuda);
  for (const auto& g : embedded_catalog().gpus) {
    if (g.id != "ascend-910b") {
      EXPECT_TRUE(g.cuda) << g.id;
    }
  }
}

// `gpuplan catalog` prints the embedded text as-is, so its field names are the
// contract's (docs: shared contract, "Catalog").
TEST(EmbeddedCatalog, PrintedJsonKeepsTheContractNames) {
  nlohmann::json c = nlohmann::json::parse(embedded_catalog_json());
  ASSERT_TRUE(c.contains("version"));
  for (const auto& g : c.at("gpus")) {
    for (const char* k : {"id", "name", "memory_bytes", "sources"}) EXPECT_TRUE(g.contains(k)) << k;
    EXPECT_TRUE(g.at("memory_bytes").is_number_integer()) << g.at("id");
  }
  for (const auto& p : c.at("platforms")) {
    for (const char* k : {"id", "name", "kind", "offers"}) EXPECT_TRUE(p.contains(k)) << p.dump().substr(0, 60) << " " << k;
    for (const auto& o : p.at("offers")) {
      for (const char* k : {"gpu", "billing", "price_kind", "per_gpu_hour", "currency", "as_of", "source", "confidence"})
        EXPECT_TRUE(o.contains(k)) << k;
      // A floor or promotion has no typical price (contract v1.1: only list prices stand as typical).
      const bool list = o.value("price_kind", "") == "list";
      for (const char* k : {"low", "typical", "high"})
        EXPECT_EQ(o.at("per_gpu_hour").contains(k), list || std::string(k) != "typical") << k;
    }
  }
  for (const auto& m : c.at("models"))
    for (const char* k : {"id", "kind", "params"}) EXPECT_TRUE(m.contains(k)) << k;
}

}  // namespace

// ---- Confidence with a definition (contract v1.2, docs/catalog.md "Confidence")

namespace {
Result<Catalog> with_evidence(const std::string& confidence, const nlohmann::json& evidence,
                              const std::string& kind = "list") {
  nlohmann::json c = minimal_catalog();
  auto& o = c["platforms"][0]["offers"][0];
  o["confidence"] = confidence;
  o["evidence"] = evidence;
  o["price_kind"] = kind;
  if (kind != "list") o["per_gpu_hour"].erase("typical");
  return parse_catalog(c.dump());
}
}  // namespace

TEST(CatalogConfidence, EveryOfferNamesTheEvidenceForItsLevel) {
  nlohmann::json c = minimal_catalog();
  c["platforms"][0]["offers"][0].erase("evidence");
  Result<Catalog> r = parse_catalog(c.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "platforms[0].offers[0].evidence");
  // high: a first-hand read of the platform's page, with its URL and day.
  const nlohmann::json first_hand = {{"kind", "platform_read"}, {"read", "1.98/h"}, {"url", "https://p.example"}, {"read_on", "2026-10-04"}};
  EXPECT_TRUE(with_evidence("high", first_hand).ok());
  nlohmann::json no_day = first_hand;
  no_day["read_on"] = "2026-10";
  EXPECT_EQ(with_evidence("high", no_day).error().path, "platforms[0].offers[0].evidence.read_on");
  // A third party's record is medium at best.
  const nlohmann::json recorded = {{"kind", "third_party_read"}, {"read", "1.98/h"}, {"url", "https://p.example"},
                                   {"recorded_in", "a research note"}, {"read_on", "2026-10-04"}};
  EXPECT_TRUE(with_evidence("medium", recorded).ok());
  EXPECT_EQ(with_evidence("high", recorded).error().path, "platforms[0].offers[0].confidence");
  nlohmann::json unrecorded = recorded;
  unrecorded.erase("recorded_in");
  EXPECT_EQ(with_evidence("medium", unrecorded).error().path, "platforms[0].offers[0].evidence.recorded_in");
  // Two dated notes agreeing within 5 % are medium; 1.31 against 1.50 is not.
  auto notes = [](double a, double b) {
    return nlohmann::json{{"kind", "agreeing_notes"}, {"read", "two notes"},
                          {"notes", {{{"source", "note A"}, {"as_of", "2026-08"}, {"price", a}},
                                     {{"source", "note B"}, {"as_of", "2026-09"}, {"price", b}}}}};
  };
  EXPECT_TRUE(with_evidence("medium", notes(1.88, 1.95)).ok());
  EXPECT_EQ(with_evidence("medium", notes(1.31, 1.50)).error().path, "platforms[0].offers[0].evidence.notes");
  // A single note is low, and only low.
  const nlohmann::json one_note = {{"kind", "note"}, {"read", "about 1.31 per hour"}};
  EXPECT_TRUE(with_evidence("low", one_note).ok());
  EXPECT_EQ(with_evidence("medium", one_note).error().path, "platforms[0].offers[0].confidence");
}

TEST(CatalogConfidence, AFromPriceIsAFloorNeverAListPrice) {
  // The old catalog recorded 恒源云's '1.32/时 起' as a list price.
  const nlohmann::json from = {{"kind", "note"}, {"read", "1.32/时 起"}};
  Result<Catalog> r = with_evidence("low", from);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "platforms[0].offers[0].evidence.read");
  EXPECT_TRUE(with_evidence("low", from, "floor").ok());
  EXPECT_FALSE(with_evidence("low", {{"kind", "note"}, {"read", "from 0.40/h"}}).ok());
}

TEST(CatalogConfidence, TheEmbeddedCatalogFollowsTheRule) {
  const Catalog& c = embedded_catalog();
  int cny = 0;
  for (const Platform& p : c.platforms)
    for (const Offer& o : p.offers) {
      ASSERT_TRUE(o.evidence.has_value()) << p.id << " " << o.gpu;
      if (o.confidence == "high") {
        EXPECT_EQ(*o.evidence, EvidenceKind::platform_read) << p.id << " " << o.gpu;
      }
      if (o.confidence == "medium") {
        EXPECT_TRUE(*o.evidence == EvidenceKind::third_party_read || *o.evidence == EvidenceKind::agreeing_notes)
            << p.id << " " << o.gpu;
      }
      cny += p.currency == "CNY";
    }
  EXPECT_GT(cny, 20);
}

// The defects of the old catalog, each a fact the new one must not repeat.
TEST(CatalogConfidence, OldCatalogDefectsAreGone) {
  const Catalog& c = embedded_catalog();
  auto offer = [&](const char* platform, const char* gpu, Billing b, PriceKind k) -> const Offer* {
    const Platform* p = c.find_platform(platform);
    if (!p) return nullptr;
    for (const Offer& o : p->offers)
      if (o.gpu == gpu && o.billing == b && o.price_kind == k) return &o;
    return nullptr;
  };
  // 恒源云's 4090 '1.32 起' is a floor, not a list price.
  EXPECT_EQ(offer("gpushare", "rtx-4090", Billing::on_demand, PriceKind::list), nullptr);
  ASSERT_NE(offer("gpushare", "rtx-4090", Billing::on_demand, PriceKind::floor), nullptr);
  // compshare's 1.31 is its spot price and 0.83 is nowhere on the platform: neither prices a plan.
  const Offer* cs4090 = offer("compshare", "rtx-4090", Billing::on_demand, PriceKind::list);
  EXPECT_TRUE(!cs4090 || !cs4090->of_standing());
  const Offer* cs3090 = offer("compshare", "rtx-3090", Billing::on_demand, PriceKind::list);
  EXPECT_TRUE(!cs3090 || !cs3090->of_standing());
  // AutoDL's H800 is its list price 10.50, not a region's member price 8.88.
  const Offer* h800 = offer("autodl", "h800", Billing::on_demand, PriceKind::list);
  ASSERT_NE(h800, nullptr);
  EXPECT_DOUBLE_EQ(h800->per_gpu_hour.typical, 10.50);
  // AutoDL's 3090, 5090 and 4090D are the originalPrice list, not member prices or one table's 4090.
  EXPECT_DOUBLE_EQ(offer("autodl", "rtx-3090", Billing::on_demand, PriceKind::list)->per_gpu_hour.typical, 1.39);
  EXPECT_DOUBLE_EQ(offer("autodl", "rtx-5090", Billing::on_demand, PriceKind::list)->per_gpu_hour.typical, 2.93);
  EXPECT_DOUBLE_EQ(offer("autodl", "rtx-4090d", Billing::on_demand, PriceKind::list)->per_gpu_hour.typical, 2.08);
  // A domestic A100 40 and 80 GB hourly price, and 矩池云.
  const Offer* a100_40 = offer("matpool", "a100-pcie-40g", Billing::on_demand, PriceKind::list);
  ASSERT_NE(a100_40, nullptr);
  EXPECT_TRUE(a100_40->of_standing());
  const Offer* a100_80 = offer("autodl", "a100-sxm4-80g", Billing::on_demand, PriceKind::list);
  ASSERT_NE(a100_80, nullptr);
  EXPECT_TRUE(a100_80->of_standing());
  // Tencent HAI is a single-GPU product.
  EXPECT_EQ(offer("tencentcloud", "v100-sxm2-32g", Billing::weekly, PriceKind::list)->max_gpus, 1);
  // A daily package exists where a platform offers one (compshare's 5090 at 70.53 a day).
  const Offer* daily = offer("compshare", "rtx-5090", Billing::daily, PriceKind::list);
  ASSERT_NE(daily, nullptr);
  ASSERT_TRUE(daily->per_period);
  EXPECT_DOUBLE_EQ(daily->per_period->typical, 70.53);
  // compshare bills per second and knows its disk price.
  const Platform* cs = c.find_platform("compshare");
  ASSERT_TRUE(cs->rules.granularity_seconds);
  EXPECT_EQ(*cs->rules.granularity_seconds, 1);
  EXPECT_TRUE(cs->rules.disk_per_gb_day);
}

// ---- Every figure names its source, field by field (docs/catalog.md "Sources")

// A source's label (the text before its first ':') names the fields it stands
// for; a figure no label names is refused with its path, and a source that
// names this project's own notes is refused.
TEST(CatalogSources, EveryPriceOrSpecFigureIsNamedByASource) {
  auto parsed = [](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json c = minimal_catalog();
    edit(c);
    return parse_catalog(c.dump());
  };
  // A platform's egress price under sources that name only its offers: no source.
  Result<Catalog> r = parsed([](nlohmann::json& c) {
    c["platforms"][0]["egress_per_gb"] = 0;
    c["platforms"][0]["sources"] = {"offers: https://example.test/price"};
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "platforms[0].egress_per_gb");
  EXPECT_TRUE(parsed([](nlohmann::json& c) {
    c["platforms"][0]["egress_per_gb"] = 0;
    c["platforms"][0]["sources"] = {"offers: https://example.test/price", "unverified: spot, egress_per_gb: a note"};
  }).ok());
  // Storage and a discount, each by its own name.
  r = parsed([](nlohmann::json& c) {
    c["platforms"][0]["storage"] = {{"free_gb", 100}, {"per_gb_day", 0.01}};
    c["platforms"][0]["sources"] = {"offers, billing_rules: https://example.test/price"};
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "platforms[0].storage");
  r = parsed([](nlohmann::json& c) {
    c["platforms"][0]["education_discount"] = 0.05;
    c["platforms"][0]["sources"] = {"offers, storage: https://example.test/price"};
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "platforms[0].education_discount");
  // A source with no label stands for every figure of its entry.
  EXPECT_TRUE(parsed([](nlohmann::json& c) {
    c["platforms"][0]["egress_per_gb"] = 0;
    c["platforms"][0]["sources"] = {"https://example.test/price"};
  }).ok());
  // A GPU's peak rate that no label names (the fp64 of a derived rate).
  r = parsed([](nlohmann::json& c) {
    c["gpus"][0]["tflops"]["fp64"] = 0.3;
    c["gpus"][0]["sources"] = {"memory_bytes: driver logs", "fp32, memory_bandwidth_gb_s: a datasheet"};
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "gpus[0].tflops.fp64");
  EXPECT_TRUE(parsed([](nlohmann::json& c) {
    c["gpus"][0]["tflops"]["fp64"] = 0.3;
    c["gpus"][0]["sources"] = {"memory_bytes: driver logs", "tflops, memory_bandwidth_gb_s: a datasheet"};
  }).ok());
  r = parsed([](nlohmann::json& c) { c["gpus"][0]["sources"] = {"memory_bytes: driver logs", "tflops: a datasheet"}; });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "gpus[0].memory_bandwidth_gb_s");
  // This project's own notes are no source.
  r = parsed([](nlohmann::json& c) {
    c["gpus"][0]["sources"] = {"carried over from gpuplan reference compilation (shared/reference/gpus.csv, 2026-11)"};
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "gpus[0].sources[0]");
}

// The entries the rule found in the catalog of 2026-12-03 now name their
// sources: AutoDL's and Gpushare's egress, compshare's storage and student
// discount, the clouds' network figures, five GPUs' derived or unlabelled
// rates; and no source names the project's own reference notes.
TEST(CatalogSources, TheEmbeddedCatalogNamesEveryFiguresSource) {
  const Catalog& c = embedded_catalog();
  for (const auto& g : c.gpus)
    for (const auto& s : g.sources) EXPECT_EQ(s.find("shared/reference"), std::string::npos) << g.id << ": " << s;
  for (const auto& m : c.models)
    for (const auto& s : m.sources) EXPECT_EQ(s.find("shared/reference"), std::string::npos) << m.id << ": " << s;
  auto labelled = [&](const std::string& platform, const std::string& label) {
    for (const auto& p : c.platforms)
      if (p.id == platform)
        for (std::string s : p.sources) {
          if (s.rfind("unverified: ", 0) == 0) s = s.substr(12);
          if (s.substr(0, s.find(':')).find(label) != std::string::npos) return true;
        }
    return false;
  };
  EXPECT_TRUE(labelled("autodl", "egress_per_gb"));
  EXPECT_TRUE(labelled("gpushare", "egress_per_gb"));
  EXPECT_TRUE(labelled("compshare", "storage"));
  EXPECT_TRUE(labelled("compshare", "education_discount"));
  for (const char* cloud : {"aws", "gcp", "azure", "lambda"}) EXPECT_TRUE(labelled(cloud, "network_gbps")) << cloud;
}

// The overseas offers re-read under the evidence rule (docs/catalog.md, "The
// overseas (USD) offers"): RunPod's consumer cards rest only on a hand-compiled
// table dated by its commit, no dated machine read: low, a reference and
// never a plan's price; Lambda's A10 has two dated reads that agree.
TEST(CatalogConfidence, TheOverseasOffersSayWhatTheirSourcesShow) {
  const Platform* runpod = embedded_catalog().find_platform("runpod");
  ASSERT_NE(runpod, nullptr);
  for (const auto& o : runpod->offers)
    if (o.gpu == "rtx-4090" || o.gpu == "rtx-3090" || o.gpu == "rtx-5090" || o.gpu == "l40s" || o.gpu == "l4" ||
        o.gpu == "rtx-a6000" || o.gpu == "rtx-3080") {
      EXPECT_EQ(o.confidence, "low") << o.gpu;
      EXPECT_EQ(o.evidence, EvidenceKind::note) << o.gpu;
    }
  const Platform* lambda = embedded_catalog().find_platform("lambda");
  ASSERT_NE(lambda, nullptr);
  for (const auto& o : lambda->offers) EXPECT_EQ(o.confidence, "medium") << o.gpu;
}

}  // namespace gpuplan::test
