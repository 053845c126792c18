// The catalog: the embedded one is complete, and broken ones are refused with
// a message naming the place.
#include <gtest/gtest.h>

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

nlohmann::json minimal_catalog() {
  return nlohmann::json::parse(R"({
    "version": "test", "fx": {"cny_per_usd": 7, "as_of": "2026-01", "source": "test"},
    "gpus": [{"id": "g1", "name": "G1", "memory_bytes": 25769803776, "memory_basis": "driver", "memory_bandwidth_gb_s": 1000,
              "tflops": {"fp32": 10}, "sources": ["datasheet"]}],
    "platforms": [{"id": "p1", "name": "P1", "kind": "cloud", "currency": "CNY", "sources": ["site"],
                   "offers": [{"gpu": "g1", "billing": "on-demand", "per_gpu_hour": {"low": 1, "typical": 2, "high": 3},
                               "currency": "CNY", "as_of": "2026-01", "source": "price page"}]}],
    "models": [{"id": "m1", "kind": "decoder", "params": 1e9, "layers": 2, "hidden": 64, "heads": 4, "ffn": 256,
                "vocab": 100, "sources": ["config"]}]
  })");
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
        Breakage{"bad_kind", "/platforms/0/kind", "reseller", "platforms[0].kind"}),
    [](const ::testing::TestParamInfo<Breakage>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace gpuplan::test
