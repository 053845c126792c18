// The JSON entry point end to end: contract fields present, errors as data.
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"

namespace gpuplan::test {
namespace {

// Every number anywhere in a response must be finite (no NaN, no Infinity).
void expect_all_finite(const nlohmann::json& j, const std::string& where = "") {
  if (j.is_number_float()) {
    EXPECT_TRUE(std::isfinite(j.get<double>())) << where;
  } else if (j.is_structured()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      expect_all_finite(*it, where + "/" + (j.is_object() ? it.key() : std::string("[]")));
  }
}

TEST(Api, PresetOnlyRequestHasContractMemoryFields) {
  JsonReply reply = plan_json(R"({"model":{"preset":"llama-3.1-8b"}})");
  ASSERT_EQ(reply.exit_code, 0) << reply.json;
  auto r = nlohmann::json::parse(reply.json);
  const auto& per_gpu = r["memory"]["per_gpu"];
  ASSERT_TRUE(per_gpu["allocated_bytes"].is_number_integer());
  ASSERT_TRUE(per_gpu["reserved_bytes"].is_number_integer());
  ASSERT_TRUE(per_gpu["total_bytes"].is_number_integer());
  EXPECT_LE(per_gpu["allocated_bytes"].get<int64_t>(), per_gpu["reserved_bytes"].get<int64_t>());
  EXPECT_LT(per_gpu["reserved_bytes"].get<int64_t>(), per_gpu["total_bytes"].get<int64_t>());
  EXPECT_DOUBLE_EQ(r["memory"]["headroom"].get<double>(), 0.3);
  EXPECT_GT(r["memory"]["recommended_bytes"].get<int64_t>(), per_gpu["total_bytes"].get<int64_t>());
  // The breakdown sums to the total.
  int64_t sum = 0;
  for (const auto& c : r["memory"]["components"]) sum += c["bytes"].get<int64_t>();
  EXPECT_NEAR(double(sum), double(per_gpu["total_bytes"].get<int64_t>()), double(r["memory"]["components"].size()));
  EXPECT_FALSE(r["gpus"].empty());
  expect_all_finite(r);
}

TEST(Api, EveryCatalogGpuIsEvaluatedWithoutHardware) {
  auto r = run({{"model", {{"preset", "llama-2-7b"}}}});
  EXPECT_EQ(r["gpus"].size(), embedded_catalog().gpus.size());
  for (const auto& g : r["gpus"]) {
    EXPECT_TRUE(g["fits"].is_boolean());
    EXPECT_GE(g["count"].get<int>(), 1);
  }
}

TEST(Api, HardwareRestrictsToThatGpu) {
  auto r = run({{"model", {{"preset", "llama-2-7b"}}}, {"hardware", {{"gpu", "a100-sxm4-80g"}, {"count", 1}}}});
  ASSERT_EQ(r["gpus"].size(), 1u);
  EXPECT_EQ(r["gpus"][0]["id"], "a100-sxm4-80g");
}

TEST(Api, UnknownPresetIsExit2WithPath) {
  JsonReply reply = plan_json(R"({"model":{"preset":"no-such-model"}})");
  EXPECT_EQ(reply.exit_code, 2);
  auto e = nlohmann::json::parse(reply.json)["error"];
  EXPECT_EQ(e["code"], "unknown_preset");
  EXPECT_EQ(e["path"], "model.preset");
  EXPECT_NE(e["message"].get<std::string>().find("no-such-model"), std::string::npos);
}

TEST(Api, MessagesFollowTheRequestLocale) {
  auto zh = nlohmann::json::parse(plan_json(R"({"model":{"preset":"x"}})").json)["error"]["message"].get<std::string>();
  auto en = nlohmann::json::parse(plan_json(R"({"locale":"en","model":{"preset":"x"}})").json)["error"]["message"].get<std::string>();
  EXPECT_NE(zh.find("目录"), std::string::npos) << zh;
  EXPECT_NE(en.find("catalog has no model preset"), std::string::npos) << en;
}

TEST(Api, MalformedJsonIsAnErrorNotACrash) {
  for (const char* text : {"", "{", "[]", "null", "{\"model\":", "\xff\xfe", "{\"model\":{\"preset\":\"\xc3\x28\"}}"}) {
    JsonReply reply = plan_json(text);
    EXPECT_EQ(reply.exit_code, 2) << text;
    auto e = nlohmann::json::parse(reply.json);
    EXPECT_TRUE(e.contains("error")) << text;
  }
}

TEST(Api, DeepNestingIsRejectedCleanly) {
  std::string deep(200000, '[');
  JsonReply reply = plan_json(deep);
  EXPECT_EQ(reply.exit_code, 2);
  EXPECT_EQ(nlohmann::json::parse(reply.json)["error"]["code"], "too_deep");
}

}  // namespace
}  // namespace gpuplan::test
