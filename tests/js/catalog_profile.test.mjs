// The page's module carries the page profile of the catalog (issue #7,
// docs/performance.md): no GPU or model sources and notes, which the page never
// shows, while the Node module (what outside checks and `gpuplan catalog`-like
// reads use) keeps every source. Both must plan alike: the cut prose is read
// by no computation. Run after ./dev.sh build (build/wasm).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fakeCtx, pageModules, plannerModules, root } from './page_modules.mjs';

const { nodeModule, webModule } = await plannerModules();
const full = JSON.parse(nodeModule.catalog());
const page = JSON.parse(webModule.catalog());

test('the Node module keeps every GPU and model source', () => {
  assert.equal(full.provenance, undefined);
  assert.ok(full.gpus.length > 20);
  for (const g of full.gpus) assert.ok(g.sources?.length > 0, `gpus ${g.id}`);
  for (const m of full.models) assert.ok(m.sources?.length > 0, `models ${m.id}`);
  assert.ok(full.gpus.some((g) => g.notes));
});

test('the page module leaves out the prose the page does not show', () => {
  assert.equal(page.provenance, 'page');
  assert.deepEqual(page.gpus.map((g) => g.id), full.gpus.map((g) => g.id));
  assert.deepEqual(page.models.map((m) => m.id), full.models.map((m) => m.id));
  for (const g of page.gpus) assert.ok(!('sources' in g) && !('notes' in g), `gpus ${g.id}`);
  for (const m of page.models) assert.ok(!('sources' in m), `models ${m.id}`);
  // What the page does show is whole: offers' dates and prices, scenarios;
  // sources as the label or citation the page shows (next tests).
  assert.deepEqual(page.platforms.map((p) => p.offers.map((o) => [o.as_of, o.per_gpu_hour])),
    full.platforms.map((p) => p.offers.map((o) => [o.as_of, o.per_gpu_hour])));
  const withoutSources = (cat) => cat.scenarios.map(({ sources, ...rest }) => rest);
  assert.deepEqual(withoutSources(page), withoutSources(full));
  assert.ok(JSON.stringify(page).length < JSON.stringify(full).length * 0.6);
});

// The page's copy keeps of each platform and offer source only what the page
// shows of it (core/src/read/catalog_profile.cpp, page_source): the same label.
test('every platform and offer source reads as the same label in the page copy', async () => {
  const { format } = await pageModules(['format']);
  const labels = (cat) => cat.platforms.map((p) => [
    (p.sources ?? []).map((x) => format.sourceLabel(x)),
    (p.offers ?? []).map((o) => format.sourceLabel(o.source))]);
  assert.deepEqual(labels(page), labels(full));
  // An unverified source is said to be unverified, not cited by the site it says to check.
  assert.deepEqual(format.sourceLabel('unverified: no public page found; check at https://www.autodl.com'), { kind: 'unverified' });
  for (const p of full.platforms) {
    for (const o of p.offers ?? []) {
      if (/^\s*unverified\b/i.test(o.source ?? '')) assert.equal(format.sourceLabel(o.source).kind, 'unverified', `${p.id} ${o.gpu}`);
    }
  }
  // A card's purchase price too (rent or buy shows its source).
  const purchases = (cat) => cat.gpus.map((g) => (g.purchase ? format.sourceLabel(g.purchase.source) : null));
  assert.ok(full.gpus.some((g) => g.purchase));
  assert.deepEqual(purchases(page), purchases(full));
  for (const g of page.gpus.filter((x) => x.purchase)) {
    const whole = full.gpus.find((x) => x.id === g.id).purchase;
    assert.deepEqual({ ...g.purchase, source: whole.source }, whole, `gpus ${g.id}: the price, currency and date are whole`);
    assert.ok(g.purchase.source.length <= whole.source.length, `gpus ${g.id}`);
  }
  // and it is shorter: no address past the repository, no note.
  const long = page.platforms.flatMap((p) => [...(p.sources ?? []), ...(p.offers ?? []).map((o) => o.source ?? '')]);
  assert.ok(long.every((x) => x.length <= 80), long.find((x) => x.length > 80));
});

// Of each scenario source it keeps the citation the page shows
// (views/scenario.ts; core/src/read/catalog_profile.cpp, page_citation).
test('every scenario source reads as the same citation in the page copy', async () => {
  const { format } = await pageModules(['format']);
  const cites = (cat) => cat.scenarios.map((s) => (s.sources ?? []).map((x) => format.citation(x)));
  assert.deepEqual(cites(page), cites(full));
  const kinds = new Set(cites(full).flat().map((c) => c.kind));
  for (const kind of ['site', 'cite', 'unverified']) assert.ok(kinds.has(kind), `a scenario source cited as ${kind}`);
  const cut = page.scenarios.flatMap((s) => s.sources ?? []);
  assert.ok(cut.every((x) => x.length <= 60), cut.find((x) => x.length > 60));
});

test('the page says where the sources are, in both languages', () => {
  for (const file of ['web/src/i18n/zh-CN.ts', 'web/src/i18n/en.ts']) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const line = /'catalog\.sources': '([^']*)'/.exec(text)?.[1] ?? '';
    assert.match(line, /catalog\//, file);
    assert.match(line, /gpuplan catalog/, file);
  }
});

// Alike to the byte, but for rent or buy's purchase source, which the page's
// copy keeps as the label the page shows (the test above).
test('both modules plan alike over every request', async () => {
  const { format } = await pageModules(['format']);
  const dir = path.join(root, 'tests/data/requests');
  const requests = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => readFileSync(path.join(dir, f), 'utf8'));
  requests.push(...full.scenarios.map((s) => JSON.stringify(s.request)));
  assert.ok(requests.length > 20);
  let purchases = 0;
  const labelled = (text) => text.replace(/("rent_vs_buy":\{[^{}]*"source":)("(?:[^"\\]|\\.)*")/, (_, head, source) => {
    purchases += 1;
    return `${head}${JSON.stringify(format.sourceLabel(JSON.parse(source)))}`;
  });
  for (const r of requests) assert.equal(labelled(webModule.plan(r)), labelled(nodeModule.plan(r)), r.slice(0, 120));
  assert.ok(purchases > 0, 'some request plans rent or buy');
});

// Issue #14 item 6 and #17: the page's copy keeps the figures its plans quote
// (the campus queue-priority tiers, the default electricity) without their
// prose, and the budget view shows the queue advice as the core wrote it
// (views/budget.ts lists plan.advice as written).
test('the page module quotes the campus queue tiers and the catalog electricity', async () => {
  // The tariff's source only as the site a plan on the lab's cards names (plan.stages[].electricity).
  const { source: powerSource, ...power } = page.electricity;
  assert.deepEqual(power, { per_kwh: full.electricity.per_kwh, currency: full.electricity.currency,
    as_of: full.electricity.as_of, confidence: full.electricity.confidence });
  assert.ok(full.electricity.source.includes('https://'));
  assert.ok(powerSource && !powerSource.includes('https://') && full.electricity.source.includes(powerSource), powerSource);
  const campus = page.platforms.find((p) => p.id === 'campus');
  // Only the rate the advice quotes: the first queue-priority one.
  assert.equal(campus.reference_rates.length, 1);
  const quoted = full.platforms.find((p) => p.id === 'campus').reference_rates.find((r) => r.priced_by === 'queue_priority');
  const { source, note, ...figures } = quoted;
  assert.ok(source && note);
  assert.deepEqual({ ...campus.reference_rates[0] }, figures);
  const m = await pageModules(['state', 'request', 'i18n', 'i18n/zh-CN', 'i18n/en', 'views/words']);
  for (const lang of ['zh-CN', 'en']) {
    const request = JSON.stringify({ locale: lang, model: { preset: 'llama-3.1-8b' },
      workload: { mode: 'train', method: 'lora', micro_batch: 4, seq_len: 2048 },
      data: { samples: 50000, epochs: 3 }, stages: [{ stage: 'debug', runs: 4, data_fraction: 0.1 }, { stage: 'formal', runs: 2 }],
      prices: [{ platform: 'campus', gpu: 'a100-pcie-80g', per_gpu_hour: 1 }], prefs: { platforms: ['campus'] }, buy: { price: 60000 } });
    const plan = JSON.parse(webModule.plan(request)).plan;
    const advice = plan.advice.find((a) => a.code === 'campus-queue-priority');
    assert.ok(advice, `${lang}: ${JSON.stringify(plan.advice)}`);
    const [low, normal, high] = ['low', 'typical', 'high'].map((k) => campus.reference_rates[0].per_gpu_hour[k]);
    assert.ok(advice.message.includes(`${low} / ${normal} / ${high} CNY`), advice.message);
    assert.equal(plan.rent_vs_buy.electricity_per_kwh, full.electricity.per_kwh);
  }
});

