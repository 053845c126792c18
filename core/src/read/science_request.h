// Reads the request's `science` object (docs/api.md, "Science fields").
#pragma once

#include "gpuplan/catalog.h"
#include "gpuplan/science.h"
#include "json_reader.h"

namespace gpuplan {

ScienceWorkload read_science(const Reader& r, const Catalog& catalog);

}  // namespace gpuplan
