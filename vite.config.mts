// The page build: one self-contained dist/index.html (vite-plugin-singlefile
// inlines the script and the stylesheet; packedPage() then replaces the script
// with a small boot script carrying it and the wasm in one LZMA stream). A
// last step adds a Content-Security-Policy with the sha256 of the boot script,
// of the page's script it adds and of the style, so nothing else can run, and
// no remote origin is allowed: the page works from file:// and inside an
// iframe with no network.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, defineConfig, type Plugin, type Rollup } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { messageKeys, TRANSLATED } from './tools/message_keys.mjs';
import { firstAnswers } from './web/src/first_answer.ts';
import { en } from './web/src/i18n/en.ts';
import { zhCN } from './web/src/i18n/zh-CN.ts';
import { lzmaDecompress } from './web/src/lzma.ts';
import type { Catalog, Planner } from './web/src/types.ts';
import { type PackLayout, unpackWasm } from './web/src/unpack.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

function contentSecurityPolicy(html: string): string {
  const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => sha256(m[1]));
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1]));
  return [
    "default-src 'none'",
    // 'wasm-unsafe-eval' lets WebAssembly compile; it allows no JavaScript eval.
    // The page's own script, added by the boot script, is admitted by its hash.
    `script-src ${[...scripts, ...appScriptHashes].join(' ')} 'wasm-unsafe-eval'`,
    `style-src ${styles.join(' ')}`,
    'img-src data: blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

// The wasm ships LZMA-compressed. Emscripten's SINGLE_FILE build carries it as
// plain base64, which gzip squeezes poorly (base64 hides the byte structure);
// base64 of already-compressed bytes gzips to the size of those bytes. So the
// page carries the wasm compressed (in one stream with the page's script:
// packedPage() below), and the page module's own base64 copy is dropped:
// web/src/boot.ts decompresses it (web/src/lzma.ts) and web/src/main.ts hands
// it to createGpuplan({ wasmBinary }) (wasm/page_module.mjs). LZMA (xz's "lzma" format, preset 9e)
// takes the wasm smaller than Zopfli's gzip; the decoder (a wasm module of
// its own, wasm/page_lzma.cpp, from the LZMA SDK's specification, behind
// web/src/lzma.ts) adds a little to the page and to the time before the first
// figure (docs/performance.md, with the measurements).
// GPUPLAN_WASM_MODULE builds the page over another build folder's module
// (a scratch build; the default is the wasm preset's).
const WASM_MODULE = process.env.GPUPLAN_WASM_MODULE
  ? path.resolve(process.env.GPUPLAN_WASM_MODULE)
  : `${root}build/wasm/bin/gpuplan.web.mjs`;
// The page's LZMA decoder, built beside the module (wasm/CMakeLists.txt).
const DECODER = path.join(path.dirname(WASM_MODULE), 'page_lzma.wasm');
const DATA_URI = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

function lzmaCompress(data: Buffer): Buffer {
  // dict=8MiB: more than the module, so every match is in reach (the decoder
  // grows its window with the output, not to the dictionary size).
  const result = spawnSync('xz', ['--format=lzma', '--lzma1=preset=9e,dict=8MiB,pb=0', '--stdout'], { input: data, maxBuffer: 64 << 20 });
  if (result.error || result.status !== 0) {
    throw new Error(`xz failed (${result.error?.message ?? result.stderr.toString()}): install xz-utils (./dev.sh setup)`);
  }
  return result.stdout;
}

// The page's wasm, from the base64 copy its module embeds (wasm/make_page_module.mjs).
function wasmBytes(): Buffer {
  const m = DATA_URI.exec(readFileSync(WASM_MODULE, 'utf8'));
  if (!m) throw new Error(`no embedded wasm in ${WASM_MODULE}: build it (cmake --build --preset wasm --target gpuplan_wasm_web)`);
  return Buffer.from(m[1], 'base64');
}

// The module's own base64 copy of the wasm goes: the page hands the wasm over
// itself (web/src/main.ts, from the packed stream below).
function dropGlueWasm(): Plugin {
  return {
    name: 'gpuplan-drop-glue-wasm',
    transform(code, id) {
      if (!id.endsWith('gpuplan.web.mjs')) return null;
      if (!DATA_URI.test(code)) throw new Error('the page module no longer embeds its wasm as expected');
      return { code: code.replace(DATA_URI, '"data:application/octet-stream;base64,"'), map: null };
    },
  };
}

// The page's JavaScript travels LZMA-compressed too, in one stream with the
// wasm: the page's script as built, then the wasm (its data section first:
// below). The HTML keeps one small
// inline script, web/src/boot.ts with the LZMA decoder and the stream as
// base64, which decodes it and runs the page's script as an inline module
// script; the CSP admits that script by its sha256 (appScriptHashes, used by
// csp() below), as it admits the boot script, so still no eval and no other
// script. LZMA over the script gains against gzip -9, and the shared stream
// more (docs/performance.md). Each build decodes the stream
// again with the page's decoder and fails unless it gives both parts back
// byte for byte.
const appScriptHashes: string[] = [];
const SCRIPT_OPEN = '<script type="module" crossorigin>';

// Where a wasm module's data section (id 11) lies: its bytes [start, end).
function dataSection(wasm: Buffer): { start: number; end: number } {
  let p = 8;
  const leb = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = wasm[p++];
      value += (byte & 127) * 2 ** shift;
      if (byte < 128) return value;
    }
  };
  while (p < wasm.length) {
    const start = p;
    const id = wasm[p++];
    const size = leb();
    p += size;
    if (id === 11) return { start, end: p };
  }
  throw new Error('the wasm has no data section');
}

function decoderBytes(): Buffer {
  try {
    return readFileSync(DECODER);
  } catch {
    throw new Error(`no LZMA decoder at ${DECODER}: build it (cmake --build --preset wasm --target gpuplan_page_lzma)`);
  }
}

async function bootScript(packed: Buffer, layout: PackLayout, decoder: Buffer): Promise<string> {
  const virtualId = 'virtual:gpuplan-packed';
  const out = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins: [{
      name: 'gpuplan-packed',
      resolveId: (id) => (id === virtualId ? `\0${virtualId}` : null),
      load: (id) => (id === `\0${virtualId}`
        ? `export default ${JSON.stringify(packed.toString('base64'))};\nexport const layout = ${JSON.stringify(layout)};\nexport const decoderBase64 = ${JSON.stringify(decoder.toString('base64'))};`
        : null),
    }],
    build: { write: false, target: 'es2022', modulePreload: false, rollupOptions: { input: `${root}web/src/boot.ts` } },
  });
  const chunks = (Array.isArray(out) ? out : [out]).flatMap((o) => (o as Rollup.RollupOutput).output).filter((c) => c.type === 'chunk');
  if (chunks.length !== 1 || chunks[0].type !== 'chunk' || chunks[0].imports.length) throw new Error('the boot script did not build to one self-contained chunk');
  return chunks[0].code.trim();
}

function packedPage(): Plugin {
  return {
    name: 'gpuplan-packed-page',
    enforce: 'post',
    // After vite-plugin-singlefile has inlined the page's script, before csp().
    generateBundle: { order: 'post', async handler(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'asset' || !file.fileName.endsWith('.html')) continue;
        const html = String(file.source);
        const start = html.indexOf(SCRIPT_OPEN);
        // A script's text cannot hold "</script>": the first one ends it.
        const end = html.indexOf('</script>', start);
        if (start < 0 || end < 0 || html.indexOf(SCRIPT_OPEN, start + 1) !== -1) {
          throw new Error('the built page does not hold exactly one inlined module script');
        }
        const js = html.slice(start + SCRIPT_OPEN.length, end);
        const jsBuf = Buffer.from(js, 'utf8');
        const wasm = wasmBytes();
        const data = dataSection(wasm);
        // The wasm's data section (text: the catalog, the messages) right
        // after the script's text, then the rest of the wasm: LZMA's literal
        // contexts then see text beside text (smaller than the wasm whole).
        const whole = Buffer.concat([jsBuf, wasm.subarray(data.start, data.end), wasm.subarray(0, data.start), wasm.subarray(data.end)]);
        const packed = lzmaCompress(whole);
        const decoder = decoderBytes();
        const decoded = Buffer.from(lzmaDecompress(decoder, packed, whole.length));
        // The catalog's text, which the page reads from the decoded data
        // section before the planner starts (web/src/boot.ts): the same bytes
        // as the planner's catalog(), found once in that section.
        const catalog = Buffer.from((await pagePlanner()).catalog(), 'utf8');
        const catalogAt = whole.indexOf(catalog, jsBuf.length);
        if (catalogAt < 0 || catalogAt + catalog.length > jsBuf.length + data.end - data.start || whole.indexOf(catalog, catalogAt + 1) >= 0) {
          throw new Error("the page's catalog does not stand once, whole, in the wasm's data section");
        }
        const layout = { jsBytes: jsBuf.length, dataBytes: data.end - data.start, dataAt: data.start, totalBytes: whole.length, catalogAt, catalogBytes: catalog.length };
        if (!decoded.equals(whole) || !Buffer.from(unpackWasm(decoded, layout)).equals(wasm)) {
          throw new Error('the LZMA stream of the page does not decode to its script and wasm');
        }
        appScriptHashes.push(sha256(js));
        const boot = await bootScript(packed, layout, decoder);
        file.source = `${html.slice(0, start)}<script type="module">${boot}${html.slice(end)}`;
      }
    } },
  };
}

// The page's planner, started under Node from the module the page carries.
let plannerStarted: Promise<Planner> | undefined;
function pagePlanner(): Promise<Planner> {
  plannerStarted ??= import(pathToFileURL(WASM_MODULE).href).then((m: { default: () => Promise<Planner> }) => m.default());
  return plannerStarted;
}

// A fresh page's first question, answered at build time by the module the
// page carries (web/src/first_answer.ts): the first figure of a fresh page
// then waits for no planner call (its cost in bytes: docs/performance.md).
function firstAnswersModule(): Plugin {
  const virtualId = 'virtual:gpuplan-first-answers';
  return {
    name: 'gpuplan-first-answers',
    resolveId: (id) => (id === virtualId ? `\0${virtualId}` : null),
    async load(id) {
      if (id !== `\0${virtualId}`) return null;
      const planner = await pagePlanner();
      const answers = firstAnswers(planner, JSON.parse(planner.catalog()) as Catalog);
      return `export default ${JSON.stringify(answers)};`;
    },
  };
}

// The message catalogs ship as arrays, all in the zh-CN module: its keys once,
// then the English texts, then the zh-CN texts in the same order, each
// catalog keyed again at start (en.ts only re-exports its part). Keys beside
// keys and each language's texts beside each other compress better under
// LZMA than each key beside its text, the English catalog does not repeat the
// keys, and the zh-CN texts last stand beside the wasm's data section (its
// message templates) in the page's stream. A key the page's code names only
// as t('…'), under no prefix it completes at run time
// (tools/message_keys.mjs), ships as its number in the catalog instead: the
// call becomes t(12) (t(a ? 12 : 13) for a choice of two) and the keys array
// holds '' in its place, so the key's name stands nowhere in the page.
// web/src/i18n/*.ts stay keyed objects for whoever edits them; en.ts's type
// already requires zh-CN's keys, and this step fails unless both have exactly
// the same ones, or if a numbered key's name is left in a module it rewrote.
function compactCatalogs(): Plugin {
  const keys = Object.keys(zhCN) as (keyof typeof zhCN)[];
  const extra = Object.keys(en).filter((k) => !(k in zhCN));
  if (extra.length || keys.some((k) => typeof en[k] !== 'string')) throw new Error(`en.ts and zh-CN.ts differ in keys: ${extra.join(', ')}`);
  const { onlyTranslated } = messageKeys(root);
  const numbered = new Map(onlyTranslated.map((k) => [k, keys.indexOf(k as keyof typeof zhCN)]));
  if ([...numbered.values()].some((i) => i < 0)) throw new Error('tools/message_keys.mjs read a key zh-CN.ts does not have');
  const shipped = keys.map((k) => (numbered.has(k) ? '' : k));
  const call = new RegExp(TRANSLATED.source, 'g');
  const ref = (k: string): string => (numbered.has(k) ? String(numbered.get(k)) : `'${k}'`);
  return {
    name: 'gpuplan-compact-catalogs',
    enforce: 'pre',
    transform(code, id) {
      if (id.endsWith('/web/src/i18n/zh-CN.ts')) {
        return {
          code: `const keys = ${JSON.stringify(shipped)};\nconst keyed = (texts) => Object.fromEntries(keys.map((k, i) => [k || i, texts[i]]));\n` +
            `export const en = keyed(${JSON.stringify(keys.map((k) => en[k]))});\nexport const zhCN = keyed(${JSON.stringify(keys.map((k) => zhCN[k]))});\n`,
          map: null,
        };
      }
      if (id.endsWith('/web/src/i18n/en.ts')) {
        return { code: `export { en } from './zh-CN';\n`, map: null };
      }
      if (!/\/web\/src\/(views\/)?[\w]+\.ts$/.test(id)) return null;
      const out = code.replace(call, (_m, fn: string, key?: string, test?: string, a?: string, b?: string) =>
        (key ? `${fn}(${ref(key)}` : `${fn}(${test} ? ${ref(a ?? '')} : ${ref(b ?? '')}`));
      const left = onlyTranslated.find((k) => out.includes(`'${k}'`) || out.includes(`"${k}"`) || out.includes(`\`${k}`));
      if (left) throw new Error(`${id} still names the numbered message key '${left}'`);
      return out === code ? null : { code: out, map: null };
    },
  };
}

function csp(): Plugin {
  return {
    name: 'gpuplan-csp',
    enforce: 'post',
    // After vite-plugin-singlefile (also order 'post', listed before this
    // plugin) has inlined everything, so the hashes cover the final code.
    generateBundle: { order: 'post', handler(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'asset' || !file.fileName.endsWith('.html')) continue;
        const html = String(file.source);
        const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(html)}">`;
        file.source = html.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n${meta}`);
      }
    } },
  };
}

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: false,
  define: { __GPUPLAN_VERSION__: JSON.stringify(pkg.version) },
  resolve: { alias: { '@gpuplan/wasm': WASM_MODULE } },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    modulePreload: false,
  },
  plugins: [dropGlueWasm(), firstAnswersModule(), compactCatalogs(), viteSingleFile({ removeViteModuleLoader: true }), packedPage(), csp()],
});
