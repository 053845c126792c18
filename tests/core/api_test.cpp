// The JSON entry point end to end: contract fields present, errors as data.
#include <gtest/gtest.h>

#include <cmath>

#include "gpuplan/catalog.h"
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

bool has_warning(const nlohmann::json& r, const std::string& code) {
  for (const auto& w : r.value("warnings", nlohmann::json::array()))
    if (w["code"] == code) return true;
  return false;
}

// model.params far from what the dimensions give is warned about, in both
// languages; params that agree with them are not (issue #13: 7e12 on 7B
// dimensions was accepted silently).
TEST(Api, ParamsFarFromTheDimensionsAreWarnedAbout) {
  auto en = run({{"locale", "en"}, {"model", {{"preset", "llama-2-7b"}, {"params", 7e12}}}});
  ASSERT_TRUE(has_warning(en, "params_mismatch")) << en["warnings"];
  std::string text;
  for (const auto& w : en["warnings"])
    if (w["code"] == "params_mismatch") text = w["message"];
  EXPECT_NE(text.find("The parameter count (7000000000000) is"), std::string::npos) << text;
  EXPECT_EQ(text.find("model.params"), std::string::npos) << text;
  EXPECT_NE(text.find("the about 6738000000 parameters the dimensions give"), std::string::npos) << text;
  auto zh = run({{"model", {{"kind", "decoder"}, {"params", 1.3e9}, {"layers", 32}, {"hidden", 4096}, {"heads", 32},
                            {"ffn", 11008}, {"vocab", 32000}}}});
  ASSERT_TRUE(has_warning(zh, "params_mismatch")) << zh["warnings"];
  EXPECT_FALSE(has_warning(run({{"model", {{"preset", "llama-2-7b"}, {"params", 6.74e9}}}}), "params_mismatch"));
  EXPECT_FALSE(has_warning(run({{"model", {{"preset", "llama-2-7b"}}}}), "params_mismatch"));  // params not given
}

// Every preset's own params agree with its own dimensions (so the warning
// only ever points at the user's figures).
TEST(Api, NoPresetDisagreesWithItsDimensions) {
  for (const auto& m : embedded_catalog().models) {
    if (m.kind == ModelKind::cnn) continue;
    auto r = run({{"model", {{"preset", m.id}, {"params", m.params}}}});
    EXPECT_FALSE(has_warning(r, "params_mismatch")) << m.id << ": " << r["warnings"];
  }
}

// hardware.count is workload.gpus (docs/api.md): gpus[] and the OOM doctor
// size the same run, so they give the same verdict (issue #13: count 4 with
// gpus 1 was "fits" in gpus[] and not in the doctor).
TEST(Api, GpusAndTheOomDoctorAgreeOnAPinnedCount) {
  for (int count : {1, 2, 4, 8}) {
    for (const char* preset : {"llama-2-7b", "llama-3.1-8b", "qwen2.5-14b"}) {
      auto r = run({{"model", {{"preset", preset}}}, {"hardware", {{"gpu", "rtx-4090"}, {"count", count}}}});
      ASSERT_EQ(r["gpus"].size(), 1u) << r;
      EXPECT_EQ(r["gpus"][0]["count"], count);
      EXPECT_EQ(r["gpus"][0]["fits"], r["oom_doctor"]["fits"]) << preset << " x" << count;
    }
  }
  EXPECT_EQ(plan_json(R"({"model":{"preset":"llama-2-7b"},"workload":{"gpus":1},"hardware":{"gpu":"rtx-4090","count":4}})").exit_code, 2);
}

}  // namespace
}  // namespace gpuplan::test
