// The dated price table in docs/catalog.md is generated from the catalog the
// CLI carries (tools/price_table.mjs, ./dev.sh prices): the committed table
// must be the catalog's, and the table says what kind of price each row is.
// Run after the native build (build/native/bin/gpuplan).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { BEGIN, END, priceTable, withTable } from '../../tools/price_table.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'build/native/bin/gpuplan');
if (!existsSync(cli)) throw new Error(`${cli} is missing: run ./dev.sh build first`);
const catalog = JSON.parse(execFileSync(cli, ['catalog'], { encoding: 'utf8', maxBuffer: 64 << 20 }));

test('docs/catalog.md carries the table the catalog generates', () => {
  const doc = readFileSync(path.join(root, 'docs/catalog.md'), 'utf8');
  assert.equal(withTable(doc, priceTable(catalog)), doc, 'run ./dev.sh prices and commit docs/catalog.md');
});

test('every offer of the catalog is one row, with its date and kind', () => {
  const rows = priceTable(catalog).split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| platform') && !l.startsWith('| ---'));
  const offers = catalog.platforms.flatMap((p) => p.offers);
  const unpriced = catalog.platforms.filter((p) => p.offers.length === 0).length;
  assert.equal(rows.length, offers.length + unpriced);
  for (const o of offers) assert.ok(rows.some((r) => r.includes(`| ${o.price_kind} | ${o.as_of}`)), `${o.gpu} ${o.as_of}`);
});

const tiny = {
  version: '2026-11-30',
  gpus: [{ id: 'g1', name: 'GeForce G1' }],
  platforms: [
    {
      id: 'p', name: 'P', name_zh: '平台', offers: [
        { gpu: 'g1', billing: 'on-demand', price_kind: 'list', per_gpu_hour: { low: 1.88, typical: 1.98, high: 2.19 }, currency: 'CNY', as_of: '2026-10', confidence: 'medium', evidence: { kind: 'third_party_read', read: '1.98 元/时', recorded_in: 'a research note', read_on: '2026-10-04' } },
        { gpu: 'g1', billing: 'on-demand', price_kind: 'floor', per_gpu_hour: { low: 0.72, high: 0.76 }, currency: 'CNY', as_of: '2026-01', confidence: 'low' },
        { gpu: 'g1', billing: 'monthly', price_kind: 'list', per_period: { low: 1052, typical: 1052, high: 1052 }, per_gpu_hour: { low: 1.4611, typical: 1.4611, high: 1.4611 }, currency: 'CNY', as_of: '2026-10', confidence: 'medium' },
      ],
    },
    { id: 'q', name: 'Q', offers: [] },
    { id: 'c', name: 'Campus', priced_by_user: true, offers: [] },
  ],
};

test('a floor says it is not typical, a package shows its period price, an old price is marked', () => {
  const t = priceTable(tiny);
  assert.match(t, /\| 平台 \(P\) \| GeForce G1 \| on-demand \| 1\.98 \(1\.88–2\.19\) \/h CNY \| list \| 2026-10 \| medium \|/);
  assert.match(t, /from 0\.72–0\.76 \/h: cheapest listing, not typical CNY \| floor \| 2026-01 \(check\) \|/);
  // Each price names what its confidence rests on, with the source's own words.
  assert.match(t, /\| medium \| a third party's dated read of the platform's page or API \(2026-10-04\), in a research note: “1\.98 元\/时” \|/);
  assert.match(t, /\| monthly \| 1052 per 30 days \(≈ 1\.4611 \/h\) CNY \| list \|/);
  assert.match(t, /\| Q \| – \| – \| no public price found: enter your quote \|/);
  assert.match(t, /\| Campus \| – \| – \| your own rate \(campus template\) \|/);
  assert.ok(t.startsWith(BEGIN) && t.endsWith(END));
});

test('a document without the markers is an error, not a silent append', () => {
  assert.throws(() => withTable('# no table here\n', priceTable(tiny)), /markers/);
});
