// Start: take the catalog, the rest of the page's stream (the planner's wasm
// code) and the copy of the page as it arrived from boot.ts (which decoded
// this code and the catalog from the page's LZMA stream), render the first
// figure, start the wasm planner (app.ts, start()), render the rest.
import createGpuplan from '@gpuplan/wasm';
import { App } from './app.ts';
import { detectLang, setCatalogs, translator } from './i18n.ts';
import type { Catalog } from './types.ts';
import './styles.css';
// Last, so that the bundle carries the message catalogs after the code (i18n.ts).
import { zhCN } from './i18n/zh-CN.ts';
import { en } from './i18n/en.ts';

setCatalogs({ 'zh-CN': zhCN, en });

async function boot(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) return;
  try {
    const handoff = globalThis.gpuplanHandoff;
    if (!handoff) throw new Error('no wasm handed over (the page runs from its boot script)');
    globalThis.gpuplanHandoff = undefined;
    const catalog = JSON.parse(handoff.catalogJson) as Catalog;
    await new App(root, catalog, handoff.pageHtml).start(async () => {
      const planner = await createGpuplan({ wasmModule: handoff.module() });
      performance.mark('gpuplan:wasm-ready');
      return planner;
    });
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
