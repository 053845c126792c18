// Typed, path-aware reads from parsed JSON. A failed read records its error,
// with the field's path and a localized message, in the parse's ReadErrors and
// returns; the public parse functions return the first one as a value.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "gpuplan/limits.h"
#include "gpuplan/error.h"
#include "gpuplan/locale.h"
#include "gpuplan/spelling.h"

namespace gpuplan {

// The first error of one parse (a request, a catalog), kept as JsonWriter
// keeps its first failure (text/json_writer.h): read/ is compiled without
// exceptions like the rest of the core (core/CMakeLists.txt), so a failed read
// records its error here and returns, every Reader accessor answers "absent"
// from then on, and the parse function returns first() once its reads stop.
// One lives on the stack of each parse function and is the thread's sink while
// it lives (the innermost, when one parse runs inside another), so that fail()
// and its callers need not carry it.
class ReadErrors {
 public:
  ReadErrors();
  ~ReadErrors();
  ReadErrors(const ReadErrors&) = delete;
  ReadErrors& operator=(const ReadErrors&) = delete;

  bool ok() const { return !first_; }
  const Error& first() const { return *first_; }
  void record(Error e) {
    if (!first_) first_ = std::move(e);
  }

 private:
  std::optional<Error> first_;
  ReadErrors* outer_;
};

// Whether the parse in progress has failed: code that reads on after a fail()
// must not act on what it read (a preset not found, a field left empty).
bool read_failed();

// Records the error in the parse's ReadErrors (a capital first in English);
// the caller returns. A later error of the same parse is dropped: the first
// is the one a reader stopped at when this threw.
void fail(Locale locale, std::string code, std::string path, std::string text);

// The value as a short JSON snippet for messages (strings quoted, long values cut).
std::string describe(const nlohmann::json& value);

// Parses text with limits on size and nesting depth checked before parsing, so
// hostile input fails fast with a clear error instead of exhausting the stack.
// After a failure, null.
nlohmann::json parse_json_text(std::string_view text, Locale locale, size_t max_bytes, int max_depth);

// The names one JSON object of the request may hold (docs/api.md, "Strict
// input"): a table beside the function that reads the object.
using FieldNames = std::span<const std::string_view>;

// The locale a request asks for, read from its raw text so that errors raised
// before (or instead of) parsing speak it too: the first top-level "locale"
// string, whether or not the rest of the text parses. zh-CN without one (the
// contract's default and the page's own first language).
Locale sniff_locale(std::string_view text);

// A view of one JSON object at a path.
//
// Lenient (the catalog's files): any member may be read and none is checked.
// Strict (the request): the object may hold only the names in its table. A
// member not in it is an `unknown_field` error as soon as the view is made,
// naming the closest known name; reading a name that is not in the table is
// a bug reported as `internal`, so a field cannot be parsed without being
// known. A strict view's child objects are strict too: object(key, names)
// gives the child its table; object(key) gives it none, so any member it
// holds is unknown. Once the parse has failed (read_failed()), every accessor
// returns absent (nullopt, nullptr, false) without reading.
class Reader {
 public:
  Reader(const nlohmann::json& object, std::string path, Locale locale);
  Reader(const nlohmann::json& object, std::string path, Locale locale, FieldNames fields);

  bool has(std::string_view key) const;
  std::string child_path(std::string_view key) const;
  Locale locale() const { return locale_; }
  const std::string& path() const { return path_; }
  // The field at `key` in the student's words (text/field_words.h), for
  // messages; `holder` names this object where its path cannot (a stage by
  // its name, once read).
  std::string words(std::string_view key) const;
  void name_as(std::string holder) { words_ = std::move(holder); }

  std::optional<Reader> object(std::string_view key) const;
  std::optional<Reader> object(std::string_view key, FieldNames fields) const;
  std::optional<std::string> string(std::string_view key) const;
  std::optional<bool> boolean(std::string_view key) const;
  std::optional<double> number(std::string_view key, double min, double max) const;
  std::optional<int> integer(std::string_view key, int64_t min, int64_t max) const;
  // The field of a limit (gpuplan/limits.h), read with its bounds.
  std::optional<double> number(const Limit& l) const { return number(l.key(), l.min, l.max); }
  std::optional<int> integer(const Limit& l) const { return integer(l.key(), int64_t(l.min), int64_t(l.max)); }
  // One of the allowed spellings; returns its index in `allowed`.
  std::optional<size_t> choice(std::string_view key, std::initializer_list<std::string_view> allowed) const;
  // One of an enum's spellings (gpuplan/spelling.h): the value its table
  // stores for it; anything else is `unknown_value` listing the table.
  template <class E, std::size_t N>
  std::optional<E> spelled(std::string_view key, const Spelling<E> (&table)[N]) const {
    auto s = string(key);
    if (!s) return std::nullopt;
    if (auto v = value_of(table, *s)) return v;
    std::string list;
    for (const auto& t : table) list += (list.empty() ? "" : ", ") + std::string(t.name);
    unknown_value(key, list);
    return std::nullopt;
  }
  const nlohmann::json* array(std::string_view key) const;
  // An array of at most max_items entries; a longer one is `out_of_range` at
  // once, before any entry is read (docs/api.md, "Limits").
  const nlohmann::json* array(std::string_view key, size_t max_items) const;

  const nlohmann::json& json() const { return *object_; }
  bool strict() const { return strict_; }

 private:
  const nlohmann::json* get(std::string_view key) const;
  void reject_unknown() const;
  void wrong_type(std::string_view key, const char* type_code, const nlohmann::json& got) const;
  void unknown_value(std::string_view key, const std::string& allowed) const;

  const nlohmann::json* object_;
  std::string path_;
  Locale locale_;
  bool strict_ = false;
  FieldNames fields_;
  std::string words_;
};

// Reader for an element of an array, path "parent[i]"; the element must be an
// object (one that is not is the error, and the Reader views an empty object).
// With `fields`, a strict view of it.
Reader element(const nlohmann::json& array, size_t index, const std::string& array_path, Locale locale);
Reader element(const nlohmann::json& array, size_t index, const std::string& array_path, Locale locale,
               FieldNames fields);

// The known name closest to `name` (edit distance after folding case and
// '-' to '_'), or empty when none is close enough to be a likely typo.
std::string_view closest_name(std::string_view name, FieldNames known);

}  // namespace gpuplan
