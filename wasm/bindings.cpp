// The wasm boundary: free functions taking and returning JSON strings, in the
// spirit of zxing-cpp's wrappers/wasm. Nothing here throws: the module is built
// without exceptions and every failure comes back as an error reply
// (core/src/api.cpp); what Embind refuses (a value that is not a string) it
// throws to JavaScript itself, as a BindingError.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"
#include "gpuplan/request.h"

namespace {

// The request arrives as the JavaScript value itself, so that one over the
// limit is refused before its bytes are copied into the module's memory: a
// string of more UTF-16 units than the limit has bytes has more bytes. Only
// its head (the limit's worth, where its locale is read) is copied.
std::string plan(const emscripten::val& request) {
  if (request.isString() && request["length"].as<double>() > double(gpuplan::kMaxRequestBytes)) {
    std::string head = request.call<emscripten::val>("slice", 0, double(gpuplan::kMaxRequestBytes)).as<std::string>();
    head.resize(gpuplan::kMaxRequestBytes);
    const double size = emscripten::val::global("Buffer").call<double>("byteLength", request, std::string("utf8"));
    return gpuplan::too_large_json(head, std::size_t(size)).json;
  }
  // A value that is not a string is refused here as Embind refuses one.
  return gpuplan::plan_json(request.as<std::string>()).json;
}

std::string catalog() { return std::string(gpuplan::embedded_catalog_json()); }

}  // namespace

EMSCRIPTEN_BINDINGS(gpuplan) {
  emscripten::function("plan", &plan);
  emscripten::function("catalog", &catalog);
}
