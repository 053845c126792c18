// Reads the request's `science` object (docs/api.md, "Science fields").
#pragma once

#include "gpuplan/catalog.h"
#include "gpuplan/science.h"
#include "read/json_reader.h"

namespace gpuplan {

// The names the request's `science` object may hold (json_reader.h, strict views).
inline constexpr std::string_view kScienceFields[] = {"kind", "precision", "bound", "baseline", "job", "memory_gb"};

ScienceWorkload read_science(const Reader& r, const Catalog& catalog);

}  // namespace gpuplan
