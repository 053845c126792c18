// Behaviour of the time model (docs/time-model.md): which unit a precision runs
// on, how work size, bandwidth and the interconnect move the rate, and the two
// figures the seeds report, reproduced from the model rather than copied in.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "gpuplan/catalog.h"
#include "gpuplan/throughput.h"
#include "test_support.h"

namespace gpuplan {
namespace {

const Gpu& gpu(const char* id) {
  const Gpu* g = embedded_catalog().find_gpu(id);
  EXPECT_NE(g, nullptr) << id;
  return *g;
}

// Published dimensions (configs cited in docs/time-model.md); built here so
// the tests do not depend on which presets the catalog carries today.
ModelSpec bert(bool large) {
  ModelSpec m;
  m.kind = ModelKind::encoder;
  m.params = large ? 335141888 : 109482240;
  m.layers = large ? 24 : 12;
  m.hidden = large ? 1024 : 768;
  m.heads = large ? 16 : 12;
  m.kv_heads = m.heads;
  m.ffn = 4 * m.hidden;
  m.vocab = 30522;
  m.gated_mlp = false;
  m.tied_embeddings = true;
  return m;
}

ModelSpec llama_8b() {
  ModelSpec m;
  m.kind = ModelKind::decoder;
  m.params = 8030261248;
  m.layers = 32;
  m.hidden = 4096;
  m.heads = 32;
  m.kv_heads = 8;
  m.ffn = 14336;
  m.vocab = 128256;
  return m;
}

ModelSpec resnet50() {
  ModelSpec m;
  m.kind = ModelKind::cnn;
  m.params = 25557032;
  m.gflops_per_sample = 8.2;               // torchvision 4.09 GMACs x 2
  m.activation_bytes_per_sample = 89.6e6;  // tests/data/throughput_cases.json supplements
  m.reference_image_size = 224;
  return m;
}

Workload train(Precision p, int micro_batch, int seq_len) {
  Workload w;
  w.mode = Mode::train;
  w.precision = p;
  w.micro_batch = micro_batch;
  w.seq_len = seq_len;
  w.flash_attention = false;
  return w;
}

Workload ddp(Workload w, int n) {
  w.gpus = n;
  w.sharding = n > 1 ? Sharding::ddp : Sharding::none;
  return w;
}

TEST(TimePrecision, Fp32RunsOnTf32WhereTheCardHasIt) {
  ComputeUnit unit;
  EXPECT_DOUBLE_EQ(peak_tflops_for(gpu("a100-sxm4-80g"), train(Precision::fp32, 1, 128), &unit), 156);
  EXPECT_EQ(unit, ComputeUnit::tf32_tensor);
  EXPECT_DOUBLE_EQ(peak_tflops_for(gpu("v100-sxm2-16g"), train(Precision::fp32, 1, 128), &unit), 15.7);
  EXPECT_EQ(unit, ComputeUnit::fp32_cuda);
}

TEST(TimePrecision, Tf32OffRunsTransformerMatmulsOnCudaCoresButNotConvolutions) {
  const Gpu& a100 = gpu("a100-sxm4-80g");
  Workload on = train(Precision::fp32, 32, 128);
  Workload off = on;
  off.tf32 = false;
  Throughput with_tf32 = estimate_throughput(bert(true), on, a100, 1);
  Throughput without = estimate_throughput(bert(true), off, a100, 1);
  EXPECT_EQ(without.unit, ComputeUnit::fp32_cuda);
  EXPECT_DOUBLE_EQ(without.peak_tflops, 19.5);
  EXPECT_GT(with_tf32.samples_per_s, 2 * without.samples_per_s);
  // cuDNN convolutions allow TF32 by default whatever the matmul setting.
  Workload cnn = train(Precision::fp32, 64, 0);
  cnn.tf32 = false;
  EXPECT_EQ(estimate_throughput(resnet50(), cnn, a100, 1).unit, ComputeUnit::tf32_tensor);
  nlohmann::json r = test::run(nlohmann::json::parse(
      R"({"model":{"preset":"bert-large"},"workload":{"precision":"fp32","tf32":false},"hardware":{"gpu":"a100-sxm4-80g"}})"));
  EXPECT_EQ(r["gpus"][0]["throughput"]["compute_unit"], "fp32");
}

TEST(TimePrecision, Bf16FallsBackToFp32OnCardsWithoutBf16TensorCores) {
  ComputeUnit unit;
  peak_tflops_for(gpu("v100-sxm2-16g"), train(Precision::bf16_mixed, 1, 128), &unit);
  EXPECT_EQ(unit, ComputeUnit::fp32_cuda);
  peak_tflops_for(gpu("rtx-2080ti"), train(Precision::fp16_mixed, 1, 128), &unit);
  EXPECT_EQ(unit, ComputeUnit::fp16_tensor);
}

// The reason this project exists (issue #4): a tool reading FP32 peaks ranks
// the 4090 (82.6 TFLOPS FP32) far above the A100 (19.5) for training; in bf16
// the A100 has 312 vs 165 TFLOPS and twice the bandwidth.
TEST(TimeRanking, A100TrainsAnLlmFasterThanA4090InBf16) {
  Workload w = train(Precision::bf16_mixed, 4, 2048);
  w.method = Method::lora;
  w.flash_attention = true;
  Throughput a100 = estimate_throughput(llama_8b(), w, gpu("a100-sxm4-80g"), 1);
  Throughput rtx = estimate_throughput(llama_8b(), w, gpu("rtx-4090"), 1);
  EXPECT_GT(a100.tokens_per_s, 1.4 * rtx.tokens_per_s);
  EXPECT_LT(a100.tokens_per_s, 2.5 * rtx.tokens_per_s);
}

TEST(TimeWorkSize, SmallBatchesUseTheCardPoorly) {
  const Gpu& g = gpu("a100-sxm4-80g");
  Throughput small = estimate_throughput(bert(true), train(Precision::bf16_mixed, 1, 128), g, 1);
  Throughput big = estimate_throughput(bert(true), train(Precision::bf16_mixed, 64, 128), g, 1);
  EXPECT_LT(small.utilization, 0.5 * big.utilization);
  EXPECT_GT(big.utilization, 0.25);
  EXPECT_LT(big.utilization, 0.75);  // no real training run reaches the datasheet peak
}

TEST(TimeWorkSize, LargerModelsReachHigherUtilization) {
  const Gpu& g = gpu("a100-sxm4-80g");
  Workload w = train(Precision::bf16_mixed, 8, 2048);
  w.flash_attention = true;
  ModelSpec small = llama_8b();
  small.hidden = 768;
  small.heads = 12;
  small.kv_heads = 12;
  small.ffn = 3072;
  small.layers = 12;
  small.vocab = 50257;
  small.gated_mlp = false;
  small.params = 124e6;
  EXPECT_LT(estimate_throughput(small, w, g, 1).utilization, estimate_throughput(llama_8b(), w, g, 1).utilization);
}

TEST(TimeMethod, LoraProcessesTokensFasterThanFullTrainingAndCheckpointingCostsAForward) {
  const Gpu& g = gpu("a100-sxm4-80g");
  Workload full = train(Precision::bf16_mixed, 4, 2048);
  full.flash_attention = true;
  Workload lora = full;
  lora.method = Method::lora;
  Workload ckpt = lora;
  ckpt.grad_checkpointing = true;
  double full_rate = estimate_throughput(llama_8b(), full, g, 1).tokens_per_s;
  double lora_rate = estimate_throughput(llama_8b(), lora, g, 1).tokens_per_s;
  double ckpt_rate = estimate_throughput(llama_8b(), ckpt, g, 1).tokens_per_s;
  // 6N vs 4N FLOPs per token (+ no full optimizer step): 1.3x-1.7x.
  EXPECT_GT(lora_rate / full_rate, 1.3);
  EXPECT_LT(lora_rate / full_rate, 1.8);
  // Recomputing the forward: 4N -> 6N.
  EXPECT_NEAR(ckpt_rate / lora_rate, 4.0 / 6.0, 0.08);
}

// With decode replayed as CUDA graphs (any stack but eager: vLLM, gpt-fast,
// llama.cpp); eager decode at batch 1 waits for the host (throughput_stack_test).
TEST(TimeInference, DecodeIsBoundByBandwidthAndScalesWithIt) {
  Workload w;
  w.stack = Stack::optimized;
  w.mode = Mode::infer;
  w.precision = Precision::bf16;
  w.micro_batch = 1;
  w.seq_len = 512;
  Throughput h100 = estimate_throughput(llama_8b(), w, gpu("h100-sxm"), 1);
  Throughput a100 = estimate_throughput(llama_8b(), w, gpu("a100-sxm4-80g"), 1);
  EXPECT_TRUE(h100.bandwidth_bound);
  const double bandwidth_ratio =
      gpu("h100-sxm").memory_bandwidth_bytes_per_s / gpu("a100-sxm4-80g").memory_bandwidth_bytes_per_s;
  EXPECT_NEAR(h100.tokens_per_s / a100.tokens_per_s, bandwidth_ratio, 0.15 * bandwidth_ratio);
  // Batch 1 bf16: one pass over 16 GB of weights per token on a 3.35 TB/s card.
  EXPECT_GT(h100.tokens_per_s, 100);
  EXPECT_LT(h100.tokens_per_s, 3350e9 / (2 * 8.03e9));
}

TEST(TimeInference, BatchingRaisesTokensPerSecondUntilComputeBinds) {
  Workload w;
  w.mode = Mode::infer;
  w.precision = Precision::bf16;
  w.seq_len = 512;
  w.micro_batch = 1;
  double one = estimate_throughput(llama_8b(), w, gpu("a100-sxm4-80g"), 1).tokens_per_s;
  w.micro_batch = 32;
  double many = estimate_throughput(llama_8b(), w, gpu("a100-sxm4-80g"), 1).tokens_per_s;
  EXPECT_GT(many, 10 * one);
  EXPECT_LT(many, 32 * one);
}

TEST(TimeInference, ImageInferenceOnSeveralGpusRunsABatchOnEach) {
  Workload w;
  w.mode = Mode::infer;
  w.precision = Precision::fp16;
  w.micro_batch = 64;
  const Gpu& t4 = gpu("t4");
  Throughput one = estimate_throughput(resnet50(), w, t4, 1);
  Throughput four = estimate_throughput(resnet50(), w, t4, 4);
  EXPECT_NEAR(four.samples_per_s, 4 * one.samples_per_s, 1e-9 * four.samples_per_s);
  EXPECT_NEAR(four.utilization, one.utilization, 1e-12);
}

TEST(TimeMultiGpu, NvlinkScalesBetterThanPcieForTheSameWork) {
  Workload w = ddp(train(Precision::bf16_mixed, 8, 512), 8);
  double nvlink = estimate_throughput(bert(true), w, gpu("a100-sxm4-80g"), 8).scaling_efficiency;
  double pcie = estimate_throughput(bert(true), w, gpu("a100-pcie-80g"), 8).scaling_efficiency;
  EXPECT_GT(nvlink, pcie);
  EXPECT_GT(nvlink, 0.9);
}

// ZeRO-3 gathers parameters for forward and backward and reduce-scatters
// gradients: 1.5x the bytes of DDP's all-reduce in the same dtype. (Under AMP,
// DDP all-reduces fp32 gradients while FSDP moves bf16, so compare bf16-true.)
TEST(TimeMultiGpu, Zero3MovesOneAndAHalfTimesTheBytesOfDdp) {
  Workload w = ddp(train(Precision::bf16_true, 8, 512), 4);
  Workload z3 = w;
  z3.sharding = Sharding::zero3;
  const Gpu& g = gpu("rtx-4090");
  EXPECT_NEAR(estimate_throughput(bert(true), z3, g, 4).step.communication_seconds /
                  estimate_throughput(bert(true), w, g, 4).step.communication_seconds,
              1.5, 1e-9);
}

// Seed 004: "2 x 3090 usually give only 1.7x one card because of communication".
// No single workload is named, so the model is asked about the kind of jobs
// the seed's article discusses (BERT fine-tuning with AMP, ResNet-50) at the
// batch sizes a 24 GB card takes; the spread must bracket the seed's figure.
TEST(TimeSeeds, TwoRtx3090GiveRoughlyOnePointSevenTimesOneCard) {
  const Gpu& g = gpu("rtx-3090");
  struct Job {
    const char* what;
    ModelSpec model;
    Workload workload;
  };
  Workload bert_amp = train(Precision::fp16_mixed, 32, 128);
  Workload bert_amp_long = train(Precision::fp16_mixed, 16, 512);
  Workload bert_fp32 = train(Precision::fp32, 32, 128);
  Workload cnn = train(Precision::fp16_mixed, 128, 0);
  cnn.optimizer = Optimizer::sgd_momentum;
  Job jobs[] = {{"BERT-base AMP 32x128", bert(false), bert_amp},
                {"BERT-base AMP 16x512", bert(false), bert_amp_long},
                {"BERT-base fp32 32x128", bert(false), bert_fp32},
                {"BERT-large AMP 16x512", bert(true), bert_amp_long},
                {"ResNet-50 AMP 128", resnet50(), cnn}};
  double log_sum = 0;
  int n = 0;
  for (const Job& j : jobs) {
    double one = estimate_throughput(j.model, ddp(j.workload, 1), g, 1).samples_per_s;
    double two = estimate_throughput(j.model, ddp(j.workload, 2), g, 2).samples_per_s;
    double speedup = two / one;
    std::printf("  2 x RTX 3090, %-24s speedup %.2f\n", j.what, speedup);
    // No job is nearly serial. (The smallest, BERT-base AMP at 32 x 128, is
    // communication-bound on host-staged PCIe at ~1.18 since the 3090's
    // measured tensor rate, 1.27 x the A100-relative figure, shortens its compute.)
    EXPECT_GT(speedup, 1.1) << j.what;
    EXPECT_LE(speedup, 2.0) << j.what;
    log_sum += std::log(speedup);
    ++n;
  }
  double typical = std::exp(log_sum / n);
  std::printf("  geometric mean %.2f (seed 004: ~1.7)\n", typical);
  EXPECT_NEAR(typical, 1.7, 0.2);
}

// Seed 000: BERT-large fine-tuning, 55 min/epoch on 4 x 2080 Ti, 9 min on
// 2 x A100 "with the same batch size and optimizer": a ratio of 6.1. The
// article names neither precision nor sequence length. Assumed here, before
// looking at the model's answer: the lab's code unchanged on both machines,
// so fp32 training (no AMP; Turing has no TF32, the A100 runs fp32 matmuls
// as TF32 as PyTorch 1.7-1.11 did by default); SQuAD-style length 384; the
// largest per-GPU batch an 11 GB 2080 Ti holds in fp32 at that length (4),
// so the same global batch of 16 is 4 x 4 and 2 x 8; DDP over PCIe 3 without
// peer-to-peer on the 2080 Ti box, NVLink on the A100 server.
TEST(TimeSeeds, BertLargeOn2xA100Versus4x2080TiMatchesTheReportedRatio) {
  Workload w = train(Precision::fp32, 4, 384);
  Throughput turing = estimate_throughput(bert(true), ddp(w, 4), gpu("rtx-2080ti"), 4);
  Workload a = w;
  a.micro_batch = 8;
  Throughput ampere = estimate_throughput(bert(true), ddp(a, 2), gpu("a100-sxm4-80g"), 2);
  const double reported = 55.0 / 9.0;
  double ratio = ampere.samples_per_s / turing.samples_per_s;
  std::printf("  2 x A100 / 4 x 2080 Ti: model %.2f, reported %.2f\n", ratio, reported);
  EXPECT_NEAR(ratio, reported, 0.3 * reported);
  // The same question in AMP on both sides lands in the same range: the gap is
  // the A100's tensor rate and the 2080 Ti's host-staged all-reduce.
  Workload amp = w;
  amp.precision = Precision::fp16_mixed;
  Workload amp_a = a;
  amp_a.precision = Precision::fp16_mixed;
  double amp_ratio = estimate_throughput(bert(true), ddp(amp_a, 2), gpu("a100-sxm4-80g"), 2).samples_per_s /
                     estimate_throughput(bert(true), ddp(amp, 4), gpu("rtx-2080ti"), 4).samples_per_s;
  std::printf("  same in fp16-mixed: model %.2f\n", amp_ratio);
  EXPECT_GT(amp_ratio, 3.0);
}

// Gradient accumulation: the optimizer step and DDP's all-reduce (skipped with
// no_sync until the last micro-batch) happen once per accumulation cycle.
TEST(TimeMultiGpu, GradientAccumulationAmortizesTheAllReduceAndTheOptimizer) {
  const Gpu& g = gpu("rtx-3090");
  Workload w = ddp(train(Precision::fp16_mixed, 32, 128), 2);
  Workload acc = w;
  acc.grad_accumulation = 8;
  Throughput once = estimate_throughput(bert(false), w, g, 2);
  Throughput amortized = estimate_throughput(bert(false), acc, g, 2);
  EXPECT_GT(amortized.scaling_efficiency, once.scaling_efficiency);
  EXPECT_GT(amortized.samples_per_s, once.samples_per_s);
  EXPECT_NEAR(amortized.step.optimizer_seconds, once.step.optimizer_seconds / 8, 1e-12);
  // One optimizer step now spans eight micro-batches.
  EXPECT_NEAR(amortized.step_seconds, 8 * 2 * 32 / amortized.samples_per_s, 1e-9);
}

TEST(TimeWorkSize, TorchCompileHelpsMostWhereKernelsAndTrafficDominate) {
  const Gpu& g = gpu("a100-sxm4-80g");
  Workload small = train(Precision::bf16_mixed, 2, 128);
  Workload small_compiled = small;
  small_compiled.torch_compile = true;
  Workload big = train(Precision::bf16_mixed, 64, 512);
  Workload big_compiled = big;
  big_compiled.torch_compile = true;
  double small_gain = estimate_throughput(bert(true), small_compiled, g, 1).samples_per_s /
                      estimate_throughput(bert(true), small, g, 1).samples_per_s;
  double big_gain = estimate_throughput(bert(true), big_compiled, g, 1).samples_per_s /
                    estimate_throughput(bert(true), big, g, 1).samples_per_s;
  EXPECT_GT(small_gain, big_gain);
  EXPECT_GT(big_gain, 1.0);
  EXPECT_LT(big_gain, 1.6);  // compile cannot speed up the matmuls themselves
}

TEST(TimeBaseline, MeasuredRateRescalesEveryEstimate) {
  // "My 4 x 2080 Ti take 55 minutes an epoch" of 88k SQuAD samples.
  Workload w = ddp(train(Precision::fp32, 4, 384), 4);
  const double measured = 88000.0 / (55 * 60);
  double scale = baseline_scale(bert(true), w, gpu("rtx-2080ti"), 4, measured);
  Throughput raw = estimate_throughput(bert(true), w, gpu("rtx-2080ti"), 4);
  EXPECT_NEAR(raw.samples_per_s * scale, measured, 1e-9 * measured);
  EXPECT_DOUBLE_EQ(baseline_scale(bert(true), w, gpu("rtx-2080ti"), 4, 0), 1.0);
}

TEST(TimeBaseline, RequestBaselineCarriesTheUsersMeasurementToOtherCards) {
  // Seed 000 as a user would type it: 55 min/epoch on 4 x 2080 Ti, where would 2 x A100 land?
  nlohmann::json q = nlohmann::json::parse(R"({"locale":"en","model":{"preset":"bert-large"},
      "workload":{"precision":"fp32","micro_batch":4,"seq_len":384,"flash_attention":false,"gpus":4,"sharding":"ddp"},
      "hardware":{"gpu":"rtx-2080ti","count":4},"data":{"samples":88000,"epochs":1},
      "baseline":{"gpu":"rtx-2080ti","count":4,"micro_batch":4,"seconds_per_epoch":3300}})");
  nlohmann::json same = test::run(q);
  // On the card it was measured on, the answer is the measurement.
  EXPECT_NEAR(same["gpus"][0]["hours"].get<double>(), 55.0 / 60, 1e-6);
  q["workload"]["gpus"] = 2;
  q["workload"]["micro_batch"] = 8;
  q["hardware"] = {{"gpu", "a100-sxm4-80g"}, {"count", 2}};
  double a100_minutes = test::run(q)["gpus"][0]["hours"].get<double>() * 60;
  EXPECT_NEAR(a100_minutes, 9.0, 0.3 * 9.0);  // the seed's 9 minutes
  // A baseline without a rate is an error with a path, not a guess.
  q["baseline"] = {{"gpu", "rtx-2080ti"}};
  nlohmann::json err = test::run(q);
  EXPECT_EQ(err["error"]["code"], "missing_field");
  EXPECT_EQ(err["error"]["path"], "baseline.samples_per_s");
}

TEST(TimeCostEffectiveness, WorkloadPrecisionRanksTheA100AboveItsFp32Reading) {
  // Seed 004's table divides FP32 TFLOPS by price: A100 19.5 / 4.8 CNY, 3090 35.6 / 1.5.
  Workload w = train(Precision::bf16_mixed, 32, 512);
  Throughput a100 = estimate_throughput(bert(true), w, gpu("a100-sxm4-80g"), 1);
  CostEffectiveness c = cost_effectiveness(a100, gpu("a100-sxm4-80g"), 4.8);
  EXPECT_NEAR(c.fp32_as_seed, 19.5 / 4.8 * a100.utilization, 1e-9);
  EXPECT_NEAR(c.workload_precision, 312 / 4.8 * a100.utilization, 1e-9);
  EXPECT_GT(c.workload_precision, 10 * c.fp32_as_seed);
  EXPECT_EQ(cost_effectiveness(a100, gpu("a100-sxm4-80g"), 0).workload_precision, 0);
}

TEST(TimeHours, FollowTheDataAndTheRate) {
  Workload w = train(Precision::bf16_mixed, 16, 512);
  Throughput t = estimate_throughput(bert(true), w, gpu("a100-sxm4-80g"), 1);
  DataSize d;
  d.samples = 100000;
  d.epochs = 3;
  EXPECT_NEAR(job_hours(bert(true), w, d, t), 300000 / t.samples_per_s / 3600, 1e-9);
  DataSize tokens;
  tokens.tokens = 1e9;
  EXPECT_NEAR(job_hours(bert(true), w, tokens, t), 1e9 / t.tokens_per_s / 3600, 1e-9);
}

TEST(TimeRobustness, AModelWithoutWorkGivesZerosNotNaN) {
  ModelSpec cnn = resnet50();
  cnn.gflops_per_sample = 0;  // a CNN whose FLOPs nobody published
  Throughput t = estimate_throughput(cnn, train(Precision::fp32, 8, 0), gpu("t4"), 1);
  EXPECT_EQ(t.samples_per_s, 0);
  EXPECT_EQ(t.utilization, 0);
  EXPECT_TRUE(std::isfinite(t.step_seconds));
}

TEST(TimeRobustness, EveryCatalogGpuGivesFiniteRatesForEveryPrecision) {
  const Precision train_precisions[] = {Precision::fp32, Precision::fp16_mixed, Precision::bf16_mixed, Precision::bf16_true};
  const Precision infer_precisions[] = {Precision::fp32, Precision::fp16, Precision::bf16, Precision::int8, Precision::nf4};
  for (const Gpu& g : embedded_catalog().gpus) {
    for (int n : {1, 2, 16}) {
      for (Precision p : train_precisions) {
        Workload w = ddp(train(p, 4, 1024), n);
        w.flash_attention = true;
        Throughput t = estimate_throughput(llama_8b(), w, g, n);
        EXPECT_TRUE(std::isfinite(t.samples_per_s) && std::isfinite(t.step_seconds) && std::isfinite(t.utilization))
            << g.id;
        EXPECT_GE(t.samples_per_s, 0) << g.id;
        EXPECT_LE(t.utilization, 1.0) << g.id;
        if (peak_tflops_for(g, w) > 0) {
          EXPECT_GT(t.samples_per_s, 0) << g.id << " n=" << n;
        }
      }
      for (Precision p : infer_precisions) {
        Workload w;
        w.mode = Mode::infer;
        w.precision = p;
        w.micro_batch = 8;
        w.seq_len = 1024;
        Throughput t = estimate_throughput(llama_8b(), w, g, n);
        EXPECT_TRUE(std::isfinite(t.tokens_per_s)) << g.id;
        if (peak_tflops_for(g, w) > 0) {
          EXPECT_GT(t.tokens_per_s, 0) << g.id << " " << int(p);
        }
      }
    }
  }
}

TEST(TimeResponse, ThroughputFieldsReachTheJson) {
  nlohmann::json r = test::run(nlohmann::json::parse(
      R"({"locale":"en","model":{"preset":"llama-3.1-8b"},"workload":{"method":"lora","micro_batch":2,"seq_len":2048},
          "hardware":{"gpu":"a100-sxm4-80g","count":1},"data":{"tokens":1e8}})"));
  const auto& g = r["gpus"][0];
  EXPECT_EQ(g["throughput"]["compute_unit"], "bf16-tensor");
  EXPECT_DOUBLE_EQ(g["throughput"]["peak_tflops"].get<double>(), 312);
  EXPECT_GT(g["throughput"]["tokens_per_s"].get<double>(), 0);
  EXPECT_NEAR(g["hours"].get<double>(), 1e8 / g["throughput"]["tokens_per_s"].get<double>() / 3600, 1e-6);
  EXPECT_LT(g["hours_low"].get<double>(), g["hours"].get<double>());
  EXPECT_GT(g["hours_high"].get<double>(), g["hours"].get<double>());
}

}  // namespace
}  // namespace gpuplan
