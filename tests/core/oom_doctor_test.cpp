// The OOM doctor: every remedy it lists, applied to the request as a JSON
// merge patch and planned again, really fits the card.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "test_support.h"

namespace gpuplan::test {
namespace {

struct OomCase {
  const char* name;
  const char* request;
};

class OomDoctor : public ::testing::TestWithParam<OomCase> {};

TEST_P(OomDoctor, EveryRemedyReallyFits) {
  nlohmann::json request = nlohmann::json::parse(GetParam().request);
  nlohmann::json response = run(request);
  ASSERT_TRUE(response.contains("oom_doctor")) << response.dump();
  const auto& doctor = response["oom_doctor"];
  ASSERT_FALSE(doctor["fits"].get<bool>()) << "the case must not fit as given: " << doctor.dump();
  ASSERT_FALSE(doctor["remedies"].empty()) << doctor.dump();
  int previous_quality = -1;
  for (const auto& remedy : doctor["remedies"]) {
    nlohmann::json changed = request;
    changed.merge_patch(remedy["patch"]);
    nlohmann::json again = run(changed);
    ASSERT_TRUE(again.contains("gpus")) << again.dump();
    EXPECT_TRUE(again["gpus"][0]["fits"].get<bool>()) << remedy["id"] << " " << changed.dump();
    EXPECT_TRUE(remedy["fits"].get<bool>());
    EXPECT_LE(remedy["total_bytes"].get<double>(), again["gpus"][0]["memory_total_bytes"].get<double>() + 1);
    EXPECT_FALSE(remedy["message"].get<std::string>().empty());
    // Ranked: changes that keep the training result come before those that change it.
    static const char* order[] = {"none", "numerics", "method"};
    int quality = 0;
    while (remedy["quality_impact"] != order[quality]) ++quality;
    EXPECT_GE(quality, previous_quality) << remedy["id"];
    previous_quality = quality;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, OomDoctor,
    ::testing::Values(
        OomCase{"llama7b_full_on_4090",
                R"({"model":{"preset":"llama-2-7b"},"workload":{"method":"full","precision":"bf16-mixed","micro_batch":4,"seq_len":2048},"hardware":{"gpu":"rtx-4090","count":1}})"},
        OomCase{"llama8b_lora_batch16_on_4090",
                R"({"model":{"preset":"llama-3.1-8b"},"workload":{"method":"lora","precision":"bf16-mixed","micro_batch":16,"seq_len":4096,"flash_attention":false},"hardware":{"gpu":"rtx-4090","count":1}})"},
        OomCase{"bert_large_fp32_batch128_on_a100",
                R"({"locale":"en","model":{"preset":"bert-large"},"workload":{"precision":"fp32","micro_batch":512,"seq_len":512,"flash_attention":false},"hardware":{"gpu":"a100-sxm4-80g","count":1}})"},
        OomCase{"llama7b_infer_long_context_on_4090",
                R"({"model":{"preset":"llama-2-7b"},"workload":{"mode":"infer","precision":"fp16","micro_batch":16,"seq_len":8192},"hardware":{"gpu":"rtx-4090","count":1}})"},
        OomCase{"sdxl_full_eager_attention_on_4090",
                R"({"model":{"preset":"sdxl-unet"},"workload":{"method":"full","precision":"fp16-mixed","micro_batch":2,"image_size":1024,"flash_attention":false},"hardware":{"gpu":"rtx-4090","count":1}})"},
        OomCase{"deeplab_fp32_batch16_on_3090",
                R"({"model":{"preset":"deeplabv3-resnet101"},"workload":{"method":"full","precision":"fp32","optimizer":"sgd-momentum","micro_batch":16,"image_size":768},"hardware":{"gpu":"rtx-3090","count":1}})"}),
    [](const ::testing::TestParamInfo<OomCase>& info) { return std::string(info.param.name); });

TEST(OomDoctorTips, MixedPrecisionSpeedupIsReportedForFp32OnTensorCoreCards) {
  nlohmann::json r = run(nlohmann::json::parse(
      R"({"model":{"preset":"bert-large"},"workload":{"precision":"fp32","micro_batch":32,"seq_len":512},"hardware":{"gpu":"a100-sxm4-80g","count":1}})"));
  bool found = false;
  for (const auto& tip : r["oom_doctor"]["speed_tips"])
    if (tip["code"] == "use_mixed_precision") found = tip["speedup"].get<double>() > 1.2;
  EXPECT_TRUE(found) << r["oom_doctor"].dump();
}

// Inference has no gradients: the doctor told a vLLM user on a 4090 to use
// "a smaller micro-batch with gradient accumulation" and "ZeRO-3 / FSDP:
// parameters, gradients and optimizer states split across cards" (walk5).
// An inference remedy names what an inference user changes.
// transformers' generate (the eager stack) prefills the whole batch at once:
// 32 x 2048 tokens do not fit a 24 GB card (a serving engine's step of
// 8192 tokens would: memory_inference.cpp, inference_memory).
TEST(OomDoctorTexts, InferenceRemediesSpeakOfInference) {
  for (const char* locale : {"en", "zh-CN"}) {
    nlohmann::json r = run(nlohmann::json::parse(std::string(R"({"locale":")") + locale + R"(","model":{"preset":"qwen2.5-7b"},"workload":{"mode":"infer","precision":"bf16","micro_batch":32,"seq_len":2048},"hardware":{"gpu":"rtx-4090"}})"));
    ASSERT_TRUE(r.contains("oom_doctor")) << r.dump();
    std::set<std::string> seen;
    for (const auto& remedy : r["oom_doctor"]["remedies"]) {
      const std::string id = remedy["id"], text = remedy["message"];
      SCOPED_TRACE(id + ": " + text);
      seen.insert(id);
      for (const char* training : {"gradient", "Gradient", "梯度", "ZeRO", "FSDP", "optimizer", "优化器"})
        EXPECT_EQ(text.find(training), std::string::npos) << training;
    }
    EXPECT_TRUE(seen.count("micro_batch") && seen.count("zero3")) << r["oom_doctor"].dump();
  }
}

}  // namespace
}  // namespace gpuplan::test
