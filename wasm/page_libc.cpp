// The page's module's strtod and snprintf (and the functions that live in
// the same musl objects, so that the linker takes none of musl's): the exact
// conversions of number_text.cpp instead of musl's, which carry software
// 128-bit long double arithmetic (strtod) and the whole vfprintf machinery.
// Linked into gpuplan_wasm_web only (wasm/CMakeLists.txt); the CLI, the Node
// module and the test suites keep their C library, and
// tests/core/number_text_test.cpp holds these to it. Callers in the module:
// nlohmann's lexer (strtod on JSON numbers, snprintf "<U+%.4X>"), the core's
// number texts (snprintf "%.*f", "%.0f", "%.2g", "%.6g").
#include <cstdarg>
#include <cstddef>

#include "number_text.h"

extern "C" {

double strtod(const char* text, char** end) { return gpuplan::number_text::parse_double(text, end); }

// Not called in the module (std::stof and std::stold, which reference them,
// are not used); here because musl defines them beside strtod. strtof rounds
// twice (to double, then to float), which can differ from a direct rounding
// in the last bit; strtold gives a double's precision.
float strtof(const char* text, char** end) { return static_cast<float>(gpuplan::number_text::parse_double(text, end)); }
long double strtold(const char* text, char** end) { return gpuplan::number_text::parse_double(text, end); }

int vsnprintf(char* out, std::size_t size, const char* format, std::va_list args) {
  return gpuplan::number_text::format(out, size, format, args);
}

int snprintf(char* out, std::size_t size, const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  const int n = gpuplan::number_text::format(out, size, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
