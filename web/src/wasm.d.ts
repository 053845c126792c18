// The page's module (build/wasm/bin/gpuplan.web.mjs from wasm/page_module.mjs,
// aliased in vite.config.mts): a factory that resolves to an object with plan() and catalog().
declare module '@gpuplan/wasm' {
  import type { Planner } from './types.ts';
  const createGpuplan: (options?: Record<string, unknown>) => Promise<Planner>;
  export default createGpuplan;
}

// Stylesheets imported for their side effect; Vite inlines them.
declare module '*.css';

// The page's script and the wasm in one LZMA stream, as base64, with where
// each part lies in it decompressed, and the decoder's wasm, as base64
// (vite.config.mts, packedPage(); web/src/boot.ts, web/src/unpack.ts,
// web/src/lzma.ts, wasm/page_lzma.cpp).
declare module 'virtual:gpuplan-packed' {
  import type { PackLayout } from './unpack.ts';
  const base64: string;
  export const layout: PackLayout;
  export const decoderBase64: string;
  export default base64;
}

// A fresh page's first question, as request text, -> the planner's answer
// text, asked at build time (web/src/first_answer.ts, vite.config.mts).
declare module 'virtual:gpuplan-first-answers' {
  const answers: Readonly<Record<string, string>>;
  export default answers;
}
