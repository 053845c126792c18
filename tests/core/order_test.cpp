// The core's one sort (core/src/text/order.h) must give what std::stable_sort
// gives, on every standard library: the planner's choices and the response's
// order rely on it, natively and in wasm alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "text/order.h"

namespace gpuplan::test {
namespace {

TEST(Order, EqualOnesKeepTheirIndexOrder) {
  const std::vector<int> keys = {3, 1, 3, 2, 1, 3};
  const std::vector<uint32_t> order = stable_order(keys.size(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 4, 3, 0, 2, 5}));
  EXPECT_TRUE(stable_order(0, [](uint32_t, uint32_t) { return false; }).empty());
}

TEST(Order, SortByIsStdStableSort) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::pair<int, int>> items(rng() % 300);
    for (size_t i = 0; i < items.size(); ++i) items[i] = {int(rng() % 12), int(i)};
    const auto by_key = [](const std::pair<int, int>& a, const std::pair<int, int>& b) { return a.first < b.first; };
    std::vector<std::pair<int, int>> expected = items;
    std::stable_sort(expected.begin(), expected.end(), by_key);
    stable_sort_by(items, by_key);
    ASSERT_EQ(items, expected) << "round " << round;
  }
}

}  // namespace
}  // namespace gpuplan::test
