// The memory estimator against published measurements: every case of
// tests/data/memory_cases.json (copied, with its sources, from the project's
// reference set) that the request contract can express. One parameterized
// test per case, named after its source id, plus a summary that prints the
// error distribution and fails when it degrades past the bars of issue #8:
// median |error| <= 10 %, p90 <= 30 %, >= 90 % of fit / out-of-memory cases on
// the right side. A case off by more than 25 % must say why in its
// "deviation" field (explained in docs/memory-model.md, "Cases off by more
// than 25 %"). tools/memory_error_table.py prints the same table from the CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/memory.h"
#include "gpuplan/request.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

constexpr double kMedianBar = 0.10;
constexpr double kP90Bar = 0.30;
constexpr double kRightSideBar = 0.90;
constexpr double kExplainBeyond = 0.25;

const nlohmann::json& all_cases() {
  static const nlohmann::json cases = nlohmann::json::parse(read_file("tests/data/memory_cases.json"))["cases"];
  return cases;
}

std::vector<nlohmann::json> usable_cases() {
  std::vector<nlohmann::json> out;
  for (const auto& c : all_cases())
    if (!c.contains("unmappable")) out.push_back(c);
  return out;
}

struct Outcome {
  bool sided = false;      // fit / oom / capacity: only the side of the card matters
  bool right_side = true;  // sided cases
  double error = 0;        // measured cases: signed relative error (0 inside a published range)
  double estimate_gib = 0;
  std::string message;
};

double component_bytes(const MemoryEstimate& e, const std::string& id) {
  for (const auto& c : e.components)
    if (c.id == id) return c.bytes;
  return 0;
}

// Compares one case with the estimate under the rules of the case file's
// "about": metric allocated / reserved / total picks that figure; unknown
// accepts anything between allocated and total; component compares one
// component; a published range counts as exact inside it.
Outcome evaluate(const nlohmann::json& c) {
  Outcome o;
  nlohmann::json request = c["request"];
  request.erase("hardware");  // the per-GPU estimate does not depend on the card
  auto parsed = parse_request(request.dump(), embedded_catalog());
  if (!parsed.ok()) {
    o.message = "request rejected: " + parsed.error().path + ": " + parsed.error().message;
    o.error = 1e9;
    o.right_side = false;
    return o;
  }
  const Request& q = parsed.value();
  const MemoryEstimate e = estimate_memory(q.model, q.workload);
  const double alloc = e.allocated_bytes / kGiB, reserved = e.reserved_bytes / kGiB, total = e.total_bytes / kGiB;
  const std::string kind = c["kind"];
  if (kind == "fit" || kind == "capacity" || kind == "oom") {
    o.sided = true;
    o.estimate_gib = total;
    const double vram = c["vram_gib"];
    o.right_side = kind == "oom" ? total > vram : total <= vram;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s on a %.0f GiB card: estimate %.2f GiB", kind.c_str(), vram, total);
    o.message = buf;
    return o;
  }
  double lo = total, hi = total;
  if (c.contains("component")) {
    lo = hi = component_bytes(e, c["component"]) / kGiB;
  } else {
    const std::string metric = c["metric"];
    if (metric == "allocated") lo = hi = alloc;
    if (metric == "reserved") lo = hi = reserved;
    if (metric == "unknown") lo = alloc, hi = total;
  }
  double mlo = c["measured_gib"], mhi = mlo;
  if (c.contains("measured_range_gib")) mlo = c["measured_range_gib"][0], mhi = c["measured_range_gib"][1];
  if (hi < mlo) o.error = (hi - mlo) / mlo;
  if (lo > mhi) o.error = (lo - mhi) / mhi;
  o.estimate_gib = (lo + hi) / 2;
  char buf[200];
  std::snprintf(buf, sizeof buf, "measured %.2f GiB (%s), estimate %.2f..%.2f GiB, error %+.1f %%", mlo,
                c.contains("component") ? "component" : c["metric"].get<std::string>().c_str(), lo, hi,
                100 * o.error);
  o.message = buf;
  return o;
}

class MemoryCase : public ::testing::TestWithParam<nlohmann::json> {};

TEST_P(MemoryCase, WithinToleranceOrExplained) {
  const nlohmann::json& c = GetParam();
  const Outcome o = evaluate(c);
  const bool explained = c.contains("deviation");
  SCOPED_TRACE(c["source"].get<std::string>() + " | " + c["locator"].get<std::string>());
  if (o.sided) {
    EXPECT_TRUE(o.right_side || explained) << o.message;
  } else {
    EXPECT_TRUE(std::fabs(o.error) <= kExplainBeyond || explained)
        << o.message << "; off by more than 25 % without a \"deviation\" note";
  }
  // A deviation note must not outlive the deviation it explains.
  if (explained && !o.sided) {
    EXPECT_GT(std::fabs(o.error), 0.10) << "stale deviation note: " << o.message;
  }
  if (explained && o.sided) {
    EXPECT_FALSE(o.right_side) << "stale deviation note: " << o.message;
  }
}

std::string case_name(const ::testing::TestParamInfo<nlohmann::json>& info) {
  std::string name = info.param["id"];
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Published, MemoryCase, ::testing::ValuesIn(usable_cases()), case_name);

// Nearest-rank quantile on the sorted errors; the median of an even count is
// the mean of the two middle values (as tools/memory_error_table.py prints).
double quantile(std::vector<double> xs, double q) {
  if (xs.empty()) return 0;
  std::sort(xs.begin(), xs.end());
  if (q == 0.5 && xs.size() % 2 == 0) return (xs[xs.size() / 2 - 1] + xs[xs.size() / 2]) / 2;
  return xs[std::min(xs.size() - 1, size_t(q * double(xs.size() - 1) + 0.5))];
}

TEST(MemoryValidation, ErrorDistributionMeetsTheBars) {
  std::vector<double> errors;
  int sided = 0, right = 0;
  for (const auto& c : usable_cases()) {
    const Outcome o = evaluate(c);
    if (o.sided) {
      ++sided;
      right += o.right_side ? 1 : 0;
    } else {
      errors.push_back(std::fabs(o.error));
    }
    std::printf("  %-26s %-9s %s\n", c["id"].get<std::string>().c_str(), c["kind"].get<std::string>().c_str(),
                o.message.c_str());
  }
  const double median = quantile(errors, 0.5), p90 = quantile(errors, 0.9);
  const double right_share = sided ? double(right) / sided : 1;
  std::printf("memory validation: %zu measured cases, median |error| %.1f %%, p90 %.1f %%, max %.1f %%; "
              "%d / %d fit/oom/capacity cases on the right side\n",
              errors.size(), 100 * median, 100 * p90, 100 * quantile(errors, 1.0), right, sided);
  ASSERT_GE(errors.size(), 40u) << "the suite lost its measured cases";
  EXPECT_LE(median, kMedianBar);
  EXPECT_LE(p90, kP90Bar);
  EXPECT_GE(right_share, kRightSideBar);
}

}  // namespace
}  // namespace gpuplan::test
