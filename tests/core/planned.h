// Planning in tests: a request over a catalog of the test's own, and a
// planned stage found by its id.
#pragma once

#include <string>

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

// The response's stage with this id (debug, formal, revision), or an empty
// object and a failure.
inline const nlohmann::json& stage_of(const nlohmann::json& r, const std::string& id) {
  for (const auto& s : r["plan"]["stages"])
    if (s["stage"] == id) return s;
  static const nlohmann::json none = nlohmann::json::object();
  ADD_FAILURE() << "no stage " << id;
  return none;
}

}  // namespace gpuplan::test
