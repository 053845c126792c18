// The page's copy of the catalog (CatalogProfile::page, issue #7): the full
// catalog without the provenance prose the page never shows. What the page
// renders was read from web/src (views/platforms.ts shows platform notes,
// sources, spot notes, offer sources and dates; views/scenario.ts scenario
// explanations and sources; app.ts the exchange rate's source); every field
// left out here is one it does not read, and none is read by the planner
// (rent_vs_buy's source is purchase.source, kept; the electricity tariff and
// the campus queue-priority tiers keep their figures). The page says where the
// sources are: catalog/*.json, or `gpuplan catalog` (web/src/i18n).
// Made at build time only (tools/catalog_embed.cpp); the page's module links
// no code of this file.
#include <initializer_list>
#include <string>

#include "gpuplan/catalog.h"
#include "json_reader.h"

namespace gpuplan {
namespace {

void erase_each(nlohmann::json& array, std::initializer_list<const char*> keys) {
  if (!array.is_array()) return;
  for (auto& entry : array)
    if (entry.is_object())
      for (const char* key : keys) entry.erase(key);
}

void erase_in(nlohmann::json& object, const char* member, const char* key) {
  if (object.is_object() && object.contains(member) && object[member].is_object()) object[member].erase(key);
}

}  // namespace

Result<std::string> catalog_profile_json(std::string_view full_json, CatalogProfile profile) {
  // Only a catalog that reads in full can be cut down: its sources were checked.
  Result<Catalog> full = parse_catalog(full_json, CatalogProfile::full);
  if (!full.ok()) return full.error();
  if (profile == CatalogProfile::full) return std::string(full_json);
  try {
    nlohmann::json root = parse_json_text(full_json, Locale::en, full_json.size() + 1, 64);
    if (root.contains("provenance"))
      return Error{"invalid_catalog", "provenance", "provenance is written by the build, not by catalog/*.json"};
    // Only arrays that are there: platforms[] is optional, and the cut adds nothing.
    nlohmann::json empty = nlohmann::json::array();
    nlohmann::json& gpus = root.contains("gpus") ? root["gpus"] : empty;
    nlohmann::json& models = root.contains("models") ? root["models"] : empty;
    nlohmann::json& platforms = root.contains("platforms") ? root["platforms"] : empty;
    // GPUs: the page shows name, memory and the planner's figures, not the
    // spec sheets behind them (22 KB) or the maintainers' caveats.
    erase_each(gpus, {"sources", "notes"});
    // Model presets: dimensions only (36 KB of sources).
    erase_each(models, {"sources"});
    for (auto& model : models)
      if (model.is_object() && model.contains("frozen_components")) erase_each(model["frozen_components"], {"sources"});
    // The electricity tariff: the figure rent or buy uses, without its
    // provenance (the page shows neither; `gpuplan catalog` has them).
    if (root.contains("electricity") && root["electricity"].is_object())
      for (const char* key : {"source", "note"}) root["electricity"].erase(key);
    // Platforms: what the page does not render. Education programmes keep the
    // credit the planner applies (amount, currency, date); reference rates
    // (campus card-hour prices for reading, never planned with) go, except
    // the first queue-priority rate, the one the campus advice quotes
    // (planner_advice.cpp), kept without its source and note.
    for (auto& platform : platforms) {
      if (!platform.is_object()) continue;
      platform.erase("queue_notes");
      platform.erase("low_cost_mode");  // the mode's description; its price (cpu_only_per_hour) stays
      if (platform.contains("reference_rates") && platform["reference_rates"].is_array()) {
        nlohmann::json kept = nlohmann::json::array();
        for (auto& rate : platform["reference_rates"])
          if (rate.is_object() && rate.value("priced_by", std::string()) == "queue_priority") {
            rate.erase("source");
            rate.erase("note");
            kept.push_back(rate);
            break;
          }
        if (kept.empty()) platform.erase("reference_rates");
        else platform["reference_rates"] = kept;
      }
      erase_in(platform, "billing_rules", "notes");
      erase_in(platform, "storage", "notes");
      erase_in(platform, "machines", "notes");  // the planner reads the counts, the page no prose
      if (platform.contains("offers")) erase_each(platform["offers"], {"note"});
      if (platform.contains("education")) erase_each(platform["education"], {"name", "eligibility", "source"});
    }
    root["provenance"] = "page";
    std::string text = root.dump();
    // The cut copy must read under its own profile.
    Result<Catalog> cut = parse_catalog(text, CatalogProfile::page);
    if (!cut.ok()) return cut.error();
    return text;
  } catch (const InputError& e) {
    return e.error;
  }
}

}  // namespace gpuplan
