// How a contract enum is spelled in JSON: one table per enum, written beside
// the enum's definition, that the request parser, the response writer, the
// error messages ("must be one of: …") and the page (web/src/spellings.ts,
// generated from these tables by tests/core/spellings_test.cpp) all read.
// Parsing looks a spelling up by its text and gets the enum value stored in
// the table, never a position in a list, so reordering a table changes no
// meaning; an alias (`fsdp` for zero3) is accepted when read and never written.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace gpuplan {

template <class E>
struct Spelling {
  E value;
  std::string_view name;
  bool alias = false;
};

// The compile-time check beside each table: every value from the first to
// `last` has exactly one spelling that is not an alias, no entry names a
// value past `last`, and no two entries share a name. `last` is the enum's
// last enumerator, named at the check right under the enum, so that a value
// added to the enum without its spelling fails to compile.
template <class E, std::size_t N>
constexpr bool spells_each_once(const Spelling<E> (&table)[N], E last) {
  const std::size_t count = static_cast<std::size_t>(last) + 1;
  for (std::size_t v = 0; v < count; ++v) {
    std::size_t canonical = 0;
    for (const auto& s : table)
      if (static_cast<std::size_t>(s.value) == v && !s.alias) ++canonical;
    if (canonical != 1) return false;
  }
  for (std::size_t i = 0; i < N; ++i) {
    if (static_cast<std::size_t>(table[i].value) >= count || table[i].name.empty()) return false;
    for (std::size_t j = i + 1; j < N; ++j)
      if (table[i].name == table[j].name) return false;
  }
  return true;
}

// The value's canonical spelling ("" for a value the table lacks, which the
// check above rules out).
template <class E, std::size_t N>
constexpr std::string_view spelling_of(const Spelling<E> (&table)[N], E value) {
  for (const auto& s : table)
    if (s.value == value && !s.alias) return s.name;
  return {};
}

// The value a spelling stands for, aliases included.
template <class E, std::size_t N>
constexpr std::optional<E> value_of(const Spelling<E> (&table)[N], std::string_view name) {
  for (const auto& s : table)
    if (s.name == name) return s.value;
  return std::nullopt;
}

}  // namespace gpuplan
