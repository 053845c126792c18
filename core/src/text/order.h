// One sort for the whole core: indices put in order by a comparison, equal ones
// kept in index order (what a stable sort gives; a total order, so libstdc++ and
// libc++ agree). The planner's and the writer's sorts all go through the one
// non-template function below, so the page's module carries one instantiation
// of std::sort instead of one per element type and comparator (docs/performance.md,
// "Decisions"; tests/core/order_test.cpp holds it to std::stable_sort).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpuplan {

// A reference to a callable `bool(uint32_t a, uint32_t b)`, "a comes before b",
// which must outlive the call it is passed to (a temporary lambda in the call does).
class IndexLess {
 public:
  template <class F>
  IndexLess(const F& f)  // NOLINT(google-explicit-constructor): built at each call from a lambda
      : object_(&f), call_([](const void* o, uint32_t a, uint32_t b) { return (*static_cast<const F*>(o))(a, b); }) {}
  bool operator()(uint32_t a, uint32_t b) const { return call_(object_, a, b); }

 private:
  const void* object_;
  bool (*call_)(const void*, uint32_t, uint32_t);
};

// 0 .. n-1 ordered by `before` (a strict weak order); equal ones stay in index order.
std::vector<uint32_t> stable_order(size_t n, IndexLess before);

// `items` ordered by `before(const T&, const T&)`; equal items keep their order
// (what std::stable_sort gives, and what std::sort gives under a total order).
template <class T, class Less>
void stable_sort_by(std::vector<T>& items, const Less& before) {
  const std::vector<uint32_t> order =
      stable_order(items.size(), [&](uint32_t a, uint32_t b) { return before(items[a], items[b]); });
  std::vector<T> sorted;
  sorted.reserve(items.size());
  for (uint32_t i : order) sorted.push_back(std::move(items[i]));
  items.swap(sorted);
}

}  // namespace gpuplan
