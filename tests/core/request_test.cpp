// Request parsing: defaults, and one clear error naming the field for each
// kind of bad input.
#include <gtest/gtest.h>

#include "gpuplan/request.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

Error error_of(const std::string& text) {
  Result<Request> r = parse_request(text, embedded_catalog());
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? Error{} : r.error();
}

TEST(Request, PresetOnlyGetsDocumentedDefaults) {
  Result<Request> r = parse_request(R"({"model":{"preset":"llama-3.1-8b"}})", embedded_catalog());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Request& q = r.value();
  EXPECT_EQ(q.locale, Locale::zh_CN);
  EXPECT_EQ(q.model.layers, 32);
  EXPECT_EQ(q.model.kv_heads, 8);
  EXPECT_EQ(q.workload.mode, Mode::train);
  EXPECT_EQ(q.workload.method, Method::full);
  EXPECT_EQ(q.workload.precision, Precision::bf16_mixed);
  EXPECT_EQ(q.workload.micro_batch, 1);
  EXPECT_EQ(q.workload.seq_len, 2048);
  EXPECT_EQ(q.workload.sharding, Sharding::none);
  EXPECT_FALSE(q.hardware.has_value());
}

TEST(Request, OverridesOnTopOfPreset) {
  Result<Request> r = parse_request(R"({"model":{"preset":"llama-2-7b","layers":16}})", embedded_catalog());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().model.layers, 16);
  EXPECT_EQ(r.value().model.hidden, 4096);
}

TEST(Request, FsdpIsZero3AndSeveralGpusDefaultToDdp) {
  auto q = parse_request(R"({"model":{"preset":"llama-2-7b"},"workload":{"gpus":4,"sharding":"fsdp"}})", embedded_catalog());
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q.value().workload.sharding, Sharding::zero3);
  auto d = parse_request(R"({"model":{"preset":"llama-2-7b"},"workload":{"gpus":2}})", embedded_catalog());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.value().workload.sharding, Sharding::ddp);
}

struct BadCase {
  const char* name;
  const char* json;
  const char* code;
  const char* path;
};

class BadRequest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadRequest, NamesTheField) {
  Error e = error_of(GetParam().json);
  EXPECT_EQ(e.code, GetParam().code) << e.message;
  EXPECT_EQ(e.path, GetParam().path) << e.message;
  EXPECT_FALSE(e.message.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Errors, BadRequest,
    ::testing::Values(
        BadCase{"zero_batch", R"({"model":{"preset":"llama-2-7b"},"workload":{"micro_batch":0}})", "out_of_range", "workload.micro_batch"},
        BadCase{"negative_batch", R"({"model":{"preset":"llama-2-7b"},"workload":{"micro_batch":-3}})", "out_of_range", "workload.micro_batch"},
        BadCase{"fractional_batch", R"({"model":{"preset":"llama-2-7b"},"workload":{"micro_batch":2.5}})", "not_integer", "workload.micro_batch"},
        BadCase{"huge_batch", R"({"model":{"preset":"llama-2-7b"},"workload":{"micro_batch":1e300}})", "out_of_range", "workload.micro_batch"},
        BadCase{"string_batch", R"({"model":{"preset":"llama-2-7b"},"workload":{"micro_batch":"4"}})", "wrong_type", "workload.micro_batch"},
        BadCase{"zero_seq", R"({"model":{"preset":"llama-2-7b"},"workload":{"seq_len":0}})", "out_of_range", "workload.seq_len"},
        BadCase{"bad_method", R"({"model":{"preset":"llama-2-7b"},"workload":{"method":"dora"}})", "unknown_value", "workload.method"},
        BadCase{"infer_precision_in_train", R"({"model":{"preset":"llama-2-7b"},"workload":{"precision":"int4"}})", "not_for_mode", "workload.precision"},
        BadCase{"train_precision_in_infer", R"({"model":{"preset":"llama-2-7b"},"workload":{"mode":"infer","precision":"bf16-mixed"}})", "not_for_mode", "workload.precision"},
        BadCase{"heads_not_dividing_hidden", R"({"model":{"preset":"llama-2-7b","heads":30}})", "inconsistent", "model.heads"},
        BadCase{"kv_heads_above_heads", R"({"model":{"preset":"llama-2-7b","kv_heads":64}})", "inconsistent", "model.kv_heads"},
        BadCase{"lora_rank_above_hidden", R"({"model":{"preset":"llama-2-7b"},"workload":{"method":"lora","lora":{"rank":8192}}})", "inconsistent", "workload.lora.rank"},
        BadCase{"no_model", R"({})", "missing_field", "model"},
        BadCase{"dims_incomplete", R"({"model":{"params":7e9,"layers":32}})", "missing_field", "model.hidden"},
        BadCase{"unknown_gpu", R"({"model":{"preset":"llama-2-7b"},"hardware":{"gpu":"rtx-9999"}})", "unknown_gpu", "hardware.gpu"},
        BadCase{"zero_gpus", R"({"model":{"preset":"llama-2-7b"},"workload":{"gpus":0}})", "out_of_range", "workload.gpus"},
        BadCase{"bad_locale", R"({"locale":"fr","model":{"preset":"llama-2-7b"}})", "unknown_value", "locale"},
        BadCase{"markup_preset", R"({"model":{"preset":"<script>alert(1)</script>"}})", "unknown_preset", "model.preset"}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace gpuplan::test
