#include "text/order.h"

#include <algorithm>

namespace gpuplan {

std::vector<uint32_t> stable_order(size_t n, IndexLess before) {
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  // Equal ones in index order: a total order, which std::sort keeps as a stable sort would.
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (before(a, b)) return true;
    if (before(b, a)) return false;
    return a < b;
  });
  return order;
}

}  // namespace gpuplan
