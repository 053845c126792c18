// A request planned over a catalog of the test's own: the tests that change
// one catalog figure and read what the plan makes of it.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"

namespace gpuplan::test {

// The catalog's text is checked by the full reader first, as the build checks catalog/*.json.
inline nlohmann::json plan_over(const nlohmann::json& request, const nlohmann::json& catalog_json) {
  Result<Catalog> c = parse_catalog(catalog_json.dump());
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().path + ": " + c.error().message);
  if (!c.ok()) return {};
  return nlohmann::json::parse(plan_json(request.dump(), c.value()).json);
}

}  // namespace gpuplan::test
