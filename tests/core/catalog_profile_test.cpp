// The page's copy of the catalog (CatalogProfile::page, issue #7): it lacks
// exactly the provenance prose the page never shows, only a catalog valid in
// full can be cut down, the full reader still refuses an entry without
// sources, and every answer planned over the page's copy is the full
// catalog's, byte for byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"
#include "test_support.h"

namespace gpuplan::test {
namespace {

std::string page_copy() {
  Result<std::string> page = catalog_profile_json(embedded_catalog_json(), CatalogProfile::page);
  if (!page.ok()) ADD_FAILURE() << page.error().path << ": " << page.error().message;
  return page.ok() ? page.value() : std::string();
}

TEST(CatalogProfile, ThisBuildCarriesTheFullCatalog) {
  // The CLI, the Node module and this suite: `gpuplan catalog` keeps every source.
  EXPECT_EQ(embedded_catalog_profile(), CatalogProfile::full);
  const nlohmann::json full = nlohmann::json::parse(embedded_catalog_json());
  EXPECT_FALSE(full.contains("provenance"));
  for (const auto& g : full["gpus"]) EXPECT_FALSE(g.value("sources", nlohmann::json::array()).empty()) << g["id"];
  for (const auto& m : full["models"]) EXPECT_FALSE(m.value("sources", nlohmann::json::array()).empty()) << m["id"];
}

TEST(CatalogProfile, PageCopyLeavesOutTheProseThePageDoesNotShow) {
  const nlohmann::json full = nlohmann::json::parse(embedded_catalog_json());
  const nlohmann::json page = nlohmann::json::parse(page_copy());
  EXPECT_EQ(page.value("provenance", ""), "page");
  // What is cut was there to cut: otherwise this test could not fail.
  int gpu_notes = 0, frozen = 0, queue_notes = 0, offer_notes = 0, education = 0;
  for (const auto& g : full["gpus"]) gpu_notes += g.contains("notes");
  for (const auto& m : full["models"]) frozen += int(m.value("frozen_components", nlohmann::json::array()).size());
  for (const auto& p : full["platforms"]) {
    queue_notes += p.contains("queue_notes");
    education += int(p.value("education", nlohmann::json::array()).size());
    for (const auto& o : p["offers"]) offer_notes += o.contains("note");
  }
  EXPECT_GT(gpu_notes, 0);
  EXPECT_GT(frozen, 0);
  EXPECT_GT(queue_notes, 0);
  EXPECT_GT(offer_notes, 0);
  EXPECT_GT(education, 0);

  ASSERT_EQ(page["gpus"].size(), full["gpus"].size());
  for (const auto& g : page["gpus"]) {
    EXPECT_FALSE(g.contains("sources")) << g["id"];
    EXPECT_FALSE(g.contains("notes")) << g["id"];
  }
  ASSERT_EQ(page["models"].size(), full["models"].size());
  for (const auto& m : page["models"]) {
    EXPECT_FALSE(m.contains("sources")) << m["id"];
    for (const auto& c : m.value("frozen_components", nlohmann::json::array())) EXPECT_FALSE(c.contains("sources"));
  }
  ASSERT_EQ(page["platforms"].size(), full["platforms"].size());
  for (size_t i = 0; i < page["platforms"].size(); ++i) {
    const auto& p = page["platforms"][i];
    const auto& f = full["platforms"][i];
    EXPECT_FALSE(p.contains("queue_notes")) << p["id"];
    // Reference rates are read, not planned with, except the first
    // queue-priority rate, the one the campus advice quotes: it keeps its
    // figures and name.
    nlohmann::json tiers = nlohmann::json::array();
    for (auto rate : f.value("reference_rates", nlohmann::json::array()))
      if (rate.value("priced_by", std::string()) == "queue_priority") {
        rate.erase("source");
        rate.erase("note");
        tiers.push_back(rate);
        break;
      }
    EXPECT_EQ(p.value("reference_rates", nlohmann::json::array()), tiers) << p["id"];
    if (f["id"] == "campus") {
      EXPECT_FALSE(tiers.empty());
      EXPECT_LT(tiers.size(), f["reference_rates"].size()) << "the other rates were there to cut";
    }
    if (p.contains("billing_rules")) {
      EXPECT_FALSE(p["billing_rules"].contains("notes")) << p["id"];
    }
    if (p.contains("storage")) {
      EXPECT_FALSE(p["storage"].contains("notes")) << p["id"];
    }
    for (const auto& e : p.value("education", nlohmann::json::array())) {
      EXPECT_FALSE(e.contains("name") || e.contains("eligibility") || e.contains("source")) << p["id"];
      EXPECT_TRUE(e.contains("as_of")) << p["id"];
    }
    // What the page shows stays: platform notes, spot notes, each offer's
    // date, and of every source the part its label reads
    // (web/src/views/platforms.ts).
    nlohmann::json labels = nlohmann::json::array();
    for (const auto& source : f.value("sources", nlohmann::json::array()))
      labels.push_back(page_source_label(source.get<std::string>()));
    EXPECT_EQ(p.value("sources", nlohmann::json::array()), labels) << p["id"];
    EXPECT_EQ(p.value("notes", nlohmann::json()), f.value("notes", nlohmann::json())) << p["id"];
    if (f.contains("spot")) {
      EXPECT_EQ(p["spot"], f["spot"]) << p["id"];
    }
    ASSERT_EQ(p["offers"].size(), f["offers"].size());
    for (size_t k = 0; k < p["offers"].size(); ++k) {
      nlohmann::json offer = f["offers"][k];
      offer.erase("note");
      offer.erase("evidence");  // what the confidence rests on: the validator's, not the page's
      if (offer.contains("source")) offer["source"] = page_source_label(offer["source"].get<std::string>());
      if (offer.contains("cpu")) offer["cpu"] = {{"vcpus_per_gpu", offer["cpu"]["vcpus_per_gpu"]}};  // the count the planner reads
      if (price_is_stale(offer["as_of"].get<std::string>(), full["version"].get<std::string>())) offer["stale"] = true;  // its age, below
      EXPECT_EQ(p["offers"][k], offer) << p["id"];
      // The page marks each price's kind and age (issue #14: freshness a student can see).
      for (const char* key : {"price_kind", "as_of", "source", "confidence"})
        EXPECT_TRUE(p["offers"][k].contains(key)) << p["id"] << " offer " << k << " lost " << key;
    }
    EXPECT_FALSE(p.contains("low_cost_mode")) << p["id"];
    EXPECT_EQ(p.value("cpu_only_per_hour", nlohmann::json()), f.value("cpu_only_per_hour", nlohmann::json())) << p["id"];
    // Billing rules reach the planner whole; only their prose is cut.
    if (f.contains("billing_rules")) {
      nlohmann::json rules = f["billing_rules"];
      rules.erase("notes");
      // A minimum charge keeps its figure, date and confidence; its source is the site the page shows.
      if (rules.contains("minimum_charge"))
        rules["minimum_charge"]["source"] = page_source_label(rules["minimum_charge"]["source"].get<std::string>());
      EXPECT_EQ(p["billing_rules"], rules) << p["id"];
    }
  }
  // Scenarios are whole but for their sources, cut to the citation the page
  // shows of each (views/scenario.ts); the exchange rate is whole.
  nlohmann::json scenarios = full["scenarios"];
  for (auto& scenario : scenarios)
    for (auto& source : scenario["sources"]) source = page_citation(source.get<std::string>());
  EXPECT_EQ(page["scenarios"], scenarios);
  EXPECT_EQ(page["fx"], full["fx"]);
  // The electricity tariff keeps its figure, date and confidence, and its
  // source as the label a plan on the lab's cards names; not its note.
  nlohmann::json power = full["electricity"];
  ASSERT_TRUE(power.contains("source") && power.contains("note"));
  power["source"] = page_source_label(power["source"].get<std::string>());
  power.erase("note");
  EXPECT_EQ(page["electricity"], power);
  // Purchase prices are whole but for their source, cut to the label the page
  // shows of it (rent or buy's source, views/budget.ts), like an offer's.
  int purchases = 0;
  for (size_t i = 0; i < page["gpus"].size(); ++i) {
    nlohmann::json purchase = full["gpus"][i].value("purchase", nlohmann::json());
    if (purchase.contains("source")) {
      purchase["source"] = page_source_label(purchase["source"].get<std::string>());
      ++purchases;
    }
    EXPECT_EQ(page["gpus"][i].value("purchase", nlohmann::json()), purchase) << page["gpus"][i]["id"];
  }
  EXPECT_GT(purchases, 0);
  // And it is much smaller: the reason it exists.
  EXPECT_LT(page_copy().size(), embedded_catalog_json().size() * 2 / 3);
}

TEST(CatalogProfile, PageCopyReadsOnlyAsThePageProfile) {
  const std::string page = page_copy();
  Result<Catalog> as_full = parse_catalog(page);
  ASSERT_FALSE(as_full.ok());
  EXPECT_EQ(as_full.error().code, "invalid_catalog");
  // The first provenance the cut left out (the tariff keeps its source's label).
  EXPECT_EQ(as_full.error().path, "gpus[0].sources");
  Result<Catalog> as_page = parse_catalog(page, CatalogProfile::page);
  ASSERT_TRUE(as_page.ok()) << as_page.error().message;
  EXPECT_EQ(as_page.value().electricity.source, page_source_label(embedded_catalog().electricity.source));
  EXPECT_EQ(as_page.value().electricity.per_kwh, embedded_catalog().electricity.per_kwh);
  EXPECT_TRUE(as_page.value().gpus.front().sources.empty());
}

// The page's module gives each source of its copy as it stands (shown_source,
// GPUPLAN_TRUSTED_CATALOG) where this build labels it: so every source a
// response carries from the copy (offers, purchases, the tariff) must already
// be its own label, or the page would answer otherwise than the CLI.
TEST(CatalogProfile, PageCopySourcesAreTheirOwnLabels) {
  Result<Catalog> page = parse_catalog(page_copy(), CatalogProfile::page);
  ASSERT_TRUE(page.ok()) << page.error().message;
  std::vector<std::string> shown;
  for (const Platform& p : page.value().platforms)
    for (const Offer& o : p.offers) shown.push_back(o.source);
  for (const Gpu& g : page.value().gpus)
    if (g.purchase) shown.push_back(g.purchase->source);
  shown.push_back(page.value().electricity.source);
  ASSERT_GT(shown.size(), 50u);
  for (const std::string& source : shown) {
    EXPECT_EQ(page_source_label(source), source);
    EXPECT_EQ(shown_source(source), source);
  }
}

const std::string kMinimal = minimal_catalog().dump();

TEST(CatalogProfile, FullReaderStillRefusesAnEntryWithoutSources) {
  for (const char* array : {"gpus", "models"}) {
    nlohmann::json c = nlohmann::json::parse(kMinimal);
    c[array][0].erase("sources");
    Result<Catalog> r = parse_catalog(c.dump());
    ASSERT_FALSE(r.ok()) << array;
    EXPECT_EQ(r.error().path, std::string(array) + "[0].sources");
    // The page's copy cannot be made from it either: a cut needs a full catalog.
    Result<std::string> cut = catalog_profile_json(c.dump(), CatalogProfile::page);
    ASSERT_FALSE(cut.ok()) << array;
    EXPECT_EQ(cut.error().path, std::string(array) + "[0].sources");
  }
}

TEST(CatalogProfile, PageReaderRefusesEverythingElse) {
  // Only the cut prose may be missing: a figure is as required as in full.
  nlohmann::json c = nlohmann::json::parse(kMinimal);
  c["gpus"][0].erase("sources");
  c["gpus"][0].erase("memory_bytes");
  Result<Catalog> r = parse_catalog(c.dump(), CatalogProfile::page);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "gpus[0].memory_bytes");
  // A source that is there is still checked.
  c = nlohmann::json::parse(kMinimal);
  c["models"][0]["sources"] = nlohmann::json::array({""});
  r = parse_catalog(c.dump(), CatalogProfile::page);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "models[0].sources[0]");
  // The electricity tariff may lose its source, never its figure or date.
  for (const char* key : {"per_kwh", "as_of", "confidence"}) {
    c = nlohmann::json::parse(kMinimal);
    c["electricity"].erase("source");
    c["electricity"].erase(key);
    r = parse_catalog(c.dump(), CatalogProfile::page);
    ASSERT_FALSE(r.ok()) << key;
    EXPECT_EQ(r.error().path, std::string("electricity.") + key);
  }
}

TEST(CatalogProfile, ACatalogWithoutPlatformsIsCutToo) {
  // platforms[] is optional in a catalog; the cut must not invent one.
  nlohmann::json c = nlohmann::json::parse(kMinimal);
  c.erase("platforms");
  Result<std::string> cut = catalog_profile_json(c.dump(), CatalogProfile::page);
  ASSERT_TRUE(cut.ok()) << cut.error().message;
  const nlohmann::json page = nlohmann::json::parse(cut.value());
  EXPECT_FALSE(page.contains("platforms"));
  EXPECT_FALSE(page["gpus"][0].contains("sources"));
}

TEST(CatalogProfile, ProvenanceIsTheBuildsToWrite) {
  nlohmann::json c = nlohmann::json::parse(kMinimal);
  c["provenance"] = "page";
  Result<std::string> cut = catalog_profile_json(c.dump(), CatalogProfile::page);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().path, "provenance");
  // The full profile of a full catalog is the text itself.
  Result<std::string> same = catalog_profile_json(kMinimal, CatalogProfile::full);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same.value(), kMinimal);
}

// The page plans with its copy: every answer must be the full catalog's.
std::vector<std::string> requests() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(GPUPLAN_SOURCE_DIR) + "/tests/data/requests"))
    if (entry.path().extension() == ".json") out.push_back(read_file("tests/data/requests/" + entry.path().filename().string()));
  const nlohmann::json full = nlohmann::json::parse(embedded_catalog_json());
  for (const auto& s : full.value("scenarios", nlohmann::json::array())) out.push_back(s["request"].dump());
  // What reads the fields around the cut ones: education credits (the
  // programmes' amounts), rent or buy (the purchase's source), both locales.
  for (const char* locale : {"zh-CN", "en"})
    out.push_back(std::string(R"({"locale": ")") + locale + R"(", "model": {"preset": "llama-3.1-8b"},
      "workload": {"mode": "train", "method": "lora", "micro_batch": 4, "seq_len": 2048},
      "data": {"samples": 50000, "epochs": 3},
      "stages": [{"stage": "debug", "runs": 10, "data_fraction": 0.1}, {"stage": "formal", "runs": 12}],
      "budget": {"amount": 5000, "currency": "CNY"}, "prefs": {"education": true, "deadline_days": 30},
      "buy": {"electricity_per_kwh": 0.6}})");
  // The catalog's own electricity (no buy.electricity_per_kwh), and a plan on
  // a campus centre at the user's rate (the queue-priority advice).
  for (const char* locale : {"zh-CN", "en"})
    out.push_back(std::string(R"({"locale": ")") + locale + R"(", "model": {"preset": "llama-3.1-8b"},
      "workload": {"mode": "train", "method": "lora", "micro_batch": 4, "seq_len": 2048},
      "data": {"samples": 50000, "epochs": 3}, "stages": [{"stage": "formal", "runs": 2}],
      "prices": [{"platform": "campus", "gpu": "a100-pcie-80g", "per_gpu_hour": 1}],
      "prefs": {"platforms": ["campus"]}, "buy": {"price": 60000, "watts": 400}})");
  return out;
}

std::string purchase_source_as_label(const std::string& reply) {
  nlohmann::json json = nlohmann::json::parse(reply);
  if (json.contains("plan") && json["plan"].contains("rent_vs_buy") && json["plan"]["rent_vs_buy"].contains("source")) {
    auto& source = json["plan"]["rent_vs_buy"]["source"];
    source = page_source_label(source.get<std::string>());
  }
  return json.dump();
}

TEST(CatalogProfile, EveryPlanIsTheFullCatalogs) {
  Result<Catalog> page = parse_catalog(page_copy(), CatalogProfile::page);
  ASSERT_TRUE(page.ok()) << page.error().message;
  const std::vector<std::string> all = requests();
  ASSERT_GT(all.size(), 20u);
  for (const std::string& request : all) {
    JsonReply a = plan_json(request, embedded_catalog());
    JsonReply b = plan_json(request, page.value());
    // The same answer, but for rent or buy's purchase source: the page's copy
    // keeps the label the page shows of it, so both read as their labels.
    EXPECT_EQ(purchase_source_as_label(a.json), purchase_source_as_label(b.json)) << request.substr(0, 200);
  }
}

// The page marks a price to check by the core's flag, never by a rule of its
// own (issue #28): each offer of the page's copy older than six months before
// the catalog's date carries `stale: true`, a current one nothing, and a plan
// prices each offer with the same verdict (`offer.stale`).
TEST(CatalogProfile, PageCopyMarksStaleOffersByTheCoresRule) {
  const nlohmann::json full = nlohmann::json::parse(embedded_catalog_json());
  const nlohmann::json page = nlohmann::json::parse(page_copy());
  const std::string version = full["version"].get<std::string>();
  int stale = 0, current = 0;
  ASSERT_EQ(page["platforms"].size(), full["platforms"].size());
  for (const auto& p : page["platforms"])
    for (const auto& o : p.value("offers", nlohmann::json::array())) {
      const bool old = price_is_stale(o["as_of"].get<std::string>(), version);
      (old ? stale : current) += 1;
      if (old) EXPECT_EQ(o.value("stale", false), true) << p["id"] << " " << o["gpu"] << " " << o["as_of"];
      else EXPECT_FALSE(o.contains("stale")) << p["id"] << " " << o["gpu"] << " " << o["as_of"];
    }
  // Both kinds are there, so the test can fail either way.
  EXPECT_GT(stale, 0);
  EXPECT_GT(current, 0);
  for (const auto& p : full["platforms"])
    for (const auto& o : p.value("offers", nlohmann::json::array())) EXPECT_FALSE(o.contains("stale")) << "the build writes it";
}


// page_source_label gives the label the page shows of a source: the leftmost
// host (as many dotted labels as there are, then the first listed domain that
// follows), a GitHub address as its repository, or the words the page translates.
TEST(CatalogProfile, SourceLabelsAreWhatThePageShows) {
  EXPECT_EQ(page_source_label("https://github.com/zzc0721/torch-performance-test-data/blob/main/database.md (2024)"),
            "github.com/zzc0721/torch-performance-test-data");
  EXPECT_EQ(page_source_label("MSRP, laurentschoice.com (catalog-sources.md 3.1)"), "laurentschoice.com");
  EXPECT_EQ(page_source_label("https://www.AutoDL.com/market/list, read in a note"), "www.autodl.com");
  EXPECT_EQ(page_source_label("github.com/owner only"), "github.com");
  EXPECT_EQ(page_source_label("see autodl.community"), "autodl.com");  // as the page's pattern reads it
  EXPECT_EQ(page_source_label("an aliyun.com.cn page"), "aliyun.com.cn");
  EXPECT_EQ(page_source_label("seed 004_ab06c6b6ae38c6af.txt"), "student article");
  EXPECT_EQ(page_source_label("种子文章 000"), "student article");
  EXPECT_EQ(page_source_label("LLM-style guide, low confidence"), "unverified");
  EXPECT_EQ(page_source_label("vendors.json and cloud_gpu.json"), "unverified");  // a file name is no site
  EXPECT_EQ(page_source_label("launch price, sysrqmts.com (S18)"), "sysrqmts.com");
  EXPECT_EQ(page_source_label("github.com/tgarg01/silybench-data gpu_prices.csv: 1x A10 0.86"), "github.com/tgarg01/silybench-data");
  // A source that says it is unverified stays so, whatever site it names as
  // the place to check: the page must not cite that site for the figure.
  EXPECT_EQ(page_source_label("unverified: no public page found; check at https://www.autodl.com"), "unverified");
  EXPECT_EQ(page_source_label("  Unverified: a note quoting compshare.cn"), "unverified");
  EXPECT_EQ(page_source_label("unverifiedness.com"), "unverifiedness.com");
  EXPECT_EQ(page_source_label(""), "unverified");
}

// page_citation is the citation the page shows of a scenario's source, as it
// stands (views/scenario.ts translates only "unverified" and "student article";
// tests/js/catalog_profile.test.mjs checks every source of the page's copy).
TEST(CatalogProfile, ScenarioSourcesAreTheCitationsThePageShows) {
  EXPECT_EQ(page_citation("github:pytorch/vision references/segmentation/README.md (8 x V100)"), "github.com/pytorch/vision");
  EXPECT_EQ(page_citation("see github:owner only and github:a/b.c-d/e"), "github.com/a/b.c-d");
  // Authors and year, with the arXiv id; each word as long as it goes, then shorter.
  EXPECT_EQ(page_citation("Chen et al. 2017, DeepLabV3 (arXiv:1706.05587): output stride 8"),
            "Chen et al. 2017, arXiv:1706.05587");
  EXPECT_EQ(page_citation("Williams, Waterman, Patterson 2009, Roofline (CACM 52(4))"), "Williams, Waterman, Patterson 2009");
  EXPECT_EQ(page_citation("COCO 2017 train: 118,287 images (cocodataset.org)"), "COCO 2017");
  EXPECT_EQ(page_citation("ResNet2015 x"), "ResNet 2015");
  EXPECT_EQ(page_citation("Smith,  2009"), "Smith 2009");
  EXPECT_EQ(page_citation("Zhou et al.2021, arXiv:2101.000012"), "Zhou et al. 2021, arXiv:2101.00001");
  EXPECT_EQ(page_citation("Mc'Donald-Smith and O'Neil 1999: x"), "Mc'Donald-Smith and O'Neil 1999");
  EXPECT_EQ(page_citation("Smith and Jones 2020b"), "unverified");  // no word boundary after the year
  EXPECT_EQ(page_citation("A 2019"), "unverified");                 // a one-letter word is no author
  // A site, a seed article; a document's name (2 to 40 UTF-16 units before , ( or :).
  EXPECT_EQ(page_citation("AMBER pmemd.cuda SPFP default precision model (ambermd.org/GPUSupport.php)"), "ambermd.org");
  EXPECT_EQ(page_citation("seed article 004_abcdef12"), "student article");
  EXPECT_EQ(page_citation("GROMACS manual, 'Mixed and double precision'"), "GROMACS manual");
  EXPECT_EQ(page_citation("中文文档名称，说明（第二版）: 其他"), "中文文档名称，说明（第二版）");
  EXPECT_EQ(page_citation("a  , x"), "a ");
  EXPECT_EQ(page_citation("A very long document name that goes past forty units, more"), "unverified");
  EXPECT_EQ(page_citation("“Quoted” doc, thing"), "“Quoted” doc");
  EXPECT_EQ(page_citation("'Quoted' doc, thing"), "unverified");
  // A source that says it is unverified.
  EXPECT_EQ(page_citation("unverified: a student guide to renting GPUs"), "unverified");
  EXPECT_EQ(page_citation("Unverified note, 2026"), "unverified");
  EXPECT_EQ(page_citation("seed 003_8d1c946a69db8da7.txt: renting an A100"), "student article");
  EXPECT_EQ(page_citation("Hu et al. 2021, LoRA (arXiv:2106.09685)"), "Hu et al. 2021, arXiv:2106.09685");
}

}  // namespace
}  // namespace gpuplan::test
