// The lab's settings (request `lab`, docs/api.md "Lab settings"): read
// strictly, and weighed against renting per stage (plan/lab_options.cpp):
// the lab's cards at no rental cost with their wait, a deadline they cannot
// meet sending the stage to rental, the student's time value moving the
// choice exactly where waiting costs more than the rent, electricity priced
// from the catalog's sourced tariff, the same topology rules as rented
// machines, and a request with lab settings differing from one without only
// by the lab's options.
#include <gtest/gtest.h>

#include <string>

#include "gpuplan/catalog.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

// An 8B full fine-tune: it needs two 24 GB cards (ZeRO), and a rental
// finishes it well before the lab's cards do.
nlohmann::json request(const nlohmann::json& lab) {
  nlohmann::json q = {{"model", {{"preset", "llama-3.1-8b"}}},
                      {"workload", {{"method", "full"}}},
                      {"data", {{"tokens", 2e7}}},
                      {"stages", {{{"stage", "formal"}}}}};
  if (!lab.is_null()) q["lab"] = lab;
  return q;
}

nlohmann::json four_4090(double wait_hours, int machines = 1) {
  return {{"name", "NLP group"},
          {"written", "2026-12-03"},
          {"gpus", {{{"gpu", "rtx-4090"}, {"count", 4}, {"machines", machines}, {"wait_hours", wait_hours}}}}};
}

const nlohmann::json& stage(const nlohmann::json& response) { return response.at("plan").at("stages").at(0); }

TEST(Lab, StageThatFitsTheLabsCardsRunsThereAtNoRentalCostWithItsWait) {
  nlohmann::json q = request(four_4090(36));
  q["prefs"] = {{"deadline_days", 10}};
  const nlohmann::json r = run(q);
  ASSERT_TRUE(r.contains("plan")) << r.dump();
  const nlohmann::json& s = stage(r);
  EXPECT_EQ(s["platform"], "lab");
  EXPECT_EQ(s["gpu"], "rtx-4090");
  EXPECT_EQ(s["cost"].get<double>(), 0);
  EXPECT_EQ(s["wait_hours"].get<double>(), 36);
  EXPECT_GT(s["wall_hours"].get<double>(), 36);  // the wait is part of the stage's time
  EXPECT_EQ(s["upload_hours"].get<double>(), 0);
  EXPECT_NE(s["why"].get<std::string>().find("在实验室的"), std::string::npos) << s["why"];
  // Without lab settings the same stage is rented, at a price.
  const nlohmann::json rented = stage(run(request(nullptr)));
  EXPECT_NE(rented["platform"], "lab");
  EXPECT_GT(rented["cost"].get<double>(), 0);
  EXPECT_EQ(rented["wait_hours"].get<double>(), 0);
}

TEST(Lab, ADeadlineTheLabsCardsCannotMeetGoesToRental) {
  nlohmann::json q = request(four_4090(24 * 20));  // free in 20 days
  q["prefs"] = {{"deadline_days", 10}};
  q["locale"] = "en";
  const nlohmann::json s = stage(run(q));
  EXPECT_NE(s["platform"], "lab");
  EXPECT_GT(s["cost"].get<double>(), 0);
  EXPECT_LE(s["wall_hours"].get<double>(), 240);
  EXPECT_NE(s["why"].get<std::string>().find("cannot meet the 10 days deadline"), std::string::npos) << s["why"];
}

// Lab: cost 0, wall W_lab; rental: cost C, wall W_rent. With time value v the
// lab wins iff v × (W_lab − W_rent) ≤ C: just under that value it stays, just
// over it the stage is rented.
TEST(Lab, TimeValueMovesTheChoiceExactlyWhereWaitingCostsMoreThanTheRent) {
  const nlohmann::json lab_stage = stage(run(request(four_4090(20))));
  const nlohmann::json rent_stage = stage(run(request(nullptr)));
  ASSERT_EQ(lab_stage["platform"], "lab");
  const double extra_wait = lab_stage["wall_hours"].get<double>() - rent_stage["wall_hours"].get<double>();
  ASSERT_GT(extra_wait, 0);
  const double threshold = (rent_stage["cost"].get<double>() - lab_stage["cost"].get<double>()) / extra_wait;
  for (double factor : {0.999, 1.001}) {
    nlohmann::json q = request(four_4090(20));
    q["prefs"] = {{"time_value_per_hour", threshold * factor}};
    const nlohmann::json s = stage(run(q));
    if (factor < 1) {
      EXPECT_EQ(s["platform"], "lab") << factor;
    } else {
      EXPECT_EQ(s["platform"], rent_stage["platform"]) << factor;
      EXPECT_EQ(s["cost"], rent_stage["cost"]);
      EXPECT_NE(s["why"].get<std::string>().find("你的等待按"), std::string::npos) << s["why"];
    }
  }
}

TEST(Lab, ElectricityIsPricedAtTheCatalogsSourcedTariff) {
  nlohmann::json lab = four_4090(0);
  lab["electricity"] = true;
  const nlohmann::json s = stage(run(request(lab)));
  ASSERT_EQ(s["platform"], "lab");
  ASSERT_TRUE(s.contains("electricity")) << s.dump();
  const nlohmann::json& e = s["electricity"];
  const nlohmann::json meta = nlohmann::json::parse(read_file("catalog/meta.json"));
  EXPECT_EQ(e["per_kwh"].get<double>(), meta["electricity"]["per_kwh"].get<double>());
  // The tariff's source as the page may show it (the site), in both catalog copies.
  EXPECT_EQ(e["source"], page_source_label(meta["electricity"]["source"].get<std::string>()));
  EXPECT_NE(e["source"], "unverified");
  EXPECT_EQ(e["as_of"], meta["electricity"]["as_of"]);
  EXPECT_EQ(e["confidence"], meta["electricity"]["confidence"]);
  EXPECT_EQ(e["watts_per_gpu"].get<double>(), 450);  // the RTX 4090's TDP (catalog/gpus.json)
  // kWh = card-hours × watts / 1000, and the stage costs exactly that power.
  EXPECT_NEAR(e["kwh"].get<double>(), s["hours"].get<double>() * s["count"].get<double>() * 0.45, 1e-9);
  EXPECT_NEAR(s["cost"].get<double>(), e["kwh"].get<double>() * e["per_kwh"].get<double>(), 1e-9);
  EXPECT_GT(s["cost"].get<double>(), 0);
  // The lab's own rate is the lab's, never the catalog's source.
  lab["electricity_per_kwh"] = 1.2;
  const nlohmann::json own = stage(run(request(lab)));
  EXPECT_EQ(own["electricity"]["source"], "lab");
  EXPECT_NEAR(own["cost"].get<double>(), 2 * s["cost"].get<double>(), 1e-9);
}

// GeForce cards on separate machines never join for one job (no
// peer-to-peer; the rule rented machines follow): the job that needs two
// cards runs on the lab's four only when they share a machine.
TEST(Lab, MultiCardPlansOnTheLabsCardsFollowTheMachineTopology) {
  EXPECT_EQ(stage(run(request(four_4090(0, 1))))["platform"], "lab");
  const nlohmann::json spread = stage(run(request(four_4090(0, 4))));
  EXPECT_NE(spread["platform"], "lab");
  for (const auto& a : spread["alternatives"]) EXPECT_NE(a["platform"], "lab");
}

TEST(Lab, DebugStagesPreferTheLabsCardsWhenTheyHoldTheJob) {
  // A data-centre card in the lab: the debug policy's consumer rule is for rentals.
  nlohmann::json q = request({{"gpus", {{{"gpu", "a100-sxm4-80g"}, {"count", 1}}}}});
  q["stages"] = {{{"stage", "debug"}, {"runs", 3}}};
  const nlohmann::json s = stage(run(q));
  EXPECT_EQ(s["platform"], "lab");
  EXPECT_EQ(s["cost"].get<double>(), 0);
}

// The lab changes nothing but its own options: where the rental wins (the
// student's time is worth more than the rent), the response is the one
// without lab settings, but for the stage's reason (which names the lab's
// option first) and the lab's entries among the alternatives.
TEST(Lab, WithAndWithoutLabSettingsDifferOnlyByTheLabsOptions) {
  nlohmann::json with = request(four_4090(20));
  with["prefs"] = {{"time_value_per_hour", 1000}};
  nlohmann::json without = request(nullptr);
  without["prefs"] = {{"time_value_per_hour", 1000}};
  nlohmann::json a = run(with), b = run(without);
  ASSERT_TRUE(a.contains("plan") && b.contains("plan"));
  auto strip = [](nlohmann::json& r) {
    for (auto& s : r["plan"]["stages"]) {
      s.erase("alternatives");
      s.erase("pareto");
      s.erase("why");
    }
  };
  const std::string why_with = stage(a)["why"], why_without = stage(b)["why"];
  ASSERT_GE(why_with.size(), why_without.size());
  EXPECT_EQ(why_with.substr(why_with.size() - why_without.size()), why_without);
  // The fastest option is a rental either way, and the same one.
  auto fastest = [](const nlohmann::json& s) {
    for (const auto& o : s["alternatives"])
      if (o["kind"] == "fastest") return o;
    return nlohmann::json();
  };
  EXPECT_EQ(fastest(stage(a)), fastest(stage(b)));
  strip(a);
  strip(b);
  EXPECT_EQ(a, b);
}

TEST(Lab, LabQuotesBudgetAndScopeAreDefaultsTheStudentsOwnOverride) {
  nlohmann::json lab = {{"prices", {{{"platform", "autodl"}, {"gpu", "h800"}, {"per_gpu_hour", 1}}}},
                        {"budget", {{"amount", 500}, {"currency", "CNY"}}}};
  const nlohmann::json r = run(request(lab));
  EXPECT_EQ(stage(r)["platform"], "autodl");
  EXPECT_EQ(stage(r)["price_per_gpu_hour"].get<double>(), 1);
  EXPECT_EQ(r["plan"]["budget"].get<double>(), 500);
  nlohmann::json own = request(lab);
  own["prices"] = {{{"platform", "autodl"}, {"gpu", "h800"}, {"per_gpu_hour", 3}}};
  own["budget"] = {{"amount", 80}};
  const nlohmann::json o = run(own);
  EXPECT_EQ(o["plan"]["budget"].get<double>(), 80);
  for (const auto& a : stage(o)["pareto"])
    if (a["platform"] == "autodl" && a["gpu"] == "h800") {
      EXPECT_EQ(a["price_per_gpu_hour"].get<double>(), 3);
    }
}

TEST(Lab, CampusCentreQueueAndLimitsCount) {
  nlohmann::json lab = {{"campus", {{"wait_hours", 30}, {"max_gpus", 2}, {"prices", {{{"gpu", "a100-sxm4-80g"}, {"per_gpu_hour", 0.01}}}}}}};
  const nlohmann::json s = stage(run(request(lab)));
  ASSERT_EQ(s["platform"], "campus") << s.dump();
  EXPECT_EQ(s["wait_hours"].get<double>(), 30);
  EXPECT_GT(s["wall_hours"].get<double>(), 30);
  EXPECT_LE(s["count"].get<int>(), 2);
  // A deadline inside the queue sends it elsewhere.
  nlohmann::json q = request(lab);
  q["prefs"] = {{"deadline_days", 1}};
  EXPECT_NE(stage(run(q))["platform"], "campus");
}

TEST(Lab, ReadsStrictlyWithLocalizedErrors) {
  struct Case {
    nlohmann::json lab;
    std::string code, path;
  };
  const Case cases[] = {
      {{{"gpus", {{{"gpu", "rtx-4090"}, {"wait", 3}}}}}, "unknown_field", "lab.gpus[0].wait"},
      {{{"gpus", {{{"gpu", "rtx-9999"}}}}}, "unknown_gpu", "lab.gpus[0].gpu"},
      {{{"gpus", {{{"gpu", "rtx-4090"}, {"count", 3}, {"machines", 2}}}}}, "inconsistent", "lab.gpus[0].machines"},
      {{{"version", 2}}, "out_of_range", "lab.version"},
      {{{"models", {"no-such-model"}}}, "unknown_preset", "lab.models[0]"},
      {{{"campus", {{"queue", 1}}}}, "unknown_field", "lab.campus.queue"},
      {{{"prices", {{{"gpu", "h800"}, {"per_gpu_hour", 1}}}}}, "missing_field", "lab.prices[0].platform"},
      {{{"gpus", {{{"gpu", "rtx-4090"}, {"hours_per_week", 200}}}}}, "out_of_range", "lab.gpus[0].hours_per_week"},
  };
  for (const Case& c : cases) {
    for (const char* locale : {"zh-CN", "en"}) {
      nlohmann::json q = request(c.lab);
      q["locale"] = locale;
      const nlohmann::json r = run(q);
      ASSERT_TRUE(r.contains("error")) << c.lab.dump();
      EXPECT_EQ(r["error"]["code"], c.code) << c.lab.dump();
      EXPECT_EQ(r["error"]["path"], c.path) << c.lab.dump();
      // The field in the student's words ("实验室的第 1 种显卡的型号"); its path is the error's own.
      EXPECT_EQ(r["error"]["message"].get<std::string>().find(c.path), std::string::npos) << r.dump();
    }
  }
  nlohmann::json q = request(nullptr);
  q["prefs"] = {{"time_value_per_hour", -1}};
  EXPECT_EQ(run(q)["error"]["path"], "prefs.time_value_per_hour");
}

TEST(Lab, HoursPerWeekStretchTheWallTime) {
  nlohmann::json lab = four_4090(0);
  const double full = stage(run(request(lab)))["wall_hours"];
  lab["gpus"][0]["hours_per_week"] = 84;
  const nlohmann::json s = stage(run(request(lab)));
  ASSERT_EQ(s["platform"], "lab");
  EXPECT_NEAR(s["wall_hours"].get<double>(), 2 * full, 1e-9);
}

}  // namespace
}  // namespace gpuplan::test
