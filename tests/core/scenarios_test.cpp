// The scenario guide (catalog/scenarios.json): every scenario's starting
// request plans in both languages, and what each explanation claims about
// which card suffices is what the estimators say.
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace gpuplan::test {
namespace {

const nlohmann::json& scenarios() {
  static const nlohmann::json all = nlohmann::json::parse(embedded_catalog_json())["scenarios"];
  return all;
}

const nlohmann::json& scenario(const std::string& id) {
  for (const auto& s : scenarios())
    if (s["id"] == id) return s;
  static const nlohmann::json none;
  ADD_FAILURE() << "no scenario " << id;
  return none;
}

bool fits_on(const std::string& scenario_id, const std::string& gpu) {
  nlohmann::json request = scenario(scenario_id)["request"];
  request["hardware"] = {{"gpu", gpu}, {"count", 1}};
  nlohmann::json r = run(request);
  EXPECT_TRUE(r.contains("gpus")) << r.dump();
  return r.contains("gpus") && r["gpus"][0]["fits"].get<bool>();
}

TEST(Scenarios, TheGuideCoversWhatStudentsRentFor) {
  for (const char* id : {"image-classification", "object-detection", "semantic-segmentation", "diffusion-finetune",
                         "diffusion-lora", "diffusion-sdxl-lora", "bert-finetune", "gpt2-pretrain", "llm-finetune", "llm-inference",
                         "molecular-dynamics", "cfd-fem"})
    EXPECT_FALSE(scenario(id).is_null()) << id;
}

TEST(Scenarios, EachPlansInBothLanguagesAndSomeCardFits) {
  for (const auto& s : scenarios()) {
    SCOPED_TRACE(s["id"].get<std::string>());
    for (const char* field : {"name", "explain"}) {
      EXPECT_FALSE(s[field]["zh"].get<std::string>().empty());
      EXPECT_FALSE(s[field]["en"].get<std::string>().empty());
    }
    EXPECT_FALSE(s["sources"].empty());
    for (const char* locale : {"zh-CN", "en"}) {
      nlohmann::json request = s["request"];
      request["locale"] = locale;
      JsonReply reply = plan_json(request.dump());
      ASSERT_EQ(reply.exit_code, 0) << reply.json;
      nlohmann::json r = nlohmann::json::parse(reply.json);
      bool any_fits = false;
      for (const auto& g : r["gpus"]) {
        if (!g["fits"].get<bool>()) continue;
        any_fits = true;
        EXPECT_GT(g["hours"].get<double>(), 0) << g["id"] << ": every scenario has a job size, so a time";
      }
      EXPECT_TRUE(any_fits);
    }
  }
}

// The explanations' claims, checked against the estimators.
TEST(Scenarios, ExplanationsClaimWhatTheModelsSay) {
  // NVIDIA DeepLearningExamples trains ResNet-50 with AMP at batch 256 on a 16 GB V100.
  EXPECT_TRUE(fits_on("image-classification", "v100-sxm2-16g"));
  EXPECT_TRUE(fits_on("object-detection", "rtx-3080"));
  // YOLOv8s: about 4 GiB at batch 16, about 13 GiB at batch 64.
  EXPECT_TRUE(fits_on("object-detection", "t4"));
  nlohmann::json batch64 = scenario("object-detection")["request"];
  batch64["workload"]["micro_batch"] = 64;
  batch64["hardware"] = {{"gpu", "rtx-3060"}, {"count", 1}};
  EXPECT_FALSE(run(batch64)["gpus"][0]["fits"].get<bool>());
  batch64["hardware"] = {{"gpu", "rtx-4090"}, {"count", 1}};
  EXPECT_TRUE(run(batch64)["gpus"][0]["fits"].get<bool>());
  EXPECT_TRUE(fits_on("bert-finetune", "t4"));
  EXPECT_TRUE(fits_on("llm-finetune", "rtx-4090"));
  EXPECT_FALSE(fits_on("diffusion-finetune", "t4"));
  EXPECT_TRUE(fits_on("diffusion-finetune", "rtx-4090"));
  EXPECT_TRUE(fits_on("diffusion-lora", "rtx-3060"));
  // DeepLabV3 at batch 8 of 512 crops: about 10 GiB, a 12 GB card.
  EXPECT_TRUE(fits_on("semantic-segmentation", "rtx-3060"));
  // SDXL LoRA at 1024 with checkpointing: a 12 GB card; without it a 24 GB one.
  EXPECT_TRUE(fits_on("diffusion-sdxl-lora", "rtx-3060"));
  nlohmann::json no_ckpt = scenario("diffusion-sdxl-lora")["request"];
  no_ckpt["workload"]["grad_checkpointing"] = false;
  no_ckpt["hardware"] = {{"gpu", "rtx-3060"}, {"count", 1}};
  EXPECT_FALSE(run(no_ckpt)["gpus"][0]["fits"].get<bool>());
  no_ckpt["hardware"] = {{"gpu", "rtx-4090"}, {"count", 1}};
  EXPECT_TRUE(run(no_ckpt)["gpus"][0]["fits"].get<bool>());
  EXPECT_TRUE(fits_on("llm-inference", "rtx-4090"));
  nlohmann::json batch8 = scenario("llm-inference")["request"];
  batch8["workload"]["micro_batch"] = 8;
  batch8["hardware"] = {{"gpu", "rtx-4090"}, {"count", 1}};
  EXPECT_FALSE(run(batch8)["gpus"][0]["fits"].get<bool>()) << "the explanation says larger batches need more";
}

}  // namespace
}  // namespace gpuplan::test

// Issue #18's cards: what each explanation says about which card suffices.
namespace gpuplan::test {
namespace {

bool card_fits(const std::string& id, const std::string& gpu) { return fits_on(id, gpu); }

TEST(Scenarios2026, DpoLoraFitsA48GbCard) {
  EXPECT_TRUE(card_fits("dpo-lora", "l20"));
  EXPECT_TRUE(card_fits("dpo-lora", "a100-sxm4-80g"));
}

TEST(Scenarios2026, GrpoWithColocatedVllmNeedsAn80GbCard) {
  EXPECT_TRUE(card_fits("grpo-7b", "a100-sxm4-80g"));
  EXPECT_TRUE(card_fits("grpo-7b", "h100-sxm"));
  EXPECT_FALSE(card_fits("grpo-7b", "rtx-4090"));
}

TEST(Scenarios2026, VlmLoraFits48GbNot16Gb) {
  EXPECT_TRUE(card_fits("vlm-finetune", "l20"));
  EXPECT_FALSE(card_fits("vlm-finetune", "v100-sxm2-16g"));
}

TEST(Scenarios2026, FluxBf16LoraOverflowsA4090QloraFitsIt) {
  EXPECT_FALSE(card_fits("flux-lora", "rtx-4090"));
  EXPECT_TRUE(card_fits("flux-lora", "l20"));
  nlohmann::json request = scenario("flux-lora")["request"];
  request["workload"]["method"] = "qlora";
  request["hardware"] = {{"gpu", "rtx-4090"}, {"count", 1}};
  EXPECT_TRUE(run(request)["gpus"][0]["fits"].get<bool>());
}

}  // namespace
}  // namespace gpuplan::test
