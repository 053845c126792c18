// The wasm boundary: free functions taking and returning JSON strings, in the
// spirit of zxing-cpp's wrappers/wasm. plan_json never throws (core/src/read/api.cpp);
// the catch here is the last line of defence so JavaScript never sees a bare
// exception pointer.
#include <emscripten/bind.h>

#include <string>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"

namespace {

std::string plan(const std::string& request_json) {
  try {
    return gpuplan::plan_json(request_json).json;
  } catch (...) {
    return R"({"error":{"code":"internal","path":"","message":"internal error"}})";
  }
}

std::string catalog() { return std::string(gpuplan::embedded_catalog_json()); }

}  // namespace

EMSCRIPTEN_BINDINGS(gpuplan) {
  emscripten::function("plan", &plan);
  emscripten::function("catalog", &catalog);
}
