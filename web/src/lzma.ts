// LZMA decompression of the planner's wasm, which the page carries
// LZMA-compressed (vite.config.mts: xz --format=lzma; docs/performance.md).
// The decoder is js-lzma (npm js-lzma 0.1.0, MIT), Juan Mellado's port of the
// LZMA SDK's Java decoder. The build runs this same function on the stream it
// made and fails unless it gives the wasm back byte for byte.
import LZMA from 'js-lzma';

// `size`: the decompressed length, known at build time, so the output is one
// typed array instead of a growing list.
export function lzmaDecompress(packed: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let read = 0;
  let written = 0;
  LZMA.decompressFile(
    { readByte: () => (read < packed.length ? packed[read++] : -1) },
    { writeByte: (b: number) => { if (written < size) out[written] = b; written++; } },
  );
  if (written !== size) throw new Error(`LZMA stream gave ${written} bytes, expected ${size}`);
  return out;
}
