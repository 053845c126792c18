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

// vsnprintf's contract for the conversions d i u o x X c s p f F e E g G and
// %%, with the flags - + space # 0, a width and a precision (numbers or *),
// and the length modifiers hh h l ll j z t L (L reads a long double and
// prints it as a double, as Emscripten's own printf does). Returns the length
// of the whole text; writes at most size - 1 characters and a NUL.
int format(char* out, std::size_t size, const char* spec, std::va_list args);

}  // namespace gpuplan::number_text
