// Property tests over thousands of random valid requests: whatever the
// constants, the answers must be finite, non-negative and move the right way.
// The generator is a fixed-seed mt19937 with our own range mapping (the
// standard distributions differ between libstdc++ and libc++), so native and
// wasm runs test the same requests.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "gpuplan/memory.h"
#include "gpuplan/request.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

class RandomRequests {
 public:
  explicit RandomRequests(uint32_t seed) : rng_(seed) {}

  uint32_t below(uint32_t n) { return rng_() % n; }
  template <class T, size_t N>
  const T& pick(const T (&options)[N]) { return options[below(N)]; }

  nlohmann::json next() {
    const auto& models = embedded_catalog().models;
    const ModelSpec& m = models[below(uint32_t(models.size()))];
    nlohmann::json w;
    bool infer = below(4) == 0;
    w["mode"] = infer ? "infer" : "train";
    if (infer) {
      static const char* formats[] = {"fp32", "fp16", "bf16", "int8", "nf4", "int4"};
      w["precision"] = pick(formats);
      static const int kv_bits[] = {4, 8, 16};
      w["kv_cache_bits"] = pick(kv_bits);
    } else {
      static const char* regimes[] = {"fp32", "fp16-mixed", "bf16-mixed", "bf16-true"};
      static const char* optimizers[] = {"adamw", "adamw-8bit", "sgd", "sgd-momentum", "adafactor"};
      w["precision"] = pick(regimes);
      w["optimizer"] = pick(optimizers);
      if (m.kind != ModelKind::cnn) {
        static const char* methods[] = {"full", "lora", "qlora"};
        static const char* targets[] = {"qv", "attention", "all-linear"};
        w["method"] = pick(methods);
        w["lora"] = {{"rank", 1 << below(7)}, {"targets", pick(targets)}};
      }
      w["grad_checkpointing"] = below(2) == 0;
    }
    w["micro_batch"] = 1 + below(64);
    w["seq_len"] = 16 << below(11);
    w["image_size"] = 64 << below(4);
    w["flash_attention"] = below(3) != 0;
    int gpus = 1 << below(5);
    w["gpus"] = gpus;
    static const char* multi[] = {"ddp", "zero1", "zero2", "zero3"};
    w["sharding"] = gpus == 1 ? "none" : pick(multi);
    w["cpu_offload"] = below(5) == 0;
    nlohmann::json request = {{"model", {{"preset", m.id}}}, {"workload", w}};
    if (below(2) == 0) request["data"] = {{"samples", 1000 + below(100000)}, {"epochs", 1 + below(5)}};
    if (below(2) == 0) request["locale"] = "en";
    return request;
  }

 private:
  std::mt19937 rng_;
};

void expect_finite_non_negative(const nlohmann::json& j, const std::string& where, const nlohmann::json& request) {
  if (j.is_number()) {
    double x = j.get<double>();
    ASSERT_TRUE(std::isfinite(x)) << where << " in " << request.dump();
    ASSERT_GE(x, 0) << where << " in " << request.dump();
  } else if (j.is_structured()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      expect_finite_non_negative(*it, where + "/" + (j.is_object() ? it.key() : std::string("#")), request);
  }
}

TEST(Properties, RandomValidRequestsGiveFiniteNonNegativeAnswers) {
  RandomRequests gen(20261130);
  for (int i = 0; i < 2000; ++i) {
    nlohmann::json request = gen.next();
    JsonReply reply = plan_json(request.dump());
    ASSERT_EQ(reply.exit_code, 0) << request.dump() << "\n" << reply.json;
    nlohmann::json response = nlohmann::json::parse(reply.json);
    expect_finite_non_negative(response, "", request);
    if (HasFatalFailure()) return;
  }
}

Request parsed(const nlohmann::json& request) {
  Result<Request> r = parse_request(request.dump(), embedded_catalog());
  EXPECT_TRUE(r.ok()) << request.dump();
  return r.value();
}

double total_bytes(const Request& q) { return estimate_memory(q.model, q.workload).total_bytes; }

TEST(Properties, MemoryGrowsWithBatchSequenceAndParameters) {
  RandomRequests gen(7);
  for (int i = 0; i < 1000; ++i) {
    Request q = parsed(gen.next());
    double base = total_bytes(q);

    Request more_batch = q;
    more_batch.workload.micro_batch += 1;
    EXPECT_GE(total_bytes(more_batch), base) << "micro_batch";

    Request longer = q;
    longer.workload.seq_len *= 2;
    longer.workload.image_size *= 2;
    EXPECT_GE(total_bytes(longer), base) << "seq_len";

    Request bigger = q;
    bigger.model.params *= 1.5;
    bigger.model.layers = bigger.model.layers > 0 ? bigger.model.layers * 3 / 2 : 0;
    bigger.model.activation_bytes_per_sample *= 1.5;
    EXPECT_GT(total_bytes(bigger), base) << "params";
  }
}

TEST(Properties, Zero3PerGpuMemoryFallsAsGpusGrow) {
  RandomRequests gen(11);
  for (int i = 0; i < 500; ++i) {
    Request q = parsed(gen.next());
    if (q.workload.mode != Mode::train) continue;
    q.workload.sharding = Sharding::zero3;
    double previous = 0;
    for (int gpus : {2, 4, 8, 16}) {
      q.workload.gpus = gpus;
      double now = total_bytes(q);
      if (previous > 0) EXPECT_LE(now, previous) << gpus << " GPUs";
      previous = now;
    }
  }
}

}  // namespace
}  // namespace gpuplan::test
