// The catalog: the embedded one is complete, and broken ones are refused with
// a message naming the place.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
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
                 nlohmann::json::parse(R"({"gpu":"g1","billing":"on-demand","per_gpu_hour":{"low":1,"typical":1,"high":1},"currency":"CNY","as_of":"2026","source":"s"})"),
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
        Breakage{"fx_without_source", "/fx/source", nullptr, "fx.source"},
        Breakage{"fx_without_as_of", "/fx/as_of", nullptr, "fx.as_of"}),
    [](const ::testing::TestParamInfo<Breakage>& info) { return std::string(info.param.name); });

// The ids outside checks rely on (the contract's "Catalog ids" section).
const std::vector<std::string> kContractGpus = {
    "t4", "v100-sxm2-16g", "v100-sxm2-32g", "rtx-2080ti", "rtx-3060", "rtx-3080", "rtx-3090",
    "rtx-4090", "rtx-4090d", "rtx-5090", "rtx-a6000", "titan-rtx", "a10", "a10g", "l4", "l20", "l40s",
    "a100-pcie-40g", "a100-sxm4-40g", "a100-pcie-80g", "a100-sxm4-80g", "a800-80g", "h100-pcie",
    "h100-sxm", "h20", "h200", "b200", "ascend-910b"};
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
  for (const auto& p : c.platforms)
    if (p.offers.empty()) EXPECT_FALSE(p.prices_known) << p.id;
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
  for (const auto& g : embedded_catalog().gpus)
    if (g.id != "ascend-910b") EXPECT_TRUE(g.cuda) << g.id;
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
      for (const char* k : {"gpu", "billing", "per_gpu_hour", "currency", "as_of", "source"}) EXPECT_TRUE(o.contains(k)) << k;
      for (const char* k : {"low", "typical", "high"}) EXPECT_TRUE(o.at("per_gpu_hour").contains(k)) << k;
    }
  }
  for (const auto& m : c.at("models"))
    for (const char* k : {"id", "kind", "params"}) EXPECT_TRUE(m.contains(k)) << k;
}

}  // namespace
}  // namespace gpuplan::test
