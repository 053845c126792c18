// The page's module boundary without Embind: two C functions over UTF-8
// buffers, wrapped as plan(json) -> json and catalog() -> json by
// wasm/page_module.mjs, so the page and the tests call the same two functions
// the Embind modules offer (wasm/bindings.cpp). Embind's glue registers every
// builtin type and builds its invokers at start; the page needs two strings
// in and out, and without Embind its module and glue are smaller
// (docs/performance.md).
#include <emscripten/emscripten.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"
#include "gpuplan/request.h"

namespace {
// The last answer, kept until the next call so JavaScript can copy it out.
std::string last_reply;
}  // namespace

extern "C" {

// The request is `size` bytes of UTF-8 at `request`; the answer stays valid
// until the next call, its length in gpuplan_reply_size().
EMSCRIPTEN_KEEPALIVE const char* gpuplan_plan(const char* request, std::size_t size) {
  // Nothing below throws: the page's module is built without exceptions, and
  // every failure comes back as an error reply (core/src/api.cpp).
  last_reply = gpuplan::plan_json(std::string_view(request, size)).json;
  return last_reply.data();
}

// A request over the limit, refused before it is copied: `head` is its first
// bytes (at most the limit), where the locale is read; `size` its whole size.
EMSCRIPTEN_KEEPALIVE const char* gpuplan_too_large(const char* head, std::size_t head_size, double size) {
  last_reply = gpuplan::too_large_json(std::string_view(head, head_size), std::size_t(size)).json;
  return last_reply.data();
}

// The largest request plan() reads, in UTF-8 bytes (gpuplan/request.h).
EMSCRIPTEN_KEEPALIVE std::size_t gpuplan_request_limit() { return gpuplan::kMaxRequestBytes; }

EMSCRIPTEN_KEEPALIVE const char* gpuplan_catalog() {
  const std::string_view text = gpuplan::embedded_catalog_json();
  last_reply.assign(text.data(), text.size());
  return last_reply.data();
}

EMSCRIPTEN_KEEPALIVE std::size_t gpuplan_reply_size() { return last_reply.size(); }

}  // extern "C"
