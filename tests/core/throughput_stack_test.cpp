// What workload.stack, data.mean_seq_len / packing / length_bin and the measured per-card
// rates do to the time model (docs/time-model.md "Software stack", "Padding",
// "Real cards", "Range").
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/model_arithmetic.h"
#include "gpuplan/throughput.h"
#include "estimate/decode_bandwidth.h"
#include "estimate/sustained_rates.h"
#include "test_support.h"

namespace gpuplan {
namespace {

const ModelSpec& preset(const std::string& id) { return *embedded_catalog().find_model(id); }
const Gpu& gpu(const std::string& id) { return *embedded_catalog().find_gpu(id); }
double weights_of(const MemoryEstimate& e) {
  for (const auto& c : e.components)
    if (c.id == "weights") return c.bytes;
  return 0;
}

Workload decode(Stack stack) {
  Workload w;
  w.mode = Mode::infer;
  w.precision = Precision::bf16;
  w.seq_len = 410;  // 205 prompt + 205 generated
  w.stack = stack;
  return w;
}

// Eager generate() at batch 1 waits for Python: 32 layers x 40 kernels x
// 27 µs = 34.6 ms a token (the PyTorch "GPT, Fast" blog measured 25.5
// tokens/s eager on an A100 for Llama-2-7B, 107 compiled with CUDA graphs).
TEST(SoftwareStack, EagerBatchOneDecodeIsHostBound) {
  const ModelSpec& m = preset("llama-2-7b");
  const Gpu& a100 = gpu("a100-sxm4-80g");
  const Throughput eager = estimate_throughput(m, decode(Stack::eager), a100, 1);
  const Throughput graphs = estimate_throughput(m, decode(Stack::optimized), a100, 1);
  const double host_floor = 1 / (32 * 40 * 27e-6);
  EXPECT_NEAR(eager.tokens_per_s / host_floor, 1.0, 0.05);
  EXPECT_GT(graphs.tokens_per_s, 3 * eager.tokens_per_s);
  EXPECT_GT(eager.step.host_seconds, 0);
  EXPECT_EQ(graphs.step.host_seconds, 0);
  // vLLM and llama.cpp replay decode graphs as well.
  EXPECT_DOUBLE_EQ(estimate_throughput(m, decode(Stack::vllm), a100, 1).tokens_per_s, graphs.tokens_per_s);
}

// At a large batch the GPU, not the host, sets the decode pace in every stack.
TEST(SoftwareStack, LargeBatchDecodeIsNotHostBound) {
  const ModelSpec& m = preset("llama-2-7b");
  Workload eager = decode(Stack::eager), graphs = decode(Stack::optimized);
  eager.micro_batch = graphs.micro_batch = 256;
  const double e = estimate_throughput(m, eager, gpu("a100-sxm4-80g"), 1).tokens_per_s;
  const double g = estimate_throughput(m, graphs, gpu("a100-sxm4-80g"), 1).tokens_per_s;
  EXPECT_LT(g / e, 1.5);
}

// Fused kernels cut the passes over activations and the kernels the host
// dispatches: an optimized stack trains faster, most where the host binds.
TEST(SoftwareStack, OptimizedTrainingIsFasterThanEager) {
  for (const char* id : {"gpt2", "llama-3.2-3b"}) {
    Workload w;
    w.seq_len = 1024;
    const double eager = estimate_throughput(preset(id), w, gpu("a100-sxm4-80g"), 1).samples_per_s;
    w.stack = Stack::optimized;
    const double fused = estimate_throughput(preset(id), w, gpu("a100-sxm4-80g"), 1).samples_per_s;
    EXPECT_GT(fused, eager) << id;
    // torch.compile alone is the same class of effect.
    w.stack = Stack::eager;
    w.torch_compile = true;
    EXPECT_DOUBLE_EQ(estimate_throughput(preset(id), w, gpu("a100-sxm4-80g"), 1).samples_per_s, fused) << id;
  }
}

// llama.cpp runs GGUF: int4 is Q4_K (4.5 bits), int8 Q8_0 (8.5 bits), in
// memory and in the bytes decode streams alike. Its quantizer stores the
// input table in the file's type and the output matrix in Q6_K (Q8_0 in a
// Q8_0 file); the input table is looked up, not streamed.
TEST(SoftwareStack, LlamaCppWeightsAreGgufBlocks) {
  const ModelSpec& m = preset("llama-2-7b");
  const ModelShapes s = model_shapes(m);
  Workload w = decode(Stack::llama_cpp);
  w.precision = Precision::int4;
  const double input = s.head_params, output = s.embedding_params - s.head_params;
  const double expected = s.linear_params * 144.0 / 256 + input * 144.0 / 256 + output * 210.0 / 256 + s.other_params * 2;
  EXPECT_DOUBLE_EQ(inference_weight_bytes(m, s, Precision::int4, Stack::llama_cpp), expected);
  EXPECT_DOUBLE_EQ(estimate_throughput(m, w, gpu("rtx-4090"), 1).weight_bytes, expected - input * 144.0 / 256);
  double held = 0;
  for (const auto& c : estimate_memory(m, w).components)
    if (c.id == "weights") held = c.bytes;
  EXPECT_DOUBLE_EQ(held, expected);
  EXPECT_DOUBLE_EQ(bytes_per_weight(WeightFormat::gguf_q8_0), 34.0 / 32);
  // The Q8_0 file of a Llama-2-7B-sized model is 6.67 GiB, its two
  // vocabulary matrices included (llama.cpp PR #4766, CodeLlama-7B Q8_0).
  EXPECT_NEAR(inference_weight_bytes(m, s, Precision::int8, Stack::llama_cpp) / (1 << 30), 6.67, 0.005);
}

// llama.cpp reads a token's row of an untied input table (ggml_get_rows)
// and streams the output matrix (mul_mat_vec): an F16 Llama 3.1 8B token
// reads its 8.03 B weights less the 128256 x 4096 input table, 15.01 GB,
// while memory holds all 16.06 GB. A tied model's one table is the output
// matrix: all of it streams. Other stacks keep their fitted figure.
TEST(SoftwareStack, LlamaCppDecodeReadsTheHeadNotTheInputTable) {
  const ModelSpec& m = preset("llama-3.1-8b");
  ASSERT_FALSE(m.tied_embeddings);
  Workload w = decode(Stack::llama_cpp);
  w.precision = Precision::fp16;
  w.micro_batch = 1;
  const double table = double(m.vocab) * m.hidden * 2;
  EXPECT_DOUBLE_EQ(estimate_throughput(m, w, gpu("rtx-4090"), 1).weight_bytes, m.params * 2 - table);
  EXPECT_DOUBLE_EQ(weights_of(estimate_memory(m, w)), m.params * 2);
  const ModelSpec& tied = preset("llama-3.2-1b");
  ASSERT_TRUE(tied.tied_embeddings);
  EXPECT_DOUBLE_EQ(estimate_throughput(tied, w, gpu("rtx-4090"), 1).weight_bytes, tied.params * 2);
  Workload eager = w;
  eager.stack = Stack::eager;
  EXPECT_DOUBLE_EQ(estimate_throughput(m, eager, gpu("rtx-4090"), 1).weight_bytes, m.params * 2);
}

// Published llama-bench tg 512 of Llama 3 8B F16 (XiongjieDai/GPU-Benchmarks-
// on-LLM-Inference, README at aa72e0e): 54.84 tokens/s on an RTX 4090
// (GDDR6X, 1008 GB/s) and 53.49 on an A100 SXM4 80GB (HBM2e, 2039 GB/s).
// The 4090 streams a token's 15.04 GB at ~0.88 of its datasheet, the A100
// at ~0.42: the GeForce card is as fast with half the bandwidth. One share
// for every card had the A100 twice as fast. Cards without a figure of
// their own take their memory class's median: the H100 SXM the HBM one, the
// RTX 5090 the GDDR one.
TEST(SoftwareStack, LlamaCppDecodeStreamsAtItsCardsMeasuredShare) {
  const ModelSpec& m = preset("llama-3.1-8b");
  Workload w = decode(Stack::llama_cpp);
  w.precision = Precision::fp16;
  w.micro_batch = 1;
  w.seq_len = 1024;  // 512 prompt + 512 generated (tg 512)
  const Gpu& rtx = gpu("rtx-4090");
  const Gpu& a100 = gpu("a100-sxm4-80g");
  const Throughput t_rtx = estimate_throughput(m, w, rtx, 1);
  const Throughput t_a100 = estimate_throughput(m, w, a100, 1);
  auto share = [&](const Throughput& t, const Gpu& g) {
    return t.tokens_per_s * t.weight_bytes / g.memory_bandwidth_bytes_per_s;
  };
  EXPECT_GT(share(t_rtx, rtx), 1.8 * share(t_a100, a100));
  EXPECT_NEAR(t_rtx.tokens_per_s / t_a100.tokens_per_s, 54.84 / 53.49, 0.05);
  EXPECT_NEAR(t_rtx.tokens_per_s, 54.84, 0.03 * 54.84);
  EXPECT_NEAR(t_a100.tokens_per_s, 53.49, 0.03 * 53.49);
  // The class medians: three HBM cards measured, nine GDDR cards.
  const double hbm[] = {llama_cpp_decode_bandwidth_share("a100-pcie-80g"),
                        llama_cpp_decode_bandwidth_share("a100-sxm4-80g"),
                        llama_cpp_decode_bandwidth_share("h100-pcie")};
  const double hbm_median = std::max(std::min(hbm[0], hbm[1]), std::min(std::max(hbm[0], hbm[1]), hbm[2]));
  EXPECT_DOUBLE_EQ(llama_cpp_decode_bandwidth_share("h100-sxm"), hbm_median);
  EXPECT_NEAR(hbm_median, 0.46, 0.01);
  EXPECT_NEAR(llama_cpp_decode_bandwidth_share("rtx-5090"), 0.88, 0.01);
  EXPECT_FALSE(has_measured_decode_share("rtx-5090"));
  // Every catalog card is in a class (a new card must be given one).
  for (const Gpu& g : embedded_catalog().gpus) {
    const double s = llama_cpp_decode_bandwidth_share(g.id);
    EXPECT_TRUE(has_measured_decode_share(g.id) || s == llama_cpp_decode_bandwidth_share(has_hbm(g.id) ? "h100-sxm" : "rtx-5090"))
        << g.id;
  }
  // Other stacks keep the streaming-copy share.
  Workload vllm = w;
  vllm.stack = Stack::vllm;
  const Throughput v_rtx = estimate_throughput(m, vllm, rtx, 1), v_a100 = estimate_throughput(m, vllm, a100, 1);
  EXPECT_GT(v_a100.tokens_per_s, 1.5 * v_rtx.tokens_per_s);
}

Workload padded(int mean, bool packing) {
  Workload w;
  w.method = Method::lora;
  w.micro_batch = 8;
  w.seq_len = 2048;
  w.mean_seq_len = mean;
  w.packing = packing;
  return w;
}

// Per-batch padding: a step computes at the expected longest of its samples;
// tokens/s counts real tokens. Lengths uniform on [0, 512] (mean 256): the
// longest of 8 is 512 x 8/9 = 455 tokens.
TEST(Padding, StepsComputeAtTheLongestSampleAndCountRealTokens) {
  const ModelSpec& m = preset("llama-3.1-8b");
  const Gpu& g = gpu("a100-sxm4-80g");
  const Throughput t = estimate_throughput(m, padded(256, false), g, 1);
  EXPECT_NEAR(t.tokens_per_s, t.samples_per_s * 256, 1e-6 * t.tokens_per_s);
  Workload at_455 = padded(0, false);
  at_455.seq_len = 455;
  EXPECT_DOUBLE_EQ(t.samples_per_s, estimate_throughput(m, at_455, g, 1).samples_per_s);
  // Batch 1 pads nothing: it computes at the mean.
  Workload one = padded(256, false);
  one.micro_batch = 1;
  Workload at_mean = padded(0, false);
  at_mean.micro_batch = 1;
  at_mean.seq_len = 256;
  EXPECT_DOUBLE_EQ(estimate_throughput(m, one, g, 1).samples_per_s, estimate_throughput(m, at_mean, g, 1).samples_per_s);
}

// Packed rows are full: every token is real, at seq_len per row.
TEST(Padding, PackedRowsAreFull) {
  const ModelSpec& m = preset("llama-3.1-8b");
  const Gpu& g = gpu("a100-sxm4-80g");
  const Throughput packed = estimate_throughput(m, padded(256, true), g, 1);
  const Throughput full = estimate_throughput(m, padded(0, false), g, 1);
  EXPECT_DOUBLE_EQ(packed.samples_per_s, full.samples_per_s);
  EXPECT_DOUBLE_EQ(packed.tokens_per_s, full.tokens_per_s);
  // 1000 samples of 256 tokens pack into 125 rows of 2048.
  DataSize d;
  d.samples = 1000;
  EXPECT_NEAR(job_hours(m, padded(256, true), d, packed) * 3600, 125 / packed.samples_per_s, 1e-9);
}

// A length-grouped loader (data.length_bin; NVIDIA LDDL's 64-token bins in
// DeepLearningExamples' BERT phase 2) pads each batch to its bin's top: the
// step computes at mean + bin / 2 whatever the batch, and still counts real
// tokens. Without a mean there is nothing to group; packing pads nothing.
TEST(Padding, LengthBinnedBatchesPadToTheirBinsTop) {
  const ModelSpec& m = preset("llama-3.1-8b");
  const Gpu& g = gpu("a100-sxm4-80g");
  Workload binned = padded(256, false);
  binned.length_bin = 64;
  Workload at_288 = padded(0, false);
  at_288.seq_len = 288;
  const Throughput t = estimate_throughput(m, binned, g, 1);
  EXPECT_DOUBLE_EQ(t.samples_per_s, estimate_throughput(m, at_288, g, 1).samples_per_s);
  EXPECT_NEAR(t.tokens_per_s, t.samples_per_s * 256, 1e-6 * t.tokens_per_s);
  // Faster than random batches, which pad to the longest of 8 (455 tokens).
  EXPECT_GT(t.samples_per_s, estimate_throughput(m, padded(256, false), g, 1).samples_per_s);
  Workload no_mean = padded(0, false);
  no_mean.length_bin = 64;
  EXPECT_DOUBLE_EQ(estimate_throughput(m, no_mean, g, 1).samples_per_s,
                   estimate_throughput(m, padded(0, false), g, 1).samples_per_s);
  Workload packed = padded(256, true);
  packed.length_bin = 64;
  EXPECT_DOUBLE_EQ(estimate_throughput(m, packed, g, 1).samples_per_s,
                   estimate_throughput(m, padded(256, true), g, 1).samples_per_s);
  // Through the request: data.length_bin reaches the workload; a bad value names the field.
  const nlohmann::json ok = test::run(nlohmann::json::parse(
      R"({"model":{"preset":"llama-3.1-8b"},"workload":{"micro_batch":8,"seq_len":2048},)"
      R"("data":{"mean_seq_len":256,"length_bin":64},"hardware":{"gpu":"a100-sxm4-80g"}})"));
  const nlohmann::json plain = test::run(nlohmann::json::parse(
      R"({"model":{"preset":"llama-3.1-8b"},"workload":{"micro_batch":8,"seq_len":2048},)"
      R"("data":{"mean_seq_len":256},"hardware":{"gpu":"a100-sxm4-80g"}})"));
  EXPECT_GT(ok["gpus"][0]["throughput"]["samples_per_s"].get<double>(),
            plain["gpus"][0]["throughput"]["samples_per_s"].get<double>());
  const nlohmann::json bad = test::run(nlohmann::json::parse(
      R"({"model":{"preset":"llama-3.1-8b"},"data":{"mean_seq_len":256,"length_bin":0},"hardware":{"gpu":"a100-sxm4-80g"}})"));
  ASSERT_TRUE(bad.contains("error")) << bad.dump();
  EXPECT_EQ(bad["error"]["path"], "data.length_bin");
}

// The same chip at the same clocks reads the same measured rate: the V100
// SXM2 32GB has no row of its own and takes the 16GB card's.
TEST(RealCards, SameChipCardsShareTheirMeasuredRate) {
  for (ComputeUnit u : {ComputeUnit::fp16_tensor, ComputeUnit::fp32_cuda}) {
    EXPECT_LT(sustained_rate_factor("v100-sxm2-16g", u), 0.95);
    EXPECT_DOUBLE_EQ(sustained_rate_factor("v100-sxm2-32g", u), sustained_rate_factor("v100-sxm2-16g", u));
  }
}

// The measured matmul rate of a card over the median card's (sustained_rates.cpp).
TEST(RealCards, PowerLimitedCardsSustainLessOfTheirDatasheet) {
  EXPECT_LT(sustained_rate_factor("l40s", ComputeUnit::bf16_tensor), 0.9);
  EXPECT_LT(sustained_rate_factor("t4", ComputeUnit::fp16_tensor), 0.8);
  EXPECT_GT(sustained_rate_factor("rtx-4090", ComputeUnit::bf16_tensor), 1.1);
  // GeForce FP32: two thirds of the dual-issue figure.
  EXPECT_LT(sustained_rate_factor("rtx-4090", ComputeUnit::fp32_cuda), sustained_rate_factor("a100-sxm4-80g", ComputeUnit::fp32_cuda));
  // GA102 / AD104 datacenter parts reach little over half their datasheet
  // tensor rate; the 150 W A10 less than the 300 W A10G.
  EXPECT_LT(sustained_rate_factor("a10g", ComputeUnit::bf16_tensor), 0.7);
  EXPECT_LT(sustained_rate_factor("l4", ComputeUnit::bf16_tensor), 0.7);
  EXPECT_LT(sustained_rate_factor("a10", ComputeUnit::bf16_tensor), sustained_rate_factor("a10g", ComputeUnit::bf16_tensor));
  // The 2080 Ti passes its FP32-accumulate tensor figure, as the 3090 does.
  EXPECT_GT(sustained_rate_factor("rtx-2080ti", ComputeUnit::fp16_tensor), 1.1);
  EXPECT_EQ(sustained_rate_factor("a40", ComputeUnit::bf16_tensor), 1);  // not measured: typical
  EXPECT_EQ(sustained_rate_factor("l40s", ComputeUnit::tf32_tensor), 1);
  // The factor reaches the estimate: same work, the L40S's share of its 362 TFLOPS is smaller.
  Workload w;
  w.seq_len = 2048;
  w.micro_batch = 8;
  const Throughput l40s = estimate_throughput(preset("llama-3.2-3b"), w, gpu("l40s"), 1);
  const Throughput a100 = estimate_throughput(preset("llama-3.2-3b"), w, gpu("a100-sxm4-80g"), 1);
  EXPECT_LT(l40s.utilization, a100.utilization);
}

// The interval is a real interval around the estimate for every class.
TEST(Range, EveryStackHasAnIntervalAroundTheEstimate) {
  for (Stack s : {Stack::eager, Stack::optimized, Stack::vllm, Stack::llama_cpp}) {
    Workload w = decode(s);
    const Throughput t = estimate_throughput(preset("llama-2-7b"), w, gpu("rtx-4090"), 1);
    EXPECT_LT(t.low_factor, 1);
    EXPECT_GT(t.high_factor, 1);
  }
}

TEST(StackRequest, ParsedAndCheckedThroughTheEntryPoint) {
  nlohmann::json q = {{"model", {{"preset", "llama-2-7b"}}},
                      {"workload", {{"mode", "infer"}, {"stack", "llama.cpp"}, {"precision", "int4"}}},
                      {"hardware", {{"gpu", "rtx-4090"}}}};
  nlohmann::json r = test::run(q);
  ASSERT_TRUE(r.contains("gpus")) << r.dump();
  q["workload"]["stack"] = "tensorrt";
  r = test::run(q);
  EXPECT_EQ(r["error"]["code"], "unknown_value") << r.dump();
  EXPECT_EQ(r["error"]["path"], "workload.stack");
  q["workload"]["stack"] = "eager";
  q["workload"]["mode"] = "train";
  q["workload"]["precision"] = "bf16-mixed";
  q["workload"]["seq_len"] = 512;
  q["data"] = {{"samples", 1000}, {"mean_seq_len", 600}};
  r = test::run(q);
  EXPECT_EQ(r["error"]["code"], "inconsistent") << r.dump();
  EXPECT_EQ(r["error"]["path"], "data.mean_seq_len");
}


// Two cards that split a generating model's weights: eager transformers
// (device_map="auto") and llama.cpp (--split-mode layer) run the layers one
// card after the other, as fast as one card that held it all; vLLM shards
// every layer (tensor parallel), faster than one card. Replicated weights
// generate in data parallel: twice one card's rate.
TEST(SoftwareStack, SplitModelDecodesLayerByLayerUnlessTensorParallel) {
  const ModelSpec& m = preset("llama-2-7b");
  const Gpu& g = gpu("rtx-4090");
  auto at = [&](Stack stack, int n, Sharding sharding) {
    Workload w = decode(stack);
    w.micro_batch = 16;
    w.gpus = n;
    w.sharding = sharding;
    return estimate_throughput(m, w, g, n).tokens_per_s;
  };
  for (Stack s : {Stack::eager, Stack::llama_cpp})
    EXPECT_NEAR(at(s, 2, Sharding::zero3) / at(s, 1, Sharding::none), 1.0, 1e-9) << int(s);
  EXPECT_GT(at(Stack::vllm, 2, Sharding::zero3), 1.3 * at(Stack::vllm, 1, Sharding::none));
  EXPECT_NEAR(at(Stack::eager, 2, Sharding::ddp) / at(Stack::eager, 1, Sharding::none), 2.0, 1e-9);
}


// An encoder-decoder generates with its decoder blocks alone: at batch 1 on
// a card that the weights' read binds, a token of flan-t5-xl takes the
// decoder's share of the weights (self- and cross-attention and the MLP of
// half the layers, about 0.6), not all of them.
TEST(SoftwareStack, EncoderDecoderDecodesWithItsDecoderOnly) {
  const ModelSpec& t5 = preset("flan-t5-xl");
  Workload w = decode(Stack::optimized);  // no host floor: the weights' read sets the pace
  const Gpu& g = gpu("t4");
  ModelSpec as_decoder = t5;
  as_decoder.kind = ModelKind::decoder;
  const double enc_dec = estimate_throughput(t5, w, g, 1).tokens_per_s;
  const double decoder = estimate_throughput(as_decoder, w, g, 1).tokens_per_s;
  EXPECT_GT(enc_dec / decoder, 1.4);
  EXPECT_LT(enc_dec / decoder, 2.0);
}

}  // namespace
}  // namespace gpuplan
