// Reading a catalog model's "architecture" object (docs/catalog.md), with each
// field checked and errors naming its path, e.g.
// "models[3].architecture.channel_mult[2]".
#pragma once

#include "gpuplan/architecture.h"
#include "read/json_reader.h"

namespace gpuplan {

// Catalog: errors are "invalid_catalog" with the English reason. Request
// (`model.architecture` for kind cnn): a localized "inconsistent" error
// naming the field, in the reader's locale.
enum class ArchitectureSource { catalog, request };
CnnArchitecture read_cnn_architecture(const Reader& r, ArchitectureSource source = ArchitectureSource::catalog);

// The names `architecture` may hold for the family it names (every family's
// names when the family is missing or unknown, so that the family's own error
// comes first): the table of a strict view of it (json_reader.h), from the
// object holding `architecture`.
FieldNames cnn_architecture_fields(const nlohmann::json& parent);

}  // namespace gpuplan
