// How old a price is: the one rule (gpuplan/catalog.h, price_is_stale) that
// the planner's offers (plan/offers.cpp, `offer.stale`) and the page's copy
// of the catalog (read/catalog_profile.cpp, an offer's `stale`) both use, so
// the page marks no price by a rule of its own.
#include "gpuplan/catalog.h"

namespace gpuplan {

namespace {
// Year, month and day of "YYYY[-MM[-DD]]", missing parts as 1; 0 for text that is no date.
int date_number(std::string_view d) {
  auto part = [&](size_t at, size_t n, int missing) {
    if (d.size() < at + n) return missing;
    int v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (d[i] < '0' || d[i] > '9') return -1;
      v = v * 10 + (d[i] - '0');
    }
    return v;
  };
  const int y = part(0, 4, -1), m = part(5, 2, 1), day = part(8, 2, 1);
  if (y < 0 || m < 0 || day < 0) return 0;
  return (y * 12 + (m - 1)) * 32 + day;  // months since year 0, then the day
}
}  // namespace

// Six months as 6 × 32 day-slots: a date more than six calendar months
// before the reference, whatever the months' lengths.
bool price_is_stale(std::string_view as_of, std::string_view reference) {
  const int a = date_number(as_of), r = date_number(reference);
  if (a == 0 || r == 0) return a == 0 && !as_of.empty();
  return a + 6 * 32 < r;
}

}  // namespace gpuplan
