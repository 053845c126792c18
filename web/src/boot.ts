// The page's only script as served: it decodes one LZMA stream that carries
// the page's JavaScript and the planner's wasm, keeps a copy of the page as it
// arrived (for "download this page"), hands both to the page's code and runs
// that code as an inline module script, which the page's CSP admits by its
// hash (vite.config.mts, packedPage()). Why: LZMA over the whole script and
// the wasm together is smaller than gzip over the script beside the
// compressed wasm (docs/performance.md, "What the page carries").
import packedBase64, { decoderBase64, layout } from 'virtual:gpuplan-packed';
import { lzmaReader } from './lzma.ts';
import { dropOversizedLink, opensOnOwnForm } from './opening.ts';
import { unpackWasm } from './unpack.ts';

// What main.ts takes over.
export interface Handoff {
  // The page's catalog (its JSON text, as the planner's catalog() gives it).
  catalogJson: string;
  // The planner's wasm, compiled: its code is the rest of the stream, which
  // a fresh page decodes only when main.ts asks, once the first figure is on
  // screen (that needs the script and the catalog alone: first_answer.ts).
  // V8 compiles off the main thread.
  module: () => Promise<WebAssembly.Module>;
  pageHtml: string;
}

declare global {
  // eslint-disable-next-line no-var
  var gpuplanHandoff: Handoff | undefined;
}

// Before anything is added to the document: the file as served, whose inline
// script and style are byte-identical, so their CSP hashes still hold in the
// saved copy.
const pageHtml = `<!doctype html>\n${document.documentElement.outerHTML}`;

try {
  dropOversizedLink();
  performance.mark('gpuplan:start');
  // Uint8Array.fromBase64 (ES2026) decodes natively; atob is the fallback.
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  const bytes64 = (text: string): Uint8Array<ArrayBuffer> => (fromBase64 ? fromBase64(text) : Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
  const read = lzmaReader(bytes64(decoderBase64), bytes64(packedBase64), layout.totalBytes);
  // The script and the wasm's data section (the catalog among it) come first
  // in the stream (vite.config.mts, packedPage()): about half of it.
  const head = read(layout.jsBytes + layout.dataBytes);
  performance.mark('gpuplan:inflated');
  const text = new TextDecoder();
  const rest = () => WebAssembly.compile(unpackWasm(read(layout.totalBytes), layout));
  // A page that opens on a form of its own asks the planner before its first
  // figure: its code is decoded now and compiles while the page's script runs.
  const compiled = opensOnOwnForm() ? rest() : null;
  globalThis.gpuplanHandoff = {
    catalogJson: text.decode(head.subarray(layout.catalogAt, layout.catalogAt + layout.catalogBytes)),
    module: () => compiled ?? rest(),
    pageHtml,
  };
  const script = document.createElement('script');
  script.type = 'module';
  script.textContent = text.decode(head.subarray(0, layout.jsBytes));
  document.head.appendChild(script);
} catch (e) {
  // The page's messages travel in the stream that failed: this one is
  // bilingual, as the loading line it replaces.
  const root = document.getElementById('app');
  if (root) {
    const p = document.createElement('p');
    p.className = 'error card';
    p.setAttribute('role', 'alert');
    p.textContent = `规划器加载失败 / The planner failed to load: ${e instanceof Error ? e.message : String(e)}`;
    root.replaceChildren(p);
    root.removeAttribute('aria-busy');
  }
}
