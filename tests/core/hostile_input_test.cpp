// Hostile input through the JSON entry point: each gets exit 2 and a JSON
// error naming the field, never a crash, a hang or an internal error.
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace gpuplan::test
