// The catalog compiled into this build: JSON text generated at build time by
// tools/catalog_embed.cpp (already validated), parsed once on first use.
#include <cstdlib>
#include <string_view>
#include <utility>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"

namespace gpuplan {

extern const char kEmbeddedCatalogJson[];
extern const std::size_t kEmbeddedCatalogJsonSize;
extern const CatalogProfile kEmbeddedCatalogProfile;  // page only in the page's module

std::string_view embedded_catalog_json() { return {kEmbeddedCatalogJson, kEmbeddedCatalogJsonSize}; }
CatalogProfile embedded_catalog_profile() { return kEmbeddedCatalogProfile; }

const Catalog& embedded_catalog() {
  static const Catalog catalog = [] {
    Result<Catalog> parsed = parse_catalog(embedded_catalog_json(), kEmbeddedCatalogProfile);
    // The build validated this exact text; failing here means a broken build.
    if (!parsed.ok()) std::abort();
    return std::move(parsed.value());  // the parse's catalog itself, not a copy of its every vector
  }();
  return catalog;
}

JsonReply plan_json(std::string_view request_json) { return plan_json(request_json, embedded_catalog()); }

}  // namespace gpuplan
