// The Emscripten ES module (build/wasm/bin/gpuplan.web.mjs, aliased in
// vite.config.mts): a factory that resolves to the module with plan() and catalog().
declare module '@gpuplan/wasm' {
  import type { Planner } from './types';
  const createGpuplan: (options?: Record<string, unknown>) => Promise<Planner>;
  export default createGpuplan;
}

// Stylesheets imported for their side effect; Vite inlines them.
declare module '*.css';

// The LZMA-compressed wasm as base64, and its length decompressed
// (vite.config.mts, compressedWasm(); web/src/lzma.ts).
declare module 'virtual:gpuplan-wasm-lzma' {
  const base64: string;
  export const size: number;
  export default base64;
}
