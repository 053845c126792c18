// Start: take the wasm (compiling) and the copy of the page as it arrived from
// boot.ts (which decoded both, with this code, from the page's LZMA stream),
// start the wasm planner, read its catalog, render.
import createGpuplan from '@gpuplan/wasm';
import { App } from './app';
import { detectLang, setCatalogs, translator } from './i18n';
import type { Catalog } from './types';
import './styles.css';
// Last, so that the bundle carries the message catalogs after the code (i18n.ts).
import { zhCN } from './i18n/zh-CN';
import { en } from './i18n/en';

setCatalogs({ 'zh-CN': zhCN, en });

async function boot(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) return;
  try {
    const handoff = globalThis.gpuplanHandoff;
    if (!handoff) throw new Error('no wasm handed over (the page runs from its boot script)');
    globalThis.gpuplanHandoff = undefined;
    const planner = await createGpuplan({ wasmModule: handoff.module });
    performance.mark('gpuplan:wasm-ready');
    const catalog = JSON.parse(planner.catalog()) as Catalog;
    new App(root, catalog, planner, handoff.pageHtml).start();
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
