// The layout of the page's LZMA stream (vite.config.mts, packedPage()): the
// page's script, then the wasm's data section, then the rest of the wasm.
// The data section is text (the catalog, the messages) and compresses better
// beside the script's text than after the wasm's code.
export interface PackLayout {
  jsBytes: number; // the script's UTF-8 text, first
  dataBytes: number; // the wasm's data section, next
  dataAt: number; // where that section stands in the wasm
  totalBytes: number; // the whole stream decompressed
  catalogAt: number; // where the catalog's JSON text stands in the stream (in the data section)
  catalogBytes: number; // its length
}

// The wasm back in its own order, from the decompressed stream.
export function unpackWasm(bytes: Uint8Array, layout: PackLayout): Uint8Array<ArrayBuffer> {
  const data = bytes.subarray(layout.jsBytes, layout.jsBytes + layout.dataBytes);
  const rest = bytes.subarray(layout.jsBytes + layout.dataBytes);
  const wasm = new Uint8Array(rest.length + data.length);
  wasm.set(rest.subarray(0, layout.dataAt));
  wasm.set(data, layout.dataAt);
  wasm.set(rest.subarray(layout.dataAt), layout.dataAt + data.length);
  return wasm;
}
