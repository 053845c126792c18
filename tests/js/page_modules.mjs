// The page's logic modules (web/src/*.ts) for node:test: bundled once per
// test file with rolldown (vite's bundler, already installed) into a temp
// folder and imported, so the tests run the very TypeScript the page ships.
// The message catalogs are installed as main.ts does.
import { build } from 'rolldown';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRIES = ['state', 'request', 'format', 'export', 'apply', 'i18n', 'i18n/zh-CN', 'i18n/en', 'views/budget', 'views/gpus', 'views/words'];

// entries: other modules to bundle instead (paths under web/src, no extension).
export async function pageModules(entries = ENTRIES) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gpuplan-page-'));
  try {
    const input = Object.fromEntries(entries.map((e) => [e.replace('/', '_'), path.join(root, 'web/src', `${e}.ts`)]));
    await build({ input, output: { dir, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' }, write: true, logLevel: 'silent' });
    const mods = {};
    for (const e of entries) mods[e] = await import(pathToFileURL(path.join(dir, `${e.replace('/', '_')}.mjs`)).href);
    if (mods.i18n && mods['i18n/zh-CN'] && mods['i18n/en']) mods.i18n.setCatalogs({ 'zh-CN': mods['i18n/zh-CN'].zhCN, en: mods['i18n/en'].en });
    return mods;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The planner's two modules as ./dev.sh build leaves them in build/wasm/bin:
// the Node module (gpuplan.js: the speed-built core behind Embind) and the
// page's (gpuplan.web.mjs, or GPUPLAN_WASM_MODULE's; it embeds its wasm).
export async function plannerModules() {
  const nodePath = path.join(root, 'build/wasm/bin/gpuplan.js');
  const webPath = process.env.GPUPLAN_WASM_MODULE
    ? path.resolve(process.env.GPUPLAN_WASM_MODULE)
    : path.join(root, 'build/wasm/bin/gpuplan.web.mjs');
  for (const p of [nodePath, webPath]) {
    if (!existsSync(p)) throw new Error(`${p} is missing: run ./dev.sh build first`);
  }
  const nodeModule = await createRequire(import.meta.url)(nodePath)();
  const webModule = await (await import(pathToFileURL(webPath).href)).default();
  return { nodeModule, webModule };
}

// A view context (web/src/views/context.ts) over a small catalog and a
// response the test writes, as the App would hand it to the views.
export function fakeCtx(m, { lang = 'zh-CN', state = {}, response = null, catalog = {} } = {}) {
  const cat = {
    version: '2026-11-30',
    fx: { cny_per_usd: 7, as_of: '2026-07-31', source: 'PBOC' },
    gpus: [{ id: 'rtx-4090', name: 'RTX 4090', memory_bytes: 24e9 }, { id: 'a100-80g', name: 'A100 80GB', memory_bytes: 80e9 }],
    models: [{ id: 'llama-3.1-8b', name: 'Llama 3.1 8B', kind: 'decoder', params: 8e9 }],
    platforms: [
      { id: 'autodl', name: 'AutoDL', name_zh: 'AutoDL', kind: 'marketplace', currency: 'CNY', offers: [{ gpu: 'rtx-4090', billing: 'on-demand', currency: 'CNY', per_gpu_hour: { low: 1.9, typical: 2.5, high: 2.6 }, as_of: '2026-11' }] },
      { id: 'gpushare', name: 'Gpushare', name_zh: '恒源云', kind: 'marketplace', currency: 'CNY', offers: [{ gpu: 'rtx-4090', billing: 'monthly', currency: 'CNY', per_gpu_hour: { low: 1.5, typical: 1.6, high: 1.7 }, as_of: '2025-10-23' }] },
    ],
    ...catalog,
  };
  const s = { ...m.state.defaultState(), ...state };
  const ctx = {
    state: s, lang, t: m.i18n.translator(lang), catalog: cat, planner: null, quotes: [], response, error: null, embed: false,
    request: m.request.toRequest(s, lang, [], { kind: 'decoder' }),
    gpu: (id) => cat.gpus.find((g) => g.id === id),
    set() {}, setQuotes() {}, notify() {}, apply() {},
  };
  return ctx;
}
