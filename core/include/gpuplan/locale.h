// The two languages every user-facing string exists in.
#pragma once

#include <string>
#include <string_view>

namespace gpuplan {

enum class Locale { zh_CN, en };

inline const char* locale_tag(Locale l) { return l == Locale::en ? "en" : "zh-CN"; }

// A locale name as people and browsers write it, case-insensitively: "en",
// "EN", "en-US", "en_US" are English; "zh", "zh-CN", "zh_Hans" Chinese; any
// other name is none of them (false).
inline bool locale_named(std::string_view name, Locale& out) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  if (name.size() < 2 || (name.size() > 2 && name[2] != '-' && name[2] != '_')) return false;
  const char a = lower(name[0]), b = lower(name[1]);
  if (a == 'e' && b == 'n') out = Locale::en;
  else if (a == 'z' && b == 'h') out = Locale::zh_CN;
  else return false;
  return true;
}

// A text in both languages; picked at the edge where the locale is known.
struct Text {
  std::string zh;
  std::string en;
  const std::string& in(Locale l) const { return l == Locale::en ? en : zh; }
};

}  // namespace gpuplan
