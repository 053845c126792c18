// Boot: keep a copy of the page as it arrived (for "download this page"),
// start the wasm planner, read its catalog, render.
import wasmLzmaBase64, { size as wasmSize } from 'virtual:gpuplan-wasm-lzma';
import createGpuplan from '@gpuplan/wasm';
import { App } from './app';
import { detectLang, setCatalogs, translator } from './i18n';
import { lzmaDecompress } from './lzma';
import type { Catalog } from './types';
import './styles.css';
// Last, so that the bundle carries the message catalogs after the code (i18n.ts).
import { zhCN } from './i18n/zh-CN';
import { en } from './i18n/en';

setCatalogs({ 'zh-CN': zhCN, en });

// Module scripts run after parsing and before anything is rendered, so this
// is the file as served: the inline script and style are byte-identical, and
// their CSP hashes still hold in the saved copy.
const pageHtml = `<!doctype html>\n${document.documentElement.outerHTML}`;

// The wasm travels LZMA-compressed (vite.config.mts, docs/performance.md).
async function wasmBinary(): Promise<Uint8Array> {
  // Uint8Array.fromBase64 (ES2026) decodes natively; atob is the fallback.
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  const bytes = native ? native(wasmLzmaBase64) : Uint8Array.from(atob(wasmLzmaBase64), (c) => c.charCodeAt(0));
  return lzmaDecompress(bytes, wasmSize);
}

async function boot(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) return;
  try {
    performance.mark('gpuplan:start');
    const binary = await wasmBinary();
    performance.mark('gpuplan:inflated');
    const planner = await createGpuplan({ wasmBinary: binary });
    performance.mark('gpuplan:wasm-ready');
    const catalog = JSON.parse(planner.catalog()) as Catalog;
    new App(root, catalog, planner, pageHtml).start();
  } catch (e) {
    const t = translator(detectLang(navigator.languages ?? [navigator.language]));
    root.replaceChildren();
    const p = document.createElement('p');
    p.className = 'error card';
    p.setAttribute('role', 'alert');
    p.textContent = `${t('error.boot')} ${e instanceof Error ? e.message : String(e)}`;
    root.appendChild(p);
    root.removeAttribute('aria-busy');
  }
}

void boot();
