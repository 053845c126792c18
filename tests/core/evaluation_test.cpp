// The evaluator's shared fit-limit searches (core/src/estimate/evaluation.cpp) must give
// exactly what the plain oracle (fit_limits_oracle.h) gives for every card size: sharing the
// probes across card sizes is a saving of time, never a change of result.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "estimate/evaluation.h"
#include "fit_limits_oracle.h"
#include "gpuplan/catalog.h"
#include "gpuplan/request.h"

namespace gpuplan {
namespace {

void expect_limits_match_fit_limits(const std::string& request_json) {
  const Catalog& catalog = embedded_catalog();
  auto request = parse_request(request_json, catalog);
  ASSERT_TRUE(request.ok()) << request.error().message;
  std::set<double> capacities;
  for (const auto& g : catalog.gpus) capacities.insert(g.memory_bytes);
  capacities.insert(1e6);     // nothing fits
  capacities.insert(1e15);    // everything fits, up to the caps
  capacities.insert(23.9e9);  // between catalog sizes
  Evaluator e(request.value(), catalog);
  for (int count : {1, 2, 8}) {
    // Largest first, then smallest, then the rest: the cache is filled in an
    // order unlike a single search's.
    std::vector<double> order(capacities.rbegin(), capacities.rend());
    for (double capacity : order) {
      const FitLimits want = test::fit_limits(request.value().model, e.workload_at(count), capacity);
      const FitLimits got = e.limits_at(count, capacity);
      EXPECT_EQ(got.max_micro_batch, want.max_micro_batch) << request_json << " count " << count << " capacity " << capacity;
      EXPECT_EQ(got.max_seq_len, want.max_seq_len) << request_json << " count " << count << " capacity " << capacity;
    }
  }
}

TEST(Evaluator, SharedFitLimitSearchesEqualFitLimits) {
  expect_limits_match_fit_limits(R"({"model":{"preset":"llama-3.1-8b"},"workload":{"mode":"train","method":"lora","micro_batch":4,"seq_len":2048}})");
  expect_limits_match_fit_limits(R"({"model":{"preset":"qwen2.5-7b"},"workload":{"mode":"train","method":"full","micro_batch":2,"seq_len":1024}})");
  expect_limits_match_fit_limits(R"({"model":{"preset":"mixtral-8x7b"},"workload":{"mode":"infer","precision":"int4","micro_batch":8,"seq_len":8192}})");
  expect_limits_match_fit_limits(R"({"model":{"preset":"bert-base"},"workload":{"mode":"train","method":"full","micro_batch":32,"seq_len":512}})");
  expect_limits_match_fit_limits(R"({"model":{"preset":"gpt2"},"workload":{"mode":"train","method":"full","micro_batch":8,"seq_len":1024,"flash_attention":false}})");
  expect_limits_match_fit_limits(R"({"model":{"preset":"resnet-50"},"workload":{"mode":"train","method":"full","micro_batch":64}})");
}

}  // namespace
}  // namespace gpuplan
