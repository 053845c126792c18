// Memory estimator: the physics that must hold whatever the constants.
#include <gtest/gtest.h>

#include "gpuplan/memory.h"
#include "fit_limits_oracle.h"
#include "gpuplan/request.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

Request request(const std::string& workload_json, const std::string& preset = "llama-2-7b") {
  auto r = parse_request(R"({"model":{"preset":")" + preset + R"("},"workload":)" + workload_json + "}", embedded_catalog());
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.value();
}

double total(const std::string& workload_json) {
  Request q = request(workload_json);
  return estimate_memory(q.model, q.workload).total_bytes;
}

double component(const MemoryEstimate& e, const std::string& id) {
  for (const auto& c : e.components)
    if (c.id == id) return c.bytes;
  return 0;
}

TEST(Memory, FullAdamMixedPrecisionHoldsAtLeastSixteenBytesPerParameter) {
  // fp32 master weights + fp32 gradients + two fp32 Adam moments = 16 B/param
  // (Rajbhandari et al. 2020, ZeRO, section 3.1). Gradients and activations
  // peak at different moments of backward, so the weights and states plus
  // the larger of the two must reach 16 B/param.
  Request q = request(R"({"precision":"bf16-mixed","optimizer":"adamw"})");
  MemoryEstimate e = estimate_memory(q.model, q.workload);
  EXPECT_GE(component(e, "weights") + component(e, "optimizer"), 12 * q.model.params);
  EXPECT_GE(e.allocated_bytes, 16 * q.model.params);
}

TEST(Memory, GrowsWithBatchAndSequence) {
  EXPECT_LT(total(R"({"micro_batch":1})"), total(R"({"micro_batch":2})"));
  EXPECT_LT(total(R"({"seq_len":512})"), total(R"({"seq_len":1024})"));
}

TEST(Memory, CheckpointingAndLoraAndQloraEachSaveMemory) {
  EXPECT_LT(total(R"({"micro_batch":4,"grad_checkpointing":true})"), total(R"({"micro_batch":4})"));
  EXPECT_LT(total(R"({"method":"lora"})"), total(R"({"method":"full"})"));
  EXPECT_LT(total(R"({"method":"qlora"})"), total(R"({"method":"lora"})"));
}

TEST(Memory, Zero3SpreadsOverMoreGpus) {
  double two = total(R"({"gpus":2,"sharding":"zero3"})");
  double eight = total(R"({"gpus":8,"sharding":"zero3"})");
  EXPECT_LT(eight, two);
}

// FSDP mixed precision keeps the shards of an fp32-loaded base in fp32 and
// gathers each layer straight into bf16 (PyTorch FSDP MixedPrecision): the
// resident frozen shard doubles, the gathered layers do not change.
TEST(Memory, AnFp32FrozenBaseDoublesTheShardNotTheGatheredLayers) {
  const std::string lora = R"({"method":"lora","precision":"bf16-mixed","gpus":8,"sharding":"fsdp")";
  Request bf16 = request(lora + "}", "llama-2-70b");
  Request fp32 = request(lora + R"(,"frozen_base_fp32":true})", "llama-2-70b");
  const MemoryEstimate a = estimate_memory(bf16.model, bf16.workload);
  const MemoryEstimate b = estimate_memory(fp32.model, fp32.workload);
  EXPECT_NEAR(component(b, "weights") - component(a, "weights"), bf16.model.params * 2 / 8, 1e6);
  EXPECT_DOUBLE_EQ(component(b, "gathered_layers"), component(a, "gathered_layers"));
  // QLoRA with fp32 quant storage: only the non-quantized weights grow.
  Request q16 = request(R"({"method":"qlora","gpus":2,"sharding":"fsdp"})", "llama-2-70b");
  Request q32 = request(R"({"method":"qlora","gpus":2,"sharding":"fsdp","frozen_base_fp32":true})", "llama-2-70b");
  const double grown = component(estimate_memory(q32.model, q32.workload), "weights") -
                       component(estimate_memory(q16.model, q16.workload), "weights");
  EXPECT_GT(grown, 0);
  EXPECT_LT(grown, q16.model.params * 0.05);
  // A diffusion UNet's LoRA base, loaded in fp32 instead of the half weight dtype.
  const std::string unet = R"({"method":"lora","precision":"fp16-mixed","image_size":512)";
  Request h = request(unet + "}", "sd15-unet");
  Request f = request(unet + R"(,"frozen_base_fp32":true})", "sd15-unet");
  EXPECT_NEAR(component(estimate_memory(f.model, f.workload), "weights") -
                  component(estimate_memory(h.model, h.workload), "weights"),
              h.model.params * 2, 1e3);
}

TEST(Memory, InferenceKvCacheRespectsGroupedQueryAttention) {
  // Llama 3.1 8B has 8 KV heads for 32 query heads: a quarter of MHA's cache.
  Request q = request(R"({"mode":"infer","precision":"bf16","seq_len":8192,"micro_batch":1})", "llama-3.1-8b");
  double kv = component(estimate_memory(q.model, q.workload), "kv_cache");
  double expected = 2.0 * 32 * 8 * 128 * 8192 * 2;  // K and V, layers, kv_heads, head_dim, tokens, bytes
  EXPECT_DOUBLE_EQ(kv, expected);
}

TEST(Memory, ReverseQuestionsAreTheEdgeOfFitting) {
  Request q = request(R"({"method":"lora","seq_len":1024,"grad_checkpointing":true})", "llama-3.1-8b");
  const double card = 24.0 * kGiB;
  FitLimits limits = fit_limits(q.model, q.workload, card);
  ASSERT_GT(limits.max_micro_batch, 0);
  ASSERT_GT(limits.max_seq_len, 0);
  Workload w = q.workload;
  w.micro_batch = limits.max_micro_batch;
  EXPECT_LE(estimate_memory(q.model, w).total_bytes, card);
  w.micro_batch += 1;
  EXPECT_GT(estimate_memory(q.model, w).total_bytes, card);
  w = q.workload;
  w.seq_len = limits.max_seq_len;
  EXPECT_LE(estimate_memory(q.model, w).total_bytes, card);
  w.seq_len += 1;
  EXPECT_GT(estimate_memory(q.model, w).total_bytes, card);
}

TEST(Memory, ReverseQuestionsSayZeroWhenNothingFits) {
  // 70B in bf16 weights alone is ~130 GiB: no batch fits a 24 GiB card.
  Request q = request(R"({"mode":"infer","precision":"bf16"})", "llama-2-70b");
  FitLimits limits = fit_limits(q.model, q.workload, 24.0 * kGiB);
  EXPECT_EQ(limits.max_micro_batch, 0);
  EXPECT_EQ(limits.max_seq_len, 0);
}

TEST(Memory, ResponseCarriesTheReverseQuestionsPerGpu) {
  nlohmann::json r = run({{"model", {{"preset", "llama-3.1-8b"}}},
                          {"workload", {{"method", "qlora"}, {"grad_checkpointing", true}}},
                          {"hardware", {{"gpu", "rtx-4090"}, {"count", 1}}}});
  ASSERT_TRUE(r.contains("gpus")) << r.dump();
  EXPECT_GT(r["gpus"][0]["max_micro_batch"].get<int>(), 1);
  EXPECT_GT(r["gpus"][0]["max_seq_len"].get<int>(), 2048);
}

// A serving engine prefills at most max_num_batched_tokens tokens a step
// (vLLM's offline default, 8192), with no score matrix; transformers'
// generate prefills the whole batch. Qwen2.5-7B (ffn 18944, hidden 3584,
// vocab 152064, gated MLP), 32 prompts of 2048: the one-layer MLP peak at
// 8192 tokens in bf16, plus the fp32 logits of vLLM's profile run of its
// sampler on 256 dummy sequences (eager: each sequence's last position).
TEST(Memory, AServingEnginePrefillsOneStepOfTokens) {
  Request q = request(R"({"mode":"infer","precision":"bf16","micro_batch":32,"seq_len":2048,"stack":"vllm"})", "qwen2.5-7b");
  const double served = component(estimate_memory(q.model, q.workload), "activations");
  EXPECT_DOUBLE_EQ(served, 8192.0 * (3 * 18944 + 2 * 3584) * 2 + 256.0 * 152064 * 4);
  q.workload.stack = Stack::eager;
  const double eager = component(estimate_memory(q.model, q.workload), "activations");
  EXPECT_DOUBLE_EQ(eager, 32.0 * 2048 * (3 * 18944 + 2 * 3584) * 2 + 32.0 * 152064 * 4);
  // Fewer tokens than a step: the batch as it is.
  q.workload.stack = Stack::vllm;
  q.workload.micro_batch = 2;
  EXPECT_DOUBLE_EQ(component(estimate_memory(q.model, q.workload), "activations"),
                   2.0 * 2048 * (3 * 18944 + 2 * 3584) * 2 + 256.0 * 152064 * 4);
}

// vLLM pre-allocates 0.9 of the card whatever the batch needs: the response
// reports that pool beside the batch's need (docs/api.md).
TEST(Memory, VllmReportsItsPoolBesideTheBatchsNeed) {
  nlohmann::json r = run({{"model", {{"preset", "llama-3.1-8b"}}},
                          {"workload", {{"mode", "infer"}, {"stack", "vllm"}, {"micro_batch", 1}, {"seq_len", 1024}}},
                          {"hardware", {{"gpu", "a100-sxm4-80g"}, {"count", 1}}}});
  ASSERT_TRUE(r.contains("gpus")) << r.dump();
  const auto& g = r["gpus"][0];
  const double card = embedded_catalog().find_gpu("a100-sxm4-80g")->memory_bytes;
  EXPECT_NEAR(g["memory_engine_pool_bytes"].get<double>(), 0.9 * card, 1);
  EXPECT_LT(g["memory_total_bytes"].get<double>(), 0.3 * card);  // the batch needs a fraction of it
  nlohmann::json eager = run({{"model", {{"preset", "llama-3.1-8b"}}},
                              {"workload", {{"mode", "infer"}, {"micro_batch", 1}, {"seq_len", 1024}}},
                              {"hardware", {{"gpu", "a100-sxm4-80g"}, {"count", 1}}}});
  EXPECT_FALSE(eager["gpus"][0].contains("memory_engine_pool_bytes"));
}

// llama.cpp allocates exact ggml buffers (no caching-allocator reserve, no
// PyTorch libraries) and evaluates prompts in 512-token micro-batches: with
// flash_attention false its F32 KQ matrix is 512 queries x context x heads,
// never the whole prompt's score matrix.
TEST(Memory, LlamaCppAllocatesExactBuffersAndChunksThePrompt) {
  Request q = request(R"({"mode":"infer","precision":"int4","micro_batch":1,"seq_len":32768,"stack":"llama.cpp","flash_attention":false})",
                      "llama-3.1-8b");
  const MemoryEstimate e = estimate_memory(q.model, q.workload);
  EXPECT_EQ(component(e, "allocator_reserve"), 0);
  EXPECT_DOUBLE_EQ(e.reserved_bytes, e.allocated_bytes);
  EXPECT_LT(component(e, "runtime"), 0.5 * kGiB);
  // Llama-3.1-8B: 32 heads, ffn 14336, hidden 4096, vocab 128256, bf16 activations.
  EXPECT_DOUBLE_EQ(component(e, "activations"),
                   512.0 * (3 * 14336 + 2 * 4096) * 2 + 32.0 * 512 * 32768 * 4 + 128256.0 * 4);
  // The old estimate added a 32768^2 score matrix per head: 32 x 32768^2 x 6 bytes = 192 GiB.
  EXPECT_LT(e.total_bytes, 24.0 * kGiB);
  q.workload.stack = Stack::eager;
  EXPECT_GT(estimate_memory(q.model, q.workload).total_bytes, 100.0 * kGiB);
}

TEST(Memory, GradientsAndActivationsPeakAtDifferentMoments) {
  // Without accumulation, backward frees activations while gradients appear:
  // the peak is the larger of the two, not their sum. Accumulating keeps the
  // previous micro-batches' gradients through forward: then they add.
  Request q = request(R"({"precision":"bf16-true","micro_batch":1,"seq_len":512})", "llama-3.2-1b");
  MemoryEstimate single = estimate_memory(q.model, q.workload);
  q.workload.grad_accumulation = 4;
  MemoryEstimate accumulated = estimate_memory(q.model, q.workload);
  EXPECT_GT(accumulated.allocated_bytes, single.allocated_bytes);
  EXPECT_GE(component(accumulated, "gradients"), 2 * q.model.params);
}

TEST(Memory, LossCompileAndOffloadFieldsEachLowerThePeak) {
  const std::string base = R"("precision":"bf16-true","micro_batch":2,"seq_len":4096)";
  Request q = request("{" + base + "}", "llama-3.2-3b");
  double standard = estimate_memory(q.model, q.workload).total_bytes;
  q.workload.loss = Loss::chunked;
  double chunked = estimate_memory(q.model, q.workload).total_bytes;
  q.workload.loss = Loss::fused;
  double fused = estimate_memory(q.model, q.workload).total_bytes;
  EXPECT_LT(chunked, standard);
  EXPECT_LT(fused, chunked);
  q.workload.loss = Loss::standard;
  q.workload.torch_compile = true;
  EXPECT_LT(estimate_memory(q.model, q.workload).total_bytes, standard);
  q.workload.torch_compile = false;
  q.workload.grad_checkpointing = true;
  double checkpointed = estimate_memory(q.model, q.workload).total_bytes;
  q.workload.activation_offload = true;
  EXPECT_LT(estimate_memory(q.model, q.workload).total_bytes, checkpointed);
}

TEST(Memory, GatedMlpIsInferredFromTheParameterCount) {
  // GPT-2 XL dimensions (plain GELU MLP) and Llama 2 7B dimensions (SwiGLU),
  // given without gated_mlp: the published totals decide.
  auto gated = [](const std::string& model) {
    auto r = parse_request(R"({"model":)" + model + "}", embedded_catalog());
    EXPECT_TRUE(r.ok());
    return r.ok() && r.value().model.gated_mlp;
  };
  EXPECT_FALSE(gated(R"({"params":1557611200,"layers":48,"hidden":1600,"heads":25,"ffn":6400,"vocab":50257})"));
  EXPECT_TRUE(gated(R"({"params":6738415616,"layers":32,"hidden":4096,"heads":32,"ffn":11008,"vocab":32000})"));
}

TEST(Memory, ExtremeRequestsSaturateInsteadOfWrapping) {
  // The largest allowed sequence, batch and vocabulary ask for ~10^23 bytes:
  // the response must stay a positive integer, not wrap around int64.
  nlohmann::json r = run({{"model", {{"params", 1e14}, {"layers", 1000}, {"hidden", 1048576}, {"heads", 4096},
                                     {"vocab", 16000000}}},
                          {"workload", {{"micro_batch", 65536}, {"seq_len", 16777216}, {"flash_attention", false}}},
                          {"hardware", {{"gpu", "h100-sxm"}, {"count", 1}}}});
  ASSERT_TRUE(r.contains("memory")) << r.dump().substr(0, 300);
  EXPECT_GT(r["memory"]["per_gpu"]["total_bytes"].get<int64_t>(), int64_t(1) << 62);
  EXPECT_GT(r["gpus"][0]["memory_total_bytes"].get<int64_t>(), 0);
  EXPECT_FALSE(r["gpus"][0]["fits"].get<bool>());
}

TEST(Memory, ContradictoryDimensionsAreErrorsNamingTheField) {
  auto path_of = [](const std::string& request) {
    auto r = parse_request(request, embedded_catalog());
    return r.ok() ? std::string("ok") : r.error().path;
  };
  const std::string dims = R"("params":1e9,"layers":24,"hidden":2048,"vocab":32000)";
  EXPECT_EQ(path_of(R"({"model":{)" + dims + R"(,"heads":30}})"), "model.heads");
  EXPECT_EQ(path_of(R"({"model":{)" + dims + R"(,"heads":16,"kv_heads":32}})"), "model.kv_heads");
  EXPECT_EQ(path_of(R"({"model":{)" + dims + R"(,"heads":16},"workload":{"method":"lora","lora":{"rank":4096}}})"),
            "workload.lora.rank");
  EXPECT_EQ(path_of(R"({"model":{"preset":"gpt2"},"workload":{"seq_len":0}})"), "workload.seq_len");
  EXPECT_EQ(path_of(R"({"model":{"preset":"gpt2"},"workload":{"loss":"sparse"}})"), "workload.loss");
  EXPECT_EQ(path_of(R"({"model":{"preset":"gpt2"},"workload":{"grad_accumulation":0}})"), "workload.grad_accumulation");
}

}  // namespace
}  // namespace gpuplan::test
