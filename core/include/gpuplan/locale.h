// The two languages every user-facing string exists in.
#pragma once

#include <string>
#include <string_view>

namespace gpuplan {

enum class Locale { zh_CN, en };

inline const char* locale_tag(Locale l) { return l == Locale::en ? "en" : "zh-CN"; }

// A text in both languages; picked at the edge where the locale is known.
struct Text {
  std::string zh;
  std::string en;
  const std::string& in(Locale l) const { return l == Locale::en ? en : zh; }
};

}  // namespace gpuplan
