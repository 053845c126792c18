// Reads the request's `lab` object (docs/api.md, "Lab settings") and
// `prefs.time_value_per_hour`.
#pragma once

#include "gpuplan/catalog.h"
#include "gpuplan/request.h"
#include "read/json_reader.h"

namespace gpuplan {

// The names the request's `lab` object may hold (json_reader.h, strict views).
inline constexpr std::string_view kLabFields[] = {
    "name", "written", "notes", "models", "gpus", "campus", "prices", "budget", "scope", "electricity",
    "electricity_per_kwh", "electricity_currency", "version"};

// The lab's limits (docs/api.md, "Limits").
inline constexpr size_t kMaxLabGpuGroups = 16;
inline constexpr size_t kMaxLabModels = 32;
inline constexpr size_t kMaxLabTextBytes = 4000;  // notes; a name or date is cut at 200

// Reads `lab` into q.lab. Its quotes (lab.prices, lab.campus.prices) join
// q.prices after the student's own, which win; its budget and scope are the
// defaults of a request that names none. `root` is the request's top level.
void read_lab(const Reader& lab, const Reader& root, Request& q, const Catalog& catalog);

}  // namespace gpuplan
