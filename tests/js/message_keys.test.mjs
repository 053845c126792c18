// Every message the catalogs carry can be shown: its key is named in the
// page's code (web/src, the catalogs aside), or it lies under a prefix the
// code completes at run time with an id from the request, the response or
// the catalog (label(t, 'billing', id), opts(ctx, 'precision', …),
// t(`gpus.col.${c}`), a prefix chosen from a union of literals). A key no
// code can reach is weight the page carries for nothing: this test names it.
// Which ids a dynamic prefix meets is not checked here (the core decides
// them); a message for an id no response holds passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './page_modules.mjs';

const src = path.join(root, 'web/src');
const code = ['', 'views']
  .flatMap((dir) => readdirSync(path.join(src, dir)).filter((f) => f.endsWith('.ts')).map((f) => path.join(src, dir, f)))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
const catalog = readFileSync(path.join(src, 'i18n/zh-CN.ts'), 'utf8');
const keys = [...catalog.matchAll(/^ {2}'?([\w./\-]+)'?: /gm)].map((m) => m[1]);

// Prefixes the code completes at run time.
const dynamic = new Set([
  ...[...code.matchAll(/\b(?:label|opts)\([^,()]+, '([\w.\-]+)'/g)].map((m) => m[1]),
  ...[...code.matchAll(/`([\w.\-]+)\.\$\{/g)].map((m) => m[1]),
  // `${prefix}.${…}` with prefix: 'notice.last' | 'notice.projects'
  ...[...code.matchAll(/'([\w.\-]+)'(?= \| ')|(?<=' \| )'([\w.\-]+)'/g)].map((m) => m[1] ?? m[2]),
  // A workload change's value, named under its field (views/budget.ts, changeText: label(t, key, value)).
  ...keys.filter((k) => k.startsWith('field.')).map((k) => k.slice('field.'.length)),
]);

function reachable(key) {
  if (code.includes(`'${key}'`) || code.includes(`"${key}"`)) return true;
  for (let i = key.lastIndexOf('.'); i > 0; i = key.lastIndexOf('.', i - 1)) {
    if (dynamic.has(key.slice(0, i))) return true;
  }
  return false;
}

test('the catalogs hold keys (the test reads them)', () => {
  assert.ok(keys.length > 500, `read ${keys.length} keys from zh-CN.ts`);
  assert.ok(dynamic.has('billing') && dynamic.has('notice.last') && dynamic.has('gpus.col'), [...dynamic].join(' '));
});

test('every message key is reachable from the page code', () => {
  assert.deepEqual(keys.filter((k) => !reachable(k)), []);
});
