// The planner end to end through plan(), on small catalogs built here so that
// each seed rule is tested against prices and cards chosen to exercise it
// (the embedded catalog's figures change as sources are found). Properties:
// more runs never cost less, spot's expected cost against on-demand, stage
// costs summing to the total. The choice rule: the cheapest plan or a faster
// or more comfortable one within the tie band, an oversized card only where
// it wins on the front, more cards where they cost about the same, the
// deadline bought; seed rules: debug at most 20 % of the budget, revision
// with packed seed runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "gpuplan/plan.h"
#include "gpuplan/pricing.h"
#include "gpuplan/request.h"
#include "response_json_tree.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

constexpr double kGiBBytes = 1024.0 * 1024.0 * 1024.0;

// Cards shaped like an RTX 4090 (24 GiB consumer), an RTX A6000 (48 GiB
// workstation) and an A100 80GB; platforms shaped like a Chinese marketplace
// (CNY, per-second billing, spot, off-peak, a monthly package), a US cloud
// (USD, hourly billing with a one-hour minimum, disks that bill after release,
// student discount) and a campus centre with no public price.
nlohmann::json test_catalog() {
  return nlohmann::json::parse(R"({
    "version": "test", "fx": {"cny_per_usd": 7, "as_of": "2026-01", "source": "test"},
    "electricity": {"per_kwh": 0.6, "currency": "CNY", "as_of": "2024-03", "source": "test", "confidence": "medium"},
    "gpus": [
      {"id": "c24", "name": "Consumer 24G", "segment": "consumer", "memory_bytes": 25757220864, "memory_basis": "driver",
       "memory_bandwidth_gb_s": 1008, "tflops": {"fp32": 82.6, "fp16_tensor": 165, "bf16_tensor": 165},
       "tdp_w": 450, "purchase": {"amount": 15000, "currency": "CNY", "as_of": "2026-01", "source": "test"},
       "sources": ["test"]},
      {"id": "w48", "name": "Workstation 48G", "segment": "workstation", "memory_bytes": 51527024640, "memory_basis": "driver",
       "memory_bandwidth_gb_s": 768, "tflops": {"fp32": 38.7, "fp16_tensor": 155, "bf16_tensor": 155},
       "tdp_w": 300, "sources": ["test"]},
      {"id": "d80", "name": "Datacenter 80G", "segment": "datacenter", "memory_bytes": 85899345920, "memory_basis": "driver",
       "memory_bandwidth_gb_s": 2039, "tflops": {"fp32": 19.5, "fp16_tensor": 312, "bf16_tensor": 312},
       "tdp_w": 400, "nvlink_gb_s": 600,
       "purchase": {"amount": 100000, "currency": "CNY", "as_of": "2026-01", "source": "seed 000"},
       "sources": ["test"]}
    ],
    "platforms": [
      {"id": "mkt", "name": "Market", "kind": "marketplace", "currency": "CNY",
       "billing_rules": {"granularity_seconds": 1, "minimum_charge_seconds": 0, "disk_bills_after_release": false},
       "storage": {"per_gb_month": 0.3, "free_gb": 50},
       "spot": {"discount": 0.5, "interruptions_per_hour": 0.02},
       "off_peak_discount": 0.3, "cpu_only_per_hour": 0.1, "sources": ["test"],
       "offers": [
         {"gpu": "c24", "billing": "on-demand", "price_kind": "list", "per_gpu_hour": {"low": 2, "typical": 2.5, "high": 3}, "currency": "CNY", "as_of": "2026-01", "source": "test", "confidence": "high", "evidence": {"kind": "platform_read", "read": "test", "url": "https://example.test", "read_on": "2026-01-01"}},
         {"gpu": "w48", "billing": "on-demand", "price_kind": "list", "per_gpu_hour": {"low": 4, "typical": 4.5, "high": 5}, "currency": "CNY", "as_of": "2026-01", "source": "test", "confidence": "high", "evidence": {"kind": "platform_read", "read": "test", "url": "https://example.test", "read_on": "2026-01-01"}},
         {"gpu": "d80", "billing": "on-demand", "price_kind": "list", "per_gpu_hour": {"low": 9, "typical": 10, "high": 12}, "currency": "CNY", "as_of": "2026-01", "source": "test", "confidence": "high", "evidence": {"kind": "platform_read", "read": "test", "url": "https://example.test", "read_on": "2026-01-01"}},
         {"gpu": "d80", "billing": "monthly", "price_kind": "list", "per_gpu_hour": {"low": 6, "typical": 6, "high": 6}, "currency": "CNY", "as_of": "2026-01", "source": "test", "confidence": "high", "evidence": {"kind": "platform_read", "read": "test", "url": "https://example.test", "read_on": "2026-01-01"}},
         {"gpu": "d80", "billing": "yearly", "price_kind": "list", "per_gpu_hour": {"low": 4, "typical": 4, "high": 4}, "currency": "CNY", "as_of": "2026-01", "source": "test", "confidence": "high", "evidence": {"kind": "platform_read", "read": "test", "url": "https://example.test", "read_on": "2026-01-01"}}
       ]},
      {"id": "cld", "name": "Cloud", "kind": "cloud", "currency": "USD",
       "billing_rules": {"granularity_seconds": 3600, "minimum_charge_seconds": 3600, "disk_bills_after_release": true},
       "storage": {"per_gb_month": 0.1}, "education_discount": 0.3, "sources": ["test"],
       "education": [{"name": "Research credit", "credit": 5, "currency": "USD", "as_of": "2026-01", "source": "test"}],
       "offers": [
         {"gpu": "c24", "billing": "on-demand", "price_kind": "list", "per_gpu_hour": {"low": 0.5, "typical": 0.6, "high": 0.7}, "currency": "USD", "as_of": "2026-01", "source": "test", "confidence": "high", "evidence": {"kind": "platform_read", "read": "test", "url": "https://example.test", "read_on": "2026-01-01"}},
         {"gpu": "d80", "billing": "on-demand", "price_kind": "list", "per_gpu_hour": {"low": 1.5, "typical": 2, "high": 2.5}, "currency": "USD", "as_of": "2026-01", "source": "test", "confidence": "high", "evidence": {"kind": "platform_read", "read": "test", "url": "https://example.test", "read_on": "2026-01-01"}}
       ]},
      {"id": "campus", "name": "Campus", "kind": "campus", "currency": "CNY", "sources": ["test"]}
    ],
    "models": [
      {"id": "small-1b", "kind": "decoder", "params": 1.24e9, "layers": 16, "hidden": 2048, "heads": 32, "kv_heads": 8,
       "ffn": 8192, "vocab": 128256, "gated_mlp": true, "tied_embeddings": true, "sources": ["Llama-3.2-1B config.json"]},
      {"id": "mid-8b", "kind": "decoder", "params": 8.03e9, "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
       "ffn": 14336, "vocab": 128256, "gated_mlp": true, "sources": ["Llama-3.1-8B config.json"]}
    ]
  })");
}

// A catalog edited for one test.
Catalog catalog_from(const nlohmann::json& j) {
  Result<Catalog> c = parse_catalog(j.dump());
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().path + ": " + c.error().message);
  return c.ok() ? c.value() : Catalog{};
}

const Catalog& catalog() {
  static const Catalog c = catalog_from(test_catalog());
  return c;
}

// A small LoRA job (fits a 24 GiB card) with three stages.
nlohmann::json small_request() {
  return nlohmann::json::parse(R"({
    "locale": "en",
    "model": {"preset": "small-1b"},
    "workload": {"method": "lora", "micro_batch": 2, "seq_len": 1024, "grad_checkpointing": true},
    "data": {"samples": 20000, "epochs": 2},
    "stages": [{"stage": "debug", "runs": 5}, {"stage": "formal", "runs": 6}, {"stage": "revision", "runs": 4}]
  })");
}

nlohmann::json run_plan(const nlohmann::json& request, const Catalog& c = catalog()) {
  Result<Request> q = parse_request(request.dump(), c);
  EXPECT_TRUE(q.ok()) << (q.ok() ? "" : q.error().path + ": " + q.error().message);
  if (!q.ok()) return {};
  return to_json(plan(q.value(), c));
}

const nlohmann::json& stage(const nlohmann::json& r, const std::string& id) {
  for (const auto& s : r["plan"]["stages"])
    if (s["stage"] == id) return s;
  static const nlohmann::json none;
  ADD_FAILURE() << "no stage " << id;
  return none;
}

// The top of the choice rule's tie band over a cheapest plan of `cheapest`
// CNY (docs/api.md, "How the planner decides"): 10 % of it, or 20 CNY but at
// most a quarter of it, whichever is larger.
double tie_band_top(double cheapest) {
  return cheapest + std::max(0.10 * cheapest, std::min(20.0, 0.25 * cheapest)) + 1e-9;
}

bool has_warning(const nlohmann::json& r, const std::string& code) {
  for (const auto& w : r["warnings"])
    if (w["code"] == code) return true;
  return false;
}

void expect_all_finite(const nlohmann::json& j) {
  if (j.is_number_float()) {
    EXPECT_TRUE(std::isfinite(j.get<double>()));
  }
  else if (j.is_structured())
    for (const auto& v : j) expect_all_finite(v);
}

// ---------------------------------------------------------------- contract shape

TEST(Planner, ContractFieldsArePresent) {
  auto r = run_plan(small_request());
  const auto& p = r["plan"];
  ASSERT_TRUE(p.is_object()) << r.dump();
  EXPECT_TRUE(p["category"].is_string());
  EXPECT_EQ(p["currency"], "CNY");
  EXPECT_TRUE(p["within_budget"].is_boolean());
  ASSERT_EQ(p["stages"].size(), 3u);
  for (const auto& s : p["stages"]) {
    for (const char* k : {"stage", "gpu", "count", "platform", "billing", "hours", "cost", "share", "why"})
      EXPECT_TRUE(s.contains(k)) << k;
    EXPECT_FALSE(s["why"].get<std::string>().empty());
    EXPECT_GE(s["alternatives"].size(), 3u);
  }
  expect_all_finite(r);
}

TEST(Planner, NoOptionIsWarnedAndAZeroRunStageIsSkipped) {
  auto q = small_request();
  q["prefs"] = {{"platforms", {"campus"}}};  // priced by the user's rate, none given
  auto r = run_plan(q);
  EXPECT_TRUE(has_warning(r, "no_option"));
  for (const auto& s : r["plan"]["stages"]) EXPECT_FALSE(s["feasible"].get<bool>());
  EXPECT_DOUBLE_EQ(r["plan"]["total_cost"].get<double>(), 0);
  expect_all_finite(r);
  q = small_request();
  q["stages"] = nlohmann::json::array({{{"stage", "debug"}, {"runs", 0}}, {{"stage", "formal"}, {"runs", 2}}});
  auto z = run_plan(q);
  EXPECT_FALSE(has_warning(z, "no_option"));
  EXPECT_DOUBLE_EQ(stage(z, "debug")["cost"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(stage(z, "formal")["share"].get<double>(), 1);
}

TEST(Planner, NoStagesNoPlan) {
  auto r = run_plan(nlohmann::json::parse(R"({"model": {"preset": "small-1b"}})"));
  EXPECT_FALSE(r.contains("plan"));
}

// ---------------------------------------------------------------- properties

TEST(Planner, StageCostsSumToTheTotalAndSharesToOne) {
  for (const char* preset : {"small-1b", "mid-8b"}) {
    auto q = small_request();
    q["model"]["preset"] = preset;
    auto p = run_plan(q)["plan"];
    double sum = 0, shares = 0;
    for (const auto& s : p["stages"]) {
      sum += s["cost"].get<double>();
      shares += s["share"].get<double>();
      EXPECT_NEAR(s["cost"].get<double>(),
                  s["compute_cost"].get<double>() + s["storage_cost"].get<double>() - s["credit"].get<double>(), 1e-9);
    }
    EXPECT_NEAR(sum, p["total_cost"].get<double>(), 1e-9 * std::max(1.0, sum)) << preset;
    EXPECT_NEAR(shares, 1, 1e-9) << preset;
  }
}

TEST(Planner, MoreRunsNeverCostLess) {
  for (const char* id : {"debug", "formal", "revision"}) {
    double previous = 0;
    for (int runs = 1; runs <= 17; runs += 2) {
      auto q = small_request();
      q["stages"] = nlohmann::json::array({{{"stage", id}, {"runs", runs}}});
      double cost = run_plan(q)["plan"]["total_cost"].get<double>();
      EXPECT_GE(cost, previous - 1e-9) << id << " runs=" << runs;
      previous = cost;
    }
  }
}

TEST(Planner, MoreRunsNeverCostLessUnderADeadline) {
  double previous = 0;
  for (int runs = 1; runs <= 12; ++runs) {
    auto q = small_request();
    q["stages"] = nlohmann::json::array({{{"stage", "formal"}, {"runs", runs}}});
    q["prefs"] = {{"deadline_days", 1}};
    double cost = run_plan(q)["plan"]["total_cost"].get<double>();
    EXPECT_GE(cost, previous - 1e-9) << "runs=" << runs;
    previous = cost;
  }
}

// Spot pays (1 − d) of the price for the work plus its expected losses: it is
// cheaper exactly when the discount d exceeds the expected loss, the share of
// the billed spot time that an on-demand run would not need.
TEST(Planner, SpotExpectedCostBelowOnDemandWhenTheDiscountExceedsTheLoss) {
  for (double rate : {0.0, 0.02, 0.2, 1.0}) {
    for (double discount : {0.05, 0.3, 0.7}) {
      auto cat = test_catalog();
      cat["platforms"][0]["spot"] = {{"discount", discount}, {"interruptions_per_hour", rate}};
      Catalog c = catalog_from(cat);
      auto q = nlohmann::json::parse(R"({"model": {"preset": "mid-8b"}, "workload": {"method": "full", "grad_checkpointing": true},
        "data": {"samples": 4000, "epochs": 1}, "stages": [{"stage": "formal", "runs": 1}],
        "hardware": {"gpu": "d80", "count": 2}, "prefs": {"platforms": ["mkt"]}})");
      q["prefs"]["billing"] = "on-demand";
      auto on_demand = stage(run_plan(q, c), "formal");
      q["prefs"]["billing"] = "spot";
      auto spot = stage(run_plan(q, c), "formal");
      if (!spot["feasible"].get<bool>()) continue;
      // The expected loss as a fraction of the billed time (the start-up
      // quarter hour is billed at the spot price but loses no work).
      double loss = 1 - on_demand["hours"].get<double>() / spot["hours"].get<double>();
      EXPECT_GT(spot["spot"]["overhead_fraction"].get<double>(), rate > 0 ? 0 : -1);
      double spot_compute = spot["compute_cost"].get<double>(), od_compute = on_demand["compute_cost"].get<double>();
      // Per-second billing with no minimum: the comparison is the formula's.
      if (discount > loss + 0.005) {
        EXPECT_LT(spot_compute, od_compute) << "rate " << rate << " discount " << discount;
      }
      if (discount < loss - 0.005) {
        EXPECT_GT(spot_compute, od_compute) << "rate " << rate << " discount " << discount;
      }
      EXPECT_NEAR(spot_compute / od_compute, (1 - discount) / (1 - loss), 1e-6);
    }
  }
}

TEST(Planner, SpotCheckpointIntervalFollowsYoungDaly) {
  auto q = nlohmann::json::parse(R"({"model": {"preset": "mid-8b"}, "workload": {"method": "full", "grad_checkpointing": true},
    "data": {"samples": 40000, "epochs": 1}, "stages": [{"stage": "formal", "runs": 1}],
    "hardware": {"gpu": "d80", "count": 2}, "prefs": {"platforms": ["mkt"], "billing": "spot"}})");
  auto s = stage(run_plan(q), "formal");
  ASSERT_TRUE(s.contains("spot")) << s.dump();
  double c = s["spot"]["checkpoint_seconds"].get<double>();
  double mtbf = 3600 / s["spot"]["interruptions_per_hour"].get<double>();
  EXPECT_GT(c, 0);
  EXPECT_NEAR(s["spot"]["checkpoint_interval_hours"].get<double>() * 3600, std::sqrt(2 * c * mtbf), 1e-6);
  EXPECT_FALSE(s["spot"]["interruptions_assumed"].get<bool>());
}

// ---------------------------------------------------------------- seed rules

TEST(Planner, DebugRunsOnAConsumerCardByTheHourOnATenthOfTheData) {
  auto r = run_plan(small_request());
  const auto& d = stage(r, "debug");
  EXPECT_EQ(d["gpu"], "c24");
  EXPECT_EQ(d["billing"], "on-demand");
  EXPECT_DOUBLE_EQ(d["data_fraction"].get<double>(), 0.1);
  // One debug run is a tenth of a full run on the same card (gpus[].hours).
  for (const auto& g : r["gpus"])
    if (g["id"] == "c24" && g["count"] == 1) {
      EXPECT_NEAR(d["run_hours"].get<double>(), 0.1 * g["hours"].get<double>(), 1e-9);
    }
}

TEST(Planner, DebugAboveTwentyPercentOfTheBudgetIsFlagged) {
  auto q = small_request();
  q["stages"] = nlohmann::json::array({{{"stage", "debug"}, {"runs", 40}}, {{"stage", "formal"}, {"runs", 1}}});
  q["budget"] = {{"amount", 1e6}, {"currency", "CNY"}};
  EXPECT_FALSE(has_warning(run_plan(q), "debug_over_share"));
  auto tight = run_plan(q);
  double debug_cost = stage(tight, "debug")["cost"].get<double>();
  q["budget"]["amount"] = debug_cost / 0.3;  // debug would be 30 % of it
  auto r = run_plan(q);
  EXPECT_TRUE(has_warning(r, "debug_over_share")) << r["warnings"].dump();
}

// One stage: the cheapest option, or one within the tie band of it that is
// faster or has the headroom; never one a listed option beats on both.
TEST(Planner, FormalTakesTheCheapestOrAFasterOneWithinTheTieBand) {
  auto q = small_request();
  q["stages"] = nlohmann::json::array({{{"stage", "formal"}, {"runs", 1}}});
  auto r = run_plan(q);
  const auto& f = stage(r, "formal");
  double cheapest = 0;
  for (const auto& a : f["alternatives"])
    if (a["kind"] == "cheapest") cheapest = a["cost"];
  ASSERT_GT(cheapest, 0);
  EXPECT_LE(f["cost"].get<double>(), tie_band_top(cheapest)) << f.dump().substr(0, 400);
  for (const auto& o : f["pareto"]) {
    const bool beats = o["cost"].get<double>() < f["cost"].get<double>() - 1e-9 &&
                       o["wall_hours"].get<double>() < f["wall_hours"].get<double>() - 1e-9;
    EXPECT_FALSE(beats) << o.dump();
  }
  // Within the band, the faster: no listed option within it is faster.
  for (const auto& o : f["pareto"])
    if (o["cost"].get<double>() <= tie_band_top(cheapest) && o["wall_hours"].get<double>() < f["wall_hours"].get<double>() - 1e-9) {
      ADD_FAILURE() << "a faster option within the band: " << o.dump() << " against " << f.dump().substr(0, 300);
    }
}

// Seed 003's "an A100 for a 7B job" is a preference inside the tie band, not a
// veto: where the 80 GB card is both cheaper and faster (priced at 1 CNY an
// hour here), the plan takes it and warns that the card is bigger than the job.
TEST(Planner, AnOversizedCardThatIsCheaperAndFasterIsTakenAndWarned) {
  auto cat = test_catalog();
  for (auto& o : cat["platforms"][0]["offers"])
    if (o["gpu"] == "d80") o["per_gpu_hour"] = {{"low", 1}, {"typical", 1}, {"high", 1}};
  Catalog c = catalog_from(cat);
  auto r = run_plan(small_request(), c);
  const auto& f = stage(r, "formal");
  EXPECT_EQ(f["gpu"], "d80") << f.dump().substr(0, 400);
  EXPECT_TRUE(has_warning(r, "big_card_small_job"));
}

TEST(Planner, BigCardForSmallJobIsWarned) {
  auto q = small_request();
  q["hardware"] = {{"gpu", "d80"}, {"count", 1}};
  EXPECT_TRUE(has_warning(run_plan(q), "big_card_small_job"));
}

// More cards than hold the job where they cost about the same and finish
// sooner; the reason says how well they scale. Weeks of work on one card go
// to several.
TEST(Planner, MoreCardsWhereTheyCostAboutTheSameAndFinishSooner) {
  auto q = small_request();
  q["stages"] = nlohmann::json::array({{{"stage", "formal"}, {"runs", 1}}});
  q["data"] = {{"samples", 20000 * 200}, {"epochs", 2}};
  auto slow = stage(run_plan(q), "formal");
  EXPECT_GT(slow["gpus_per_run"].get<int>(), 1) << slow.dump().substr(0, 400);
  EXPECT_LT(slow["run_hours"].get<double>(), 72) << slow.dump().substr(0, 400);
  EXPECT_NE(slow["why"].get<std::string>().find("scaling efficiency"), std::string::npos) << slow["why"];
}

TEST(Planner, DeadlineBuysSpeedAndNeverLowersCost) {
  auto q = small_request();
  q["data"] = {{"samples", 200000}, {"epochs", 3}};
  auto relaxed = run_plan(q)["plan"];
  double wall = relaxed["wall_hours"].get<double>();
  ASSERT_GT(wall, 1);
  q["prefs"] = {{"deadline_days", wall / 24 / 2}};
  auto rushed = run_plan(q);
  EXPECT_LE(rushed["plan"]["wall_hours"].get<double>(), rushed["plan"]["deadline_hours"].get<double>() + 1e-9) << rushed["plan"].dump().substr(0, 400);
  EXPECT_TRUE(rushed["plan"]["meets_deadline"].get<bool>());
  EXPECT_GE(rushed["plan"]["total_cost"].get<double>(), relaxed["total_cost"].get<double>() - 1e-9);
  // An impossible deadline is reported, not hidden.
  q["prefs"] = {{"deadline_days", 0.01}};
  auto impossible = run_plan(q);
  EXPECT_FALSE(impossible["plan"]["meets_deadline"].get<bool>());
  EXPECT_TRUE(has_warning(impossible, "deadline_missed"));
}

TEST(Planner, RevisionQueuesSeedRunsOnOneInstanceRatherThanOneRentalEach) {
  // Hourly billing with a one-hour minimum (the cloud): one rental per short
  // seed run bills a whole hour each; queued on one instance they share hours.
  auto q = small_request();
  q["data"] = {{"samples", 4000}, {"epochs", 1}};
  q["stages"] = nlohmann::json::array({{{"stage", "revision"}, {"runs", 4}}});
  q["prefs"] = {{"platforms", {"cld"}}};
  auto s = stage(run_plan(q), "revision");
  ASSERT_LT(s["run_hours"].get<double>(), 0.75) << s.dump();
  EXPECT_FALSE(s["separate_rentals"].get<bool>());
  EXPECT_NE(s["why"].get<std::string>().find("one instance"), std::string::npos) << s["why"];
  for (const auto& o : s["pareto"])
    if (o["separate_rentals"].get<bool>()) {
      EXPECT_GT(o["cost"].get<double>(), s["cost"].get<double>());
    }
}

TEST(Planner, RevisionPacksSeedRunsOnAMultiGpuInstanceWhereCheaper) {
  // Runs of 0.7 h under hourly billing: one after another, four runs and the
  // start take 3.05 h, billed 4 GPU hours; four side by side on a 4-GPU
  // instance take 0.95 h, billed 4 GPU hours too but sooner, and the disk is
  // held for less time: packing is the cheaper choice.
  auto q = small_request();
  q["stages"] = nlohmann::json::array({{{"stage", "revision"}, {"runs", 1}}});
  q["prefs"] = {{"platforms", {"cld"}}, {"dataset_gb", 100}};
  auto one_card = q;
  one_card["hardware"] = {{"gpu", "c24"}, {"count", 1}};
  double probe = stage(run_plan(one_card), "revision")["run_hours"].get<double>();
  q["data"]["samples"] = q["data"]["samples"].get<double>() * 0.7 / probe;
  q["stages"][0]["runs"] = 4;
  auto s = stage(run_plan(q), "revision");
  ASSERT_EQ(s["gpu"], "c24") << s.dump();
  EXPECT_NEAR(s["run_hours"].get<double>(), 0.7, 1e-6);
  EXPECT_EQ(s["parallel_runs"], 4) << s.dump();
  EXPECT_EQ(s["count"], 4);
  EXPECT_DOUBLE_EQ(s["hours"].get<double>(), 1);
  for (const auto& o : s["pareto"])
    if (o["gpu"] == "c24" && o["parallel_runs"] == 1) {
      EXPECT_GT(o["cost"].get<double>(), s["cost"].get<double>());
    }
  EXPECT_NE(s["why"].get<std::string>().find("packed"), std::string::npos) << s["why"];
}

TEST(Planner, RevisionRunsOnCardsNoDearerThanFormal) {
  auto r = run_plan(small_request());
  EXPECT_LE(stage(r, "revision")["price_per_gpu_hour"].get<double>(),
            stage(r, "formal")["price_per_gpu_hour"].get<double>() + 1e-9);
}

// ---------------------------------------------------------------- cost model

TEST(Planner, HourlyGranularityAndMinimumChargeAreBilled) {
  auto q = small_request();
  q["data"] = {{"samples", 400}, {"epochs", 1}};  // minutes of work
  q["stages"] = nlohmann::json::array({{{"stage", "formal"}, {"runs", 1}}});
  q["prefs"] = {{"platforms", {"cld"}}};
  auto s = stage(run_plan(q), "formal");
  EXPECT_EQ(s["gpu"], "c24");
  EXPECT_DOUBLE_EQ(s["hours"].get<double>(), 1);                 // a quarter hour billed as the one-hour minimum
  EXPECT_DOUBLE_EQ(s["price_per_gpu_hour"].get<double>(), 0.6 * 7);  // USD offer in CNY at the catalog's rate
  EXPECT_NEAR(s["compute_cost"].get<double>(), 4.2, 1e-9);
}

TEST(Planner, ResponseCurrencyFollowsTheBudget) {
  auto q = small_request();
  q["prefs"] = {{"platforms", {"cld"}}};
  q["budget"] = {{"amount", 1000}, {"currency", "USD"}};
  auto p = run_plan(q)["plan"];
  EXPECT_EQ(p["currency"], "USD");
  EXPECT_DOUBLE_EQ(stage(run_plan(q), "formal")["price_per_gpu_hour"].get<double>(), 0.6);
}

TEST(Planner, UserPricesOverrideTheCatalog) {
  auto q = small_request();
  q["prices"] = nlohmann::json::array({{{"platform", "mkt"}, {"gpu", "c24"}, {"per_gpu_hour", 1.2}, {"currency", "CNY"}}});
  q["prefs"] = {{"platforms", {"mkt"}}, {"billing", "on-demand"}};
  EXPECT_DOUBLE_EQ(stage(run_plan(q), "formal")["price_per_gpu_hour"].get<double>(), 1.2);
}

TEST(Planner, EducationDiscountAppliesOnlyWhenEligible) {
  auto q = small_request();
  q["prefs"] = {{"platforms", {"cld"}}};
  double full = stage(run_plan(q), "formal")["price_per_gpu_hour"].get<double>();
  q["prefs"]["education"] = true;
  auto s = stage(run_plan(q), "formal");
  EXPECT_NEAR(s["price_per_gpu_hour"].get<double>(), full * 0.7, 1e-9);
  EXPECT_TRUE(s["education_discount"].get<bool>());
}

TEST(Planner, EducationCreditsPayStagesOnceAndOnlyWhenEligible) {
  auto q = small_request();
  q["prefs"] = {{"platforms", {"cld"}}};
  auto none = run_plan(q);
  for (const auto& s : none["plan"]["stages"]) EXPECT_DOUBLE_EQ(s["credit"].get<double>(), 0);
  q["prefs"]["education"] = true;
  auto r = run_plan(q);
  double credit = 0, before = 0;
  for (const auto& s : r["plan"]["stages"]) {
    credit += s["credit"].get<double>();
    before += s["cost"].get<double>() + s["credit"].get<double>();
  }
  // 5 USD at the test rate of 7 CNY/USD, or the whole bill if smaller.
  EXPECT_NEAR(credit, std::min(35.0, before), 1e-9);
  EXPECT_NEAR(r["plan"]["total_cost"].get<double>(), before - credit, 1e-9);
}

TEST(Planner, OffPeakIsCheaperButSlower) {
  auto q = small_request();
  q["stages"] = nlohmann::json::array({{{"stage", "formal"}, {"runs", 1}}});
  q["prefs"] = {{"platforms", {"mkt"}}, {"billing", "on-demand"}};
  auto on_demand = stage(run_plan(q), "formal");
  q["prefs"]["billing"] = "off-peak";
  auto off_peak = stage(run_plan(q), "formal");
  EXPECT_NEAR(off_peak["price_per_gpu_hour"].get<double>(), 0.7 * on_demand["price_per_gpu_hour"].get<double>(), 1e-9);
  EXPECT_GT(off_peak["wall_hours"].get<double>(), on_demand["wall_hours"].get<double>());
}

TEST(Planner, StorageAndDisksThatBillAfterRelease) {
  auto q = small_request();
  q["prefs"] = {{"platforms", {"cld"}}, {"dataset_gb", 200}};
  auto r = run_plan(q);
  EXPECT_GT(stage(r, "formal")["storage_cost"].get<double>(), 0);
  EXPECT_TRUE(has_warning(r, "disk_bills_after_release"));
  // The marketplace: 50 GB free, and disks end with the instance.
  q["prefs"] = {{"platforms", {"mkt"}}, {"dataset_gb", 10}, {"storage_gb", 40}};
  auto m = run_plan(q);
  EXPECT_DOUBLE_EQ(stage(m, "formal")["storage_cost"].get<double>(), 0);
  EXPECT_FALSE(has_warning(m, "disk_bills_after_release"));
}

TEST(Planner, LongUploadIsTimedAndWarned) {
  auto q = small_request();
  q["prefs"] = {{"dataset_gb", 500}, {"upload_mbps", 20}};
  auto r = run_plan(q);
  // 500 GB at 20 Mbit/s: 4·10^12 bit / 2·10^7 bit/s = 200000 s ≈ 55.6 h, once per platform.
  double uploads = 0;
  for (const auto& s : r["plan"]["stages"]) uploads += s["upload_hours"].get<double>();
  EXPECT_GE(uploads, 200000.0 / 3600 - 1e-6);
  EXPECT_NEAR(stage(r, "debug")["upload_hours"].get<double>(), 200000.0 / 3600, 1e-6);
  EXPECT_TRUE(has_warning(r, "long_upload"));
  // The marketplace has a GPU-less mode at 0.1 CNY/h: the advice prices it.
  q["prefs"]["platforms"] = {"mkt"};
  auto m = run_plan(q);
  bool cpu_only = false;
  for (const auto& a : m["plan"]["advice"]) cpu_only |= a["code"] == "upload-cpu-only";
  EXPECT_TRUE(cpu_only) << m["plan"]["advice"].dump();
}

TEST(Planner, MonthlyPackageSoldAsHourlyPriceIsFlagged) {
  auto cat = test_catalog();
  cat["platforms"][0].erase("spot");
  cat["platforms"][0].erase("off_peak_discount");
  Catalog c = catalog_from(cat);
  auto q = small_request();
  q["stages"] = nlohmann::json::array({{{"stage", "formal"}, {"runs", 1}}});
  q["hardware"] = {{"gpu", "d80"}, {"count", 1}};
  q["prefs"] = {{"platforms", {"mkt"}}};
  auto r = run_plan(q, c);
  const auto& f = stage(r, "formal");
  EXPECT_EQ(f["billing"], "on-demand") << f.dump();  // 10/h for a few hours beats a whole month at 6/h
  EXPECT_TRUE(has_warning(r, "package_price_as_hourly")) << r["warnings"].dump();
}

TEST(Planner, SpotRightBeforeADeadlineIsWarned) {
  auto q = small_request();
  q["prefs"] = {{"billing", "spot"}, {"deadline_days", 5}};
  auto r = run_plan(q);
  EXPECT_EQ(stage(r, "formal")["billing"], "spot");
  EXPECT_TRUE(has_warning(r, "spot_near_deadline"));
  q["prefs"] = {{"billing", "spot"}, {"deadline_days", 90}};
  EXPECT_FALSE(has_warning(run_plan(q), "spot_near_deadline"));
}

TEST(Planner, MemoryInsideTheHeadroomIsWarned) {
  // Full fine-tuning of the 1B model in bf16-mixed with AdamW needs about
  // 16 bytes per parameter plus activations: more than 24 GiB less 30 %.
  auto q = small_request();
  q["workload"] = {{"method", "full"}, {"micro_batch", 1}, {"seq_len", 512}, {"grad_checkpointing", true}};
  q["hardware"] = {{"gpu", "c24"}, {"count", 1}};
  auto r = run_plan(q);
  double total = r["memory"]["per_gpu"]["total_bytes"].get<double>();
  double card = 25757220864.0;
  if (!(total <= card && total * 1.3 > card)) GTEST_SKIP() << "the memory model puts this job at " << total / kGiBBytes << " GiB";
  // The planner may make it comfortable (issue #13, "Making it fit"); a fit
  // it leaves tight is warned.
  const auto& f = stage(r, "formal");
  if (f["fit"] == "tight") {
    EXPECT_TRUE(has_warning(r, "memory_within_headroom"));
  } else {
    EXPECT_FALSE(f["workload_changes"].empty()) << f.dump();
  }
  q["workload"]["optimizer"] = "adamw-8bit";  // nothing left to change but the offload of a fitting job
  auto t = run_plan(q);
  if (stage(t, "formal")["fit"] == "tight") {
    EXPECT_TRUE(has_warning(t, "memory_within_headroom"));
  }
}

// ---------------------------------------------------------------- budget

TEST(Planner, OverBudgetListsChangesRankedBySaving) {
  auto q = small_request();
  q["model"]["preset"] = "mid-8b";
  q["workload"] = {{"method", "lora"}, {"micro_batch", 4}, {"seq_len", 2048}};
  q["data"] = {{"samples", 100000}, {"epochs", 3}};
  q["budget"] = {{"amount", 50}, {"currency", "CNY"}};
  auto p = run_plan(q)["plan"];
  EXPECT_FALSE(p["within_budget"].get<bool>());
  ASSERT_FALSE(p["changes"].empty());
  double previous = 1e300;
  for (const auto& c : p["changes"]) {
    EXPECT_GT(c["saving"].get<double>(), 0);
    EXPECT_LE(c["saving"].get<double>(), previous);
    if (!c["saving_is_upper_bound"].get<bool>()) {
      EXPECT_NEAR(c["new_total"].get<double>(), p["total_cost"].get<double>() - c["saving"].get<double>(), 1e-6);
    }
    previous = c["saving"].get<double>();
  }
  std::vector<std::string> codes;
  for (const auto& c : p["changes"]) codes.push_back(c["code"]);
  for (const char* code : {"qlora", "fewer-runs", "campus"})
    EXPECT_NE(std::find(codes.begin(), codes.end(), code), codes.end()) << code;
  // Seed 003's advice for budgets under 5000 CNY.
  bool small = false;
  for (const auto& a : p["advice"]) small |= a["code"] == "small-budget";
  EXPECT_TRUE(small);
}

TEST(Planner, WithinBudgetHasNoChanges) {
  auto q = small_request();
  q["budget"] = {{"amount", 1e6}, {"currency", "CNY"}};
  auto p = run_plan(q)["plan"];
  EXPECT_TRUE(p["within_budget"].get<bool>());
  EXPECT_TRUE(p["changes"].empty());
}

// ---------------------------------------------------------------- rent vs buy, group

// Seed 000: ~200 h on an A100 at ~20 CNY/h ≈ 4000 CNY, against a card costing
// 100k CNY or more.
TEST(Planner, SeedExampleRentVersusBuyAnA100) {
  auto q = small_request();
  q["hardware"] = {{"gpu", "d80"}, {"count", 1}};
  q["stages"] = nlohmann::json::array({{{"stage", "formal"}, {"runs", 1}}});
  q["prices"] = nlohmann::json::array({{{"platform", "mkt"}, {"gpu", "d80"}, {"per_gpu_hour", 20}, {"currency", "CNY"}}});
  q["prefs"] = {{"platforms", {"mkt"}}, {"billing", "on-demand"}};
  // Size the data so that the run takes about 200 hours.
  auto probe = stage(run_plan(q), "formal");
  double scale = 200 / probe["run_hours"].get<double>();
  q["data"]["samples"] = q["data"]["samples"].get<double>() * scale;
  auto r = run_plan(q);
  const auto& b = r["plan"]["rent_vs_buy"];
  ASSERT_TRUE(b.is_object()) << r["plan"].dump();
  EXPECT_NEAR(b["gpu_hours"].get<double>(), 200, 2);
  EXPECT_NEAR(b["rent_cost"].get<double>(), 4000, 50);
  EXPECT_DOUBLE_EQ(b["purchase_per_gpu"].get<double>(), 100000);
  EXPECT_EQ(b["cheaper"], "rent");
  EXPECT_NEAR(b["break_even_gpu_hours"].get<double>(), 100000 / (20 - 0.4 * 0.6), 1);
}

TEST(Planner, RequestPurchasePriceOverridesTheCatalog) {
  auto q = small_request();
  q["buy"] = {{"price", 5000}, {"currency", "CNY"}, {"electricity_per_kwh", 1.0}};
  auto r = run_plan(q);
  const auto& b = r["plan"]["rent_vs_buy"];
  ASSERT_TRUE(b.is_object()) << r["plan"].dump();
  EXPECT_DOUBLE_EQ(b["purchase_per_gpu"].get<double>(), 5000);
  EXPECT_DOUBLE_EQ(b["electricity_per_kwh"].get<double>(), 1.0);
  EXPECT_EQ(b["source"], "request");
}

// Seed 004: eight people sharing an 8-GPU A100 machine on a yearly price pay
// far less each than renting the same hours by the hour.
TEST(Planner, GroupRentalSplitsAnEightGpuMachine) {
  auto q = small_request();
  q["hardware"] = {{"gpu", "d80"}, {"count", 1}};
  q["prefs"] = {{"platforms", {"mkt"}}, {"group_size", 8}};
  auto r = run_plan(q);
  const auto& g = r["plan"]["group"];
  ASSERT_TRUE(g.is_object()) << r["plan"].dump();
  EXPECT_EQ(g["billing"], "yearly");
  EXPECT_DOUBLE_EQ(g["machine_per_month"].get<double>(), 4 * 8 * kHoursPerMonth);
  EXPECT_DOUBLE_EQ(g["per_person_per_month"].get<double>(), 4 * kHoursPerMonth);
  // The member's own GPU hours (this plan's), not the machine's 5760 split
  // eight ways; the saving follows from them (4/h yearly against 10/h on
  // demand reaches 0.6 only when the group fills the machine:
  // plan_billing_test.cpp, GroupSavingFollowsTheGroupsRealUse).
  double member_hours = 0;
  for (const auto& s : r["plan"]["stages"]) member_hours += s["hours"].get<double>() * s["count"].get<int>();
  EXPECT_DOUBLE_EQ(g["months"].get<double>(), 1);
  EXPECT_NEAR(g["per_person_gpu_hours_per_month"].get<double>(), member_hours, 1e-9);
  EXPECT_NEAR(g["saving_fraction"].get<double>(), 1 - 4 * kHoursPerMonth / (member_hours * 10), 1e-9);
}

// ---------------------------------------------------------------- category

TEST(Planner, CategoryFollowsTheFourKinds) {
  auto small = run_plan(small_request())["plan"];
  EXPECT_EQ(small["category"], "single-gpu-small");
  EXPECT_FALSE(small["category_advice"].get<std::string>().empty());

  auto infer = small_request();
  infer["workload"] = {{"mode", "infer"}};
  EXPECT_EQ(run_plan(infer)["plan"]["category"], "inference-eval");

  // The kind is the plan's (its main stage's card, count and time): an 8B
  // LoRA that a 24 GB card holds at a smaller micro-batch is the small kind
  // (on one such card, or on several of them for speed), the same on one
  // 80 GB card is the large one.
  auto large = small_request();
  large["model"]["preset"] = "mid-8b";
  large["workload"] = {{"method", "lora"}, {"micro_batch", 4}, {"seq_len", 2048}, {"grad_checkpointing", true}};
  // Well inside a day on the 24 GB card (the full set sat within 2 % of the
  // 24 h line, which the fp32 cross-entropy's traffic crossed).
  large["data"]["samples"] = 16000;
  auto lp = run_plan(large);
  EXPECT_EQ(stage(lp, "formal")["gpu"], "c24") << stage(lp, "formal").dump().substr(0, 300);
  EXPECT_EQ(lp["plan"]["category"], "single-gpu-small");
  large["hardware"] = {{"gpu", "d80"}, {"count", 1}};
  lp = run_plan(large);
  EXPECT_EQ(stage(lp, "formal")["gpu"], "d80") << stage(lp, "formal").dump().substr(0, 300);
  EXPECT_EQ(lp["plan"]["category"], "single-gpu-large") << lp["memory"]["per_gpu"].dump();

  auto multi = small_request();
  multi["model"]["preset"] = "mid-8b";
  multi["workload"] = {{"method", "full"}};
  EXPECT_EQ(run_plan(multi)["plan"]["category"], "multi-gpu");
}

// ---------------------------------------------------------------- localisation, errors

TEST(Planner, ReasonsAndWarningsFollowTheLocale) {
  auto q = small_request();
  q["locale"] = "zh-CN";
  q["prefs"] = {{"dataset_gb", 500}, {"upload_mbps", 20}};
  auto r = run_plan(q);
  EXPECT_NE(stage(r, "debug")["why"].get<std::string>().find("调试"), std::string::npos);
  for (const auto& w : r["warnings"]) EXPECT_EQ(w["message"].get<std::string>().find("plan."), std::string::npos) << w;
}

TEST(Planner, BadPlanningInputIsAnErrorWithItsPath) {
  JsonReply reply = plan_json(R"({"model":{"preset":"llama-3.1-8b"},"stages":[{"stage":"final"}]})");
  EXPECT_EQ(reply.exit_code, 2);
  auto e = nlohmann::json::parse(reply.json)["error"];
  EXPECT_EQ(e["path"], "stages[0].stage");
  reply = plan_json(R"({"model":{"preset":"llama-3.1-8b"},"stages":[{"stage":"formal"}],"prefs":{"upload_mbps":-1}})");
  EXPECT_EQ(reply.exit_code, 2);
  EXPECT_EQ(nlohmann::json::parse(reply.json)["error"]["path"], "prefs.upload_mbps");
}

TEST(Planner, EmbeddedCatalogFullPlanIsFinite) {
  auto r = run(nlohmann::json::parse(R"({"model": {"preset": "llama-3.1-8b"}, "workload": {"method": "lora"},
    "data": {"samples": 50000, "epochs": 3},
    "stages": [{"stage": "debug", "runs": 10}, {"stage": "formal", "runs": 12}, {"stage": "revision", "runs": 4}],
    "budget": {"amount": 300, "currency": "CNY"}, "prefs": {"deadline_days": 30, "dataset_gb": 20, "group_size": 4}})"));
  ASSERT_TRUE(r.contains("plan")) << r.dump();
  expect_all_finite(r);
  EXPECT_EQ(r["plan"]["stages"].size(), 3u);
}

}  // namespace
}  // namespace gpuplan::test
