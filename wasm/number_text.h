// Decimal text to double and printf-style formatting, exact, for the page's
// module only (wasm/page_libc.cpp puts them behind strtod and snprintf there).
// Why: musl's strtod scans through software 128-bit long double arithmetic
// and its printf carries the whole vfprintf machinery; in the page's module
// the two were the largest part of the page's libc (docs/performance.md,
// "Our own strtod and snprintf", with the measurement). These give the
// same text and the same doubles as any correctly rounding libc (glibc, musl):
// every conversion is computed exactly with big integers and rounded to
// nearest, ties to even. tests/core/number_text_test.cpp compares them with
// the C library of the build (glibc natively, musl under Emscripten).
#pragma once

#include <cstdarg>
#include <cstddef>

namespace gpuplan::number_text {

// strtod's contract for decimal numbers: leading white space, an optional
// sign, digits with an optional '.', an optional exponent; `end` gets the
// first character after the number, or `text` when there is none. The result
// is the double nearest the decimal value (ties to even), ±inf past the
// largest double, ±0 below half the smallest. Hexadecimal floats, "inf" and
// "nan" are not read (nothing in the page's module passes them: nlohmann's
// lexer hands strtod JSON numbers only); they convert nothing, as an invalid
// number does.
double parse_double(const char* text, char** end);

// vsnprintf's contract for what the module's callers ask of it (page_libc.cpp
// names them): the conversions d i u x X (of an int) and f F e E g G, each
// with an optional precision (a number or *), and %%. Anything else, a flag,
// a width, a length modifier or another conversion, is copied as written and
// takes no argument (a general printf cost the page ~1 KB through LZMA,
// docs/performance.md). Returns the length of the whole text; writes at most
// size - 1 characters and a NUL.
int format(char* out, std::size_t size, const char* spec, std::va_list args);

}  // namespace gpuplan::number_text
