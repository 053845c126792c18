// What lies between and beside the chosen stages (docs/api.md, "Between
// stages", "The shrunk debug run", "Changes that alter results"): the disk a
// revision finds where the formal runs left it, seed 003's shrunk debug run,
// the student's permission for result-moving changes in formal runs, and a
// typed optimizer told from a default one. Each fails on the planner before
// these fields existed.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gpuplan/catalog.h"
#include "planned.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

// An 8B LoRA on AutoDL only, formal then revision, 150 GB kept on the disk.
nlohmann::json formal_then_revision() {
  return nlohmann::json::parse(R"({"locale":"en","model":{"preset":"llama-3.1-8b"},"workload":{"method":"lora"},
    "data":{"samples":10000,"epochs":1},"prefs":{"platforms":["autodl"],"storage_gb":150},
    "stages":[{"stage":"formal","runs":2},{"stage":"revision","runs":1}]})");
}

const Platform& autodl() { return *embedded_catalog().find_platform("autodl"); }

// The review gap: a revision weeks after the formal runs got no word that
// AutoDL bills a stopped instance's data disk and erases it after 15 days.
TEST(BetweenStages, ARevisionAfterTheReviewsIsToldWhatTheStoppedDiskCostsAndWhenItIsErased) {
  auto q = formal_then_revision();
  q["stages"][1]["gap_days"] = 20;
  const auto r = run(q);
  const auto& rev = stage_of(r, "revision");
  ASSERT_EQ(rev["platform"], "autodl") << rev.dump().substr(0, 300);
  ASSERT_NE(warning(r, "disk_after_stop"), nullptr) << r["warnings"].dump();
  const auto& d = rev["disk_after_stop"];
  ASSERT_TRUE(d.is_object()) << rev.dump().substr(0, 300);
  EXPECT_EQ(d["gap_days"], 20);
  EXPECT_EQ(d["bills"], true);
  EXPECT_EQ(d["wiped_after_days"], 15);
  EXPECT_EQ(d["wiped"], true);
  // 150 GB less AutoDL's free allowance, at its disk price, for 20 days.
  const Platform& p = autodl();
  ASSERT_GT(p.storage_per_gb_month, 0);
  const double expected = (150 - p.free_storage_gb) * p.storage_per_gb_month * 20.0 / 30.0;
  EXPECT_NEAR(d["cost"].get<double>(), expected, 1e-9);
  EXPECT_NEAR(d["per_month"].get<double>(), (150 - p.free_storage_gb) * p.storage_per_gb_month, 1e-9);
  // Not in the plan's total: the stages' costs still add up to it.
  double sum = 0;
  for (const auto& s : r["plan"]["stages"]) sum += s["cost"].get<double>();
  EXPECT_NEAR(r["plan"]["total_cost"].get<double>(), sum, 1e-9);
  const std::string text = (*warning(r, "disk_after_stop"))["message"];
  EXPECT_NE(text.find("15"), std::string::npos) << text;
}

// Not given, a revision's gap is not known: the disk is priced per month and
// the erasure named, never priced as 0 days.
TEST(BetweenStages, AnUnknownGapIsPricedPerMonthNotAsNone) {
  const auto r = run(formal_then_revision());
  const auto& d = stage_of(r, "revision")["disk_after_stop"];
  ASSERT_TRUE(d.is_object()) << r["warnings"].dump();
  EXPECT_TRUE(d["gap_days"].is_null());
  EXPECT_TRUE(d["cost"].is_null());
  EXPECT_GT(d["per_month"].get<double>(), 0);
  EXPECT_EQ(d["wiped"], true);
}

// A stage that follows the one before it at once keeps its disk running: no word.
TEST(BetweenStages, NoGapNoWarning) {
  auto q = formal_then_revision();
  q["stages"][1]["gap_days"] = 0;
  const auto r = run(q);
  EXPECT_EQ(warning(r, "disk_after_stop"), nullptr) << r["warnings"].dump();
  EXPECT_FALSE(stage_of(r, "revision").contains("disk_after_stop"));
}

// A short gap inside the free allowance on a platform that erases after 15
// days: nothing billed, nothing erased, nothing said.
TEST(BetweenStages, AShortGapInsideTheFreeDiskIsNotWarned) {
  auto q = formal_then_revision();
  q["prefs"]["storage_gb"] = 10;
  q["stages"][1]["gap_days"] = 5;
  const auto r = run(q);
  EXPECT_EQ(warning(r, "disk_after_stop"), nullptr) << r["warnings"].dump();
}

TEST(BetweenStages, TheGapIsARequestFieldWithLimits) {
  auto q = formal_then_revision();
  q["stages"][1]["gap_days"] = -1;
  const auto r = run(q);
  ASSERT_TRUE(r.contains("error")) << r.dump().substr(0, 300);
  EXPECT_EQ(r["error"]["path"], "stages[1].gap_days");
}

// Seed 003's debug recipe: 10 % of the data and the hidden size halved. The
// debug stage offered only the full-size run.
TEST(ShrunkDebug, TheDebugStageOffersTheSeedsShrunkRunBesideTheFullSizeOne) {
  const auto r = run(nlohmann::json::parse(R"({"locale":"zh-CN","model":{"preset":"llama-3.1-8b"},
    "workload":{"method":"full","micro_batch":4,"seq_len":2048},"data":{"samples":20000,"epochs":1},
    "stages":[{"stage":"debug","runs":2},{"stage":"formal","runs":1}]})"));
  const auto& debug = stage_of(r, "debug");
  ASSERT_TRUE(debug.contains("shrunk")) << debug.dump().substr(0, 400);
  const auto& s = debug["shrunk"];
  ASSERT_GE(s["workload_changes"].size(), 3u);
  bool hidden = false;
  for (const auto& ch : s["workload_changes"])
    if (ch["field"] == "model.hidden") hidden = ch["value"] == 2048;  // Llama-3.1-8B: 4096
  EXPECT_TRUE(hidden) << s["workload_changes"].dump();
  // A quarter of the layers' parameters: cheaper than the full-size debug, and not counted.
  EXPECT_LT(s["cost"].get<double>(), debug["cost"].get<double>());
  double sum = 0;
  for (const auto& st : r["plan"]["stages"]) sum += st["cost"].get<double>();
  EXPECT_NEAR(r["plan"]["total_cost"].get<double>(), sum, 1e-9);
  EXPECT_NE(debug["why"].get<std::string>().find("2048"), std::string::npos) << debug["why"];
  EXPECT_FALSE(stage_of(r, "formal").contains("shrunk"));
}

TEST(ShrunkDebug, AConvolutionalNetworkHasNoHiddenSizeToHalve) {
  const auto r = run(nlohmann::json::parse(R"({"locale":"en","model":{"preset":"resnet-50"},
    "workload":{"method":"full","micro_batch":64},"data":{"samples":100000,"epochs":1},
    "stages":[{"stage":"debug","runs":1}]})"));
  EXPECT_FALSE(stage_of(r, "debug").contains("shrunk"));
}

TEST(ShrunkDebug, TheShrunkModelHalvesTheWidthAndKeepsEachHead) {
  const ModelSpec& m = *embedded_catalog().find_model("llama-3.1-8b");
  // Llama-3.1-8B: 4096 wide, 32 heads of 128, 8 key/value heads, MLP 14336.
  ASSERT_EQ(m.hidden, 4096);
  const auto r = run(nlohmann::json::parse(R"({"locale":"en","model":{"preset":"llama-3.1-8b"},
    "workload":{"method":"lora"},"data":{"samples":1000},"stages":[{"stage":"debug","runs":1}]})"));
  std::map<std::string, int> dims;
  for (const auto& ch : stage_of(r, "debug")["shrunk"]["workload_changes"])
    if (ch["field"].get<std::string>().rfind("model.", 0) == 0) dims[ch["field"]] = ch["value"];
  EXPECT_EQ(dims["model.hidden"], 2048);
  EXPECT_EQ(dims["model.heads"], 16);
  EXPECT_EQ(dims["model.kv_heads"], 4);
  EXPECT_EQ(dims["model.ffn"], 7168);
}

// Issue 30's Qwen2.5-1.5B full fine-tune pinned to one RTX 4090: AdamW's
// 16 bytes a parameter (24.7 GB) do not fit without offloading the optimizer
// to the host; 8-bit states (10 bytes) would. Formal keeps AdamW unless the
// student allows otherwise, and never swaps an optimizer the request names.
nlohmann::json pinned_full_8b() {
  return nlohmann::json::parse(R"({"locale":"en","model":{"preset":"qwen2.5-1.5b"},
    "workload":{"method":"full","micro_batch":1,"seq_len":1024},"hardware":{"gpu":"rtx-4090","count":1},
    "data":{"samples":5000,"epochs":1},"stages":[{"stage":"formal","runs":1}]})");
}

std::string optimizer_change(const nlohmann::json& stage) {
  for (const auto& ch : stage["workload_changes"])
    if (ch["field"] == "workload.optimizer") return ch["value"];
  return "";
}

TEST(ResultChanges, FormalRunsKeepTheOptimizerByDefault) {
  const auto r = run(pinned_full_8b());
  const auto& s = stage_of(r, "formal");
  ASSERT_TRUE(s["feasible"].get<bool>()) << r["warnings"].dump();
  EXPECT_EQ(optimizer_change(s), "") << s.dump().substr(0, 400);
}

TEST(ResultChanges, ThePreferenceLetsAFormalRunTakeEightBitStates) {
  auto q = pinned_full_8b();
  q["prefs"] = {{"allow_result_changes", true}};
  const auto r = run(q);
  const auto& s = stage_of(r, "formal");
  ASSERT_TRUE(s["feasible"].get<bool>()) << r["warnings"].dump();
  EXPECT_EQ(optimizer_change(s), "adamw-8bit") << s.dump().substr(0, 400);
  // ...and it is cheaper than keeping AdamW by offloading it to the host.
  const auto kept = run(pinned_full_8b());
  EXPECT_LT(s["cost"].get<double>(), stage_of(kept, "formal")["cost"].get<double>());
}

TEST(ResultChanges, ThePreferenceNeverSwapsAnOptimizerTheStudentTyped) {
  auto q = pinned_full_8b();
  q["prefs"] = {{"allow_result_changes", true}};
  q["workload"]["optimizer"] = "adamw";
  const auto r = run(q);
  ASSERT_TRUE(stage_of(r, "formal")["feasible"].get<bool>());
  EXPECT_EQ(optimizer_change(stage_of(r, "formal")), "");
}

// input_ignored could not tell a typed optimizer from the default: "adamw"
// typed for inference was ignored in silence.
TEST(TypedInputs, ATypedOptimizerIsIgnoredAloudAtInferenceAndTheDefaultIsNot) {
  auto q = nlohmann::json::parse(R"({"locale":"en","model":{"preset":"qwen2.5-7b"},
    "workload":{"mode":"infer","optimizer":"adamw"},"data":{"samples":1000}})");
  const auto typed = run(q);
  ASSERT_NE(warning(typed, "input_ignored"), nullptr) << typed["warnings"].dump();
  EXPECT_NE((*warning(typed, "input_ignored"))["message"].get<std::string>().find("optimizer"), std::string::npos);
  q["workload"].erase("optimizer");
  EXPECT_EQ(warning(run(q), "input_ignored"), nullptr);
}

}  // namespace
}  // namespace gpuplan::test

namespace gpuplan::test {
namespace {

// The fused cross-entropy was listed in workload_changes but not in the
// stage's reason, which read "the planner changed the workload: ." (an empty list).
TEST(StageReasons, EveryWorkloadChangeIsNamedInTheReason) {
  for (const char* locale : {"en", "zh-CN"}) {
    auto q = nlohmann::json::parse(R"({"model":{"preset":"llama-3.1-8b"},
      "workload":{"method":"lora","micro_batch":1,"seq_len":1024,"grad_checkpointing":true,"lora":{"rank":16,"targets":"all-linear"}},
      "data":{"samples":10000,"epochs":2},"stages":[{"stage":"formal","runs":12}],"budget":{"amount":3000,"currency":"CNY"}})");
    q["locale"] = locale;
    const auto r = run(q);
    bool fused = false;
    for (const auto& s : r["plan"]["stages"]) {
      for (const auto& ch : s["workload_changes"]) fused = fused || ch["field"] == "workload.loss";
      const std::string why = s["why"];
      EXPECT_EQ(why.find(": ."), std::string::npos) << why;
      EXPECT_EQ(why.find("：。"), std::string::npos) << why;
      if (fused) {
        EXPECT_NE(why.find(std::string(locale) == "en" ? "fused cross-entropy" : "融合的交叉熵"), std::string::npos) << why;
      }
    }
    EXPECT_TRUE(fused) << "the case no longer needs the fused loss: pick another";
  }
}

}  // namespace
}  // namespace gpuplan::test

namespace gpuplan::test {
namespace {

// A budget change that halves the runs replaces the request's whole stage
// list (a merge patch replaces an array): the gap the student gave stays in it.
TEST(BetweenStages, AFewerRunsPatchKeepsTheGap) {
  auto q = formal_then_revision();
  q["stages"][0]["runs"] = 12;
  q["stages"][1]["gap_days"] = 20;
  q["budget"] = {{"amount", 5}, {"currency", "CNY"}};
  const auto r = run(q);
  bool seen = false;
  for (const auto& c : r["plan"]["changes"])
    if (c["code"] == "fewer-runs") {
      seen = true;
      ASSERT_EQ(c["patch"]["stages"].size(), 2u) << c.dump();
      EXPECT_EQ(c["patch"]["stages"][1]["gap_days"], 20) << c.dump();
      EXPECT_FALSE(c["patch"]["stages"][0].contains("gap_days")) << c.dump();
    }
  EXPECT_TRUE(seen) << r["plan"]["changes"].dump();
}

}  // namespace
}  // namespace gpuplan::test
