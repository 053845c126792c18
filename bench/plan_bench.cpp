// plan() timing: the budget is a full plan (every GPU, platform and billing
// option, three stages) in at most 1 ms median in wasm under node
// (docs/performance.md). The same requests run here natively and in
// tools/bench_plan.mjs, so the two numbers compare.
#include <benchmark/benchmark.h>

#include <string>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"
#include "gpuplan/plan.h"
#include "gpuplan/request.h"
#include "plan_requests.h"

namespace {

using gpuplan::bench::kDiffusionPlanRequest;
using gpuplan::bench::kFullPlanRequest;
using gpuplan::bench::kSizingRequest;

// The JSON entry point the page calls: parse, plan, serialise.
void BM_PlanJsonFull(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(gpuplan::plan_json(kFullPlanRequest));
}
BENCHMARK(BM_PlanJsonFull)->Unit(benchmark::kMicrosecond);

// The same over a diffusion UNet (the CNN expansion on the planner's path).
void BM_PlanJsonDiffusion(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(gpuplan::plan_json(kDiffusionPlanRequest));
}
BENCHMARK(BM_PlanJsonDiffusion)->Unit(benchmark::kMicrosecond);

// plan() alone on a parsed request: the planner's own share.
void BM_PlanOnlyFull(benchmark::State& state) {
  const auto& catalog = gpuplan::embedded_catalog();
  auto request = gpuplan::parse_request(kFullPlanRequest, catalog);
  if (!request.ok()) {
    state.SkipWithError(request.error().message.c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(gpuplan::plan(request.value(), catalog));
}
BENCHMARK(BM_PlanOnlyFull)->Unit(benchmark::kMicrosecond);

// plan() alone without stages: the sizing the planner builds on.
void BM_PlanOnlySizing(benchmark::State& state) {
  const auto& catalog = gpuplan::embedded_catalog();
  auto request = gpuplan::parse_request(kSizingRequest, catalog);
  if (!request.ok()) {
    state.SkipWithError(request.error().message.c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(gpuplan::plan(request.value(), catalog));
}
BENCHMARK(BM_PlanOnlySizing)->Unit(benchmark::kMicrosecond);

// Sizing only (no stages): the baseline the planning adds to.
void BM_PlanJsonSizing(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(gpuplan::plan_json(kSizingRequest));
}
BENCHMARK(BM_PlanJsonSizing)->Unit(benchmark::kMicrosecond);

}  // namespace
