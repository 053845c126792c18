// "Paste a price list" (web/src/price_paste.ts): text in the shapes the
// platforms' pages use (a marketplace's card list, a console's checkout
// line, a price table; fixtures written for these tests, no platform's page
// copied) becomes dated quotes; what could not be read is listed with why.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pageModules, root } from './page_modules.mjs';

let paste;
const catalog = JSON.parse(readFileSync(path.join(root, 'catalog/gpus.json'), 'utf8'));
const gpus = catalog.gpus.map((g) => ({ id: g.id, name: g.name }));
const fixture = (name) => readFileSync(path.join(root, 'tests/data/price_paste', name), 'utf8');
before(async () => { paste = (await pageModules(['price_paste'])).price_paste; });

const byGpu = (r) => Object.fromEntries(r.quotes.map((q) => [`${q.gpu}/${q.billing}`, q]));

test('a marketplace card list: each card with the price under it, the last price of a card wins', () => {
  const r = paste.parsePriceList(fixture('marketplace_cards.txt'), 'autodl', gpus, '2026-12-03');
  const q = byGpu(r);
  assert.equal(q['rtx-4090d/on-demand'].per_gpu_hour, 2.08, '4090D is not the 4090');
  assert.equal(q['rtx-3090/on-demand'].per_gpu_hour, 1.39);
  assert.equal(q['a800-80g/on-demand'].per_gpu_hour, 5.88);
  assert.equal(q['h800/on-demand'].per_gpu_hour, 10.5);
  // The 4090's card lists 1.98 and a member price 1.88: both were read, in order.
  assert.deepEqual(r.read.filter((x) => x.quote.gpu === 'rtx-4090').map((x) => x.quote.per_gpu_hour), [1.98, 1.88]);
  for (const x of r.quotes) {
    assert.equal(x.currency, 'CNY');
    // The day is the quote's own date field (sent as prices[].as_of), not text in its note.
    assert.equal(x.as_of, '2026-12-03');
    assert.doesNotMatch(x.note, /2026-12-03/);
  }
  // A card the catalog does not know (MTT S4000) is never credited to the card above it.
  assert.ok(!r.quotes.some((x) => x.per_gpu_hour === 1.96), JSON.stringify(r.quotes));
});

test('a checkout line: hourly, daily and monthly prices of one card, thousands separators read', () => {
  const r = paste.parsePriceList(fixture('checkout_line.txt'), 'compshare', gpus, '2026-12-03');
  const q = byGpu(r);
  assert.equal(q['rtx-5090/on-demand'].per_gpu_hour, 3.2);
  assert.equal(q['rtx-5090/daily'].per_gpu_hour * 24, 70.53);
  assert.ok(Math.abs(q['rtx-5090/monthly'].per_gpu_hour * 720 - 1923.6) < 1e-3);
});

test('a price table: rows read, a row without a price or with two cards is listed as not read', () => {
  const r = paste.parsePriceList(fixture('table_rows.txt'), 'matpool', gpus, '2026-12-03');
  const q = byGpu(r);
  assert.equal(q['rtx-4090/on-demand'].per_gpu_hour, 2.2);
  assert.equal(q['rtx-3090/on-demand'].per_gpu_hour, 1.85);
  assert.equal(q['a100-pcie-40g/on-demand'].per_gpu_hour, 2.8, 'the 40 GB PCIe card, not an 80 GB or SXM one');
  assert.equal(r.quotes.length, 3);
  assert.ok(r.unread.some((u) => u.line.includes('混合机') && u.reason === 'two_cards'), JSON.stringify(r.unread));
});

test('nothing readable: no quotes, and a price line without a card says so', () => {
  const r = paste.parsePriceList('限时优惠 ¥0.99/时 起\n', 'autodl', gpus, '2026-12-03');
  assert.equal(r.quotes.length, 0);
  assert.deepEqual(r.unread.map((u) => u.reason), ['no_card']);
  assert.equal(paste.parsePriceList('', 'autodl', gpus, '2026-12-03').quotes.length, 0);
});

// A pasted price's day travels as the quote's own date: kept through storage
// (checkQuote), sent as prices[].as_of, where the core ages it like a catalog
// price (offer.as_of, offer.stale).
test('a pasted quote keeps its day through storage and into the request', async () => {
  const m = await pageModules(['prices', 'request', 'state']);
  const r = paste.parsePriceList(fixture('marketplace_cards.txt'), 'autodl', gpus, '2026-12-03');
  const known = { platforms: new Set(['autodl']), gpus: new Set(gpus.map((g) => g.id)) };
  const kept = m.prices.cleanQuotes(r.quotes, known).quotes;
  assert.ok(kept.length > 0);
  for (const q of kept) assert.equal(q.as_of, '2026-12-03');
  // A date that is no day is dropped, never sent (the core refuses it as invalid_date).
  assert.equal(m.prices.validQuote({ ...kept[0], as_of: 'yesterday' }, known).as_of, undefined);
  const req = m.request.toRequest(m.state.defaultState(), 'zh-CN', kept);
  for (const p of req.prices) assert.equal(p.as_of, '2026-12-03');
  const typed = { ...kept[0] };
  delete typed.as_of;
  assert.equal(m.request.toRequest(m.state.defaultState(), 'zh-CN', [typed]).prices[0].as_of, undefined);
});

