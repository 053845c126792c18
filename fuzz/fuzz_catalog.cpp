// Fuzzes catalog parsing and validation: any text is either a valid catalog or
// an error naming a path; nothing crashes or leaks.
#include <cstdint>
#include <string_view>

#include "gpuplan/catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpuplan::Result<gpuplan::Catalog> catalog = gpuplan::parse_catalog(text);
  if (catalog.ok()) {
    for (const auto& g : catalog.value().gpus) (void)catalog.value().find_gpu(g.id);
  }
  return 0;
}
