// The OOM doctor's part of the response: remedies as request patches with
// their new memory and time, and the speed tips, in the request's locale.
#pragma once

#include <nlohmann/json.hpp>

#include "gpuplan/locale.h"
#include "gpuplan/oom_doctor.h"

namespace gpuplan {

nlohmann::json to_json(const Diagnosis& diagnosis, Locale locale);

}  // namespace gpuplan
