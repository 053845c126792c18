// Localized message templates for errors and warnings. Placeholders {0}, {1}, ...
// are replaced by the arguments in order. One table, so both languages stay in step.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "gpuplan/locale.h"

namespace gpuplan {

std::string message(Locale locale, std::string_view code, std::initializer_list<std::string> args = {});

// Number formatting for messages: shortest round-trip-ish text, no exponent for usual sizes.
std::string format_number(double value);

}  // namespace gpuplan
