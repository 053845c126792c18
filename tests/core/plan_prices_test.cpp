// Prices of standing (contract v1.2; docs/catalog.md "Confidence"): only list
// prices of medium or high confidence, or the student's quote, price a plan;
// every priced figure says what its price is (`offer`) and gives a cost
// range; packages bill at their listed price; unknown disk prices and billing
// granularity are said, never priced at zero; a single-GPU product rents one
// card. Each test names the defect of the old catalog or code it guards.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gpuplan/catalog.h"
#include "gpuplan/pricing.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

nlohmann::json lora(const std::string& preset, int runs, double samples) {
  return {{"locale", "zh-CN"},
          {"model", {{"preset", preset}}},
          {"workload", {{"method", "lora"}, {"micro_batch", 1}, {"seq_len", 1024}, {"grad_checkpointing", true}}},
          {"data", {{"samples", samples}, {"epochs", 2}}},
          {"stages", {{{"stage", "debug"}, {"runs", 2}}, {{"stage", "formal"}, {"runs", runs}}}}};
}

std::set<std::string> standing_levels() { return {"high", "medium", "quote"}; }

void expect_priced_of_standing(const nlohmann::json& stage, const std::string& label) {
  ASSERT_TRUE(stage.contains("offer")) << label;
  const nlohmann::json& o = stage["offer"];
  for (const char* k : {"platform", "gpu", "billing", "price_kind", "as_of", "confidence", "source", "stale"})
    EXPECT_TRUE(o.contains(k)) << label << " offer lacks " << k;
  EXPECT_EQ(o["price_kind"], "list") << label;
  EXPECT_TRUE(standing_levels().count(o["confidence"].get<std::string>())) << label << " " << o.dump();
  EXPECT_EQ(o["platform"], stage["platform"]) << label;
  EXPECT_EQ(o["gpu"], stage["gpu"]) << label;
  EXPECT_EQ(o["billing"], stage["billing"]) << label;
  // The source as the page may show it: never a long internal text.
  EXPECT_LT(o["source"].get<std::string>().size(), 60u) << label;
  const double cost = stage["cost"].get<double>();
  EXPECT_LE(stage["cost_low"].get<double>(), cost + 1e-9) << label;
  EXPECT_GE(stage["cost_high"].get<double>(), cost - 1e-9) << label;
}

// Old code: the cheapest figure won whatever it was (恒源云's '1.32 起',
// compshare's spot 1.31, AutoDL's member 8.88 for an H800).
TEST(PlanPrices, EveryFeasibleStageOfAGeneratedSetRestsOnAPriceOfStanding) {
  int stages = 0;
  for (const char* preset : {"qwen2.5-7b", "llama-3.1-8b", "qwen3-8b", "glm-4-9b", "qwen2.5-1.5b"})
    for (int runs : {1, 3, 12})
      for (double samples : {2000.0, 20000.0, 200000.0}) {
        nlohmann::json r = run(lora(preset, runs, samples));
        if (!r.contains("plan")) continue;
        const std::string label = std::string(preset) + " runs " + std::to_string(runs) + " samples " + std::to_string(samples);
        double low = 0, high = 0;
        for (const auto& s : r["plan"]["stages"]) {
          if (!s["feasible"].get<bool>()) continue;
          expect_priced_of_standing(s, label);
          low += s["cost_low"].get<double>();
          high += s["cost_high"].get<double>();
          ++stages;
        }
        EXPECT_NEAR(r["plan"]["total_cost_low"].get<double>(), low, 1e-6) << label;
        EXPECT_NEAR(r["plan"]["total_cost_high"].get<double>(), high, 1e-6) << label;
        for (const auto& g : r["gpus"])
          if (g.contains("cost")) {
            ASSERT_TRUE(g.contains("offer")) << label << " " << g["id"];
            EXPECT_EQ(g["offer"]["price_kind"], "list");
            EXPECT_TRUE(standing_levels().count(g["offer"]["confidence"].get<std::string>())) << g["offer"].dump();
          }
      }
  EXPECT_GT(stages, 40);
}

TEST(PlanPrices, AFloorOrALowFigureIsAReferenceNeverTheCost) {
  // 恒源云 has only a '1.32 起' floor: planning there alone has no priced option.
  nlohmann::json q = lora("qwen2.5-7b", 1, 20000);
  q["prefs"] = {{"platforms", {"gpushare"}}};
  nlohmann::json r = run(q);
  ASSERT_TRUE(r.contains("plan"));
  EXPECT_FALSE(r["plan"]["feasible"].get<bool>()) << r["plan"].dump();
  // With every platform, a 4090 stage shows the floor beside the plan.
  nlohmann::json all = lora("qwen2.5-7b", 1, 20000);
  all["hardware"] = {{"gpu", "rtx-4090"}, {"count", 1}};
  r = run(all);
  const nlohmann::json& formal = r["plan"]["stages"][1];
  ASSERT_TRUE(formal["feasible"].get<bool>());
  EXPECT_GE(formal["price_per_gpu_hour"].get<double>(), 1.9) << "a 4090 is planned at a list price, not 1.31 or 1.32";
  ASSERT_TRUE(formal.contains("reference")) << formal.dump();
  const nlohmann::json& ref = formal["reference"];
  EXPECT_LT(ref["cost"].get<double>(), formal["cost"].get<double>());
  EXPECT_TRUE(ref["offer"]["price_kind"] != "list" || ref["offer"]["confidence"] == "low") << ref.dump();
  EXPECT_NE(ref["message"].get<std::string>().find("未核实"), std::string::npos) << ref["message"];
  // The reference never enters the total.
  double sum = 0;
  for (const auto& s : r["plan"]["stages"]) sum += s["cost"].get<double>();
  EXPECT_NEAR(r["plan"]["total_cost"].get<double>(), sum, 1e-6);
}

TEST(PlanPrices, TheCostRangeFollowsTheTimeRangeAndThePriceRange) {
  // Old code: one cost although hours_low / hours_high exist.
  nlohmann::json q = lora("llama-3.1-8b", 3, 50000);
  q["hardware"] = {{"gpu", "rtx-4090"}, {"count", 1}};
  q["prefs"] = {{"platforms", {"autodl"}}};
  nlohmann::json r = run(q);
  const nlohmann::json& formal = r["plan"]["stages"][1];
  ASSERT_TRUE(formal["feasible"].get<bool>());
  const double cost = formal["cost"].get<double>();
  EXPECT_LT(formal["cost_low"].get<double>(), cost * 0.95);
  EXPECT_GT(formal["cost_high"].get<double>(), cost * 1.05);
  // AutoDL bills per second: the high end is at most the dearer price times the longer time.
  const nlohmann::json& g = r["gpus"][0];
  const double time_high = g["hours_high"].get<double>() / g["hours"].get<double>();
  EXPECT_LE(formal["cost_high"].get<double>(), cost * time_high * 2.19 / 1.98 + 1);
}

TEST(PlanPrices, APackageBillsItsListedPriceNotTheHourlyFigureTimesThePeriod) {
  // AutoDL's 4090D package: 946 a month (per_gpu_hour 1.3139 x 720 = 946.008).
  const Platform* autodl = embedded_catalog().find_platform("autodl");
  const Offer* pkg = nullptr;
  for (const Offer& o : autodl->offers)
    if (o.gpu == "rtx-4090d" && o.billing == Billing::monthly) pkg = &o;
  ASSERT_NE(pkg, nullptr);
  RentalTerms t = rental_terms(*autodl, Billing::monthly, pkg->per_gpu_hour.typical, 0);
  t.price_per_gpu_period = pkg->per_period->typical;
  Rental r;
  r.used_hours = 10;
  EXPECT_DOUBLE_EQ(price_rental(t, r).compute_cost, 946);
  r.used_hours = 721;
  EXPECT_DOUBLE_EQ(price_rental(t, r).compute_cost, 2 * 946);
  // A quote with no period price still bills whole periods of its hourly figure.
  t.price_per_gpu_period.reset();
  r.used_hours = 10;
  EXPECT_NEAR(price_rental(t, r).compute_cost, 1.3139 * 720, 1e-9);
}

TEST(PlanPrices, AForcedWeeklyPackageIsComparedWithHourly) {
  // Old code compared only monthly and yearly with on-demand.
  nlohmann::json q = lora("qwen2.5-7b", 1, 2000);
  q["locale"] = "en";
  q["hardware"] = {{"gpu", "rtx-4090"}, {"count", 1}};
  q["prefs"] = {{"platforms", {"autodl"}}, {"billing", "weekly"}};
  q["prices"] = {{{"platform", "autodl"}, {"gpu", "rtx-4090"}, {"billing", "weekly"}, {"per_gpu_hour", 1.5}}};
  nlohmann::json r = run(q);
  ASSERT_TRUE(r["plan"]["feasible"].get<bool>()) << r.dump();
  EXPECT_EQ(r["plan"]["stages"][1]["billing"], "weekly");
  EXPECT_EQ(r["plan"]["stages"][1]["offer"]["source"], "quote");
  EXPECT_EQ(r["plan"]["stages"][1]["offer"]["confidence"], "quote");
  EXPECT_NE(warning(r, "package_costs_more"), nullptr) << r["warnings"].dump();
}

TEST(PlanPrices, ASingleGpuProductIsRentedAsSingleCards) {
  // Old code rented Tencent HAI's one-V100 product as 2 x V100 on one instance.
  nlohmann::json q = lora("qwen2.5-7b", 1, 2000);
  q["hardware"] = {{"gpu", "v100-sxm2-32g"}, {"count", 2}};
  q["prefs"] = {{"platforms", {"tencentcloud"}}};
  q["prices"] = {{{"platform", "tencentcloud"}, {"gpu", "v100-sxm2-32g"}, {"billing", "weekly"}, {"per_gpu_hour", 3.6}}};
  nlohmann::json r = run(q);
  ASSERT_TRUE(r.contains("plan"));
  for (const auto& s : r["plan"]["stages"])
    if (s["feasible"].get<bool>()) {
      EXPECT_NE(s["platform"], "tencentcloud") << s.dump();
    }
  // The catalog's own HAI offer says so (the quote above overrides its price, not its product).
  const Platform* tc = embedded_catalog().find_platform("tencentcloud");
  for (const Offer& o : tc->offers)
    if (o.gpu == "v100-sxm2-32g") {
      EXPECT_EQ(o.max_gpus, 1);
    }
}

TEST(PlanPrices, AnUnknownDiskPriceIsWarnedWithItsRangeNeverAZero) {
  // Old code: 150 GB on a platform with no disk price printed storage_cost 0 in silence.
  nlohmann::json q = lora("qwen2.5-7b", 1, 20000);
  q["prefs"] = {{"platforms", {"matpool"}}, {"storage_gb", 150}};
  nlohmann::json r = run(q);
  ASSERT_TRUE(r["plan"]["feasible"].get<bool>()) << r.dump();
  const nlohmann::json* w = warning(r, "storage_price_unknown");
  ASSERT_NE(w, nullptr) << r["warnings"].dump();
  EXPECT_NE((*w)["message"].get<std::string>().find("145 GB"), std::string::npos) << (*w)["message"];
  // matpool's billing granularity is unknown too: said, and whole hours assumed.
  EXPECT_NE(warning(r, "billing_granularity_unknown"), nullptr);
  // compshare's disk now has its price: 150 GB there is priced, not warned.
  q["prefs"] = {{"platforms", {"compshare"}}, {"storage_gb", 150}};
  q["hardware"] = {{"gpu", "rtx-5090"}, {"count", 1}};
  r = run(q);
  ASSERT_TRUE(r["plan"]["feasible"].get<bool>()) << r.dump();
  EXPECT_EQ(warning(r, "storage_price_unknown"), nullptr);
  EXPECT_GT(r["plan"]["stages"][1]["storage_cost"].get<double>(), 0);
}

TEST(PlanPrices, CompshareBillsPerSecond) {
  // Old code billed compshare in whole hours (0.99 h -> 1 h).
  const Platform* cs = embedded_catalog().find_platform("compshare");
  EXPECT_EQ(cs->billing_granularity_seconds, 1);
  RentalTerms t = rental_terms(*cs, Billing::on_demand, 3.2, 0);
  Rental r;
  r.used_hours = 0.99;
  EXPECT_NEAR(price_rental(t, r).compute_cost, 0.99 * 3.2, 1e-9);
}

TEST(PlanPrices, AQuoteSaysItIsAQuoteWithItsDate) {
  nlohmann::json q = lora("qwen2.5-7b", 1, 2000);
  q["hardware"] = {{"gpu", "rtx-4090"}, {"count", 1}};
  q["prefs"] = {{"platforms", {"gpushare"}}};
  q["prices"] = {{{"platform", "gpushare"}, {"gpu", "rtx-4090"}, {"per_gpu_hour", 1.7}, {"as_of", "2026-12-01"}}};
  nlohmann::json r = run(q);
  ASSERT_TRUE(r["plan"]["feasible"].get<bool>()) << r.dump();
  const nlohmann::json& o = r["plan"]["stages"][1]["offer"];
  EXPECT_EQ(o["source"], "quote");
  EXPECT_EQ(o["as_of"], "2026-12-01");
  EXPECT_EQ(o["stale"], false);
  // A quote read long ago (a price list pasted in 2025) ages as a catalog price does.
  q["prices"][0]["as_of"] = "2025-03-01";
  r = run(q);
  EXPECT_EQ(r["plan"]["stages"][1]["offer"]["as_of"], "2025-03-01");
  EXPECT_EQ(r["plan"]["stages"][1]["offer"]["stale"], true) << r["plan"]["stages"][1]["offer"].dump();
  q["prices"][0]["as_of"] = "December";
  r = run(q);
  ASSERT_TRUE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["error"]["code"], "invalid_date");
  EXPECT_EQ(r["error"]["path"], "prices[0].as_of");
}

TEST(PlanPrices, APriceOlderThanSixMonthsIsMarkedStale) {
  EXPECT_FALSE(price_is_stale("2026-09-24", "2026-11-30"));
  EXPECT_FALSE(price_is_stale("2026-06", "2026-11-30"));
  EXPECT_TRUE(price_is_stale("2026-05-29", "2026-11-30"));
  EXPECT_TRUE(price_is_stale("2025-11-30", "2026-11-30"));
  EXPECT_TRUE(price_is_stale("2026", "2026-11-30")) << "a year alone reads as its January";
  EXPECT_FALSE(price_is_stale("", "2026-11-30")) << "an undated quote is not aged";
  // The response carries it: AWS's 2025-11-30 prices are a year old.
  nlohmann::json q = lora("qwen2.5-7b", 1, 2000);
  q["prefs"] = {{"platforms", {"aws"}}};
  q["hardware"] = {{"gpu", "l40s"}, {"count", 1}};
  nlohmann::json r = run(q);
  ASSERT_TRUE(r["plan"]["feasible"].get<bool>()) << r.dump();
  EXPECT_EQ(r["plan"]["stages"][1]["offer"]["stale"], true);
}

}  // namespace
}  // namespace gpuplan::test
