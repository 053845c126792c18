// The Emscripten ES module (build/wasm/bin/gpuplan.web.mjs, aliased in
// vite.config.mts): a factory that resolves to the module with plan() and catalog().
declare module '@gpuplan/wasm' {
  import type { Planner } from './types';
  const createGpuplan: (options?: Record<string, unknown>) => Promise<Planner>;
  export default createGpuplan;
}

// Stylesheets imported for their side effect; Vite inlines them.
declare module '*.css';

// The page's script and the wasm in one LZMA stream, as base64, with the
// script's length and the whole length decompressed (vite.config.mts,
// packedPage(); web/src/boot.ts, web/src/lzma.ts).
declare module 'virtual:gpuplan-packed' {
  const base64: string;
  export const jsBytes: number;
  export const totalBytes: number;
  export default base64;
}
