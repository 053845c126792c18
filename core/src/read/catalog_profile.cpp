// The page's copy of the catalog (CatalogProfile::page): the full
// catalog without the provenance prose the page never shows. What the page
// renders was read from web/src (views/platforms.ts shows platform notes,
// sources, spot notes, offer sources and dates; views/scenario.ts scenario
// explanations and sources; app.ts the exchange rate's source); every field
// left out here is one it does not read, and none is read by the planner
// (rent_vs_buy's source is purchase.source, which the page shows as a label;
// the electricity tariff and the campus queue-priority tiers keep their
// figures); of each offer, platform and purchase source it keeps the part the
// page's label reads (page_source_label below), of each scenario source the
// citation the page shows (page_citation). The page says where the full
// sources are: catalog/*.json, or `gpuplan catalog` (web/src/i18n).
// Made at build time only (tools/catalog_embed.cpp); the page's module links
// no code of this file.
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "gpuplan/catalog.h"
#include "read/json_reader.h"

namespace gpuplan {
namespace {

void erase_each(nlohmann::json& array, std::initializer_list<const char*> keys) {
  if (!array.is_array()) return;
  for (auto& entry : array)
    if (entry.is_object())
      for (const char* key : keys) entry.erase(key);
}

// A member at the value every reader takes when it is absent (catalog.cpp's
// value_or, and the page's own reading of the same field) says nothing.
void erase_default(nlohmann::json& array, const char* key, const nlohmann::json& absent) {
  if (!array.is_array()) return;
  for (auto& entry : array)
    if (entry.is_object() && entry.contains(key) && entry[key] == absent) entry.erase(key);
}

void erase_in(nlohmann::json& object, const char* member, const char* key) {
  if (object.is_object() && object.contains(member) && object[member].is_object()) object[member].erase(key);
}

// What the page shows of a price's source (web/src/views/words.ts shows it as
// it stands): the site, or the GitHub repository, a student can open; "student
// article" for one of the articles students wrote (the project's seed
// articles, unverified); or "unverified". The page's copy keeps only that. The scan below
// reads a host as a backtracking regular expression engine would match
// /\b((?:[a-z0-9-]+\.)+(?:com|cn|…))((?:\/[A-Za-z0-9_~-]+)*)/i: leftmost start at
// a word boundary, as many dotted labels as there are, then the first
// top-level domain of the list that follows, fewer labels while none does.
// (std::regex would pull musl's strtod into every module linking this
// library, the page's included.)
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool label_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; }
bool starts_with_icase(std::string_view text, size_t at, std::string_view prefix) {
  if (text.size() - at < prefix.size()) return false;
  for (size_t k = 0; k < prefix.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(text[at + k])) != prefix[k]) return false;
  return true;
}

}  // namespace

std::string page_source_label(std::string_view text) {
  // A source that says it is unverified is that, whatever site it names
  // ("check at https://…" is where to look, not where the figure came from).
  {
    size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (starts_with_icase(text, i, "unverified") && (i + 10 == text.size() || !word_char(text[i + 10])))
      return "unverified";
  }
  static constexpr std::string_view kDomains[] = {"com", "cn", "net", "org", "io", "ai", "app", "co", "dev",
                                                  "edu", "gov", "sh", "info", "tech", "cloud", "xyz"};
  auto lower = [](std::string_view x) {
    std::string out(x);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (!label_char(text[i]) || (i > 0 ? word_char(text[i - 1]) : false) == word_char(text[i])) continue;
    std::vector<size_t> after_dot;  // where each dotted label ends
    for (size_t p = i;;) {
      size_t q = p;
      while (q < text.size() && label_char(text[q])) ++q;
      if (q == p || q >= text.size() || text[q] != '.') break;
      after_dot.push_back(q + 1);
      p = q + 1;
    }
    for (size_t k = after_dot.size(); k-- > 0;) {
      for (std::string_view domain : kDomains) {
        if (!starts_with_icase(text, after_dot[k], domain)) continue;
        std::string site = lower(text.substr(i, after_dot[k] + domain.size() - i));
        size_t p = after_dot[k] + domain.size();
        std::vector<std::string_view> parts;  // (/[A-Za-z0-9_~-]+)*
        while (p + 1 < text.size() && text[p] == '/') {
          size_t q = p + 1;
          while (q < text.size() && (word_char(text[q]) || text[q] == '~' || text[q] == '-')) ++q;
          if (q == p + 1) break;
          parts.push_back(text.substr(p + 1, q - p - 1));
          p = q;
        }
        if (site == "github.com" && parts.size() >= 2) {
          site += '/';
          site += parts[0];
          site += '/';
          site += parts[1];
        }
        return site;
      }
    }
  }
  // /seed article|种子文章|\b\d{3}_[0-9a-f]{6,}/i
  if (lower(text).find("seed article") != std::string::npos || text.find("种子文章") != std::string_view::npos)
    return "student article";
  for (size_t i = 0; i + 10 <= text.size(); ++i) {
    if (i > 0 && word_char(text[i - 1])) continue;
    if (!std::isdigit(static_cast<unsigned char>(text[i])) || !std::isdigit(static_cast<unsigned char>(text[i + 1])) ||
        !std::isdigit(static_cast<unsigned char>(text[i + 2])) || text[i + 3] != '_')
      continue;
    size_t hex = 0;
    while (i + 4 + hex < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 4 + hex]))) ++hex;
    if (hex >= 6) return "student article";
  }
  return "unverified";
}

namespace {

// JavaScript's \s at `at` (its ASCII spaces and the Unicode ones, U+00A0,
// U+1680, U+2000-200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF):
// how many UTF-8 bytes it takes, 0 when there is none.
size_t js_space(std::string_view text, size_t at) {
  if (at >= text.size()) return 0;
  const auto byte = [&](size_t k) { return at + k < text.size() ? static_cast<unsigned char>(text[at + k]) : 0u; };
  const unsigned c = byte(0);
  if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
  if (c == 0xC2 && byte(1) == 0xA0) return 2;
  if (c == 0xE1 && byte(1) == 0x9A && byte(2) == 0x80) return 3;
  if (c == 0xE2 && byte(1) == 0x80 && (byte(2) <= 0x8A || byte(2) == 0xA8 || byte(2) == 0xA9 || byte(2) == 0xAF)) return 3;
  if (c == 0xE2 && byte(1) == 0x81 && byte(2) == 0x9F) return 3;
  if (c == 0xE3 && byte(1) == 0x80 && byte(2) == 0x80) return 3;
  if (c == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF) return 3;
  return 0;
}
size_t skip_spaces(std::string_view text, size_t at) {
  while (size_t n = js_space(text, at)) at += n;
  return at;
}
bool ascii_digits(std::string_view text, size_t at, size_t n) {
  if (text.size() < at + n) return false;
  for (size_t k = 0; k < n; ++k)
    if (!std::isdigit(static_cast<unsigned char>(text[at + k]))) return false;
  return true;
}

// A citation's authors and year, /^((?:[A-Z][\w'-]+(?:,\s*|\s+and\s+|\s+et al\.\s*)?)+)\s*(\d{4})\b/,
// matched as a backtracking engine matches it: each word as long as it goes,
// then the separators in their order, then another word before the group
// ends. Each position is tried once (`tried`): the first match from a
// position does not depend on how it was reached.
struct AuthorsMatch {
  std::string_view text;
  std::vector<bool> tried;
  size_t group_end = 0, year_at = 0;

  // The group may end at `at`: another word first, else the year.
  bool after_word(size_t at) {
    if (tried[at]) return false;
    tried[at] = true;
    if (word(at)) return true;
    const size_t year = skip_spaces(text, at);
    if (!ascii_digits(text, year, 4) || (year + 4 < text.size() && word_char(text[year + 4]))) return false;
    group_end = at;
    year_at = year;
    return true;
  }
  // Greedy \s* (`least` 0) or \s+ (1) from `at`: each end, longest first.
  template <class Next>
  bool spaces_then(size_t at, size_t least, Next next) {
    std::vector<size_t> ends{at};
    while (size_t n = js_space(text, ends.back())) ends.push_back(ends.back() + n);
    for (size_t k = ends.size(); k-- > least;)
      if (next(ends[k])) return true;
    return false;
  }
  bool word(size_t at) {
    if (at >= text.size() || text[at] < 'A' || text[at] > 'Z') return false;
    size_t end = at + 1;
    while (end < text.size() && (word_char(text[end]) || text[end] == '\'' || text[end] == '-')) ++end;
    const auto then_word = [this](size_t r) { return after_word(r); };
    for (size_t q = end; q > at + 1; --q) {
      if (q < text.size() && text[q] == ',' && spaces_then(q + 1, 0, then_word)) return true;
      // \s+and\s+, then \s+et al\.\s*
      for (auto [middle, least_after] : {std::pair<std::string_view, size_t>{"and", 1}, {"et al.", 0}}) {
        const auto middle_then = [&, middle = middle, least_after = least_after](size_t p) {
          return text.substr(p, middle.size()) == middle && spaces_then(p + middle.size(), least_after, then_word);
        };
        if (spaces_then(q, 1, middle_then)) return true;
      }
      if (after_word(q)) return true;
    }
    return false;
  }
};

// /^([^,(:'"]{2,40}?)\s*[,(:]/: the shortest name of 2 to 40 UTF-16 units
// that only spaces part from a comma, a parenthesis or a colon.
std::string document_name(std::string_view text) {
  const size_t stop = text.find_first_of(",(:'\"");
  if (stop == std::string_view::npos || text[stop] == '\'' || text[stop] == '"') return {};
  size_t units = 0, at = 0, name_end = std::string_view::npos;
  while (at < stop) {
    if (units >= 2 && skip_spaces(text, at) == stop) {
      name_end = at;
      break;
    }
    const unsigned c = static_cast<unsigned char>(text[at]);
    const size_t bytes = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    units += bytes == 4 ? 2 : 1;  // an astral character is two UTF-16 units
    at += bytes;
  }
  if (name_end == std::string_view::npos && units >= 2 && at == stop) name_end = stop;
  if (name_end == std::string_view::npos || units > 40) return {};
  return std::string(text.substr(0, name_end));
}

}  // namespace

std::string shown_source(std::string_view source) {
#ifdef GPUPLAN_TRUSTED_CATALOG
  return std::string(source);
#else
  return page_source_label(source);
#endif
}

std::string page_citation(std::string_view text) {
  // /^unverified\b/i: a source that says so.
  if (starts_with_icase(text, 0, "unverified") && (text.size() == 10 || !word_char(text[10]))) return "unverified";
  // /github:([\w.-]+\/[\w.-]+)/: the first "github:" followed by owner/repo.
  const auto repo_char = [](char c) { return word_char(c) || c == '.' || c == '-'; };
  for (size_t at = text.find("github:"); at != std::string_view::npos; at = text.find("github:", at + 1)) {
    size_t owner_end = at + 7;
    while (owner_end < text.size() && repo_char(text[owner_end])) ++owner_end;
    size_t repo_end = owner_end + 1;
    while (repo_end < text.size() && repo_char(text[repo_end])) ++repo_end;
    if (owner_end > at + 7 && owner_end < text.size() && text[owner_end] == '/' && repo_end > owner_end + 1)
      return "github.com/" + std::string(text.substr(at + 7, repo_end - at - 7));
  }
  AuthorsMatch authors{text, std::vector<bool>(text.size() + 1, false)};
  if (authors.word(0)) {
    size_t end = authors.group_end;  // .replace(/[,\s]+$/, '')
    for (;;) {
      if (end > 0 && text[end - 1] == ',') { --end; continue; }
      size_t back = 0;
      for (size_t n = 1; n <= 3 && n <= end && !back; ++n)
        if (js_space(text, end - n) == n) back = n;
      if (!back) break;
      end -= back;
    }
    std::string out = std::string(text.substr(0, end)) + " " + std::string(text.substr(authors.year_at, 4));
    // /arXiv:(\d{4}\.\d{4,5})/
    for (size_t at = text.find("arXiv:"); at != std::string_view::npos; at = text.find("arXiv:", at + 1)) {
      if (!ascii_digits(text, at + 6, 4) || at + 10 >= text.size() || text[at + 10] != '.' || !ascii_digits(text, at + 11, 4))
        continue;
      out += ", " + std::string(text.substr(at, ascii_digits(text, at + 15, 1) ? 16 : 15));
      break;
    }
    return out;
  }
  std::string label = page_source_label(text);
  if (label != "unverified") return label;
  std::string name = document_name(text);
  return name.empty() ? label : name;
}

namespace {

void shorten_source(nlohmann::json& holder, const char* key) {
  if (holder.is_object() && holder.contains(key) && holder[key].is_string())
    holder[key] = page_source_label(holder[key].get<std::string>());
}

// Platforms: what the page does not render. Education programmes keep the
// credit the planner applies (amount, currency, date); reference rates
// (campus card-hour prices for reading, never planned with) go, except
// the first queue-priority rate, the one the campus advice quotes
// (planner_advice.cpp), kept without its source and note. An offer older
// than six months before the catalog's date (`version`) says so, `stale:
// true`, by the core's one rule (price_is_stale), so the page marks it
// without a rule of its own; a current one carries nothing.
void cut_platform(nlohmann::json& platform, std::string_view version) {
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
  if (platform.contains("billing_rules") && platform["billing_rules"].is_object() &&
      platform["billing_rules"].contains("minimum_charge") && platform["billing_rules"]["minimum_charge"].is_object())
    shorten_source(platform["billing_rules"]["minimum_charge"], "source");
  erase_in(platform, "storage", "notes");
  erase_in(platform, "machines", "notes");  // the planner reads the counts, the page no prose
  // The vCPUs per card: the planner's data-loader bound reads the count only.
  auto cpu_count_only = [](nlohmann::json& holder) {
    if (holder.contains("cpu") && holder["cpu"].is_object())
      for (const char* key : {"as_of", "source", "confidence"}) holder["cpu"].erase(key);
  };
  cpu_count_only(platform);
  if (platform.contains("offers")) {
    erase_each(platform["offers"], {"note", "evidence"});
    for (auto& offer : platform["offers"]) {
      shorten_source(offer, "source");
      if (!offer.is_object()) continue;
      cpu_count_only(offer);
      if (offer.contains("as_of") && offer["as_of"].is_string() && price_is_stale(offer["as_of"].get<std::string>(), version))
        offer["stale"] = true;
    }
  }
  if (platform.contains("sources") && platform["sources"].is_array())
    for (auto& source : platform["sources"])
      if (source.is_string()) source = page_source_label(source.get<std::string>());
  if (platform.contains("education")) erase_each(platform["education"], {"name", "eligibility", "source"});
}

}  // namespace

Result<std::string> catalog_profile_json(std::string_view full_json, CatalogProfile profile) {
  // Only a catalog that reads in full can be cut down: its sources were checked.
  Result<Catalog> full = parse_catalog(full_json, CatalogProfile::full);
  if (!full.ok()) return full.error();
  if (profile == CatalogProfile::full) return std::string(full_json);
  ReadErrors errors;
  nlohmann::json root = parse_json_text(full_json, Locale::en, full_json.size() + 1, 64);
  if (!errors.ok()) return errors.first();
  if (root.contains("provenance"))
    return Error{"invalid_catalog", "provenance", "provenance is written by the build, not by catalog/*.json"};
  // Only arrays that are there: platforms[] is optional, and the cut adds nothing.
  nlohmann::json empty = nlohmann::json::array();
  nlohmann::json& gpus = root.contains("gpus") ? root["gpus"] : empty;
  nlohmann::json& models = root.contains("models") ? root["models"] : empty;
  nlohmann::json& platforms = root.contains("platforms") ? root["platforms"] : empty;
  // GPUs: the page shows name, memory and the planner's figures, not the
  // spec sheets behind them or the maintainers' caveats.
  erase_each(gpus, {"sources", "notes"});
  // A card's purchase price: rent or buy shows its source as a label, like an offer's.
  for (auto& gpu : gpus)
    if (gpu.is_object() && gpu.contains("purchase")) shorten_source(gpu["purchase"], "source");
  // Model presets: dimensions only (no sources), and untied embeddings
  // left to their default: every reader takes an absent tied_embeddings as
  // false (catalog.cpp; the page's verify_script.ts reads `=== true`).
  erase_each(models, {"sources"});
  erase_default(models, "tied_embeddings", false);
  for (auto& model : models)
    if (model.is_object() && model.contains("frozen_components")) erase_each(model["frozen_components"], {"sources"});
  // The electricity tariff: the figure rent or buy and the lab's cards use,
  // its source as the label a plan on the lab's cards names (plan.stages[].electricity),
  // without its note (`gpuplan catalog` has it).
  if (root.contains("electricity") && root["electricity"].is_object()) {
    shorten_source(root["electricity"], "source");
    root["electricity"].erase("note");
  }
  for (auto& platform : platforms)
    if (platform.is_object()) cut_platform(platform, full.value().version);
  // Scenarios: their sources as the citation the page shows of each
  // (views/scenario.ts; page_citation above).
  if (root.contains("scenarios") && root["scenarios"].is_array())
    for (auto& scenario : root["scenarios"])
      if (scenario.is_object() && scenario.contains("sources") && scenario["sources"].is_array())
        for (auto& source : scenario["sources"])
          if (source.is_string()) source = page_citation(source.get<std::string>());
  root["provenance"] = "page";
  std::string text = root.dump();
  // The cut copy must read under its own profile.
  Result<Catalog> cut = parse_catalog(text, CatalogProfile::page);
  if (!cut.ok()) return cut.error();
  return text;
}

}  // namespace gpuplan
