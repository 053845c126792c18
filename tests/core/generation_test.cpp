// The RL generation phase (core/src/estimate/generation.cpp, docs/objectives.md
// "Generation"): completion lengths as a distribution, ZeRO-3's weight
// gathers, bitsandbytes' unfused NF4 path at batch > 1, the colocated vLLM's
// weight load, and a published rollout time (tests/data/workloads_cases.json).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "estimate/generation.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

const nlohmann::json& cases() {
  static const nlohmann::json c = nlohmann::json::parse(read_file("tests/data/workloads_cases.json"));
  return c;
}

nlohmann::json rl_request(const std::string& preset, nlohmann::json workload, const std::string& gpu, int count) {
  workload["mode"] = "train";
  return {{"locale", "en"},
          {"model", {{"preset", preset}}},
          {"workload", workload},
          {"hardware", {{"gpu", gpu}, {"count", count}}}};
}

double rollout(const nlohmann::json& r) {
  return r.at("gpus").at(0).at("throughput").at("phase_seconds").at("rollout").get<double>();
}

double component(const nlohmann::json& r, const std::string& id) {
  for (const auto& c : r["memory"]["components"])
    if (c["id"] == id) return c["bytes"].get<double>();
  return 0;
}

TEST(Generation, CompletionLengthsFollowTheUniformOrderStatistics) {
  RlSettings rl;
  rl.completion_len = 1024;
  // No mean: every completion runs to the cap.
  CompletionLengths c = completion_lengths(rl, 16);
  EXPECT_EQ(c.shortest, 1024);
  EXPECT_EQ(c.longest, 1024);
  // Mean half the cap: uniform on [0, 1024]; the longest of 8 at 8/9 of it.
  rl.completion_mean = 512;
  c = completion_lengths(rl, 8);
  EXPECT_DOUBLE_EQ(c.shortest, 0);
  EXPECT_DOUBLE_EQ(c.longest, 1024.0 * 8 / 9);
  // Mean 768: uniform on [512, 1024].
  rl.completion_mean = 768;
  c = completion_lengths(rl, 3);
  EXPECT_DOUBLE_EQ(c.shortest, 512);
  EXPECT_DOUBLE_EQ(c.longest, 512 + 512.0 * 3 / 4);
  // Mean a quarter of the cap: the cap is never reached, [0, 512].
  rl.completion_mean = 256;
  c = completion_lengths(rl, 1);
  EXPECT_DOUBLE_EQ(c.longest, 256);  // one completion: its expected length
}

// transformers generate pads a finished completion and runs the batch to its
// longest; vLLM lets finished ones leave. At a large batch, where the cache
// and the matmuls weigh against the weights, a mean well under the cap
// shortens vLLM's rollout and not generate's; at a small batch each step is
// the weights' read and the longest completion sets both.
TEST(Generation, GenerateRunsToTheLongestAndVllmToEachOwnLength) {
  auto rollout_of = [](const char* engine, nlohmann::json rl, int micro, int accumulation) {
    rl["rollout"] = engine;
    nlohmann::json w = {{"objective", "grpo"}, {"method", "lora"}, {"micro_batch", micro},
                        {"grad_accumulation", accumulation}, {"seq_len", 256}, {"grad_checkpointing", true},
                        {"rl", rl}};
    return rollout(run(rl_request("qwen2.5-1.5b", w, "h200", 1)));
  };
  const nlohmann::json with_mean = {{"completion_len", 1024}, {"completion_mean", 512}};
  // The longest of 256 uniform on [0, 1024]: 1024 * 256 / 257 = 1020.0.
  const nlohmann::json at_longest = {{"completion_len", 1020}};
  const double generate = rollout_of("trainer", with_mean, 16, 16);
  EXPECT_NEAR(generate, rollout_of("trainer", at_longest, 16, 16), 1e-9 * generate);
  const double vllm = rollout_of("vllm", with_mean, 16, 16);
  const double vllm_cap = rollout_of("vllm", at_longest, 16, 16);
  EXPECT_LT(vllm, 0.9 * vllm_cap);
  EXPECT_GT(vllm, 0.5 * vllm_cap);
  // Sixteen completions (longest 1024 * 16 / 17 = 963.8 -> 964): weight-bound.
  const double small = rollout_of("vllm", with_mean, 4, 4);
  EXPECT_NEAR(small / rollout_of("vllm", {{"completion_len", 964}}, 4, 4), 1.0, 0.05);
}

TEST(Generation, TheMeanCannotExceedTheCap) {
  nlohmann::json w = {{"objective", "grpo"}, {"rl", {{"completion_len", 256}, {"completion_mean", 512}}}};
  nlohmann::json r = run(rl_request("qwen2.5-7b", w, "h100-sxm", 1));
  ASSERT_TRUE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["error"]["path"], "workload.rl.completion_mean");
}

// ZeRO-3 under transformers generate: TRL gathers the policy once (the whole
// model then sits on every card while it generates); without the gather every
// token fetches the whole model over the link (the "super slow").
TEST(Generation, ZeroThreeGathersTheWeightsOnceOrForEveryToken) {
  const double params = 7615616512.0;  // qwen2.5-7b
  nlohmann::json w = {{"objective", "ppo"}, {"micro_batch", 2}, {"seq_len", 512}, {"grad_checkpointing", true},
                      {"sharding", "zero3"}, {"gpus", 8}, {"rl", {{"completion_len", 512}}}};
  nlohmann::json once = run(rl_request("qwen2.5-7b", w, "a100-sxm4-80g", 8));
  EXPECT_NEAR(component(once, "gathered_weights"), params * 2 * 7 / 8, 1);
  nlohmann::json per_token_w = w;
  per_token_w["rl"]["gather_for_generation"] = false;
  nlohmann::json per_token = run(rl_request("qwen2.5-7b", per_token_w, "a100-sxm4-80g", 8));
  EXPECT_EQ(component(per_token, "gathered_weights"), 0);
  // Each of the 513 passes moves 7/8 of the bf16 model into each card: at
  // least that over the A100's 300 GB/s per direction (600 GB/s NVLink).
  const double floor = 513 * params * 2 * 7 / 8 / 300e9;
  EXPECT_GT(rollout(per_token) - rollout(once), floor);
  // On PCIe consumer cards the per-token fetch dwarfs the eager decode floor.
  nlohmann::json pcie = run(rl_request("qwen2.5-7b", per_token_w, "rtx-4090", 8));
  EXPECT_GT(rollout(pcie), 10 * rollout(once));
}

// bitsandbytes takes its fused 4-bit GEMV for one row only: a GRPO batch
// dequantizes every NF4 weight each token and reads more than the fp16 model.
TEST(Generation, QloraGenerateAtBatchAboveOneDequantizesEveryWeight) {
  auto at = [](const char* method, int batch) {
    nlohmann::json w = {{"objective", "grpo"}, {"method", method}, {"micro_batch", batch}, {"seq_len", 256},
                        {"precision", "fp16-mixed"}, {"grad_checkpointing", true},
                        {"rl", {{"completion_len", 256}, {"group_size", 1}}}};
    return rollout(run(rl_request("qwen2.5-7b", w, "t4", 1)));
  };
  EXPECT_GT(at("qlora", 8), 1.3 * at("lora", 8));
  EXPECT_LE(at("qlora", 1), at("lora", 1));  // the fused GEMV reads 0.5 B a weight
}

// DeepSpeed-Chat's PPO generation as OpenRLHF's benchmark ran it
// (tests/data/workloads_cases.json "openrlhf_benchmark_dschat_llama2_7b"):
// 16 generate calls of 8 prompts per GPU, 1024 prompt + 1024 answer tokens.
TEST(Generation, DeepSpeedChatRolloutOfOpenRlhfsBenchmark) {
  const auto& c = cases()["openrlhf_benchmark_dschat_llama2_7b"];
  nlohmann::json w = {{"objective", "ppo"},       {"micro_batch", 8},          {"seq_len", 1024},
                      {"sharding", "zero2"},      {"gpus", 8},                 {"cpu_offload", true},
                      {"grad_checkpointing", true}, {"precision", "fp16-mixed"},
                      {"rl", {{"completion_len", 1024}}}};
  nlohmann::json r = run(rl_request("llama-2-7b", w, "a800-80g", 8));
  const double model = 16 * rollout(r);
  const double published = c["generation_seconds"].get<double>();
  EXPECT_NEAR(model / published, 1.0, 0.25) << "model " << model << " s against " << published << " s";
}

}  // namespace
}  // namespace gpuplan::test
