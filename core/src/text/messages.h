// Localized message templates for errors and warnings. Placeholders {0}, {1}, ...
// are replaced by the arguments in order. One table, so both languages stay in step.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "gpuplan/locale.h"

namespace gpuplan {

// The arguments are views, read only during the call (a temporary std::string in the call's
// braces lives long enough), so a caller's strings are not copied into a list first.
std::string message(Locale locale, std::string_view code, std::initializer_list<std::string_view> args = {});

// `pattern` with {0}, {1}, ... replaced by the arguments in order: message()'s
// filling, for a table of texts kept elsewhere (the lab's, plan/lab_options.cpp).
std::string fill_template(std::string_view pattern, std::initializer_list<std::string_view> args);

// Number formatting for messages: shortest round-trip-ish text, no exponent for usual sizes.
std::string format_number(double value);

}  // namespace gpuplan
