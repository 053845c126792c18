// Compiles page modules (web/src/*.ts) with the project's own tsc to CommonJS
// in a temporary folder, so node:test can unit-test the page's logic without
// a browser or a bundler (Node 20 runs no TypeScript itself). CommonJS keeps
// the sources' extensionless relative imports ('./state') resolvable.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// files: paths under web/src, e.g. ['state.ts', 'storage.ts']. Returns one
// module object per file, in order.
export function loadTs(files) {
  const out = mkdtempSync(path.join(tmpdir(), 'gpuplan-ts-'));
  const tsc = spawnSync(path.join(root, 'node_modules/.bin/tsc'),
    ['--ignoreConfig', '--outDir', out, '--rootDir', path.join(root, 'web/src'), '--target', 'es2022', '--module', 'commonjs',
      '--strict', '--skipLibCheck', '--lib', 'es2022,dom', ...files.map((f) => path.join(root, 'web/src', f))], { encoding: 'utf8' });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  writeFileSync(path.join(out, 'package.json'), '{"type": "commonjs"}');
  const require = createRequire(path.join(out, 'index.js'));
  return files.map((f) => require(`./${f.replace(/\.ts$/, '.js')}`));
}

// A Storage like the browser's, in memory, with a quota in UTF-16 code units
// (what Chromium counts: keys and values together) and switches to make it
// throw like a full, disabled or private-mode store.
export class MemoryStorage {
  constructor(quota = 5 * 1024 * 1024) {
    this.map = new Map();
    this.quota = quota;
    this.failGet = false;
    this.failSet = false;
  }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  used() { let n = 0; for (const [k, v] of this.map) n += k.length + v.length; return n; }
  getItem(k) {
    if (this.failGet) throw new DOMException('The operation is insecure.', 'SecurityError');
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    if (this.failSet) throw new DOMException('quota', 'QuotaExceededError');
    const s = String(v);
    const old = this.map.has(k) ? k.length + this.map.get(k).length : 0;
    if (this.used() - old + k.length + s.length > this.quota) throw new DOMException(`Setting the value of '${k}' exceeded the quota.`, 'QuotaExceededError');
    this.map.set(k, s);
  }
  removeItem(k) { this.map.delete(k); }
  clear() { this.map.clear(); }
}
