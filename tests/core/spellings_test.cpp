// The page's copy of the contract's enum spellings (web/src/spellings.ts) is
// generated from the C++ tables beside each enum (gpuplan/spelling.h); this
// test fails while the checked-in file differs from what the tables give, and
// with GPUPLAN_WRITE_SPELLINGS=1 in the environment it rewrites the file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "gpuplan/pricing.h"
#include "gpuplan/request.h"
#include "gpuplan/science.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

constexpr const char* kPageFile = "web/src/spellings.ts";

template <class E, size_t N>
std::string ts_list(const Spelling<E> (&table)[N], std::optional<E> first = std::nullopt, bool (*keep)(E) = nullptr) {
  std::string out;
  auto add = [&](std::string_view name) {
    if (!out.empty()) out += ", ";
    out += '\'';
    out += name;
    out += '\'';
  };
  if (first) add(spelling_of(table, *first));
  for (const auto& s : table)
    if (!s.alias && (!first || s.value != *first) && (!keep || keep(s.value))) add(s.name);
  return "[" + out + "] as const;\n";
}

bool trains(Precision p) { return trains_in(p); }
bool infers(Precision p) { return infers_in(p); }
bool sold_as_package(Billing b) { return is_package(b); }

std::string page_file() {
  std::string f =
      "// The contract's enum spellings for the page, generated from the C++ tables\n"
      "// beside each enum (core/include/gpuplan/spelling.h) by\n"
      "// tests/core/spellings_test.cpp, which fails while this file differs from\n"
      "// them. Do not edit; rewrite it with\n"
      "//   GPUPLAN_WRITE_SPELLINGS=1 build/native/bin/gpuplan_tests --gtest_filter=Spellings.PageFileIsCurrent\n"
      "// Each list is in its table's order; a precision list starts with the mode's default.\n";
  f += "export const MODE = " + ts_list(kModeSpellings);
  f += "export const METHOD = " + ts_list(kMethodSpellings);
  f += "export const PRECISION_TRAIN = " + ts_list(kPrecisionSpellings, std::optional(Workload{}.precision), trains);
  f += "export const PRECISION_INFER = " + ts_list(kPrecisionSpellings, std::optional(kDefaultInferPrecision), infers);
  f += "export const OPTIMIZER = " + ts_list(kOptimizerSpellings);
  f += "export const SHARDING = " + ts_list(kShardingSpellings);
  f += "export const LORA_TARGETS = " + ts_list(kLoraTargetsSpellings);
  f += "export const LOSS = " + ts_list(kLossSpellings);
  f += "export const STACK = " + ts_list(kStackSpellings);
  f += "export const MODEL_KIND = " + ts_list(kModelKindSpellings);
  f += "export const STAGE = " + ts_list(kStageSpellings);
  f += "export const BILLING = " + ts_list(kBillingSpellings);
  // The billings sold as a package (gpuplan/pricing.h is_package): a whole day, week, month or year.
  f += "export const PACKAGE_BILLING = " + ts_list(kBillingSpellings, std::optional<Billing>(), sold_as_package);
  f += "export const PLATFORM_KIND = " + ts_list(kPlatformKindSpellings);
  f += "export const SCIENCE_KIND = " + ts_list(kScienceKindSpellings);
  f += "export const SCIENCE_PRECISION = " + ts_list(kSciencePrecisionSpellings);
  f += "export const SCIENCE_BOUND = " + ts_list(kScienceBoundSpellings);
  f += "export const RATE_UNIT = " + ts_list(kRateUnitSpellings);
  return f;
}

TEST(Spellings, PageFileIsCurrent) {
  const std::string expected = page_file();
  if (const char* w = std::getenv("GPUPLAN_WRITE_SPELLINGS"); w && *w == '1') {
    std::ofstream(std::string(GPUPLAN_SOURCE_DIR) + "/" + kPageFile, std::ios::binary) << expected;
  }
  EXPECT_EQ(read_file(kPageFile), expected) << kPageFile << " is out of date: rerun this test with GPUPLAN_WRITE_SPELLINGS=1";
}

}  // namespace
}  // namespace gpuplan::test
