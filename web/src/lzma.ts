// LZMA decompression of the page's one stream (vite.config.mts, packedPage())
// by the page's own decoder, a small freestanding wasm module
// (wasm/page_lzma.cpp, written from the LZMA SDK's specification). Why wasm:
// the stream is decoded once, cold, before any of the page's code runs, and
// V8 runs a cold JavaScript decoder about half as fast (docs/performance-log.md,
// "The first figure"). The build runs this same code on the stream it made
// and fails unless it gives the page back byte for byte.

// The stream's first `bytes` bytes, decoded: fewer than the whole pauses the
// decoder there, the whole (`size`) decodes to the stream's end and checks
// it. A later call goes on where the last stopped and must ask for more.
export type LzmaReader = (bytes: number) => Uint8Array;

// `decoder`: the module's bytes; `size`: the decompressed length, known at
// build time. A synchronous compile: the module is under the 4 KB that
// browsers allow on the main thread.
export function lzmaReader(decoder: Uint8Array<ArrayBuffer>, packed: Uint8Array, size: number): LzmaReader {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(decoder));
  const memory = exports.memory as WebAssembly.Memory;
  // Past the module's own stack: the probability tables, the stream, then
  // the output. The tables' room holds those of lc + lp <= 4, all the decoder
  // accepts (wasm/page_lzma.cpp): (1846 + 0x300 << 4) 16-bit entries.
  const probsBytes = 32768;
  const probs = memory.buffer.byteLength;
  const at = probs + probsBytes;
  memory.grow(Math.ceil((probsBytes + packed.length + size) / 65536));
  new Uint8Array(memory.buffer).set(packed, at);
  const start = exports.lzma_start as (packed: number, packedSize: number, out: number, size: number, probs: number) => number;
  const decode = exports.lzma_decode as (limit: number) => number;
  const broken = () => new Error('LZMA stream broken');
  if (start(at, packed.length, at + packed.length, size, probs) !== 0) throw broken();
  let decoded = 0;
  let ended = false;
  return (bytes) => {
    const whole = bytes >= size;
    if (whole ? !ended : bytes > decoded) {
      decoded = decode(whole ? size : bytes);
      if (whole ? decoded !== size : decoded < bytes) throw broken();
      ended = whole;
    }
    return new Uint8Array(memory.buffer, at + packed.length, whole ? size : bytes);
  };
}

export function lzmaDecompress(decoder: Uint8Array<ArrayBuffer>, packed: Uint8Array, size: number): Uint8Array {
  return lzmaReader(decoder, packed, size)(size);
}
