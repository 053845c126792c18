// The page and the command line must show the same numbers: every request in
// tests/data/requests (and every request seed of the fuzzers, the largest
// request the limits allow among them) goes to the native CLI and to the WebAssembly module
// (the CommonJS build the contract names), and the JSON must be identical,
// byte for byte. Run after ./dev.sh build (build/native and build/wasm).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = process.env.GPUPLAN_CLI || path.join(root, 'build/native/bin/gpuplan');
const wasmPath = path.join(root, 'build/wasm/bin/gpuplan.js');
const requestsDir = path.join(root, 'tests/data/requests');
const files = readdirSync(requestsDir).filter((f) => f.endsWith('.json')).sort();
const seedsDir = path.join(root, 'fuzz/seeds/request');
const seeds = readdirSync(seedsDir).filter((f) => f.endsWith('.json')).sort();

for (const p of [cli, wasmPath]) {
  if (!existsSync(p)) throw new Error(`${p} is missing: run ./dev.sh build first`);
}

const require = createRequire(import.meta.url);
const wasm = await require(wasmPath)();

function native(args, input) {
  const r = spawnSync(cli, args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: r.status, stdout: r.stdout.replace(/\n$/, ''), stderr: r.stderr };
}

test('the request set is not empty and has both outcomes', () => {
  assert.ok(files.length >= 10, `only ${files.length} requests`);
  assert.ok(files.some((f) => f.startsWith('error-')));
  assert.ok(files.some((f) => !f.startsWith('error-')));
});

for (const file of files) {
  test(`wasm plan() equals native CLI: ${file}`, () => {
    const text = readFileSync(path.join(requestsDir, file), 'utf8');
    const n = native(['plan', path.join(requestsDir, file)]);
    const w = wasm.plan(text);
    assert.equal(w, n.stdout, `wasm and native differ for ${file}`);
    const parsed = JSON.parse(w);
    if (file.startsWith('error-')) {
      assert.equal(n.status, 2, `CLI exit status for ${file}`);
      assert.equal(typeof parsed.error?.code, 'string');
      assert.equal(typeof parsed.error?.path, 'string');
      assert.ok(parsed.error.message.length > 0);
    } else {
      assert.equal(n.status, 0, `${file}: ${w.slice(0, 300)}`);
      assert.equal(parsed.error, undefined, `${file}: ${w.slice(0, 300)}`);
      assert.ok(parsed.memory.per_gpu.total_bytes > 0);
      assert.ok(Array.isArray(parsed.gpus) && parsed.gpus.length > 0);
    }
    // No NaN or Infinity can hide in the text (JSON has no literal for them).
    assert.doesNotMatch(w, /NaN|Infinity/);
  });
}

// The seeds: the planner's tie between equally cheap options (planning.json,
// docs/performance-log.md) and the largest request the limits allow.
for (const file of seeds) {
  test(`wasm plan() equals native CLI: fuzz seed ${file}`, () => {
    const text = readFileSync(path.join(seedsDir, file), 'utf8');
    const n = native(['plan', path.join(seedsDir, file)]);
    assert.equal(wasm.plan(text), n.stdout, `wasm and native differ for fuzz/seeds/request/${file}`);
  });
}

test('wasm catalog() equals `gpuplan catalog`', () => {
  const n = native(['catalog']);
  assert.equal(n.status, 0);
  assert.deepEqual(JSON.parse(wasm.catalog()), JSON.parse(n.stdout));
});

test('the request locale sets the error language', () => {
  const zh = JSON.parse(wasm.plan('{"model":{"preset":"no-such-model"}}'));
  const en = JSON.parse(wasm.plan('{"locale":"en","model":{"preset":"no-such-model"}}'));
  assert.equal(zh.error.path, 'model.preset');
  assert.match(zh.error.message, /[\u4e00-\u9fff]/);
  assert.doesNotMatch(en.error.message, /[\u4e00-\u9fff]/);
});
