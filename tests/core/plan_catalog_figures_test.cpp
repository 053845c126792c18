// Figures the planner's advice quotes come from the catalog, never from code:
// rent or buy's default electricity (catalog/meta.json `electricity`, issue
// #17) and a campus centre's queue-priority tiers (platforms.json, the campus
// template's `reference_rates` priced_by queue_priority, issue #14 item 6).
#include <gtest/gtest.h>

#include <string>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"
#include "planned.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

// An 8B LoRA the planner prices on AutoDL and compares with buying the card
// (at a price the user gives: the electricity is the catalog's).
nlohmann::json lora_request(const char* locale) {
  return {{"locale", locale},
          {"model", {{"preset", "llama-3.1-8b"}}},
          {"workload", {{"mode", "train"}, {"method", "lora"}, {"micro_batch", 4}, {"seq_len", 2048}}},
          {"data", {{"samples", 50000}, {"epochs", 3}}},
          {"stages", {{{"stage", "formal"}, {"runs", 2}}}},
          {"prefs", {{"platforms", {"autodl"}}}},
          {"buy", {{"price", 15000}}}};
}

// ---------------------------------------------------------------- electricity

TEST(CatalogFigures, RentOrBuyChargesTheCatalogsElectricity) {
  const nlohmann::json catalog = nlohmann::json::parse(embedded_catalog_json());
  nlohmann::json r = run(lora_request("en"));
  ASSERT_TRUE(r["plan"].contains("rent_vs_buy")) << r.dump().substr(0, 400);
  const nlohmann::json& b = r["plan"]["rent_vs_buy"];
  // The sourced figure is the 0.6 CNY/kWh the code held before, so every
  // existing plan is unchanged: it is right as the marginal rate of a card at
  // home (300-450 W around the clock passes a household's first tier, billed
  // 0.49-0.54; the second tier is 0.54-0.59), not the first-tier 0.49-0.54.
  EXPECT_EQ(catalog["electricity"]["per_kwh"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(b["electricity_per_kwh"].get<double>(), 0.6);

  // Another figure in the catalog is another default: read, not held in code.
  nlohmann::json dearer = catalog;
  dearer["electricity"]["per_kwh"] = 0.9;
  nlohmann::json d = plan_over(lora_request("en"), dearer)["plan"]["rent_vs_buy"];
  EXPECT_DOUBLE_EQ(d["electricity_per_kwh"].get<double>(), 0.9);
  // Buying costs more by the extra power: watts / 1000 x hours x 0.3 CNY.
  const double extra = b["watts_per_gpu"].get<double>() / 1000 * b["gpu_hours"].get<double>() * 0.3;
  EXPECT_NEAR(d["buy_cost"].get<double>() - b["buy_cost"].get<double>(), extra, 1e-6 * extra + 1e-9);
  EXPECT_GT(d["break_even_gpu_hours"].get<double>(), b["break_even_gpu_hours"].get<double>());

  // A tariff in another currency is converted like any price.
  nlohmann::json in_usd = catalog;
  in_usd["electricity"]["per_kwh"] = 0.1;
  in_usd["electricity"]["currency"] = "USD";
  nlohmann::json u = plan_over(lora_request("en"), in_usd)["plan"]["rent_vs_buy"];
  EXPECT_NEAR(u["electricity_per_kwh"].get<double>(), 0.1 * catalog["fx"]["cny_per_usd"].get<double>(), 1e-12);

  // The user's own rate still wins.
  nlohmann::json own = lora_request("en");
  own["buy"]["electricity_per_kwh"] = 1.2;
  EXPECT_DOUBLE_EQ(run(own)["plan"]["rent_vs_buy"]["electricity_per_kwh"].get<double>(), 1.2);
}

// ---------------------------------------------------------------- campus queues

const nlohmann::json* advice(const nlohmann::json& r, const std::string& code) {
  if (!r.contains("plan") || !r["plan"].contains("advice")) return nullptr;
  for (const auto& a : r["plan"]["advice"])
    if (a.value("code", "") == code) return &a;
  return nullptr;
}

constexpr const char* kQueueAdvice = "campus-queue-priority";

// A plan run on the campus centre at the user's own rate.
nlohmann::json campus_request(const char* locale) {
  nlohmann::json q = lora_request(locale);
  q["prices"] = {{{"platform", "campus"}, {"gpu", "a100-pcie-80g"}, {"per_gpu_hour", 1}}};
  q["prefs"] = {{"platforms", {"campus"}}};
  return q;
}

TEST(CatalogFigures, ACampusPlanSaysHowItsQueuesArePriced) {
  for (const char* locale : {"zh-CN", "en"}) {
    nlohmann::json r = run(campus_request(locale));
    ASSERT_EQ(r["plan"]["stages"][0]["platform"], "campus") << r.dump().substr(0, 400);
    const nlohmann::json* a = advice(r, kQueueAdvice);
    ASSERT_NE(a, nullptr) << locale << ": " << r["plan"]["advice"].dump();
    const std::string text = (*a)["message"];
    // PKU's Weiming-2 80 GB tiers, with the year of the price list.
    EXPECT_NE(text.find("4 / 6 / 8 CNY"), std::string::npos) << text;
    EXPECT_NE(text.find("2018"), std::string::npos) << text;
    const bool en = std::string(locale) == "en";
    EXPECT_NE(text.find(en ? "Peking University" : "北京大学"), std::string::npos) << text;
    // When to take which queue.
    EXPECT_NE(text.find(en ? "deadline" : "截止日期"), std::string::npos) << text;
    EXPECT_NE(text.find(en ? "ablations" : "消融"), std::string::npos) << text;
  }
}

TEST(CatalogFigures, TheCampusChangeBringsTheQueueAdvice) {
  for (const char* locale : {"zh-CN", "en"}) {
    nlohmann::json q = lora_request(locale);
    q["budget"] = {{"amount", 1}, {"currency", "CNY"}};
    nlohmann::json r = run(q);
    bool listed = false;
    for (const auto& c : r["plan"]["changes"]) listed |= c["code"] == "campus";
    ASSERT_TRUE(listed) << r["plan"]["changes"].dump();
    EXPECT_NE(advice(r, kQueueAdvice), nullptr) << locale;
  }
}

TEST(CatalogFigures, NoCampusNoQueueAdvice) {
  for (const char* locale : {"zh-CN", "en"}) {
    nlohmann::json r = run(lora_request(locale));
    ASSERT_TRUE(r["plan"]["feasible"].get<bool>());
    EXPECT_NE(r["plan"]["stages"][0]["platform"], "campus");
    EXPECT_TRUE(r["plan"]["changes"].empty());
    EXPECT_EQ(advice(r, kQueueAdvice), nullptr) << locale << ": " << r["plan"]["advice"].dump();
  }
}

TEST(CatalogFigures, TheQueueTiersAreTheCatalogs) {
  nlohmann::json catalog = nlohmann::json::parse(embedded_catalog_json());
  nlohmann::json* campus = nullptr;
  for (auto& p : catalog["platforms"])
    if (p["id"] == "campus") campus = &p;
  ASSERT_NE(campus, nullptr);
  // Other tiers in the catalog are other tiers in the advice.
  nlohmann::json& first = (*campus)["reference_rates"][0];
  ASSERT_EQ(first.value("priced_by", ""), "queue_priority");
  first["per_gpu_hour"] = {{"low", 1.5}, {"typical", 2.5}, {"high", 3.5}};
  first["as_of"] = "2026-09";
  nlohmann::json r = plan_over(campus_request("en"), catalog);
  const nlohmann::json* a = advice(r, kQueueAdvice);
  ASSERT_NE(a, nullptr);
  const std::string text = (*a)["message"];
  EXPECT_NE(text.find("1.5 / 2.5 / 3.5 CNY"), std::string::npos) << text;
  EXPECT_NE(text.find("2026"), std::string::npos) << text;
  // A centre with no queue-priority rate gets no advice: nothing is invented.
  for (auto& rate : (*campus)["reference_rates"]) rate.erase("priced_by");
  r = plan_over(campus_request("en"), catalog);
  ASSERT_EQ(r["plan"]["stages"][0]["platform"], "campus");
  EXPECT_EQ(advice(r, kQueueAdvice), nullptr);
}

}  // namespace
}  // namespace gpuplan::test
