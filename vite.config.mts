// The page build: one self-contained dist/index.html (vite-plugin-singlefile
// inlines the script, the stylesheet and, through the Emscripten module, the
// wasm). A last step adds a Content-Security-Policy with the sha256 of each
// inline script and style, so nothing else can run, and no remote origin is
// allowed: the page works from file:// and inside an iframe with no network.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipAsync } from '@gfx/zopfli';
import { defineConfig, type Plugin } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

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

// The wasm ships gzip-compressed. Emscripten's SINGLE_FILE build carries it as
// plain base64, which gzip squeezes to ~116 KB; base64 of the gzipped bytes
// stays ~87 KB after the page itself is gzipped. The page decompresses it with
// the browser's DecompressionStream and hands it over as Module.wasmBinary, so
// the copy inside the Emscripten glue is dropped (measured: docs/performance.md).
// The gzip stream is written by Zopfli (google/zopfli, through @gfx/zopfli's
// wasm build): the same format any inflater reads, 5-6 % smaller than zlib's
// level 9 on this module (8 KB; docs/performance.md), at ~2 s of build time.
// GPUPLAN_WASM_MODULE builds the page over another build folder's module
// (a scratch build; the default is the wasm preset's).
const WASM_MODULE = process.env.GPUPLAN_WASM_MODULE
  ? path.resolve(process.env.GPUPLAN_WASM_MODULE)
  : `${root}build/wasm/bin/gpuplan.web.mjs`;
const DATA_URI = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

function compressedWasm(): Plugin {
  const virtualId = 'virtual:gpuplan-wasm-gz';
  return {
    name: 'gpuplan-wasm-gz',
    resolveId(id) {
      return id === virtualId ? `\0${virtualId}` : null;
    },
    async load(id) {
      if (id !== `\0${virtualId}`) return null;
      const m = DATA_URI.exec(readFileSync(WASM_MODULE, 'utf8'));
      if (!m) throw new Error(`no embedded wasm in ${WASM_MODULE}: build it with SINGLE_FILE (cmake --build --preset wasm)`);
      const gz = await gzipAsync(Buffer.from(m[1], 'base64'), { numiterations: 15 });
      return `export default ${JSON.stringify(Buffer.from(gz).toString('base64'))};`;
    },
    transform(code, id) {
      if (!id.endsWith('gpuplan.web.mjs')) return null;
      if (!DATA_URI.test(code)) throw new Error('the Emscripten module no longer embeds its wasm as expected');
      return { code: code.replace(DATA_URI, '"data:application/octet-stream;base64,"'), map: null };
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
  plugins: [compressedWasm(), viteSingleFile({ removeViteModuleLoader: true }), csp()],
});
