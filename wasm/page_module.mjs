// The page's module: the planner's wasm (wasm/page_api.cpp, linked standalone:
// no Emscripten glue) and the few lines that start it. wasm/make_page_module.mjs
// writes build/wasm/bin/gpuplan.web.mjs from this file with the wasm embedded
// as base64 where WASM_DATA_URI stands (the page's build drops that copy and
// hands the wasm over itself: vite.config.mts, web/src/main.ts).
// createGpuplan({ wasmBinary }) (or { wasmModule }, a promise of the compiled
// module, as the page's boot script hands it) resolves to { plan(json), catalog() }, the two
// functions the Embind modules offer (wasm/bindings.cpp), taking and giving
// the same strings. Why not Emscripten's glue: for two UTF-8 strings in and out
// it carries a runtime the page never uses (~2 KB of the compressed page;
// docs/performance.md).
const embedded = 'WASM_DATA_URI';

// A string's UTF-8 bytes exactly as Embind's std::string gets them
// (Emscripten's stringToUTF8): a lone surrogate takes the next unit as its
// pair, and the planner then reports the invalid UTF-8 as it does for the
// Node module. TextEncoder, which writes U+FFFD there, gives the same bytes
// for every well-formed string, so it does those.
const encoder = new TextEncoder();
function utf8(text) {
  if (text.isWellFormed?.()) return encoder.encode(text);
  const out = [];
  for (let i = 0; i < text.length; ++i) {
    let u = text.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdfff) u = (0x10000 + ((u & 0x3ff) << 10)) | (text.charCodeAt(++i) & 0x3ff);
    if (u < 0x80) out.push(u);
    else if (u < 0x800) out.push(0xc0 | (u >> 6), 0x80 | (u & 63));
    else if (u < 0x10000) out.push(0xe0 | (u >> 12), 0x80 | ((u >> 6) & 63), 0x80 | (u & 63));
    else out.push(0xf0 | (u >> 18), 0x80 | ((u >> 12) & 63), 0x80 | ((u >> 6) & 63), 0x80 | (u & 63));
  }
  return Uint8Array.from(out);
}

export default async function createGpuplan(options = {}) {
  const binary = options.wasmModule ? null : options.wasmBinary
    ?? Uint8Array.from(atob(embedded.slice(embedded.indexOf(',') + 1)), (c) => c.charCodeAt(0));
  const imports = {
    // Memory views are made per call, so growing needs no notice.
    env: { emscripten_notify_memory_growth() {} },
    // Reached only through abort(): a trap, as in Emscripten's own glue.
    wasi_snapshot_preview1: { proc_exit(code) { throw new WebAssembly.RuntimeError(`Aborted(${code})`); } },
  };
  const instance = options.wasmModule
    ? await WebAssembly.instantiate(await options.wasmModule, imports)
    : (await WebAssembly.instantiate(binary, imports)).instance;
  const wasm = instance.exports;
  wasm._initialize();
  const decoder = new TextDecoder();
  const reply = (ptr) => decoder.decode(new Uint8Array(wasm.memory.buffer, ptr, wasm.gpuplan_reply_size()));
  const limit = wasm.gpuplan_request_limit();
  // Bytes of UTF-8 a string takes, counted without making them: its units,
  // plus what each run of non-ASCII adds (a regular expression skips the
  // ASCII natively, several times faster than a loop over 100 M units).
  const utf8Length = (text) => {
    let n = text.length;
    const wide = /[^\x00-\x7f]+/g;
    for (let m = wide.exec(text); m; m = wide.exec(text)) {
      const run = m[0];
      for (let i = 0; i < run.length; ++i) {
        const u = run.charCodeAt(i);
        if (u < 0x800) n += 1;
        else if (u >= 0xd800 && u <= 0xdfff) {
          // As utf8() reads it: with the next unit, four bytes (an ASCII next
          // unit, outside the run, is already counted; none at all adds one).
          n += 2;
          if (i + 1 < run.length) ++i;
          else if (m.index + run.length === text.length) n += 1;
        } else n += 2;
      }
    }
    return n;
  };
  const call = (bytes, run) => {
    const ptr = wasm.malloc(bytes.length + 1);
    new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
    try {
      return reply(run(ptr));
    } finally {
      wasm.free(ptr);
    }
  };
  return {
    plan(requestJson) {
      // A string of more units than the limit has bytes, has more bytes:
      // refused with only its head copied in (its locale is read there).
      if (requestJson.length > limit) {
        const head = utf8(requestJson.slice(0, limit)).subarray(0, limit);
        return call(head, (ptr) => wasm.gpuplan_too_large(ptr, head.length, utf8Length(requestJson)));
      }
      const bytes = utf8(requestJson);
      return call(bytes, (ptr) => wasm.gpuplan_plan(ptr, bytes.length));
    },
    catalog() {
      return reply(wasm.gpuplan_catalog());
    },
  };
}
