// Every file path the docs name exists in the tree: a doc that points a
// newcomer at a moved or deleted file fails here, not in their first hour.
// Paths are read as written from the repository root (core/src/plan/planner_search.cpp,
// web/src/views/gpus.ts, docs/api.md); a path with a wildcard or a placeholder
// (`*`, `<`, `{`) names a pattern, not a file, and a path in another
// repository (`owner/repo:path`, or right after github.com/owner/repo) is not ours: both are left out.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOP = ['core', 'web', 'wasm', 'tests', 'tools', 'catalog', 'cli', 'cmake', 'fuzz', 'bench', 'docs', '.ci'];
const PATH = new RegExp(`(?<![\\w./:-])((?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/[\\w./+-]*[\\w])`, 'g');
// Build outputs and generated files the docs describe but a clean checkout lacks.
const BUILT = /^(build|dist|node_modules)\//;

export function docPaths(text) {
  const found = new Set();
  for (const m of text.matchAll(PATH)) {
    const p = m[1].replace(/[.,:;)]+$/, '');
    // A pattern (`views/*.ts`, `moe.{h,cpp}`, `<name>.json`), not a file.
    if (/^[./]?[*<{]/.test(text.slice(m.index + m[0].length)) || /[*<>{}]/.test(p)) continue;
    // A path in another repository, named right after it: `owner/repo:docs/x.md`
    // (the colon, excluded above) or "github.com/owner/repo docs/x.md".
    if (/github\.com\/[\w.-]+\/[\w.-]+\s$/.test(text.slice(Math.max(0, m.index - 80), m.index))) continue;
    found.add(p);
  }
  return [...found];
}

const docs = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

test('the path finder reads paths as written and leaves patterns out', () => {
  assert.deepEqual(docPaths('see `core/src/plan/pricing.cpp`, and web/src/views/*.ts, or tests/data/.'), ['core/src/plan/pricing.cpp', 'tests/data']);
  assert.deepEqual(docPaths('`estimate/moe.{h,cpp}`, `huggingface/peft:docs/source/x.md`, github.com/a/b docs/y.md, and docs/api.md'), ['docs/api.md']);
});

for (const doc of docs) {
  test(`${doc} names only paths that exist`, () => {
    const missing = docPaths(readFileSync(path.join(root, doc), 'utf8')).filter((p) => !BUILT.test(p) && !existsSync(path.join(root, p)));
    assert.deepEqual(missing, [], `${doc} names paths that are not in the tree`);
  });
}
