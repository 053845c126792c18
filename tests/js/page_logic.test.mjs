// Unit tests of the page's logic modules (issue #16, "Also"): state and the
// share link, request building (prefs.scope), formatting (money in the
// display currency, price dates, sources), the Apply patches, and exports.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fakeCtx, pageModules, plannerModules, root } from './page_modules.mjs';

let m;
before(async () => { m = await pageModules(); });

// --- state and share link ---------------------------------------------------
test('state: scope is sanitized and survives the share link', () => {
  const s = { ...m.state.defaultState(), scope: 'global', title: '课题 A' };
  const back = m.state.decodeHash(m.state.encodeHash(s));
  assert.equal(back.scope, 'global');
  assert.equal(back.title, '课题 A');
  assert.equal(m.state.sanitize({ scope: 'mars' }).scope, '');
  assert.equal(m.state.sanitize({ stages: [{ stage: 'formal', seeds: 5, sweep: 2, ablations: 4 }] }).stages[1].seeds, 5);
  assert.equal(m.state.decodeHash('#s=!!!'), 'invalid');
});

// --- request ------------------------------------------------------------------
// Diffusion sampling steps (contract v1.2 workload.steps): sent when the
// student sets them at inference, left to the core's pipeline default at 0.
test('request: sampling steps go with an inference of a convolutional or diffusion model', () => {
  const d = { ...m.state.defaultState(), preset: 'sdxl-unet', mode: 'infer' };
  const model = { kind: 'cnn' };
  assert.equal(m.request.toRequest(d, 'zh-CN', [], model).workload.steps, undefined);
  assert.equal(m.request.toRequest({ ...d, steps: 30 }, 'zh-CN', [], model).workload.steps, 30);
  assert.equal(m.request.toRequest({ ...d, steps: 30, mode: 'train' }, 'zh-CN', [], model).workload.steps, undefined);
  assert.equal(m.state.sanitize({ steps: 5000 }).steps, m.state.defaultState().steps);
});

// A vision transformer is sized by its image: the planner counts its patches
// (docs/api.md, model.patch_size), so the page sends the image size, no sequence.
test('request: a vision transformer sends its image size, not a sequence length', () => {
  const d = m.state.defaultState();
  const vit = m.request.toRequest({ ...d, preset: 'vit-base' }, 'zh-CN', [], { kind: 'encoder', patch_size: 16 }).workload;
  assert.equal(vit.seq_len, undefined);
  assert.equal(vit.image_size, 224);
  assert.equal(m.request.toRequest({ ...d, preset: 'bert-base' }, 'zh-CN', [], { kind: 'encoder' }).workload.seq_len, d.seq_len);
});

// contract v1.2: the locale changes the answer's language and nothing else.
test('request: prefs.scope is sent only once the student has used the switch, in either language', () => {
  const d = m.state.defaultState();
  for (const lang of ['zh-CN', 'en']) {
    assert.equal(m.request.toRequest(d, lang, []).prefs?.scope, undefined, lang);
    assert.equal(m.request.toRequest({ ...d, scope: 'global' }, lang, []).prefs.scope, 'global', lang);
    assert.equal(m.request.toRequest({ ...d, scope: 'cn' }, lang, []).prefs.scope, 'cn', lang);
    assert.equal(m.request.effectiveScope(d, lang), 'cn', lang);
  }
});

test('request: stage runs are seeds × sweep × ablations', () => {
  const d = m.state.defaultState();
  const stages = d.stages.map((s) => (s.stage === 'formal' ? { ...s, seeds: 5, sweep: 2, ablations: 4 } : s));
  const r = m.request.toRequest({ ...d, stages }, 'zh-CN', []);
  assert.equal(r.stages.find((s) => s.stage === 'formal').runs, 40);
});

// --- formatting ---------------------------------------------------------------
test('money: shown at the core\'s rate for the display currency; with none, in its own currency, never NaN', () => {
  // The page converts nothing itself (issue #28): no rule of its own, only the response's `display`.
  assert.equal(m.format.inCurrency, undefined);
  assert.equal(m.format.moneyIn, undefined);
  const w = m['views/words'];
  const at = (display, lang = 'en') => fakeCtx(m, { lang, response: { ...planResponse(), display } });
  assert.equal(w.cash(at({ currency: 'USD', rates: { USD: 1, CNY: 1 / 7 }, as_of: '2026-07-31' }), 154, 'CNY'), '$22.00');
  assert.equal(w.cash(at({ currency: 'CNY', rates: { CNY: 1, USD: 7 } }, 'zh-CN'), 22, 'USD'), '¥154');
  const none = at({ currency: 'USD', rates: { USD: 1 } });
  assert.equal(w.cash(none, 154, 'CNY'), m.format.money('en', 154, 'CNY'));
  assert.equal(w.cashValue(none, 154, 'CNY'), 154);
  assert.equal(w.fxNote(none, 'CNY'), null);
  assert.equal(w.cash(at({ currency: 'USD', rates: { USD: 1, CNY: 1 / 7 } }), undefined, 'CNY'), '—');
});

// num, gib and percent format without Intl (ICU's start-up is on the first
// figure's path: web/src/format.ts); they must give Intl's own strings.
test('format: plain decimals read exactly as Intl writes them, in both languages', () => {
  const GIB = 2 ** 30;
  // Ties of the shortest decimal (0.15, 2.5, 0.285), carries (999.95, 0.995),
  // negative zero, the very small and the very large.
  const values = [0, -0, 0.5, 2.5, -2.5, 0.15, 0.285, 0.575, 1.005, 1.125, -1.125, 999.95, 0.995, 9.5, 1234.5, 12345678.9,
    0.0049, 0.005, -0.004, 1e-10, 4.5e-7, 1e20, 1e21, 1.5e25];
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 3000; i++) {
    const scale = 10 ** (Math.floor(random() * 14) - 4);
    values.push((random() - 0.2) * scale, Math.round(random() * scale * 1000) / 1000 + 0.0005);
  }
  for (const lang of ['zh-CN', 'en']) {
    for (const v of values) {
      for (const digits of [0, 1, 2, 4]) assert.equal(m.format.num(lang, v, digits), new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(v), `num ${lang} ${v} ${digits}`);
      assert.equal(m.format.gib(lang, v * GIB), `${new Intl.NumberFormat(lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(v)} GiB`, `gib ${lang} ${v}`);
      assert.equal(m.format.percent(lang, v), new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(v), `percent ${lang} ${v}`);
    }
  }
  assert.equal(m.format.num('zh-CN', NaN), '—');
  assert.equal(m.format.gib('en', Infinity), '—');
});

test('format: the catalog\'s age in days; a partial date counts from its start', () => {
  const now = new Date(Date.UTC(2026, 11, 1));
  assert.equal(m.format.isStale, undefined, 'a price\'s age is the core\'s verdict (offer.stale), not the page\'s');
  assert.equal(m.format.ageDays('2026-11-30', now), 1);
  assert.equal(m.format.ageDays('2026-11', now), 30);
  assert.equal(m.format.ageDays('2027-01-01', now), 0);
  assert.equal(m.format.ageDays('nope', now), null);
});

// --- Apply --------------------------------------------------------------------
test('apply: an OOM-doctor patch becomes a form change; nothing to change gives no button', () => {
  const s = m.state.defaultState();
  assert.deepEqual(m.apply.requestPatch(s, { workload: { micro_batch: 1 }, hardware: { gpu: 'rtx-4090', count: 1 } }), { micro_batch: 1 });
  assert.deepEqual(m.apply.requestPatch(s, { workload: { sharding: 'zero3' }, hardware: { gpu: 'rtx-4090', count: 4 } }), { sharding: 'zero3', gpus: 4 });
  assert.deepEqual(m.apply.requestPatch(s, { hardware: { gpu: 'a100-80g', count: 1 } }), { target_gpu: 'a100-80g' });
  assert.equal(m.apply.requestPatch(s, { workload: { grad_checkpointing: true } }), null); // already on
  assert.deepEqual(m.apply.requestPatch(s, { workload: { lora: { rank: 8 } } }), { lora_rank: 8 });
  assert.equal(m.apply.requestPatch(s, { workload: { micro_batch: 'one' } }), null); // wrong type: no change
});

// The planner's changes carry their merge patch (plan.changes[].patch); the
// page applies it and decides none of its own: no patch, no button.
test('apply: a budget change applies the planner\'s patch; without one (campus unpriced) there is none', () => {
  const s = m.state.defaultState();
  assert.deepEqual(m.apply.changePatch(s, { code: 'qlora', patch: { workload: { method: 'qlora' } } }), { method: 'qlora' });
  assert.deepEqual(m.apply.changePatch(s, { code: 'spot', patch: { prefs: { billing: 'spot' } } }), { billing: 'spot' });
  assert.deepEqual(m.apply.changePatch(s, { code: 'grad-accumulation', patch: { workload: { grad_accumulation: 4, micro_batch: 1 } } }), { micro_batch: 1 });
  assert.deepEqual(m.apply.changePatch(s, { code: 'campus', patch: { prefs: { platforms: ['campus'] } } }), { platforms: ['campus'] });
  assert.equal(m.apply.changePatch(s, { code: 'campus' }), null);
  assert.equal(m.apply.changePatch(s, { code: 'fewer-runs' }), null, 'no patch: the page halves nothing itself');
  // The planner's runs (the default form's 4 / 12 / 3 halved: 2 / 6 / 2), in the form's seeds × sweep × ablations.
  const fewer = m.apply.changePatch(s, { code: 'fewer-runs', patch: { stages: [
    { stage: 'debug', runs: 2, data_fraction: 0.1 }, { stage: 'formal', runs: 6, data_fraction: 1 }, { stage: 'revision', runs: 2, data_fraction: 1 }] } }).stages;
  const runs = (st) => st.seeds * st.sweep * st.ablations;
  assert.deepEqual(fewer.map(runs), [2, 6, 2]);
  assert.deepEqual(fewer[1], { ...s.stages[1], ablations: 1 }, 'one factor carries the new count');
  assert.deepEqual(m.apply.fieldPatch(s, 'workload.grad_checkpointing', false), { grad_checkpointing: false });
  assert.equal(m.apply.fieldPatch(s, 'workload.unknown_thing', 1), null);
});

// --- budget and exports ---------------------------------------------------------
// Issue #16 item 2's case: 4090 × 2, 30.8 billed instance hours, ¥154.
function planResponse({ feasible = true, within = true } = {}) {
  return {
    memory: { per_gpu: { allocated_bytes: 1e10, reserved_bytes: 1.1e10, total_bytes: 1.2e10 }, components: [{ id: 'weights', bytes: 1.2e10 }], headroom: 0.3, recommended_bytes: 1.56e10 },
    gpus: [{ id: 'rtx-4090', fits: true, fit: 'comfortable', count: 1, hours: 3, hours_low: 2.5, hours_high: 4, cost: 7.5, platform: 'gpushare', billing: 'on-demand', throughput: { low_factor: 0.75, high_factor: 1.2 } },
      { id: 'a100-80g', fits: false, fit: 'no', count: 1, hours: 0 }],
    warnings: feasible ? [] : [{ code: 'nothing_fits', message: 'formal 阶段没有可用的选项' }],
    display: { currency: 'CNY', rates: { CNY: 1, USD: 7 }, as_of: '2026-07-31' },
    plan: {
      currency: 'CNY', total_cost: feasible ? 154 : 0, within_budget: feasible && within, feasible, budget: within ? 200 : 100, wall_hours: 30.8,
      changes: within ? [] : [{ code: 'spot', saving: 40, message: '改用竞价' }],
      stages: [{ stage: 'formal', runs: 12, gpu: 'rtx-4090', count: 2, platform: 'gpushare', billing: 'on-demand', hours: 30.8, wall_hours: 30.8, cost: 154, share: 1, feasible,
        sharding: 'ddp', fit: 'comfortable', workload_changes: [{ field: 'workload.grad_checkpointing', value: true }] }],
    },
  };
}

test('budget: card-hours are instance hours × GPUs per instance; wall-clock stays wall-clock', () => {
  const ctx = fakeCtx(m, { response: planResponse() });
  const b = m['views/budget'].budgetOf(ctx);
  assert.equal(b.stages[0].gpuHours, 61.6);
  assert.equal(b.stages[0].wallHours, 30.8);
  assert.equal(b.feasible, true);
});

test('budget: an infeasible plan is never within budget', () => {
  const b = m['views/budget'].budgetOf(fakeCtx(m, { response: planResponse({ feasible: false }) }));
  assert.equal(b.feasible, false);
  assert.equal(b.within, false);
  // A stage-level infeasible (responses before plan.feasible) reads the same.
  const r = planResponse();
  delete r.plan.feasible;
  r.plan.stages[0].feasible = false;
  assert.equal(m['views/budget'].budgetOf(fakeCtx(m, { response: r })).feasible, false);
});

for (const lang of ['zh-CN', 'en']) {
  test(`export (${lang}): Markdown stands on its own — inputs, plan with platform and card-hours, assumptions, sources, date`, () => {
    const ctx = fakeCtx(m, { lang, response: planResponse({ within: false }), state: { title: 'T|1' } });
    const md = m.export.toMarkdown(ctx, '9.9.9', new Date(Date.UTC(2026, 11, 1)));
    assert.match(md, /^# T\\\|1/);
    assert.match(md, /2026-12-01/);
    const zh = lang === 'zh-CN';
    assert.match(md, zh ? /## 输入/ : /## Inputs/);
    assert.match(md, zh ? /正式实验: 12 次运行（3 个种子 × 2 个超参点 × 2 组消融）/ : /Formal experiments: 12 runs \\\(3 seeds × 2/);
    assert.match(md, zh ? /\| 阶段 \| 次数 \| GPU \| 平台 \| 卡·时 \| 用时 \| 费用 \|/ : /\| Stage \| Runs \| GPU \| Platform \| GPU-hours \| Wall-clock \| Cost \|/);
    // the platform by its name in this language, 61.6 card-hours, 30.8 wall hours
    assert.match(md, zh ? /恒源云 · 按量 \| 61\.6 \| 30\.8/ : /Gpushare · on-demand \| 61\.6 \| 30\.8/i);
    assert.match(md, zh ? /## 假设/ : /## Assumptions/);
    assert.match(md, zh ? /## 来源/ : /## Sources/);
    assert.match(md, zh ? /1 美元 = 7 元/ : /1 USD = 7 CNY/);
    assert.doesNotMatch(md, /\b(formal|debug|revision)\b/, 'no stage ids');
    assert.doesNotMatch(md, /\(S\d+\)|\.txt\b/, 'no source tags or file names');
  });
}

test('export: a USD display converts every plan figure at the catalog rate', () => {
  const ctx = fakeCtx(m, { lang: 'en', response: { ...planResponse(), display: { currency: 'USD', rates: { USD: 1, CNY: 1 / 7 }, as_of: '2026-07-31' } }, state: { currency: 'USD' } });
  const md = m.export.toMarkdown(ctx, '9.9.9');
  assert.match(md, /\*\*project total: \$22\.00\*\*/i);
  assert.doesNotMatch(md, /¥/);
  const csv = m.export.toCsv(ctx).split('\r\n');
  assert.equal(csv[0], 'gpu_id,gpu,memory_bytes,fit,count,wall_hours,wall_hours_low,wall_hours_high,gpu_hours,platform,billing,run_cost_USD,price_as_of,price_kind,price_confidence,price_stale,price_source,price_basis');
  assert.match(csv[1], /^rtx-4090,RTX 4090,24000000000,comfortable,1,3,2\.5,4,3,gpushare,on-demand,1\.07/);
  // Only the cards that fit: the A100 row of this response does not.
  assert.deepEqual(csv.slice(2), ['']);
  assert.doesNotMatch(m.export.toCsv(ctx), /,no,/);
});

// Issue #31: every exported price says its date and standing, in the
// student's language, from the core's offer (contract v1.2), never re-derived.
function offeredResponse() {
  const r = planResponse();
  r.plan.stages[0].offer = { platform: 'gpushare', gpu: 'rtx-4090', billing: 'on-demand', price_kind: 'list', as_of: '2026-01-10',
    confidence: 'medium', source: 'gpushare.com', stale: true, derived: false };
  r.gpus[0].offer = { platform: 'gpushare', gpu: 'rtx-4090', billing: 'on-demand', price_kind: 'list', as_of: '2026-12-03',
    confidence: 'quote', source: 'quote', stale: false, derived: false };
  return r;
}
for (const lang of ['zh-CN', 'en']) {
  test(`export (${lang}): Markdown, CSV and the printout give each price's date and standing from the core's offer`, () => {
    const zh = lang === 'zh-CN';
    const ctx = fakeCtx(m, { lang, response: offeredResponse() });
    const stage = zh ? '2026-01-10 · 官网价 · 可信度中 · gpushare.com · 请到平台核对当前价格'
      : "2026-01-10 · list price · medium confidence · gpushare.com · check the platform's current price";
    const quote = zh ? '2026-12-03 · 你的报价' : '2026-12-03 · your quote';
    assert.equal(m.export.priceBasis(ctx, ctx.response.plan.stages[0].offer), stage);
    const md = m.export.toMarkdown(ctx, '9.9.9');
    assert.match(md, zh ? /\| 费用 \| 价格依据 \|/ : /\| Cost \| Price basis \|/);
    assert.ok(md.includes(`| ${stage.replace(/'/g, "'")} |`), md);
    assert.ok(md.includes(`| ${quote} |`), 'the GPU table row says it is the student\'s quote');
    const csv = m.export.toCsv(ctx).split('\r\n');
    assert.match(csv[0], /,price_as_of,price_kind,price_confidence,price_stale,price_source,price_basis$/);
    assert.ok(csv[1].endsWith(`,2026-12-03,quote,quote,false,quote,${quote}`), csv[1]);
    // The printout's list (views/print.ts): one line per planned stage.
    const lines = m.export.priceLines(ctx);
    assert.equal(lines.length, 1);
    assert.ok(lines[0].endsWith(stage), lines[0]);
    assert.match(lines[0], zh ? /^正式实验: RTX 4090 · 恒源云 · / : /^Formal experiments: RTX 4090 · Gpushare · /i);
    // Without an offer (an older core) the cells are empty, not guessed.
    const bare = m.export.toCsv(fakeCtx(m, { lang, response: planResponse() })).split('\r\n');
    assert.ok(bare[1].endsWith(',,,,,,'), bare[1]);
  });
}

test('export: an infeasible plan says so, never a total within budget', () => {
  for (const lang of ['zh-CN', 'en']) {
    const md = m.export.toMarkdown(fakeCtx(m, { lang, response: planResponse({ feasible: false }) }), '9.9.9');
    assert.match(md, lang === 'zh-CN' ? /\*\*没有可行方案\*\*/ : /\*\*No feasible plan\*\*/);
    assert.doesNotMatch(md, /在预算|within the budget|¥0\.00/i);
  }
});

// --- the views' words -----------------------------------------------------------
// Every change the planner's fit search makes to a stage's workload
// (plan.stages[].workload_changes, written in core/src/estimate/evaluation.cpp)
// is named on the page in the student's words, its value too: never
// "loss → fused".
test('words: every workload change the planner can make has its words in both languages', () => {
  const source = readFileSync(path.join(root, 'core/src/estimate/evaluation.cpp'), 'utf8');
  const changes = [...source.matchAll(/changes\.push_back\(\{"workload\.(\w+)", (?:"\\"([\w.-]+)\\""|[^}]+)\}/g)].map((x) => [x[1], x[2]]);
  assert.ok(changes.length >= 6, `the changes read from evaluation.cpp: ${JSON.stringify(changes)}`);
  assert.ok(changes.some(([f]) => f === 'loss'));
  for (const lang of ['zh-CN', 'en']) {
    const t = m.i18n.translator(lang);
    for (const [field, value] of changes) {
      assert.notEqual(t(`field.${field}`), `field.${field}`, `${lang}: field.${field}`);
      if (value) assert.notEqual(t(`${field}.${value}`), `${field}.${value}`, `${lang}: ${field}.${value}`);
    }
  }
});

// Every memory component the estimator names (memory.components[].id, added in
// core/src/estimate/memory*.cpp; a trained vision tower's as vision_<id>) has
// its words on the page in both languages: the memory card never shows an id.
test('words: every memory component the estimator can name has its words in both languages', async () => {
  const dir = path.join(root, 'core/src/estimate');
  const ids = new Set();
  for (const f of readdirSync(dir).filter((x) => /^memory.*\.(cpp|h)$/.test(x))) {
    for (const x of readFileSync(path.join(dir, f), 'utf8').matchAll(/(?:add\(e, |push_back\(\{)"(\w+)"/g)) ids.add(x[1]);
  }
  assert.ok(ids.size >= 9, `ids read from the estimator: ${[...ids]}`);
  // A trained tower under ZeRO-3 names the most of its own (vlm.cpp: "vision_" + the tower's ids).
  const { webModule } = await plannerModules();
  const vlm = { locale: 'zh-CN', model: { preset: 'qwen2.5-vl-7b' }, hardware: { gpu: 'a100-sxm4-80g', count: 4 },
    workload: { mode: 'train', method: 'lora', micro_batch: 2, seq_len: 512, image_size: 448, grad_checkpointing: true, sharding: 'zero3', train_vision_tower: true } };
  const shown = JSON.parse(webModule.plan(JSON.stringify(vlm))).memory.components.map((c) => c.id);
  assert.ok(shown.includes('vision_gathered_layers'), shown.join(' '));
  for (const id of shown) ids.add(id);
  for (const lang of ['zh-CN', 'en']) {
    const t = m.i18n.translator(lang);
    for (const id of ids) assert.notEqual(t(`component.${id}`), `component.${id}`, `${lang}: component.${id}`);
  }
});

test('words: platform names, sources, price dates and the GPU table\'s verdicts', () => {
  const zh = fakeCtx(m, { lang: 'zh-CN' });
  const en = fakeCtx(m, { lang: 'en' });
  const w = m['views/words'];
  // The planner writes its sentences in the student's words (tests/js/messages_words.test.mjs): the page rewrites none.
  assert.equal(w.withStageNames, undefined);
  assert.equal(w.platformName(zh, 'gpushare'), '恒源云');
  assert.equal(w.platformName(en, 'gpushare'), 'Gpushare');
  // A source as the core labelled it (page_source_label): its words in the page's language.
  assert.equal(w.sourceText(zh, 'student article'), '学生经验文章（未核实）');
  // The date of the offer a figure was priced on is the core's `offer.as_of`: no look-up in the catalog copy.
  assert.equal(w.offerDate, undefined);
  const g = m['views/gpus'];
  // A row's verdict is the core's gpus[].fit, which it always writes: the page reads no older shape.
  assert.equal(g.fitOf, undefined);
  assert.equal(g.rows(fakeCtx(m, { response: { memory: {}, warnings: [], gpus: [{ id: 'rtx-4090', fit: 'tight', fits: true, count: 1, hours: 1, cost: 5 }] } }))[0].fit, 'tight');
  // A row's cost is the planner's, in its currency; a card that does not fit has none.
  const rows = g.rows(fakeCtx(m, { response: { memory: {}, warnings: [], gpus: [{ id: 'rtx-4090', fit: 'no', fits: false, count: 1, hours: 1, cost: 5 }, { id: 'a100-80g', fit: 'comfortable', fits: true, count: 1, hours: 1, cost: 9 }] } }));
  assert.ok(Number.isNaN(rows[0].cost));
  assert.equal(rows[1].cost, 9);
  assert.equal(rows[1].costCurrency, 'CNY');
});

// Issue #20 item 10: an error at the request's stages[1].runs marks the field of the stage that was
// sent second, not the form's second stage, when a stage before it is off.
test('formPath: a request stage index is the form stage that was sent', () => {
  const d = m.state.defaultState();
  const off = { ...d, stages: d.stages.map((st, i) => (i === 0 ? { ...st, on: false } : st)) };
  assert.equal(m.request.toRequest(off, 'zh-CN', []).stages[0].stage, off.stages[1].stage);
  assert.equal(m.request.formPath('stages[0].runs', off), 'stages[1].runs');
  assert.equal(m.request.formPath('stages[1].data_fraction', off), 'stages[2].data_fraction');
  assert.equal(m.request.formPath('stages[0].runs', d), 'stages[0].runs');
  assert.equal(m.request.formPath('workload.micro_batch', off), 'workload.micro_batch');
});
