// Reading a catalog model's "architecture" object (docs/catalog.md), with each
// field checked and errors naming its path, e.g.
// "models[3].architecture.channel_mult[2]".
#pragma once

#include "gpuplan/architecture.h"
#include "json_reader.h"

namespace gpuplan {

// Catalog: errors are "invalid_catalog" with the English reason. Request
// (`model.architecture` for kind cnn): a localized "inconsistent" error
// naming the field, in the reader's locale.
enum class ArchitectureSource { catalog, request };
CnnArchitecture read_cnn_architecture(const Reader& r, ArchitectureSource source = ArchitectureSource::catalog);

}  // namespace gpuplan
