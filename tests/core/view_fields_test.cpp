// What the page shows and no longer works out itself (issue #28, "the page is a
// view of the core"): the billings the in-scope offers have (the billing
// menu), the display currency's rates (every amount), and the lab's offers
// saying what they are (the lab's total). docs/api.md, "Response".
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

nlohmann::json reply_to(const std::string& json) {
  JsonReply reply = plan_json(json);
  EXPECT_EQ(reply.exit_code, 0) << reply.json;
  return nlohmann::json::parse(reply.json);
}

const std::string kJob = R"("model":{"preset":"llama-3.1-8b"},"workload":{"method":"lora"},"data":{"samples":1000,"epochs":1},"stages":[{"stage":"formal","runs":2}])";

std::vector<std::string> billings(const nlohmann::json& r) {
  std::vector<std::string> out;
  for (const auto& b : r["plan"].value("billings", nlohmann::json::array())) out.push_back(b.get<std::string>());
  return out;
}

std::vector<std::string> scoped_platforms(const nlohmann::json& r) {
  std::vector<std::string> out;
  for (const auto& id : r["plan"].value("platforms", nlohmann::json::array())) out.push_back(id.get<std::string>());
  return out;
}

// The scope rule's verdict on each catalog platform (`plan.platforms`), which
// the page's platform list marks instead of a rule of its own: the CNY
// platforms by default, every one under the global scope, and exactly those
// named in prefs.platforms, whatever the scope.
TEST(ViewFields, PlanPlatformsAreTheScopesVerdict) {
  const Catalog& c = embedded_catalog();
  std::vector<std::string> cny, all;
  for (const Platform& p : c.platforms) {
    all.push_back(p.id);
    if (p.currency == "CNY") cny.push_back(p.id);
  }
  ASSERT_LT(cny.size(), all.size()) << "the catalog has platforms outside the default scope";
  EXPECT_EQ(scoped_platforms(reply_to("{" + kJob + "}")), cny);
  EXPECT_EQ(scoped_platforms(reply_to("{" + kJob + R"(,"prefs":{"scope":"global"}})")), all);
  EXPECT_EQ(scoped_platforms(reply_to("{" + kJob + R"(,"prefs":{"platforms":["autodl","lambda"]}})")),
            (std::vector<std::string>{"autodl", "lambda"}));
}

// The billings priced offers have in scope, whatever billing the request asks:
// the same list with a billing that has none, which is then refused with
// billing_unavailable naming what is offered.
TEST(ViewFields, PlanBillingsAreWhatTheInScopeOffersHave) {
  const auto open = reply_to("{" + kJob + "}");
  const auto listed = billings(open);
  ASSERT_FALSE(listed.empty());
  EXPECT_EQ(listed.front(), "on-demand");
  // Only CNY platforms in the default scope: no CNY offer is yearly.
  EXPECT_EQ(std::count(listed.begin(), listed.end(), "yearly"), 0);
  const auto weekly = reply_to("{" + kJob + R"(,"prefs":{"billing":"yearly"}})");
  EXPECT_EQ(billings(weekly), listed);
  bool unavailable = false;
  for (const auto& w : weekly["warnings"]) unavailable |= w["code"] == "billing_unavailable";
  EXPECT_TRUE(unavailable);
  // The whole catalog has yearly offers (USD clouds).
  const auto global = billings(reply_to("{" + kJob + R"(,"prefs":{"scope":"global"}})"));
  EXPECT_EQ(std::count(global.begin(), global.end(), "yearly"), 1);
  // A student's quote brings its billing into scope.
  const auto quoted = billings(reply_to(
      "{" + kJob + R"(,"prices":[{"platform":"autodl","gpu":"rtx-4090","per_gpu_hour":900,"currency":"CNY","billing":"yearly"}]})"));
  EXPECT_EQ(std::count(quoted.begin(), quoted.end(), "yearly"), 1);
}

// Every amount is shown at the core's rate: what one unit of each currency is
// in the display currency (CNY unless the student picks another).
TEST(ViewFields, DisplayRatesComeFromTheCatalogsRate) {
  const Catalog& c = embedded_catalog();
  ASSERT_GT(c.fx.cny_per_usd, 0);
  const auto cny = reply_to("{" + kJob + "}")["display"];
  EXPECT_EQ(cny["currency"], "CNY");
  EXPECT_DOUBLE_EQ(cny["rates"]["CNY"].get<double>(), 1);
  EXPECT_DOUBLE_EQ(cny["rates"]["USD"].get<double>(), c.fx.cny_per_usd);
  EXPECT_EQ(cny["as_of"], c.fx.as_of);
  const auto usd = reply_to("{" + kJob + R"(,"prefs":{"display_currency":"USD"}})")["display"];
  EXPECT_EQ(usd["currency"], "USD");
  EXPECT_DOUBLE_EQ(usd["rates"]["USD"].get<double>(), 1);
  EXPECT_DOUBLE_EQ(usd["rates"]["CNY"].get<double>(), 1 / c.fx.cny_per_usd);
  // The plan itself stays in its own currency.
  EXPECT_EQ(reply_to("{" + kJob + R"(,"prefs":{"display_currency":"USD"}})")["plan"]["currency"], "CNY");
}

// A stage on the lab's cards, or on a lab quote, says so in its offer, dated
// by the lab's settings: the page looks nothing up in its catalog copy.
TEST(ViewFields, TheLabsOffersSayWhatTheyAre) {
  const auto r = reply_to("{" + kJob + R"(,"lab":{"written":"2026-11-20","gpus":[{"gpu":"rtx-4090","count":4}]}})");
  bool on_lab = false;
  for (const auto& s : r["plan"]["stages"]) {
    if (s["platform"] != "lab") continue;
    on_lab = true;
    EXPECT_EQ(s["offer"]["platform"], "lab");
    EXPECT_EQ(s["offer"]["source"], "lab");
    EXPECT_EQ(s["offer"]["as_of"], "2026-11-20");
  }
  EXPECT_TRUE(on_lab) << r["plan"].dump();
  const auto q = reply_to("{" + kJob + R"(,"lab":{"written":"2026-11-20","prices":[{"platform":"autodl","gpu":"rtx-4090","per_gpu_hour":0.2}]}})");
  const auto& s = q["plan"]["stages"][0];
  EXPECT_EQ(s["platform"], "autodl") << s.dump();
  EXPECT_EQ(s["offer"]["source"], "lab");
  EXPECT_EQ(s["offer"]["confidence"], "quote");
  EXPECT_EQ(s["offer"]["as_of"], "2026-11-20");
}

}  // namespace
}  // namespace gpuplan::test
