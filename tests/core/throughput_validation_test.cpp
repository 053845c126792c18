// The time model against published measurements (tests/data/throughput_cases.json,
// a copy of the project's visible validation set). One parameterized test per
// case, named by its id, says "expected X but got Y"; the summary test prints
// the error distribution and holds issue 15's bars: median |error| <= 20 %,
// p90 <= 60 %, and the 80 % interval covering >= 80 % of the cases leave-one-
// source-out (docs/time-model.md records the same table).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "test_support.h"

namespace gpuplan {
namespace {

using nlohmann::json;

const json& all_cases_file() {
  static const json file = json::parse(test::read_file("tests/data/throughput_cases.json"));
  return file;
}

// Why a case cannot be compared, or "" when it can.
std::string skip_reason(const json& c) {
  if (c.contains("unmappable")) return "unmappable: " + c["unmappable"].get<std::string>();
  if (c.value("per_gpu", false)) return "per-GPU rate with unknown job total";
  return "";
}

// The case's request, made runnable against this build's catalog: a preset the
// catalog lacks is dropped (the explicit dimensions stay), and a CNN without
// its preset gets the published figures from the file's supplements.
json runnable_request(const json& c) {
  json request = c["request"];
  json& model = request["model"];
  if (model.contains("preset")) {
    std::string preset = model["preset"];
    if (!embedded_catalog().find_model(preset)) {
      model.erase("preset");
      const json& supplements = all_cases_file()["supplements"];
      if (supplements.contains(preset)) {
        for (const auto& [key, value] : supplements[preset].items())
          if (key != "sources") model[key] = value;
      }
    }
  }
  return request;
}

struct Comparison {
  std::string id;
  std::string metric;
  double measured = 0;
  double estimated = 0;
  double error() const { return estimated / measured - 1; }
};

// Runs a case through the JSON entry point and reads the estimate the case
// measures (samples/s or tokens/s for the whole job).
Comparison compare(const json& c) {
  Comparison out;
  out.id = c["id"];
  json reply = test::run(runnable_request(c));
  const json& measured = c["measured"];
  out.metric = measured.contains("tokens_per_s") ? "tokens_per_s" : "samples_per_s";
  out.measured = measured[out.metric];
  if (reply.contains("gpus") && !reply["gpus"].empty())
    out.estimated = reply["gpus"][0]["throughput"][out.metric].get<double>();
  else
    out.estimated = -1;  // the request failed: the reply is an error object
  return out;
}

std::vector<json> cases() {
  const json& all = all_cases_file()["cases"];
  return std::vector<json>(all.begin(), all.end());
}

class ThroughputCase : public ::testing::TestWithParam<json> {};

TEST_P(ThroughputCase, WithinAFactorOfThreeOfThePublishedRate) {
  const json& c = GetParam();
  std::string why = skip_reason(c);
  if (!why.empty()) GTEST_SKIP() << why;
  Comparison r = compare(c);
  ASSERT_GT(r.estimated, 0) << c["id"] << ": the request did not produce an estimate";
  // A gross-error guard per case; the calibrated bar is the median below.
  // Cases the contract only approximates (variable-length batches, compiled
  // or fused kernels, a single-sample batch) may legitimately sit far out.
  double ratio = r.estimated / r.measured;
  EXPECT_GT(ratio, 1.0 / 3.0) << c["id"] << " (" << c["source"] << "): expected " << r.metric << " " << r.measured
                              << " but got " << r.estimated;
  if (!c.value("variable_length", false) && c["request"]["workload"].value("micro_batch", 1) > 1) {
    EXPECT_LT(ratio, 3.0) << c["id"] << " (" << c["source"] << "): expected " << r.metric << " " << r.measured
                          << " but got " << r.estimated;
  }
}

std::string case_name(const ::testing::TestParamInfo<json>& info) {
  std::string name = info.param["id"];
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Published, ThroughputCase, ::testing::ValuesIn(cases()), case_name);

// The split-conformal order statistic the response's range is made of
// (core/src/estimate/throughput.cpp, rate_interval): the floor((n+1)p)-th of
// n for a lower quantile, the ceil((n+1)p)-th for an upper one (1-based).
double conformal(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double n = double(v.size());
  if (p > 0.5) return v[size_t(std::min(n, std::ceil((n + 1) * p))) - 1];
  return v[size_t(std::max(1.0, std::floor((n + 1) * p))) - 1];
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  double pos = p * (v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(v.size() - 1, lo + 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

TEST(ThroughputValidation, MedianAbsoluteErrorIsAtMostTwentyPercent) {
  std::vector<Comparison> rows;
  int skipped = 0;
  for (const json& c : cases()) {
    if (!skip_reason(c).empty()) {
      ++skipped;
      continue;
    }
    rows.push_back(compare(c));
  }
  ASSERT_GE(rows.size(), 60u) << "too few comparable cases: the validation copy is damaged";
  std::vector<double> abs_errors;
  std::vector<double> ratios;
  std::printf("\n%-28s %-14s %14s %14s %8s\n", "case", "metric", "measured", "estimated", "error");
  for (const auto& r : rows) {
    ASSERT_GT(r.estimated, 0) << r.id << ": no estimate";
    abs_errors.push_back(std::fabs(r.error()));
    ratios.push_back(r.estimated / r.measured);
    std::printf("%-28s %-14s %14.1f %14.1f %+7.0f%%\n", r.id.c_str(), r.metric.c_str(), r.measured, r.estimated,
                100 * r.error());
  }
  const double median = percentile(abs_errors, 0.5);
  std::printf("\n%zu cases compared, %d skipped (unmappable or per-GPU)\n", rows.size(), skipped);
  std::printf("|error|: median %.1f%%  p75 %.1f%%  p90 %.1f%%  max %.0f%%\n", 100 * median,
              100 * percentile(abs_errors, 0.75), 100 * percentile(abs_errors, 0.9),
              100 * percentile(abs_errors, 1.0));
  std::printf("estimated/measured: p20 %.2f  p50 %.2f  p80 %.2f\n", percentile(ratios, 0.2), percentile(ratios, 0.5),
              percentile(ratios, 0.8));
  int within20 = 0, within50 = 0;
  for (double e : abs_errors) {
    within20 += e <= 0.2;
    within50 += e <= 0.5;
  }
  std::printf("within 20%%: %d/%zu, within 50%%: %d/%zu\n", within20, abs_errors.size(), within50, abs_errors.size());
  // Native and wasm must agree to the last bit (-ffp-contract=off): compare this line across builds.
  double fingerprint = 0;
  for (const auto& r : rows) fingerprint = fingerprint * 1.000001 + r.estimated;
  std::printf("fingerprint %.17g\n", fingerprint);
  EXPECT_LE(median, 0.20);
  // The tail: issue 15's bar, p90 <= 60 % (57 % on these cases; docs/time-model.md
  // lists the ones beyond it and why).
  EXPECT_LE(percentile(abs_errors, 0.9), 0.60);
  // The response's low-high range is the 10th-90th percentile of measured /
  // estimated over the cases of the workload's stack class (the pooled
  // figure for a class with fewer than 8 cases), calibration cases left
  // out: keep it in step with the
  // model (tools/time_error_table.py prints the same figures).
  std::map<std::string, std::vector<double>> by_stack;
  std::map<std::string, json> example;
  std::vector<double> pooled;
  for (const json& c : cases()) {
    // A case whose own figure set a coefficient (calibration) is no evidence for the range.
    if (!skip_reason(c).empty() || c.contains("calibration")) continue;
    const std::string stack = c["request"]["workload"].value("stack", "eager");
    const Comparison r = compare(c);
    by_stack[stack].push_back(r.measured / r.estimated);
    pooled.push_back(r.measured / r.estimated);
    if (!example.count(stack)) example[stack] = c;
  }
  for (const auto& [stack, measured_over_estimated] : by_stack) {
    const std::vector<double>& pool = measured_over_estimated.size() >= 8 ? measured_over_estimated : pooled;
    nlohmann::json reply = test::run(runnable_request(example[stack]));
    ASSERT_TRUE(reply.contains("gpus")) << stack << ": " << reply.dump();
    const auto& t = reply["gpus"][0]["throughput"];
    EXPECT_NEAR(t["low_factor"].get<double>(), conformal(pool, 0.1), 0.02) << stack;
    EXPECT_NEAR(t["high_factor"].get<double>(), conformal(pool, 0.9), 0.02) << stack;
  }
  // A class without 8 comparable cases (vllm) was checked against the pooled figure above.
  EXPECT_LT(by_stack["vllm"].size(), 8u);
}

// Leave-one-source-out (cases that calibrate a coefficient left out, as
// from the range): a source's cases are scored against the conformal
// 10th-90th interval of measured / estimated over every other source's cases
// of the same stack class (all other sources when the class has fewer than 8
// such cases from at least two of them). The bar: the 80 % interval covers at
// least 80 % of the cases. Printed per stack and per workload class (train /
// infer) with the median and p90 of |error|.
TEST(ThroughputValidation, IntervalCoversEightyPercentLeaveOneSourceOut) {
  struct Row {
    std::string source, stack, mode;
    double ratio;
  };
  std::vector<Row> rows;
  for (const json& c : cases()) {
    if (!skip_reason(c).empty() || c.contains("calibration")) continue;
    const Comparison r = compare(c);
    rows.push_back({c["source"].get<std::string>(), c["request"]["workload"].value("stack", "eager"),
                    c["request"]["workload"].value("mode", "train"), r.measured / r.estimated});
  }
  ASSERT_GE(rows.size(), 60u);
  int covered = 0;
  struct Tally {
    int covered = 0, n = 0;
    std::vector<double> abs_errors;
  };
  std::map<std::string, Tally> by_stack, by_class;
  for (const Row& r : rows) {
    std::vector<double> others, same;
    std::set<std::string> same_sources;
    for (const Row& o : rows) {
      if (o.source == r.source) continue;
      others.push_back(o.ratio);
      if (o.stack == r.stack) {
        same.push_back(o.ratio);
        same_sources.insert(o.source);
      }
    }
    const std::vector<double>& pool = same.size() >= 8 && same_sources.size() >= 2 ? same : others;
    const bool in = conformal(pool, 0.1) <= r.ratio && r.ratio <= conformal(pool, 0.9);
    covered += in;
    for (Tally* t : {&by_stack[r.stack], &by_class[r.stack + " " + r.mode]}) {
      t->covered += in;
      ++t->n;
      t->abs_errors.push_back(std::fabs(1 / r.ratio - 1));
    }
  }
  std::printf("\n%-22s %6s %10s %10s %10s\n", "stack / class", "cases", "median", "p90", "covered");
  for (const auto* table : {&by_stack, &by_class})
    for (const auto& [name, t] : *table)
      std::printf("%-22s %6d %9.1f%% %9.1f%% %9.0f%%\n", name.c_str(), t.n, 100 * percentile(t.abs_errors, 0.5),
                  100 * percentile(t.abs_errors, 0.9), 100.0 * t.covered / t.n);
  const double coverage = double(covered) / rows.size();
  std::printf("80 %% interval, leave-one-source-out: covers %d/%zu (%.0f %%)\n", covered, rows.size(), 100 * coverage);
  EXPECT_GE(coverage, 0.80);
}

}  // namespace
}  // namespace gpuplan
