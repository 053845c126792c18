// The page build: one self-contained dist/index.html (vite-plugin-singlefile
// inlines the script, the stylesheet and, through the Emscripten module, the
// wasm). A last step adds a Content-Security-Policy with the sha256 of each
// inline script and style, so nothing else can run, and no remote origin is
// allowed: the page works from file:// and inside an iframe with no network.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { en } from './web/src/i18n/en';
import { zhCN } from './web/src/i18n/zh-CN';
import { lzmaDecompress } from './web/src/lzma';

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
    `script-src ${scripts.join(' ')} 'wasm-unsafe-eval'`,
    `style-src ${styles.join(' ')}`,
    'img-src data: blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

// The wasm ships LZMA-compressed. Emscripten's SINGLE_FILE build carries it as
// plain base64, which gzip squeezes poorly (base64 hides the byte structure);
// base64 of already-compressed bytes gzips to the size of those bytes. So the
// page carries the wasm compressed, and the Emscripten glue's own copy is
// dropped: web/src/main.ts decompresses it (web/src/lzma.ts) into Module.wasmBinary.
// LZMA (xz's "lzma" format, preset 9e) takes this module to 124 KB where
// gzip -9 gives 151 KB and Zopfli 142 KB; the decoder (web/src/lzma.ts, from
// the LZMA SDK's specification) adds ~1 KB to the page and ~30-80 ms before
// the first figure (docs/performance.md). Each build decodes the stream again here, with the
// page's decoder, and fails unless that gives the wasm back byte for byte.
// GPUPLAN_WASM_MODULE builds the page over another build folder's module
// (a scratch build; the default is the wasm preset's).
const WASM_MODULE = process.env.GPUPLAN_WASM_MODULE
  ? path.resolve(process.env.GPUPLAN_WASM_MODULE)
  : `${root}build/wasm/bin/gpuplan.web.mjs`;
const DATA_URI = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

function lzmaCompress(data: Buffer): Buffer {
  // dict=8MiB: more than the module, so every match is in reach (the decoder
  // grows its window with the output, not to the dictionary size).
  const result = spawnSync('xz', ['--format=lzma', '--lzma1=preset=9e,dict=8MiB', '--stdout'], { input: data, maxBuffer: 64 << 20 });
  if (result.error || result.status !== 0) {
    throw new Error(`xz failed (${result.error?.message ?? result.stderr.toString()}): install xz-utils (./dev.sh setup)`);
  }
  return result.stdout;
}

function compressedWasm(): Plugin {
  const virtualId = 'virtual:gpuplan-wasm-lzma';
  return {
    name: 'gpuplan-wasm-lzma',
    resolveId(id) {
      return id === virtualId ? `\0${virtualId}` : null;
    },
    load(id) {
      if (id !== `\0${virtualId}`) return null;
      const m = DATA_URI.exec(readFileSync(WASM_MODULE, 'utf8'));
      if (!m) throw new Error(`no embedded wasm in ${WASM_MODULE}: build it with SINGLE_FILE (cmake --build --preset wasm)`);
      const wasm = Buffer.from(m[1], 'base64');
      const packed = lzmaCompress(wasm);
      if (!Buffer.from(lzmaDecompress(packed, wasm.length)).equals(wasm)) throw new Error('the LZMA stream of the wasm does not decode to the wasm');
      return `export default ${JSON.stringify(packed.toString('base64'))};\nexport const size = ${wasm.length};`;
    },
    transform(code, id) {
      if (!id.endsWith('gpuplan.web.mjs')) return null;
      if (!DATA_URI.test(code)) throw new Error('the Emscripten module no longer embeds its wasm as expected');
      return { code: code.replace(DATA_URI, '"data:application/octet-stream;base64,"'), map: null };
    },
  };
}

// The English catalog ships as its texts alone, in the order of the zh-CN
// catalog's keys, and is keyed again at start: its ~380 keys would otherwise
// stand a second time in the page (0.7 KiB gzipped). web/src/i18n/en.ts stays
// a keyed object for whoever edits it; its type already requires zh-CN's keys,
// and this step fails unless both have exactly the same ones.
function compactEnglish(): Plugin {
  return {
    name: 'gpuplan-compact-en',
    transform(_code, id) {
      if (!id.endsWith('/web/src/i18n/en.ts')) return null;
      const keys = Object.keys(zhCN) as (keyof typeof zhCN)[];
      const extra = Object.keys(en).filter((k) => !(k in zhCN));
      if (extra.length || keys.some((k) => typeof en[k] !== 'string')) throw new Error(`en.ts and zh-CN.ts differ in keys: ${extra.join(', ')}`);
      const texts = JSON.stringify(keys.map((k) => en[k]));
      return {
        code: `import { zhCN } from './zh-CN';\nconst texts = ${texts};\nexport const en = Object.fromEntries(Object.keys(zhCN).map((k, i) => [k, texts[i]]));\n`,
        map: null,
      };
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
  plugins: [compressedWasm(), compactEnglish(), viteSingleFile({ removeViteModuleLoader: true }), csp()],
});
