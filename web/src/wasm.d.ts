// The Emscripten ES module (build/wasm/bin/gpuplan.web.mjs, aliased in
// vite.config.mts): a factory that resolves to the module with plan() and catalog().
declare module '@gpuplan/wasm' {
  import type { Planner } from './types';
  const createGpuplan: (options?: Record<string, unknown>) => Promise<Planner>;
  export default createGpuplan;
}

// Stylesheets imported for their side effect; Vite inlines them.
declare module '*.css';

// base64 of the gzip-compressed wasm (vite.config.mts, compressedWasm()).
declare module 'virtual:gpuplan-wasm-gz' {
  const base64: string;
  export default base64;
}
