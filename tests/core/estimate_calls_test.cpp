// The estimators' calls run one way: estimate_memory / estimate_throughput
// choose a composition (vlm.cpp, objective.cpp) or the one-model estimate,
// and the compositions build on the one-model estimate (model_memory,
// model_throughput) without calling the entry points back.
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace gpuplan::test {
namespace {

TEST(EstimateCalls, CompositionsNeverCallTheEntryPointsBack) {
  for (const char* file : {"core/src/estimate/vlm.cpp", "core/src/estimate/objective.cpp"}) {
    const std::string text = read_file(file);
    ASSERT_FALSE(text.empty()) << file;
    EXPECT_EQ(text.find("estimate_memory("), std::string::npos) << file;
    EXPECT_EQ(text.find("estimate_throughput("), std::string::npos) << file;
  }
}

}  // namespace
}  // namespace gpuplan::test
