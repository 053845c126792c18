// The page is a view of the core (issue: "sends only what the student chose,
// and decides nothing twice"), as a student meets it in both languages: the
// request it sends holds the student's choices only, the language switch
// changes nothing but the language, a proposed change applies what the
// planner priced, the verify script and the calibration follow the form,
// the memory card never contradicts itself, and the plan reads on a phone,
// prints on A4 and exports only what fits. Each test fails on the page before.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { artifacts, launch, open, pageUrl, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const LOCALES = [
  { locale: 'zh-CN', json: '导出 JSON', csv: '导出 CSV' },
  { locale: 'en-US', json: 'Export JSON', csv: 'Export CSV' },
];

// What the page sends: its JSON export's request (the one it planned).
async function sent(page, L, name = L.json) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`.actions button:text-is("${name}")`)]);
  const file = path.join(artifacts, `page-view-${Date.now()}-${dl.suggestedFilename()}`);
  await dl.saveAs(file);
  return readFileSync(file, 'utf8');
}
async function sentJson(page, L) {
  return JSON.parse(await sent(page, L));
}
async function fill(page, selector, value) {
  await page.fill(selector, String(value));
  await page.press(selector, 'Tab');
  await page.waitForTimeout(300);
}
const link = (state) => `${pageUrl}#s=${Buffer.from(JSON.stringify(state)).toString('base64url')}`;

for (const L of LOCALES) {
  test(`the default form sends no card count, sharding or scope, and shows them as the planner's (${L.locale})`, async () => {
    const { page, context, errors } = await open(browser, { locale: L.locale });
    await page.waitForSelector('[data-path="workload.sharding"]', { state: 'attached' });
    const { request } = await sentJson(page, L);
    assert.equal(request.workload.gpus, undefined);
    assert.equal(request.workload.sharding, undefined);
    assert.equal(request.prefs?.scope, undefined);
    assert.equal(request.hardware, undefined);
    // Shown as such: the sharding menu's choice and the empty count say "the planner chooses".
    const chosen = await page.$eval('[data-path="workload.sharding"]', (s) => s.options[s.selectedIndex].textContent);
    assert.match(chosen, L.locale === 'zh-CN' ? /由规划器选择/ : /planner choose/i);
    assert.equal(await page.inputValue('[data-path="workload.gpus"]'), '');
    assert.match(await page.getAttribute('[data-path="workload.gpus"]', 'placeholder'), L.locale === 'zh-CN' ? /由规划器选择/ : /planner choose/i);
    // The plan's multi-GPU choice, where it makes one, is labelled the planner's.
    const whys = await page.textContent('#budget');
    assert.doesNotMatch(whys, /你选的）|your choice\)/);
    // The range is named as the core computes it (docs/time-model.md "Range").
    assert.match(await page.textContent('#gpus-range-help'), /10–90|10th–90th/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`the language switch changes the locale and nothing else (${L.locale})`, async () => {
    const { page, context } = await open(browser, { locale: L.locale });
    const before = (await sentJson(page, L)).request;
    assert.equal(await page.isChecked('#scope-global'), false);
    await page.click('#lang-toggle');
    await page.waitForFunction((lang) => document.documentElement.lang !== lang, L.locale === 'zh-CN' ? 'zh-CN' : 'en');
    const other = LOCALES.find((x) => x !== L);
    const after = (await sentJson(page, other)).request;
    // The overseas switch stays as it was: off (cn) in either language.
    assert.equal(await page.isChecked('#scope-global'), false);
    assert.notEqual(after.locale, before.locale);
    assert.deepEqual({ ...after, locale: before.locale }, before);
    await context.close();
  });

  // A link made on a zh-CN page (no language chosen) opened in this browser.
  test(`a share link plans the same in either browser language (${L.locale})`, async () => {
    const state = { form: 2, title: '', preset: 'llama-3.1-8b', method: 'full', budget: 8000, deadline_days: 3 };
    const { page, context } = await open(browser, { locale: L.locale, url: link(state) });
    const { request, response } = await sentJson(page, L);
    assert.equal(request.prefs?.scope, undefined);
    assert.equal(request.workload.gpus, undefined);
    const zhLocale = LOCALES[0];
    const zh = await open(browser, { locale: zhLocale.locale, url: link(state) });
    const zhSent = await sentJson(zh.page, zhLocale);
    assert.deepEqual({ ...request, locale: 'zh-CN' }, zhSent.request);
    // The same plan: card, count, platform and cost of every stage.
    const brief = (r) => (r.plan?.stages ?? []).map((s) => [s.stage, s.gpu, s.count, s.platform, s.cost]);
    assert.deepEqual(brief(response), brief(zhSent.response));
    await zh.context.close();
    await context.close();
  });

  // Links and saved forms from the page before carried gpus 1 / sharding none as its defaults.
  test(`an old share link's default one card / no sharding is left to the planner (${L.locale})`, async () => {
    const { page, context } = await open(browser, { locale: L.locale, url: link({ preset: 'llama-3.1-8b', gpus: 1, sharding: 'none', micro_batch: 2 }) });
    const { request } = await sentJson(page, L);
    assert.equal(request.workload.gpus, undefined);
    assert.equal(request.workload.sharding, undefined);
    assert.equal(request.workload.micro_batch, 2, 'the rest of the link is kept');
    const kept = await open(browser, { locale: L.locale, url: link({ preset: 'llama-3.1-8b', gpus: 4, sharding: 'zero2' }) });
    const hand = (await sentJson(kept.page, L)).request;
    assert.equal(hand.workload.gpus, 4);
    assert.equal(hand.workload.sharding, 'zero2');
    await kept.context.close();
    await context.close();
  });

  // "Fewer runs": the core offered 2 / 6 / 2 at its own price; the page's own halving made 4 / 8 / 2.
  test(`Apply on a budget change applies the planner's patch (${L.locale})`, async () => {
    const { page, context } = await open(browser, { locale: L.locale });
    await fill(page, '[data-path="budget.amount"]', 1);
    await page.waitForSelector('[data-apply="change/fewer-runs"]', { timeout: 20000 });
    const { response } = await sentJson(page, L);
    const change = response.plan.changes.find((c) => c.code === 'fewer-runs');
    assert.ok(change?.patch?.stages, JSON.stringify(change));
    await page.click('[data-apply="change/fewer-runs"]');
    await page.waitForTimeout(400);
    const after = await sentJson(page, L);
    assert.deepEqual(after.request.stages.map((s) => [s.stage, s.runs]), change.patch.stages.map((s) => [s.stage, s.runs]));
    assert.ok(Math.abs(after.response.plan.total_cost - change.new_total) < 1e-6, `${after.response.plan.total_cost} vs ${change.new_total}`);
    await context.close();
  });

  test(`the verify script follows the form and names the card the plan rents (${L.locale})`, async () => {
    const { page, context } = await open(browser, { locale: L.locale });
    await page.selectOption('select[data-path="model.preset"]', 'qwen2.5-7b');
    await page.waitForTimeout(300);
    await fill(page, '[data-path="workload.micro_batch"]', 1);
    await fill(page, '[data-path="workload.seq_len"]', 1024);
    const { request, response } = await sentJson(page, L);
    assert.equal(request.model.preset, 'qwen2.5-7b');
    const script = await page.textContent('#verify-script');
    assert.match(script, /Qwen2\.5 7B/);
    assert.match(script, /BATCH, SEQ, WARMUP, STEPS, ACCUMULATION = 1, 1024, /);
    assert.match(script, /num_hidden_layers=28/, 'Qwen2.5-7B has 28 layers');
    const formal = response.plan.stages.find((s) => s.stage === 'formal');
    const name = await page.evaluate((id) => document.querySelector(`#target-gpu option[value="${id}"]`)?.textContent ?? '', formal.gpu);
    assert.ok(name, formal.gpu);
    assert.ok(script.includes(`the card the plan rents: ${name.replace(/ \(.*$/, '')} ×${formal.gpus_per_run ?? formal.count}`), script.split('\n').slice(0, 5).join('\n'));
    // A scenario replaces the model: no LLM script for a ResNet.
    await page.click('[data-key="scenario/image-classification"]');
    await until(page, async (p) => (await p.textContent('#verify-script')).includes('no verify script'), 'the script for the ResNet scenario', 20000);
    assert.doesNotMatch(await page.textContent('#verify-script'), /LoraConfig|AutoModelForCausalLM/);
    await context.close();
  });

  test(`the calibration paste reads cards by the names nvidia-smi prints and refuses another card (${L.locale})`, async () => {
    const { page, context, errors } = await open(browser, { locale: L.locale });
    const line = (gpu) => `GPUPLAN_RESULT {"gpu": "${gpu}", "count": 1, "micro_batch": 4, "seq_len": 2048, "peak_memory_bytes": 32212254720, "tokens_per_s": 9000, "samples_per_s": 1.1}`;
    await page.click('#calib summary');
    // An unknown card: refused, nothing read.
    await page.fill('#calib textarea', line('NVIDIA Quadro Mystery 9000'));
    await page.click('#calib-read');
    await until(page, async (p) => (await p.getAttribute('#calib-read ~ *, #calib .help.bad', 'class').catch(() => '')) !== null, 'a message');
    assert.match(await page.textContent('#calib .help.bad'), /Quadro Mystery 9000/);
    assert.equal(await page.inputValue('#calib-memory'), '0');
    // An H800 is recognised by the name nvidia-smi prints, and the page says what it read.
    await page.fill('#calib textarea', line('NVIDIA H800'));
    await page.click('#calib-read');
    await until(page, async (p) => (await p.inputValue('#calib-gpu')) === 'h800', 'the H800 read');
    assert.equal(await page.inputValue('#calib-memory'), '30');
    await until(page, async (p) => /NVIDIA H800/.test(await p.textContent('.notes')), 'the confirmation');
    assert.match(await page.textContent('.notes'), /H800 SXM5 80GB/);
    // With the 4090 chosen, an H800's line is refused: its speed is not the 4090's.
    await page.selectOption('#calib-gpu', 'rtx-4090');
    await page.waitForTimeout(300);
    await page.click('#calib summary').catch(() => {});
    if (!(await page.isVisible('#calib textarea'))) await page.click('#calib summary');
    await page.fill('#calib textarea', line('NVIDIA H800'));
    await page.click('#calib-read');
    await until(page, async (p) => (await p.$('#calib .help.bad')) !== null, 'the refusal');
    assert.match(await page.textContent('#calib .help.bad'), /4090/);
    assert.equal(await page.inputValue('#calib-gpu'), 'rtx-4090');
    // The H20 too.
    await page.selectOption('#calib-gpu', '');
    await page.waitForTimeout(300);
    if (!(await page.isVisible('#calib textarea'))) await page.click('#calib summary');
    await page.fill('#calib textarea', line('NVIDIA H20'));
    await page.click('#calib-read');
    await until(page, async (p) => (await p.inputValue('#calib-gpu')) === 'h20', 'the H20 read');
    assert.deepEqual(errors, []);
    await context.close();
  });

  // Llama 3.1 8B LoRA at micro-batch 1 x 1024 holds on a 4090 without headroom.
  test(`the memory card says "tight" without "does not fit" under it (${L.locale})`, async () => {
    const { page, context } = await open(browser, { locale: L.locale });
    await fill(page, '[data-path="workload.micro_batch"]', 1);
    await fill(page, '[data-path="workload.seq_len"]', 1024);
    await page.selectOption('#target-gpu', 'rtx-4090');
    await until(page, async (p) => (await p.getAttribute('#memory-verdict', 'data-fit')) === 'tight', 'a tight verdict', 20000);
    await until(page, async (p) => (await p.$('.advice-slot[aria-busy]')) === null, 'the doctor');
    const text = await page.textContent('#memory');
    assert.doesNotMatch(text, /单靠常见的省显存手段放不下|usual memory savers are not enough/);
    assert.doesNotMatch(text, /怎样才能放进|How to make it fit/);
    await context.close();
  });

  test(`on a 390 × 844 phone the plan shows every stage's cost and time without a sideways swipe (${L.locale})`, async () => {
    const { page, context } = await open(browser, { locale: L.locale, viewport: { width: 390, height: 844 }, mobile: true });
    await page.waitForSelector('table.budget tr[data-stage] [data-cost]', { timeout: 20000 });
    const cells = await page.$$eval('table.budget tr[data-stage] [data-cost], table.budget tr[data-stage] [data-wall-hours]', (els) => els.map((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, width: r.width, text: e.textContent };
    }));
    assert.ok(cells.length >= 4);
    for (const c of cells) assert.ok(c.left >= 0 && c.right <= 390 && c.width > 0, JSON.stringify(c));
    const region = await page.$eval('table.budget', (t) => ({ scroll: t.parentElement.scrollWidth, client: t.parentElement.clientWidth }));
    assert.ok(region.scroll <= region.client + 1, JSON.stringify(region));
    // Each value keeps its column's name.
    const labelled = await page.$eval('table.budget tr[data-stage="formal"] [data-cost]', (e) => getComputedStyle(e, '::before').content);
    assert.match(labelled, L.locale === 'zh-CN' ? /费用/ : /cost/i);
    await page.screenshot({ path: path.join(artifacts, `page-view-phone-${L.locale}.png`), fullPage: false });
    await context.close();
  });

  // A4 portrait at 96 dpi less the default margins: 210 mm - 2 × 10 mm ≈ 718 px.
  test(`printed on A4 no table column is cut (${L.locale})`, async () => {
    const { page, context } = await open(browser, { locale: L.locale, viewport: { width: 718, height: 1000 } });
    await page.waitForSelector('table.gpus tbody tr', { timeout: 20000 });
    await page.emulateMedia({ media: 'print' });
    const tables = await page.$$eval('table.gpus, table.budget', (ts) => ts.map((t) => {
      const last = [...t.querySelectorAll('thead th')].pop()?.getBoundingClientRect();
      return { cls: t.className, right: t.getBoundingClientRect().right, lastRight: last?.right ?? 0, scroll: t.scrollWidth, client: t.clientWidth };
    }));
    assert.equal(tables.length, 2);
    for (const t of tables) {
      assert.ok(t.right <= 718 + 1 && t.lastRight <= 718 + 1, JSON.stringify(t));
    }
    await context.close();
  });

  test(`the CSV lists only cards that fit (${L.locale})`, async () => {
    const { page, context } = await open(browser, { locale: L.locale });
    await page.waitForSelector('table.gpus tr[data-fit="no"]', { timeout: 20000 });
    const csv = await sent(page, L, L.csv);
    const rows = csv.trim().split('\r\n').slice(1);
    assert.ok(rows.length > 0);
    for (const r of rows) assert.doesNotMatch(r, /,no,/, r);
    const fitting = await page.$$eval('table.gpus tr[data-fit]:not([data-fit="no"])', (trs) => trs.length);
    assert.equal(rows.length, fitting);
    await context.close();
  });

  test(`a share link or embed code made from file:// says it works only on this computer (${L.locale})`, async () => {
    const { page, context } = await open(browser, { locale: L.locale });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('#copy-link');
    const pattern = L.locale === 'zh-CN' ? /只在这台电脑上有效/ : /only on this computer/;
    await until(page, async (p) => pattern.test(await p.textContent('.notes')), 'the file:// warning');
    assert.match(await page.textContent('.notes'), /GitHub Pages/);
    await page.click('#embed-open');
    await page.waitForSelector('#embed-local');
    assert.match(await page.textContent('#embed-local'), pattern);
    await context.close();
  });
}

// A stage's workload changes in the student's words (the default plan fuses
// the loss): never the request's names, "loss → fused".
for (const [locale, words] of [['zh-CN', '融合的交叉熵'], ['en-US', 'fused cross-entropy']]) {
  test(`${locale}: the planner's changes to a stage read in words, not as field names`, async () => {
    const { page, context } = await open(browser, { locale });
    await page.waitForSelector('#budget-total');
    const notes = (await page.$$eval('#budget .whys .change', (els) => els.map((e) => e.textContent))).join('\n');
    assert.ok(notes.includes(words), notes);
    // A request name before the arrow, a request value after it.
    assert.doesNotMatch(notes, /(\b(loss|grad_checkpointing|micro_batch|grad_accumulation|cpu_offload)|workload\.\w+) →|→ (fused|chunked|standard|adamw-8bit|true|false)\b(?! cross-entropy)/);
    await context.close();
  });
}

// The planner's texts as they come: no stage id rewritten into "Formal experiments experiments".
test('no doubled stage words and no request field names in the plan (en)', async () => {
  const { page, context } = await open(browser, { locale: 'en-US' });
  await fill(page, '[data-path="budget.amount"]', 1);
  await page.waitForSelector('[data-apply^="change/"]', { timeout: 20000 });
  const text = (await page.$$eval('#budget, .warnings, #gpus td.reasons, #memory', (els) => els.map((e) => e.textContent))).join('\n');
  assert.doesNotMatch(text, /(\b[a-z]{3,}\b) \1\b/i);
  assert.doesNotMatch(text, /\bprefs\.\w+|\bstages\[\d|low_factor|none across/);
  await context.close();
});
