// Hostile input through the JSON entry point: each gets exit 2 and a JSON
// error naming the field, never a crash, a hang or an internal error.
#include <gtest/gtest.h>

#include <string>

#include "gpuplan/request.h"

#include "test_support.h"

namespace gpuplan::test {
namespace {

nlohmann::json error_of(const std::string& text) {
  JsonReply reply = plan_json(text);
  EXPECT_EQ(reply.exit_code, 2) << text.substr(0, 200) << "\n" << reply.json.substr(0, 400);
  nlohmann::json parsed = nlohmann::json::parse(reply.json, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded());
  EXPECT_TRUE(parsed.contains("error")) << reply.json.substr(0, 400);
  return parsed.value("error", nlohmann::json::object());
}

TEST(HostileInput, HugeNumbers) {
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"workload":{"seq_len":1e300}})")["path"], "workload.seq_len");
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"data":{"samples":1e300}})")["path"], "data.samples");
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b","params":-1}})")["path"], "model.params");
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"hardware":{"gpu":"rtx-4090","count":0.5}})")["path"], "hardware.count");
}

// Beyond a double's range the lexer itself refuses the number; the error still
// names the field (nested objects and arrays included), never "internal".
TEST(HostileInput, NumbersBeyondDoubleNameTheField) {
  nlohmann::json e = error_of(R"({"model":{"preset":"llama-2-7b"},"workload":{"micro_batch":1e400}})");
  EXPECT_EQ(e["code"], "out_of_range");
  EXPECT_EQ(e["path"], "workload.micro_batch");
  EXPECT_NE(e["message"].get<std::string>().find("1e400"), std::string::npos);
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"data":{"samples":-2E+999}})")["path"], "data.samples");
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"stages":[{"stage":"debug"},{"stage":"formal","runs":[1,{"a":null},1e999]}]})")["path"],
            "stages[1].runs[2]");
  EXPECT_EQ(error_of(R"({"prices":[{"gpu":"t4"},{"gpu":"t4","per_gpu_hour":1e309}]})")["path"], "prices[1].per_gpu_hour");
  EXPECT_EQ(error_of("1e400")["path"], "");
  // A member's name that looks like a huge index (fuzz_catalog's find): its
  // words count to nine digits, never past an int.
  nlohmann::json index = error_of(R"({"locale":"en","a[4444444444444":1e999})");
  EXPECT_EQ(index["path"], "a[4444444444444");
  EXPECT_NE(index["message"].get<std::string>().find("Entry 444444445"), std::string::npos) << index["message"];
}

TEST(HostileInput, WrongTypesNameTheField) {
  EXPECT_EQ(error_of(R"({"model":"llama"})")["path"], "model");
  EXPECT_EQ(error_of(R"({"model":{"preset":7}})")["path"], "model.preset");
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"workload":[]})")["path"], "workload");
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"workload":{"flash_attention":"yes"}})")["path"], "workload.flash_attention");
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"stages":[{"stage":"debug","runs":-1}]})")["path"], "stages[0].runs");
}

TEST(HostileInput, NestingTwoHundredThousandDeep) {
  std::string deep = R"({"model":{"preset":"llama-2-7b"},"x":)" + std::string(200000, '[') + std::string(200000, ']') + "}";
  EXPECT_EQ(error_of(deep)["code"], "too_deep");
  std::string objects;
  for (int i = 0; i < 200000; ++i) objects += R"({"a":)";
  EXPECT_EQ(error_of(objects)["code"], "too_deep");
}

TEST(HostileInput, FiveMegabyteString) {
  std::string big = R"({"model":{"preset":")" + std::string(5 << 20, 'a') + R"("}})";
  EXPECT_EQ(error_of(big)["code"], "too_large");
}

TEST(HostileInput, MegabyteStringInsideTheLimitIsEchoedShort) {
  std::string big = R"({"model":{"preset":")" + std::string(900000, 'a') + R"("}})";
  nlohmann::json e = error_of(big);
  EXPECT_EQ(e["path"], "model.preset");
  EXPECT_LT(e["message"].get<std::string>().size(), 400u);
}

TEST(HostileInput, InvalidUtf8) {
  EXPECT_EQ(error_of("{\"model\":{\"preset\":\"\xc3\x28\"}}")["code"], "invalid_json");
  EXPECT_EQ(error_of("{\"model\":{\"preset\":\"\xed\xa0\x80\"}}")["code"], "invalid_json");  // UTF-16 surrogate
}

TEST(HostileInput, MarkupIsReturnedAsDataNotInterpreted) {
  nlohmann::json e = error_of(R"({"model":{"preset":"<img src=x onerror=alert(1)>"}})");
  EXPECT_EQ(e["path"], "model.preset");
  // The message quotes the value as JSON text; escaping for HTML is the page's job.
  EXPECT_NE(e["message"].get<std::string>().find("<img"), std::string::npos);
}

TEST(HostileInput, UnknownIdsEverywhere) {
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"prefs":{"platforms":["nowhere"]}})")["path"], "prefs.platforms[0]");
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"prices":[{"platform":"autodl","gpu":"gtx-480","per_gpu_hour":1}]})")["path"], "prices[0].gpu");
  EXPECT_EQ(error_of(R"({"model":{"preset":"llama-2-7b"},"stages":[{"stage":"party"}]})")["path"], "stages[0].stage");
}

// --- Limits (docs/api.md, "Limits"): every list answers out_of_range at once,
// before any entry is read; 200 000 empty stages were 11.5 s and 2.7 GB.
TEST(HostileInput, EveryListHasALimit) {
  std::string stages = R"({"locale":"en","model":{"preset":"llama-2-7b"},"stages":[)";
  for (int i = 0; i < 200000; ++i) stages += i ? ",{}" : "{}";
  stages += "]}";
  nlohmann::json e = error_of(stages);
  EXPECT_EQ(e["code"], "out_of_range");
  EXPECT_EQ(e["path"], "stages");
  EXPECT_EQ(e["message"], "The list of stages holds at most 16 entries, got 200000");
  auto list_of = [](const std::string& item, size_t n) {
    std::string out = "[";
    for (size_t i = 0; i < n; ++i) out += (i ? "," : "") + item;
    return out + "]";
  };
  const std::string base = R"({"model":{"preset":"llama-2-7b"},)";
  e = error_of(base + R"("stages":)" + list_of(R"({"stage":"formal"})", kMaxStages + 1) + "}");
  EXPECT_EQ(e["path"], "stages");
  EXPECT_EQ(e["message"], "实验阶段列表最多 16 项，收到 17 项");
  e = error_of(base + R"("prices":)" + list_of(R"({"platform":"autodl","gpu":"t4","per_gpu_hour":1})", kMaxPrices + 1) + "}");
  EXPECT_EQ(e["code"], "out_of_range");
  EXPECT_EQ(e["path"], "prices");
  e = error_of(base + R"("prefs":{"platforms":)" + list_of(R"("autodl")", kMaxPlatforms + 1) + "}}");
  EXPECT_EQ(e["path"], "prefs.platforms");
  e = error_of(base + R"("workload":{"gpus":4097}})");
  EXPECT_EQ(e["path"], "workload.gpus");
  e = error_of(base + R"("hardware":{"gpu":"t4","count":4097}})");
  EXPECT_EQ(e["path"], "hardware.count");
  // At the limits, accepted.
  EXPECT_EQ(plan_json(base + R"("stages":)" + list_of(R"({"stage":"formal"})", kMaxStages) + "}").exit_code, 0);
}

// The runs cap names the stage, and what the page multiplies into runs.
TEST(HostileInput, RunsCapSaysWhichStageAndWhatRunsCount) {
  const std::string body = R"("model":{"preset":"llama-2-7b"},"stages":[{"stage":"debug"},{"stage":"formal","runs":1e9}]})";
  nlohmann::json en = error_of(R"({"locale":"en",)" + body);
  EXPECT_EQ(en["code"], "out_of_range");
  EXPECT_EQ(en["path"], "stages[1].runs");
  // The stage in words, not its id nor the field's path (tests/js/messages_words.test.mjs).
  EXPECT_EQ(en["message"], "The number of runs of the formal-experiments stage (seeds × hyper-parameter points × ablations) "
                           "must be between 0 and 100000, got 1000000000.0");
  nlohmann::json zh = error_of("{" + body);
  EXPECT_EQ(zh["path"], "stages[1].runs");
  EXPECT_EQ(zh["message"].get<std::string>().rfind("正式实验阶段的运行次数（= 随机种子数 × 超参数点数 × 消融数）应在 0 到 100000 之间", 0), 0u)
      << zh["message"];
}

// The largest request the limits allow: every list at its limit, every run
// count at its cap, a budget and a deadline that set off every re-plan, is
// planned whole. How long it takes is the benchmark's to hold
// (tools/bench_plan.mjs --cold-budget-ms in ./dev.sh test), not a test's: a
// loaded runner must not fail a test of behaviour.
std::string largest_request() {
  nlohmann::json q = nlohmann::json::parse(read_file("fuzz/seeds/request/largest.json"));
  return q.dump();
}

TEST(HostileInput, LargestRequestTheLimitsAllowIsPlannedWhole) {
  const std::string text = largest_request();
  const nlohmann::json q = nlohmann::json::parse(text);
  ASSERT_EQ(q["stages"].size(), kMaxStages);
  ASSERT_EQ(q["prices"].size(), kMaxPrices);
  ASSERT_EQ(q["prefs"]["platforms"].size(), kMaxPlatforms);
  JsonReply reply = plan_json(text);
  ASSERT_EQ(reply.exit_code, 0) << reply.json.substr(0, 400);
  const nlohmann::json r = nlohmann::json::parse(reply.json);
  EXPECT_EQ(r["plan"]["stages"].size(), kMaxStages);
  EXPECT_LT(reply.json.size(), size_t(4) << 20);
}

// Errors raised before the locale could be parsed speak the request's
// language all the same (issue #20): read from the raw text.
TEST(HostileInput, ErrorsBeforeParsingSpeakTheRequestLanguage) {
  struct Case {
    std::string text;
    const char* code;
    const char* en;
    const char* zh;
  };
  const std::string deep = std::string(40, '[') + std::string(40, ']');
  const Case cases[] = {
      {R"({"locale":"en","model":{"preset":")" + std::string(2 << 20, 'a') + R"("}})", "too_large", "The request is too large", "请求过大"},
      {R"({"model":{"preset":"x"},"x":)" + deep + R"(,"locale":"en"})", "too_deep", "JSON nesting is too deep", "JSON 嵌套过深"},
      {R"({"locale":"en","model":)", "invalid_json", "The request is not valid JSON", "请求不是有效的 JSON"},
      {R"({"locale":"en","model":{"preset":"llama-2-7b"},"data":{"samples":1e999}})", "out_of_range",
       "The number of samples must be between -1.8e308 and 1.8e308, got 1e999", "样本数应在 -1.8e308 到 1.8e308 之间"},
  };
  for (const Case& c : cases) {
    nlohmann::json en = error_of(c.text);
    EXPECT_EQ(en["code"], c.code);
    EXPECT_NE(en["message"].get<std::string>().find(c.en), std::string::npos) << en["message"];
    // The same text without "locale":"en" is in the default language.
    std::string zh_text = c.text;
    zh_text.replace(zh_text.find(R"("locale":"en")"), 13, R"("locale":"zh")");
    nlohmann::json zh = error_of(zh_text);
    EXPECT_EQ(zh["code"], c.code);
    EXPECT_NE(zh["message"].get<std::string>().find(c.zh), std::string::npos) << zh["message"];
  }
}

}  // namespace
}  // namespace gpuplan::test
