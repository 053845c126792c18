// The request's limits are one table (gpuplan/limits.h). The page's copy,
// web/src/limits.ts, is generated from it: this test fails while the
// checked-in file differs, and with GPUPLAN_WRITE_LIMITS=1 in the environment
// it rewrites the file. The parser reads every bound from the table: a value
// one step past a limit is refused, the limit itself accepted.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gpuplan/api.h"
#include "gpuplan/limits.h"
#include "gpuplan/request.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

constexpr const char* kPageFile = "web/src/limits.ts";

std::string ts_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

std::string page_file() {
  std::string f =
      "// The request's numeric limits for the page, generated from the core's\n"
      "// table (core/include/gpuplan/limits.h) by tests/core/limits_test.cpp,\n"
      "// which fails while this file differs from it. Do not edit; rewrite it with\n"
      "//   GPUPLAN_WRITE_LIMITS=1 build/native/bin/gpuplan_tests --gtest_filter=Limits.PageFileIsCurrent\n"
      "export interface Limit { min: number; max: number; int: boolean }\n"
      "// The largest request the planner reads, in UTF-8 bytes.\n"
      "export const REQUEST_BYTES = " + ts_number(double(kMaxRequestBytes)) + ";\n"
      "export const LIMITS = {\n";
  for (const Limit* l : kLimits)
    f += "  '" + std::string(l->path) + "': { min: " + ts_number(l->min) + ", max: " + ts_number(l->max) +
         ", int: " + (l->integer ? "true" : "false") + " },\n";
  f += "} as const satisfies Record<string, Limit>;\n";
  return f;
}

TEST(Limits, PageFileIsCurrent) {
  const std::string expected = page_file();
  if (const char* w = std::getenv("GPUPLAN_WRITE_LIMITS"); w && *w == '1') {
    std::ofstream(std::string(GPUPLAN_SOURCE_DIR) + "/" + kPageFile, std::ios::binary) << expected;
  }
  EXPECT_EQ(read_file(kPageFile), expected) << kPageFile << " is out of date: rerun this test with GPUPLAN_WRITE_LIMITS=1";
}

// A request with one workload field set.
std::string with_workload(const std::string& field, const std::string& value) {
  return R"({"locale":"en","model":{"preset":"llama-3.1-8b"},"workload":{"method":"lora",")" + field + "\":" + value + "}}";
}

TEST(Limits, TheParserReadsItsBoundsFromTheTable) {
  for (const Limit* l : {&limit::micro_batch, &limit::seq_len, &limit::lora_rank, &limit::gpus}) {
    const std::string field(l->key());
    const std::string json_field = l == &limit::lora_rank ? "lora\":{\"rank" : field;
    const std::string past = ts_number(l->max + 1) + (l == &limit::lora_rank ? "}" : "");
    const JsonReply over = plan_json(with_workload(json_field, past));
    EXPECT_EQ(over.exit_code, 2) << l->path;
    EXPECT_NE(over.json.find(ts_number(l->max)), std::string::npos) << l->path << ": the message names the limit\n" << over.json;
  }
}

}  // namespace
}  // namespace gpuplan::test
