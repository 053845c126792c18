// The page module's own strtod and snprintf (wasm/number_text.cpp) against
// the C library of this build: glibc natively, musl under Emscripten. Both
// round correctly, so every result must be the same bit for bit and every
// text the same byte for byte; the page's answers stay identical to the CLI's.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "number_text.h"

namespace {

using gpuplan::number_text::format;
using gpuplan::number_text::parse_double;

std::uint64_t bits_of(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

void expect_parse_like_libc(const std::string& text) {
  char* libc_end = nullptr;
  char* our_end = nullptr;
  const double libc = std::strtod(text.c_str(), &libc_end);
  const double ours = parse_double(text.c_str(), &our_end);
  ASSERT_EQ(bits_of(ours), bits_of(libc)) << text << ": " << ours << " vs " << libc;
  ASSERT_EQ(our_end - text.c_str(), libc_end - text.c_str()) << text;
}

// Both formatters over the same arguments.
struct Texts {
  std::string ours, libc;
  int our_n = 0, libc_n = 0;
};
Texts both(const char* spec, ...) {
  Texts t;
  char a[2048], b[2048];
  std::va_list args, copy;
  va_start(args, spec);
  va_copy(copy, args);
  t.our_n = format(a, sizeof a, spec, args);
  t.libc_n = std::vsnprintf(b, sizeof b, spec, copy);
  va_end(copy);
  va_end(args);
  t.ours = a;
  t.libc = b;
  return t;
}
#define EXPECT_FORMAT_LIKE_LIBC(...)                                   \
  do {                                                                 \
    const Texts t_ = both(__VA_ARGS__);                                \
    ASSERT_EQ(t_.ours, t_.libc) << #__VA_ARGS__;                       \
    ASSERT_EQ(t_.our_n, t_.libc_n) << #__VA_ARGS__;                    \
  } while (0)

std::string digits_string(std::mt19937_64& rng, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += static_cast<char>('0' + rng() % 10);
  return s;
}

TEST(NumberText, ParsesEdgeCasesLikeLibc) {
  const std::vector<std::string> cases = {
      "0", "-0", "+0", "0.0", "-0.0e10", "1", "-1", "0.1", "0.2", "0.3", "1.98", "6.7894", "2.5e-3",
      "123456789012345678901234567890", "1e22", "1e23", "9007199254740992", "9007199254740993",
      "9007199254740995", "9007199254740993.000000000000000000000000001", "1.7976931348623157e308",
      "1.7976931348623158e308", "1.7976931348623159e308", "1e308", "1e309", "1e400", "-1e400",
      "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
      "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
      "2.47032822920623272088e-324", "1e-320", "1e-324", "1e-400", "5e-324", "3e-324",
      "1e99999999999999", "1e-99999999999999", "0.000000000000000000000000000000000001",
      "12.", ".5", "5.", "-.5", "1e", "1e+", "1e-", "1.5e+3x", " \t\n12", "", "-", "+", ".", "e5", "x",
      "00000000000000000000123", "1.0000000000000000000000000000000000001",
      "0.30000000000000004", "0.30000000000000005", "4.35", "1e-5", "123.456e-7",
  };
  for (const auto& c : cases) expect_parse_like_libc(c);
}

TEST(NumberText, ParsesLongDigitStringsLikeLibc) {
  std::mt19937_64 rng(20261201);
  // Past the 800 digits kept: the sticky digit decides, and a halfway point
  // followed by zeros only or by a late nonzero digit rounds apart.
  const std::string half = "9007199254740993";
  expect_parse_like_libc(half + "." + std::string(1200, '0'));
  expect_parse_like_libc(half + "." + std::string(1200, '0') + "1");
  expect_parse_like_libc(half + std::string(900, '0') + "e-900");
  expect_parse_like_libc(half + std::string(900, '0') + "1e-901");
  for (int i = 0; i < 300; ++i) {
    const int n = 1 + static_cast<int>(rng() % 1000);
    const int e = static_cast<int>(rng() % 700) - 350 - n / 2;
    expect_parse_like_libc(digits_string(rng, n) + "e" + std::to_string(e));
  }
}

TEST(NumberText, ParsesRandomNumbersLikeLibc) {
  std::mt19937_64 rng(7);
  char buf[64];
  for (int i = 0; i < 100000; ++i) {
    // A random finite double, written with 1 to 19 significant digits.
    double x = 0;
    do {
      const std::uint64_t b = rng();
      std::memcpy(&x, &b, sizeof x);
    } while (!std::isfinite(x));
    std::snprintf(buf, sizeof buf, "%.*e", static_cast<int>(rng() % 19), x);
    expect_parse_like_libc(buf);
    // Short decimals as a catalog and a request write them.
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(rng() % 6), std::ldexp(static_cast<double>(rng() % 100000), -static_cast<int>(rng() % 12)));
    expect_parse_like_libc(buf);
  }
}

TEST(NumberText, ParsesHalfwayIntegersToEven) {
  // Between 2^53 and 2^64 the midpoint of two neighbouring doubles is an
  // integer: exactly halfway, and one above and below it.
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const int shift = 53 + static_cast<int>(rng() % 10);
    const std::uint64_t m = (std::uint64_t{1} << 52) | (rng() & ((std::uint64_t{1} << 52) - 1));
    const std::uint64_t lo = m << (shift - 52);
    const std::uint64_t mid = lo + (std::uint64_t{1} << (shift - 53));
    for (std::uint64_t v : {mid - 1, mid, mid + 1}) expect_parse_like_libc(std::to_string(v));
    expect_parse_like_libc(std::to_string(mid) + ".00000000000000000000000000001");
  }
}

TEST(NumberText, FormatsDoublesLikeLibc) {
  std::mt19937_64 rng(3);
  const std::vector<double> fixed_cases = {
      0.0, -0.0, 0.5, 1.5, 2.5, 3.5, -2.5, 0.125, 0.375, 1e21, 1e22, 123456789.125, 5e-324, 2.2250738585072014e-308,
      DBL_MAX, 0.1, 0.05, 0.15, 0.25, 0.35, 9.995, 9.9999999, 999999.5, 0.000123456, 1e-5, 1e-4, 100000, 1e6, 1e7,
      HUGE_VAL, -HUGE_VAL, std::nan(""),
  };
  std::vector<double> values = fixed_cases;
  for (int i = 0; i < 4000; ++i) {
    // Magnitudes the planner prints (hours, yuan, GiB, ratios) and any double.
    values.push_back((rng() % 2 ? -1 : 1) * std::ldexp(static_cast<double>(rng() >> 11), -53) * std::pow(10.0, static_cast<int>(rng() % 24) - 8));
    std::uint64_t b = rng();
    double x = 0;
    std::memcpy(&x, &b, sizeof x);
    values.push_back(x);
  }
  for (double v : values) {
    for (int p : {0, 1, 2, 3, 6, 15}) EXPECT_FORMAT_LIKE_LIBC("%.*f", p, v);
    EXPECT_FORMAT_LIKE_LIBC("%.0f", v);
    EXPECT_FORMAT_LIKE_LIBC("%.2g", v);
    EXPECT_FORMAT_LIKE_LIBC("%.6g", v);
    EXPECT_FORMAT_LIKE_LIBC("%.17g", v);
    EXPECT_FORMAT_LIKE_LIBC("%g|%G|%e|%.3E|%f|%F|%.0e|%.10g", v, v, v, v, v, v, v, v);
  }
}

TEST(NumberText, FormatsIntegersLikeLibc) {
  for (int c = 0; c < 256; ++c) EXPECT_FORMAT_LIKE_LIBC("<U+%.4X>", static_cast<unsigned char>(c));
  for (int v : {0, 1, -1, 42, -42, 2147483647, -2147483647 - 1}) {
    EXPECT_FORMAT_LIKE_LIBC("%d|%.3d|%.0d|%i|%.*d", v, v, v, v, 5, v);
    EXPECT_FORMAT_LIKE_LIBC("%u|%x|%X|\\u%.4x|%.0u|%%", v, v, v, v, v);
  }
  EXPECT_FORMAT_LIKE_LIBC("no conversion at all");
  // The whole length comes back even when the buffer is short.
  const int ours = [&] {
    char out[4];
    auto call = [&](const char* spec, ...) {
      std::va_list args;
      va_start(args, spec);
      const int n = format(out, sizeof out, spec, args);
      va_end(args);
      return n;
    };
    const int n = call("%d", 123456);
    EXPECT_STREQ(out, "123");
    return n;
  }();
  EXPECT_EQ(ours, 6);
}

// Only what the module's callers ask for is converted (number_text.h): a
// flag, a width, a length modifier or another conversion is copied as it
// stands and takes no argument, so a new caller's text shows what it lacks.
TEST(NumberText, CopiesWhatItDoesNotConvertAsWritten) {
  char out[64];
  auto call = [&](const char* spec, ...) {
    std::va_list args;
    va_start(args, spec);
    format(out, sizeof out, spec, args);
    va_end(args);
    return std::string(out);
  };
  EXPECT_EQ(call("%5d|%-x|%lld|%s|%c|%d", 7), "%5d|%-x|%lld|%s|%c|7");
  EXPECT_EQ(call("%+.2f|%.2f", 1.5), "%+.2f|1.50");
}

}  // namespace
