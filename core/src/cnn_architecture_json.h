// Reading a catalog model's "architecture" object (docs/catalog.md), with each
// field checked and errors naming its path, e.g.
// "models[3].architecture.channel_mult[2]".
#pragma once

#include "gpuplan/architecture.h"
#include "json_reader.h"

namespace gpuplan {

CnnArchitecture read_cnn_architecture(const Reader& r);

}  // namespace gpuplan
