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

// The page's copy keeps of each platform, offer and purchase source only the
// label the page shows (core/src/read/catalog_profile.cpp, page_source_label,
// which tests/core/catalog_profile_test.cpp holds to its cases): the site or
// repository a student can open, named in the whole source, or the words the
// page translates. The page shows it as it stands (views/words.ts, sourceText).
const SITE = /^(?:[a-z0-9-]+\.)+[a-z]+(?:\/[\w.~-]+\/[\w.~-]+)?$/;
const named = (label, whole) => whole.toLowerCase().includes(label.replace(/^github\.com\//, '').toLowerCase());
function checkLabel(label, whole, where) {
  if (/^\s*unverified\b/i.test(whole)) assert.equal(label, 'unverified', `${where}: an unverified source is not cited by the site it says to check`);
  else if (label !== 'unverified' && label !== 'student article') {
    assert.match(label, SITE, where);
    assert.ok(named(label, whole), `${where}: ${label} is not in ${whole}`);
  }
}
test('every platform, offer and purchase source of the page copy is the label the page shows', () => {
  let sites = 0;
  for (const [i, p] of page.platforms.entries()) {
    const whole = full.platforms[i];
    (p.sources ?? []).forEach((x, k) => checkLabel(x, whole.sources[k], `${p.id} sources[${k}]`));
    (p.offers ?? []).forEach((o, k) => checkLabel(o.source, whole.offers[k].source, `${p.id} ${o.gpu}`));
    sites += (p.offers ?? []).filter((o) => SITE.test(o.source)).length;
  }
  for (const [i, g] of page.gpus.entries()) if (g.purchase) checkLabel(g.purchase.source, full.gpus[i].purchase.source, `gpus ${g.id}`);
  assert.ok(sites > 20, 'most offers cite a site');
  assert.ok(page.platforms.some((p) => (p.offers ?? []).some((o) => o.source === 'unverified')));
  assert.ok(full.gpus.some((g) => g.purchase));
  for (const g of page.gpus.filter((x) => x.purchase)) {
    const whole = full.gpus.find((x) => x.id === g.id).purchase;
    assert.deepEqual({ ...g.purchase, source: whole.source }, whole, `gpus ${g.id}: the price, currency and date are whole`);
  }
  const long = page.platforms.flatMap((p) => [...(p.sources ?? []), ...(p.offers ?? []).map((o) => o.source ?? '')]);
  assert.ok(long.every((x) => x.length <= 80), long.find((x) => x.length > 80));
});

// Of each scenario source it keeps the citation the page shows (page_citation):
// the repository, the paper, the site or the document's name, each a part of
// the whole source, or "unverified".
test('every scenario source of the page copy is the citation the page shows', () => {
  const cites = page.scenarios.flatMap((s, i) => (s.sources ?? []).map((x, k) => [x, full.scenarios[i].sources[k]]));
  assert.ok(cites.length > 10);
  for (const [cite, whole] of cites) {
    if (cite === 'unverified') continue;
    assert.ok(!/[:,(]$/.test(cite), cite);
    const parts = cite.replace(/^github\.com\//, '').split(/,? arXiv:|, | /);
    assert.ok(parts.every((x) => whole.includes(x)), `${cite} is not in ${whole}`);
  }
  assert.ok(cites.some(([c]) => c.startsWith('github.com/')), 'a repository');
  assert.ok(cites.some(([c]) => /\b\d{4}\b/.test(c) && !c.includes('/')), 'a paper');
  assert.ok(cites.some(([c]) => c === 'unverified'), 'an unverified source');
  assert.ok(cites.every(([c]) => c.length <= 60), cites.find(([c]) => c.length > 60)?.[0]);
});

// The page shows a source as the core wrote it and translates only the
// core's words for what a source is.
test('the page shows each source label as it stands, and the core\'s words in its language', async () => {
  const m = await pageModules(['state', 'request', 'format', 'i18n', 'i18n/zh-CN', 'i18n/en', 'views/words']);
  // No rule of the page's own reads a source (the core's page_source_label and page_citation do).
  assert.equal(m.format.sourceLabel, undefined);
  assert.equal(m.format.citation, undefined);
  for (const lang of ['zh-CN', 'en']) {
    const ctx = fakeCtx(m, { lang });
    const t = m.i18n.translator(lang);
    assert.equal(m['views/words'].sourceText(ctx, 'github.com/owner/repo'), 'github.com/owner/repo');
    assert.equal(m['views/words'].sourceText(ctx, 'Chen et al. 2017, arXiv:1706.05587'), 'Chen et al. 2017, arXiv:1706.05587');
    assert.equal(m['views/words'].sourceText(ctx, 'unverified'), t('source.unverified'));
    assert.equal(m['views/words'].sourceText(ctx, ''), t('source.unverified'));
    assert.equal(m['views/words'].sourceText(ctx, undefined), t('source.unverified'));
    assert.equal(m['views/words'].sourceText(ctx, 'student article'), t('source.seed'));
    assert.equal(m['views/words'].sourceText(ctx, 'lab'), t('source.lab'));
    assert.equal(m['views/words'].sourceText(ctx, 'request'), t('source.request'));
    assert.notEqual(t('source.lab'), 'source.lab');
  }
});

test('the page says where the sources are, in both languages', () => {
  for (const file of ['web/src/i18n/zh-CN.ts', 'web/src/i18n/en.ts']) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const line = /'catalog\.sources': '([^']*)'/.exec(text)?.[1] ?? '';
    assert.match(line, /catalog\//, file);
    assert.match(line, /gpuplan catalog/, file);
  }
});

// Alike to the byte: rent or buy's purchase source is the label the page
// shows in both (the core labels it as it labels offers' sources).
test('both modules plan alike over every request', () => {
  const dir = path.join(root, 'tests/data/requests');
  const requests = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => readFileSync(path.join(dir, f), 'utf8'));
  requests.push(...full.scenarios.map((s) => JSON.stringify(s.request)));
  assert.ok(requests.length > 20);
  let purchases = 0;
  for (const r of requests) {
    const answer = nodeModule.plan(r);
    assert.equal(webModule.plan(r), answer, r.slice(0, 120));
    if (answer.includes('"rent_vs_buy"')) purchases += 1;
  }
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
  const m = await pageModules(['state', 'request', 'format', 'i18n', 'i18n/zh-CN', 'i18n/en', 'views/words']);
  // No rule of the page's own reads a source (the core's page_source_label and page_citation do).
  assert.equal(m.format.sourceLabel, undefined);
  assert.equal(m.format.citation, undefined);
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


// A price's age is the core's one rule (core/src/read/price_age.cpp): the
// page's copy marks each old offer `stale: true`, and a plan says the same of
// every catalog offer it prices (offer.stale), so the platform panel, the GPU
// table, the plan and the exports never disagree (issue #28).
test('the page copy\'s stale marks are the plan\'s verdicts on the same offers', () => {
  const marked = new Map();
  for (const p of page.platforms) for (const o of p.offers) marked.set(`${p.id}/${o.gpu}/${o.billing}`, o.stale === true);
  assert.ok([...marked.values()].some(Boolean) && [...marked.values()].some((x) => !x), 'old and current offers both there');
  const request = JSON.parse(readFileSync(path.join(root, 'tests/data/requests/plan-stages-budget.json'), 'utf8'));
  const reply = JSON.parse(webModule.plan(JSON.stringify({ ...request, prefs: { ...request.prefs, scope: 'global' } })));
  const offers = [...reply.gpus.map((g) => g.offer), ...reply.plan.stages.map((s) => s.offer)].filter((o) => o && o.confidence !== 'quote' && !o.derived);
  assert.ok(offers.length > 10);
  let seen = 0;
  for (const o of offers) {
    const key = `${o.platform}/${o.gpu}/${o.billing}`;
    if (!marked.has(key)) continue;
    seen += 1;
    assert.equal(o.stale, marked.get(key), key);
  }
  assert.ok(seen > 10, `${seen} offers matched`);
});
