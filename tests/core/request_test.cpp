// Request parsing: defaults, and one clear error naming the field for each
// kind of bad input.
#include <gtest/gtest.h>

#include "gpuplan/request.h"
#include "gpuplan/spelling.h"
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

// A vision transformer's sequence follows its image: (image / patch)^2 + 1
// (ViT-B/16 at 224 px: 197 tokens, where an encoder's default was 512).
TEST(Request, AVisionTransformersSequenceIsItsPatches) {
  auto seq = [](const std::string& workload) {
    Result<Request> r = parse_request(R"({"model":{"preset":"vit-base"},"workload":)" + workload + "}", embedded_catalog());
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? r.value().workload.seq_len : -1;
  };
  EXPECT_EQ(seq(R"({"method":"full"})"), 197);
  EXPECT_EQ(seq(R"({"image_size":384})"), 577);
  EXPECT_EQ(seq(R"({"image_size":384,"seq_len":300})"), 300);  // a given sequence is kept
  Result<Request> bert = parse_request(R"({"model":{"preset":"bert-base"}})", embedded_catalog());
  ASSERT_TRUE(bert.ok());
  EXPECT_EQ(bert.value().workload.seq_len, 512);
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
  // The field in the student's words: its path is the error's `path`, never in the message (docs/api.md, "Errors").
  const std::string path = GetParam().path;
  if (path.find_first_of(".[") != std::string::npos) {
    EXPECT_EQ(e.message.find(path), std::string::npos) << e.message;
  }
}

// A stage by its name, a quote by its number, a GiB field in GiB, both languages.
TEST(BadRequest, SaysTheFieldAsTheStudentKnowsIt) {
  const auto message = [](Locale l, const std::string& body) {
    return error_of(std::string(R"({"locale":")") + locale_tag(l) + "\"," + body.substr(1)).message;
  };
  const std::string runs = R"({"model":{"preset":"llama-2-7b"},"stages":[{"stage":"debug"},{"stage":"formal","runs":1000000}]})";
  EXPECT_EQ(message(Locale::zh_CN, runs).rfind("正式实验阶段的运行次数", 0), 0u) << message(Locale::zh_CN, runs);
  EXPECT_EQ(message(Locale::en, runs).rfind("The number of runs of the formal-experiments stage", 0), 0u) << message(Locale::en, runs);
  const std::string quote = R"({"model":{"preset":"llama-2-7b"},"prices":[{"platform":"autodl","gpu":"rtx-9999"}]})";
  EXPECT_EQ(message(Locale::zh_CN, quote).rfind("第 1 条报价的显卡：", 0), 0u) << message(Locale::zh_CN, quote);
  EXPECT_EQ(message(Locale::en, quote).rfind("The card of quote 1:", 0), 0u) << message(Locale::en, quote);
  const std::string memory = R"({"model":{"preset":"llama-2-7b"},"baseline":{"gpu":"t4","tokens_per_s":10,"memory_bytes":1e15}})";
  EXPECT_NE(message(Locale::zh_CN, memory).find("实测峰值显存应在 0.000931323 GiB 到 93132.3 GiB 之间，收到 931323 GiB"), std::string::npos)
      << message(Locale::zh_CN, memory);
  EXPECT_NE(message(Locale::en, memory).find("got 931323 GiB"), std::string::npos) << message(Locale::en, memory);
  const std::string fraction = R"({"model":{"preset":"llama-2-7b"},"stages":[{"stage":"debug","data_fraction":2}]})";
  EXPECT_NE(message(Locale::zh_CN, fraction).find("调试阶段所用的数据比例应在 0% 到 100% 之间，收到 200%"), std::string::npos)
      << message(Locale::zh_CN, fraction);
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
        BadCase{"fp32_base_with_bf16_true", R"({"model":{"preset":"llama-2-7b"},"workload":{"method":"lora","precision":"bf16-true","frozen_base_fp32":true}})", "inconsistent", "workload.frozen_base_fp32"},
        BadCase{"fp32_base_in_full_training", R"({"model":{"preset":"llama-2-7b"},"workload":{"frozen_base_fp32":true}})", "inconsistent", "workload.frozen_base_fp32"},
        BadCase{"no_model", R"({})", "missing_field", "model"},
        BadCase{"dims_incomplete", R"({"model":{"params":7e9,"layers":32}})", "missing_field", "model.hidden"},
        BadCase{"unknown_gpu", R"({"model":{"preset":"llama-2-7b"},"hardware":{"gpu":"rtx-9999"}})", "unknown_gpu", "hardware.gpu"},
        BadCase{"zero_gpus", R"({"model":{"preset":"llama-2-7b"},"workload":{"gpus":0}})", "out_of_range", "workload.gpus"},
        BadCase{"bad_locale", R"({"locale":"fr","model":{"preset":"llama-2-7b"}})", "unknown_value", "locale"},
        BadCase{"markup_preset", R"({"model":{"preset":"<script>alert(1)</script>"}})", "unknown_preset", "model.preset"}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

// --- Strict input (docs/api.md, "Strict input"): a misspelt field anywhere is
// an error naming it as written and the closest known field, in both languages.
struct UnknownCase {
  const char* name;
  const char* json;  // the request, without its locale
  const char* path;
  const char* suggestion;  // "" when no known name is close
};

class UnknownField : public ::testing::TestWithParam<UnknownCase> {};

TEST_P(UnknownField, NamesTheFieldAndTheClosestKnownOne) {
  const UnknownCase& c = GetParam();
  const std::string body = std::string(c.json).substr(1);
  for (Locale l : {Locale::en, Locale::zh_CN}) {
    const std::string text = std::string(R"({"locale":")") + locale_tag(l) + "\"," + body;
    Error e = error_of(text);
    EXPECT_EQ(e.code, "unknown_field") << e.message;
    EXPECT_EQ(e.path, c.path) << e.message;
    // The name as written and the closest known one, each inside quotes with no path.
    if (std::string(c.path).find_first_of(".[") != std::string::npos) {
      EXPECT_EQ(e.message.find(c.path), std::string::npos) << e.message;
    }
    if (*c.suggestion) {
      const std::string s = c.suggestion;
      const std::string key = s.substr(s.find_last_of('.') == std::string::npos ? 0 : s.find_last_of('.') + 1);
      const std::string hint = l == Locale::en ? std::string("did you mean “") + key + "” (" : std::string("是不是 “") + key + "”（";
      EXPECT_NE(e.message.find(hint), std::string::npos) << e.message;
    } else {
      EXPECT_NE(e.message.find(l == Locale::en ? "the fields here are" : "这里可用的字段"), std::string::npos) << e.message;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryLevel, UnknownField,
    ::testing::Values(
        UnknownCase{"workload", R"({"model":{"preset":"llama-2-7b"},"workload":{"micro_bach":4}})", "workload.micro_bach", "workload.micro_batch"},
        UnknownCase{"top_level", R"({"modle":{"preset":"llama-2-7b"}})", "modle", "model"},
        UnknownCase{"model", R"({"model":{"prest":"llama-2-7b"}})", "model.prest", "model.preset"},
        UnknownCase{"model_over_missing", R"({"model":{"param":7e9,"layers":32,"hidden":4096,"heads":32,"vocab":32000}})", "model.param", "model.params"},
        UnknownCase{"lora", R"({"model":{"preset":"llama-2-7b"},"workload":{"method":"lora","lora":{"rnak":8}}})", "workload.lora.rnak", "workload.lora.rank"},
        UnknownCase{"hardware", R"({"model":{"preset":"llama-2-7b"},"hardware":{"gpu":"rtx-4090","cuont":1}})", "hardware.cuont", "hardware.count"},
        UnknownCase{"data", R"({"model":{"preset":"llama-2-7b"},"data":{"sample":100}})", "data.sample", "data.samples"},
        UnknownCase{"baseline", R"({"model":{"preset":"llama-2-7b"},"baseline":{"gpu":"t4","samples_per_sec":3}})", "baseline.samples_per_sec", "baseline.samples_per_s"},
        UnknownCase{"stage", R"({"model":{"preset":"llama-2-7b"},"stages":[{"stage":"debug"},{"stage":"formal","run":3}]})", "stages[1].run", "stages[1].runs"},
        UnknownCase{"budget", R"({"model":{"preset":"llama-2-7b"},"budget":{"amout":100}})", "budget.amout", "budget.amount"},
        UnknownCase{"prefs", R"({"model":{"preset":"llama-2-7b"},"prefs":{"plaforms":["autodl"]}})", "prefs.plaforms", "prefs.platforms"},
        UnknownCase{"price", R"({"model":{"preset":"llama-2-7b"},"prices":[{"platform":"autodl","gpu":"t4","price_per_hour":1}]})", "prices[0].price_per_hour", ""},
        UnknownCase{"buy", R"({"model":{"preset":"llama-2-7b"},"buy":{"year":3}})", "buy.year", "buy.years"},
        UnknownCase{"science", R"({"workload":{"mode":"science"},"science":{"jobs":1,"baseline":{"gpu":"t4","rate":1}}})", "science.jobs", "science.job"},
        UnknownCase{"science_baseline", R"({"workload":{"mode":"science"},"science":{"baseline":{"gpu":"t4","rates":1}}})", "science.baseline.rates", "science.baseline.rate"},
        UnknownCase{"architecture", R"({"model":{"kind":"cnn","architecture":{"family":"resnet","stage_block":[3,4,6,3]}}})", "model.architecture.stage_block", "model.architecture.stage_blocks"},
        UnknownCase{"architecture_other_family", R"({"model":{"kind":"cnn","architecture":{"family":"yolov8","stage_blocks":[3,4,6,3]}}})", "model.architecture.stage_blocks", ""},
        UnknownCase{"vae", R"({"model":{"kind":"cnn","architecture":{"family":"sd-unet","model_channels":320,"channel_mult":[1,2,4,4],
            "num_res_blocks":2,"transformer_depth":[1,1,1,0],"mid_transformer_depth":1,"num_heads":8,"context_dim":768,
            "vae":{"layers":2}}}})", "model.architecture.vae.layers", "model.architecture.vae.layers_per_block"}),
    [](const ::testing::TestParamInfo<UnknownCase>& info) { return std::string(info.param.name); });

// JSON null is the default, wherever it stands.
TEST(Request, NullMeansTheDefault) {
  Result<Request> r = parse_request(
      R"({"locale":null,"model":{"preset":"llama-2-7b","layers":null},"workload":{"micro_batch":null,"sharding":null,
          "lora":null,"gpus":null},"hardware":null,"data":null,"stages":null,"prefs":{"billing":null,"platforms":null},
          "prices":null,"budget":null,"baseline":null,"buy":null})",
      embedded_catalog());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Request& q = r.value();
  EXPECT_EQ(q.locale, Locale::zh_CN);
  EXPECT_EQ(q.model.layers, 32);
  EXPECT_EQ(q.workload.micro_batch, 1);
  EXPECT_EQ(q.workload.sharding, Sharding::none);
  EXPECT_EQ(q.workload.gpus, 1);
  EXPECT_FALSE(q.hardware);
  EXPECT_FALSE(q.data);
  EXPECT_FALSE(q.budget);
  EXPECT_TRUE(q.stages.empty());
  EXPECT_TRUE(q.prefs.billing.empty());
}

// The names contract v1.1 announces are known before their parsing lands:
// whatever a request says in them, it is never called an unknown field.
TEST(Request, ContractNamesAreKnown) {
  const char* requests[] = {
      R"({"model":{"preset":"llama-2-7b"},"workload":{"stack":"eager","objective":"sft"}})",
      R"({"model":{"preset":"llama-2-7b"},"workload":{"objective":"grpo","rl":{}}})",
      R"({"model":{"preset":"llama-2-7b"},"prefs":{"scope":"cn","display_currency":"CNY"}})",
      R"({"model":{"preset":"llama-2-7b"},"baseline":{"gpu":"a100-sxm4-80g","count":8,"wall_hours":72}})",
      R"({"model":{"preset":"llama-2-7b"},"baseline":{"gpu":"a100-sxm4-80g","micro_batch":1,"memory_bytes":2e10}})",
  };
  for (const char* text : requests) {
    Result<Request> r = parse_request(text, embedded_catalog());
    if (!r.ok()) {
      EXPECT_NE(r.error().code, "unknown_field") << text << ": " << r.error().message;
    }
  }
}

// hardware.count and workload.gpus are one number (docs/api.md): either sets
// the other, and two different values are a contradiction.
TEST(Request, HardwareCountAndWorkloadGpusAreOneNumber) {
  auto q = parse_request(R"({"model":{"preset":"llama-2-7b"},"hardware":{"gpu":"rtx-4090","count":4}})", embedded_catalog());
  ASSERT_TRUE(q.ok()) << q.error().message;
  EXPECT_EQ(q.value().hardware->count, 4);
  EXPECT_FALSE(q.value().workload.sharding_requested);
  auto g = parse_request(R"({"model":{"preset":"llama-2-7b"},"workload":{"gpus":2,"sharding":"zero2"},"hardware":{"gpu":"rtx-4090"}})", embedded_catalog());
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g.value().hardware->count, 2);
  EXPECT_TRUE(g.value().workload.sharding_requested);
  auto same = parse_request(R"({"model":{"preset":"llama-2-7b"},"workload":{"gpus":4},"hardware":{"gpu":"rtx-4090","count":4}})", embedded_catalog());
  EXPECT_TRUE(same.ok());
  for (const char* locale : {"en", "zh-CN"}) {
    Error e = error_of(std::string(R"({"locale":")") + locale +
                       R"(","model":{"preset":"llama-2-7b"},"workload":{"gpus":1},"hardware":{"gpu":"rtx-4090","count":4}})");
    EXPECT_EQ(e.code, "inconsistent");
    EXPECT_EQ(e.path, "hardware.count");
    EXPECT_NE(e.message.find(std::string(locale) == "en" ? "the GPUs one run uses" : "一次运行用的 GPU 数"), std::string::npos) << e.message;
  }
}

// --- One table of spellings per enum (gpuplan/spelling.h): the parser takes
// every spelling to the value its table stores, and the writer spells it back.
template <class E, size_t N>
void expect_round_trip(const Spelling<E> (&table)[N]) {
  for (const auto& s : table) {
    EXPECT_EQ(value_of(table, s.name), s.value) << s.name;
    if (!s.alias) {
      EXPECT_EQ(spelling_of(table, s.value), s.name);
    }
  }
}

TEST(Spellings, ParsingReadsTheTableNotAPosition) {
  expect_round_trip(kModeSpellings);
  expect_round_trip(kShardingSpellings);
  expect_round_trip(kBillingSpellings);
  expect_round_trip(kPrecisionSpellings);
  // fsdp is an alias of zero3, read and never written.
  EXPECT_EQ(value_of(kShardingSpellings, "fsdp"), Sharding::zero3);
  EXPECT_EQ(spelling_of(kShardingSpellings, Sharding::zero3), "zero3");
  // Every precision is spelled and belongs to a mode; fp32 to both.
  EXPECT_TRUE(trains_in(Precision::fp32) && infers_in(Precision::fp32));
  EXPECT_TRUE(trains_in(Precision::bf16_true) && !infers_in(Precision::bf16_true));
  EXPECT_TRUE(infers_in(Precision::nf4) && !trains_in(Precision::nf4));
  // The contract's new billings are requests' billings too.
  for (const char* b : {"weekly", "daily"}) {
    auto q = parse_request(std::string(R"({"model":{"preset":"llama-2-7b"},"prefs":{"billing":")") + b +
                               R"("},"prices":[{"platform":"autodl","gpu":"rtx-4090","per_gpu_hour":2,"billing":")" + b + "\"}]}",
                           embedded_catalog());
    ASSERT_TRUE(q.ok()) << q.error().message;
    EXPECT_EQ(q.value().prefs.billing, b);
    EXPECT_EQ(spelling_of(kBillingSpellings, q.value().prices[0].billing), b);
  }
  auto z = parse_request(R"({"model":{"preset":"llama-2-7b"},"workload":{"mode":"infer","precision":"int4"}})", embedded_catalog());
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z.value().workload.precision, Precision::int4);
  // The message lists the table.
  Error e = error_of(R"({"locale":"en","model":{"preset":"llama-2-7b"},"workload":{"sharding":"zero4"}})");
  EXPECT_NE(e.message.find("none, ddp, zero1, zero2, zero3, fsdp"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace gpuplan::test
