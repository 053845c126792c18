// web/src/types.ts names every field the core writes, and nothing the core
// never writes: every response the suites' requests produce (tests/data/requests,
// the labmate cases, the catalog's scenarios, the fuzzers' request seeds, each
// in both locales) is written out as a TypeScript object literal typed as
// `PlanResponse | PlanError`, and the compiler checks it. An object literal
// gets TypeScript's excess-property check, so a field the writer adds and the
// types do not name fails here, as does a required field the writer leaves
// out or a value of the wrong type. Run after ./dev.sh build (build/native).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = process.env.GPUPLAN_CLI || path.join(root, 'build/native/bin/gpuplan');
if (!existsSync(cli)) throw new Error(`${cli} is missing: run ./dev.sh build first`);

function requests() {
  const out = [];
  const dir = (d) => readdirSync(path.join(root, d)).filter((f) => f.endsWith('.json')).map((f) => path.join(root, d, f));
  for (const f of [...dir('tests/data/requests'), ...dir('fuzz/seeds/request')]) out.push(readFileSync(f, 'utf8'));
  for (const f of dir('tests/data/labmate')) {
    const c = JSON.parse(readFileSync(f, 'utf8'));
    if (c && typeof c === 'object' && c.request) out.push(JSON.stringify(c.request));
  }
  const scenarios = JSON.parse(readFileSync(path.join(root, 'catalog/scenarios.json'), 'utf8')).scenarios;
  for (const s of scenarios) out.push(JSON.stringify(s.request));
  const both = [];
  for (const text of out) {
    both.push(text);
    let r;
    try { r = JSON.parse(text); } catch { continue; }
    if (r && typeof r === 'object' && !Array.isArray(r)) {
      for (const locale of ['zh-CN', 'en']) both.push(JSON.stringify({ ...r, locale }));
    }
  }
  return both;
}

test('every response the suites produce is a PlanResponse or a PlanError as web/src/types.ts names them', () => {
  const seen = new Set();
  const literals = [];
  for (const body of requests()) {
    const r = spawnSync(cli, ['plan', '-'], { input: body, encoding: 'utf8', maxBuffer: 256 << 20 });
    assert.ok(r.status === 0 || r.status === 2, `exit ${r.status}: ${r.stderr}`);
    if (seen.has(r.stdout)) continue;
    seen.add(r.stdout);
    literals.push(r.stdout.trim());
  }
  assert.ok(literals.length >= 50, `only ${literals.length} distinct responses`);
  const dir = path.join(root, 'build/response-types');
  mkdirSync(dir, { recursive: true });
  const lines = [
    "import type { PlanError, PlanResponse } from '../../web/src/types';",
    ...literals.map((json, i) => `export const r${i}: PlanResponse | PlanError = ${json};`),
  ];
  writeFileSync(path.join(dir, 'responses.ts'), `${lines.join('\n')}\n`);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    extends: '../../tsconfig.json',
    compilerOptions: { noUnusedLocals: false },
    include: ['responses.ts'],
  }));
  const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json')],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  // Each message names the response line and the field: say the first few.
  const errors = (tsc.stdout + tsc.stderr).split('\n').filter((l) => /error TS/.test(l));
  assert.equal(tsc.status, 0, `web/src/types.ts does not match what the core writes:\n${errors.slice(0, 20).join('\n')}`);
});
