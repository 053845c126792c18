// Typed, path-aware reads from parsed JSON. Each failed read throws an
// InputError that carries the field's path and a localized message; the public
// parse functions catch it and return it as a value.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "gpuplan/error.h"
#include "gpuplan/locale.h"

namespace gpuplan {

struct InputError {
  Error error;
};

[[noreturn]] void fail(Locale locale, std::string code, std::string path, std::string text);

// The value as a short JSON snippet for messages (strings quoted, long values cut).
std::string describe(const nlohmann::json& value);

// Parses text with limits on size and nesting depth checked before parsing, so
// hostile input fails fast with a clear error instead of exhausting the stack.
nlohmann::json parse_json_text(std::string_view text, Locale locale, size_t max_bytes, int max_depth);

// A view of one JSON object at a path.
class Reader {
 public:
  Reader(const nlohmann::json& object, std::string path, Locale locale);

  bool has(std::string_view key) const;
  std::string child_path(std::string_view key) const;
  Locale locale() const { return locale_; }
  const std::string& path() const { return path_; }

  std::optional<Reader> object(std::string_view key) const;
  std::optional<std::string> string(std::string_view key) const;
  std::optional<bool> boolean(std::string_view key) const;
  std::optional<double> number(std::string_view key, double min, double max) const;
  std::optional<int> integer(std::string_view key, int64_t min, int64_t max) const;
  // One of the allowed spellings; returns its index in `allowed`.
  std::optional<size_t> choice(std::string_view key, std::initializer_list<std::string_view> allowed) const;
  const nlohmann::json* array(std::string_view key) const;

  const nlohmann::json& json() const { return *object_; }

 private:
  const nlohmann::json* get(std::string_view key) const;
  [[noreturn]] void wrong_type(std::string_view key, const char* type_code, const nlohmann::json& got) const;

  const nlohmann::json* object_;
  std::string path_;
  Locale locale_;
};

// Reader for an element of an array, path "parent[i]"; the element must be an object.
Reader element(const nlohmann::json& array, size_t index, const std::string& array_path, Locale locale);

}  // namespace gpuplan
