// plan(json) -> json and catalog() -> json on the page's module (a --post-js
// of gpuplan_wasm_web, wasm/CMakeLists.txt), over the C functions of
// wasm/page_api.cpp: the same two functions, taking and giving the same
// strings, as the Embind modules' (wasm/bindings.cpp). Strings cross as
// UTF-8, as Embind's std::string does (stringToUTF8 in, UTF8ToString out).
function gpuplanReply(ptr) {
  return UTF8ToString(ptr, _gpuplan_reply_size());
}
Module['plan'] = function (requestJson) {
  var size = lengthBytesUTF8(requestJson);
  var ptr = _malloc(size + 1);
  stringToUTF8(requestJson, ptr, size + 1);
  try {
    return gpuplanReply(_gpuplan_plan(ptr, size));
  } finally {
    _free(ptr);
  }
};
Module['catalog'] = function () {
  return gpuplanReply(_gpuplan_catalog());
};
