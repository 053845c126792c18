// A request field named as the student knows it, in the request's language:
// "stages[1].runs" is "正式实验阶段的运行次数" / "the number of runs of the
// formal-experiments stage". Messages name fields only so; the machine path
// stays in the error's `path` (docs/api.md, "Errors").
#pragma once

#include <string>
#include <string_view>

#include "gpuplan/locale.h"

namespace gpuplan {

// `holder`: the words of the object holding the field where the reader knows
// better than the path (a stage by its name); empty: from the path.
std::string field_words(Locale locale, std::string_view path, std::string_view holder = {});

// A figure of the field in the unit the student enters it in ("1.5 GiB" for
// baseline.memory_bytes), or the plain number.
std::string field_amount(Locale locale, std::string_view path, double value);
bool field_has_unit(std::string_view path);

}  // namespace gpuplan
