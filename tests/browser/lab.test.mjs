// The lab's settings, in both languages: an admin writes them and copies the
// embed code; a fresh browser opens the embed in a wiki's iframe and plans
// with the lab's cards, quotes and budget; a student's saved projects and
// inputs survive opening and closing lab links; a damaged or newer settings
// link is named and nothing of it is applied; the lab's models (presets and
// pasted config.json files) come first in the model list, and its budget and
// scope stand in the form, marked, until the student sets their own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { artifacts, axeViolations, launch, onlyLocal, open, pageUrl, setField, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const LANGS = [
  { locale: 'zh-CN', line: '实验室设置', damaged: '已损坏', newer: '更新版本', cards: '出错处：实验室的卡', lab: '实验室自有显卡', ours: '实验室的模型', rest: '其他模型', mark: '实验室默认' },
  { locale: 'en-US', line: 'lab settings', damaged: 'damaged', newer: 'newer version', cards: 'at “The lab’s cards”', lab: 'the lab’s own cards', ours: 'The lab’s models', rest: 'Other models', mark: 'the lab’s default' },
];

const b64 = (text) => Buffer.from(text, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const settings = (over = {}) => ({
  v: 1, name: 'NLP 组 / NLP group', written: '2026-12-03', notes: '', models: [],
  gpus: [{ gpu: 'rtx-4090', count: 4, machines: 1, wait_hours: 6, hours_per_week: 168 }],
  campus: null, prices: [], budget: { amount: 4321, currency: 'CNY' }, scope: '', electricity: false, time_value_per_hour: 0, ...over,
});

// Qwen2.5-7B's config.json, as Hugging Face serves it (the fields the paste reads).
const QWEN = {
  architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', hidden_size: 3584, intermediate_size: 18944, num_hidden_layers: 28,
  num_attention_heads: 28, num_key_value_heads: 4, vocab_size: 152064, hidden_act: 'silu', tie_word_embeddings: false, max_position_embeddings: 32768,
};

// A form control's value and its label's text, found by the request field it sets.
async function control(page, dataPath) {
  return page.evaluate((p) => {
    const el = document.querySelector(`[data-path="${p}"]`);
    return { value: el.type === 'checkbox' ? el.checked : el.value, label: document.querySelector(`label[for="${el.id}"]`).textContent };
  }, dataPath);
}

async function storage(page) {
  return page.evaluate(() => Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])));
}

// The request and response the page holds, through its own JSON export.
async function exported(page, where = page) {
  const [download] = await Promise.all([page.waitForEvent('download'), where.click('header .actions button:nth-child(4)')]);
  return JSON.parse(readFileSync(await download.path(), 'utf8'));
}

for (const L of LANGS) {
  test(`${L.locale}: an admin writes lab settings, a wiki embeds them, a fresh browser plans with them`, async () => {
    const { context, page, errors } = await open(browser, { locale: L.locale });
    await page.click('#lab summary');
    await page.click('#lab-write');
    await page.fill('#lab-name', '王老师组 / Wang lab');
    await page.press('#lab-name', 'Tab');
    await page.waitForTimeout(250);
    await page.click('#lab-add-cards');
    await page.selectOption('#lab-gpu0', 'rtx-4090');
    await page.fill('#lab-count0', '4');
    await page.press('#lab-count0', 'Tab');
    await page.waitForTimeout(250);
    await page.fill('#lab-wait0', '12');
    await page.press('#lab-wait0', 'Tab');
    await page.waitForTimeout(250);
    await page.click('#lab-add-quote');
    await page.selectOption('#lab-qplatform0', 'autodl');
    await page.selectOption('#lab-qgpu0', 'h800');
    await page.fill('#lab-qprice0', '1.5');
    await page.press('#lab-qprice0', 'Tab');
    await page.waitForTimeout(250);
    await page.fill('#lab-budget', '4321');
    await page.press('#lab-budget', 'Tab');
    await page.waitForTimeout(250);
    const size = await page.textContent('#lab-size');
    assert.match(size, /8000|8 000|8,000/, size);
    // The admin copies the embed code with its button: what reaches the clipboard is the code shown.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('#lab-copy-embed');
    const snippet = await until(page, (p) => p.evaluate(() => navigator.clipboard.readText()), 'the clipboard');
    assert.equal(snippet, await page.inputValue('#lab-embed'));
    assert.match(snippet, /<iframe[^>]+src="[^"]+index\.html\?embed=1#lab=[A-Za-z0-9_-]+"/);
    assert.deepEqual(errors, []);
    await context.close();

    // A fresh browser: the wiki page with the embed code, nothing stored.
    const parent = path.join(artifacts, `lab-wiki-${L.locale}.html`);
    writeFileSync(parent, `<!doctype html><meta charset="utf-8"><title>wiki</title><h1>Lab wiki</h1>\n${snippet}\n`);
    const fresh = await browser.newContext({ locale: L.locale, viewport: { width: 1000, height: 900 }, acceptDownloads: true });
    const requests = [];
    await fresh.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    const wiki = await fresh.newPage();
    wiki.on('request', (r) => requests.push(r.url()));
    await wiki.goto(`file://${parent}`);
    const frame = await until(wiki, () => wiki.frames().find((f) => f.url().includes('embed=1')), 'the frame', 20000);
    await frame.waitForSelector('#lab-line', { timeout: 20000 });
    const line = await frame.textContent('#lab-line');
    assert.ok(line.includes('王老师组 / Wang lab') && line.includes(L.line) , line);
    await until(frame, () => frame.evaluate(() => /\S/.test(document.getElementById('summary-text')?.textContent ?? '')), 'the plan');
    const [download] = await Promise.all([wiki.waitForEvent('download'), frame.click('header .actions button:nth-child(4)')]);
    const doc = JSON.parse(readFileSync(await download.path(), 'utf8'));
    assert.equal(doc.request.lab.gpus[0].gpu, 'rtx-4090');
    assert.equal(doc.request.lab.gpus[0].count, 4);
    assert.deepEqual(doc.request.lab.prices, [{ platform: 'autodl', gpu: 'h800', per_gpu_hour: 1.5, currency: 'CNY' }]);
    assert.deepEqual(doc.request.budget, { amount: 4321, currency: 'CNY' }, 'the lab budget stands for the form\'s default');
    assert.equal(doc.response.plan.budget, 4321, 'the lab budget is the plan budget');
    assert.ok((await control(frame, 'budget.amount')).label.includes(L.mark));
    const onLab = doc.response.plan.stages.filter((s) => s.platform === 'lab');
    assert.ok(onLab.length > 0, JSON.stringify(doc.response.plan.stages.map((s) => s.platform)));
    for (const s of onLab) assert.equal(s.wait_hours, 12);
    const summaryText = await frame.textContent('#summary-text');
    assert.ok(!/\blab\b/.test(summaryText.replace(L.lab, '')), `no internal id: ${summaryText}`);
    // The student's waiting priced above the rent: the stages are rented at the lab's quote,
    // whose offer says it is the lab's (source "lab", dated by the settings: docs/api.md).
    await frame.click('#lab-see');
    await setField(frame, '#lab-time-value', 1000);
    const [priced] = await Promise.all([wiki.waitForEvent('download'), frame.click('header .actions button:nth-child(4)')]);
    const rented = JSON.parse(readFileSync(await priced.path(), 'utf8')).response.plan.stages;
    assert.ok(rented.some((s) => s.platform === 'autodl' && s.gpu === 'h800' && s.offer?.source === 'lab' && s.offer?.confidence === 'quote'), JSON.stringify(rented.map((s) => [s.platform, s.gpu, s.offer?.source])));
    // Planning without them: the request carries no lab.
    await frame.click('#lab-toggle');
    const [again] = await Promise.all([wiki.waitForEvent('download'), frame.click('header .actions button:nth-child(4)')]);
    const without = JSON.parse(readFileSync(await again.path(), 'utf8'));
    assert.equal(without.request.lab, undefined);
    assert.deepEqual(without.request.budget, { amount: 3000, currency: 'CNY' }, 'the form\'s own default again');
    assert.ok(without.response.plan.stages.every((s) => s.platform !== 'lab'));
    assert.deepEqual(onlyLocal(requests), []);
    await fresh.close();
  });

  test(`${L.locale}: a student's projects and inputs survive opening and closing lab links`, async () => {
    const { context, page } = await open(browser, { locale: L.locale });
    await page.fill('#project-save-name', 'Mine');
    await page.click('#project-save');
    await page.waitForSelector('table.projects tr[data-project]');
    const before = await storage(page);
    assert.ok(before['gpuplan.projects']);
    await page.goto(`${pageUrl}#lab=${b64(JSON.stringify(settings()))}`);
    await page.waitForSelector('#lab-line', { timeout: 20000 });
    let now = await storage(page);
    assert.equal(now['gpuplan.projects'], before['gpuplan.projects']);
    assert.equal(now['gpuplan.last'], before['gpuplan.last']);
    assert.ok(now['gpuplan.lab']);
    await page.click('#lab-toggle');
    await page.click('#lab summary');
    await page.click('#lab-remove');
    await page.waitForFunction(() => !document.getElementById('lab-line'));
    await page.reload();
    await page.waitForSelector('#memory-total', { timeout: 20000 });
    now = await storage(page);
    assert.equal(now['gpuplan.projects'], before['gpuplan.projects']);
    assert.equal(now['gpuplan.last'], before['gpuplan.last']);
    assert.equal(now['gpuplan.lab'], undefined);
    assert.equal(await page.locator('table.projects tr[data-project]').count(), 1);
    await context.close();
  });

  test(`${L.locale}: the lab's total sums saved projects against its budget, names clashes, exports and prints on one A4 page`, async () => {
    const { context, page } = await open(browser, { locale: L.locale });
    for (const name of ['Alpha', 'Beta']) {
      await page.fill('#project-save-name', name);
      await page.click('#project-save');
    }
    await page.waitForSelector('table.projects tr[data-project] >> nth=1');
    await page.goto(`${pageUrl}#lab=${b64(JSON.stringify(settings({ gpus: [{ gpu: 'rtx-4090', count: 4, machines: 1, wait_hours: 0, hours_per_week: 168 }], budget: { amount: 1, currency: 'CNY' } })))}`);
    await page.waitForSelector('#lab-total', { timeout: 20000 });
    const rows = await page.locator('#lab-total tbody tr').count();
    assert.ok(rows >= 2, `rows ${rows}`);
    assert.ok((await page.textContent('#lab-total-sum')).length > 0);
    const clashes = await page.textContent('#lab-clashes');
    assert.ok(clashes.includes('Alpha') && clashes.includes('Beta'), clashes);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#lab-total-csv')]);
    const text = readFileSync(await csv.path(), 'utf8');
    assert.match(text.split('\n')[0], /price_as_of,price_standing/);
    assert.equal(text.trim().split('\n').length, rows + 1);
    const [md] = await Promise.all([page.waitForEvent('download'), page.click('#lab-total-md')]);
    assert.match(readFileSync(await md.path(), 'utf8'), /\| project \| stage \| month/);
    // The print button leaves everything but the total out until the dialog closes.
    await page.evaluate(() => { window.print = () => {}; });
    await page.click('#lab-total-print');
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.isVisible('#lab-total'));
    assert.equal(await page.isVisible('#lab'), false, 'the form is not printed');
    const pdf = await page.pdf({ format: 'A4' });
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    assert.equal(pages, 1, `${pages} pages`);
    await context.close();
  });

  test(`${L.locale}: the lab pane, its editor and the total are axe-clean, also on a 390 px phone`, async () => {
    const lab = settings({ campus: { wait_hours: 24, max_gpus: 4, max_hours: 72, prices: [{ gpu: 'a100-sxm4-80g', per_gpu_hour: 2 }] },
      prices: [{ platform: 'autodl', gpu: 'h800', per_gpu_hour: 5, currency: 'CNY' }], models: ['llama-3.1-8b'], notes: '找李老师 / ask Dr Li',
      v: 2, configs: [{ name: '组里的 Qwen / our Qwen', dims: { kind: 'decoder', params: 7615487488, layers: 28, hidden: 3584, heads: 28, kv_heads: 4, ffn: 18944, vocab: 152064, gated_mlp: true, tied_embeddings: false, experts: 1, experts_per_token: 1, head_dim: 0, model_type: 'qwen2' } }] });
    for (const mobile of [false, true]) {
      const { context, page, errors } = await open(browser, { locale: L.locale, mobile, viewport: mobile ? { width: 390, height: 844 } : undefined,
        url: `${pageUrl}#lab=${b64(JSON.stringify(lab))}` });
      await page.waitForSelector('#lab-line', { timeout: 20000 });
      await page.fill('#project-save-name', 'P');
      await page.click('#project-save');
      await page.click('#lab summary');
      await page.click('#lab-edit');
      await page.waitForSelector('#lab-editor');
      await page.waitForSelector('#lab-total');
      assert.deepEqual(await axeViolations(page), []);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (mobile) assert.ok(wide <= 390, `page ${wide} px wide on a 390 px phone`);
      assert.deepEqual(errors, []);
      await context.close();
    }
  });

  test(`${L.locale}: the lab's models come first in the model list, a pasted config.json among them; its budget and scope stand, marked, until the student sets their own`, async () => {
    const { context, page, errors } = await open(browser, { locale: L.locale });
    await page.click('#lab summary');
    await page.click('#lab-write');
    await page.selectOption('#lab-add-model', 'qwen2.5-14b');
    await page.waitForTimeout(250);
    // A config beyond the core's limits is refused in the paste's own words, and nothing is added.
    await page.fill('#lab-config', JSON.stringify({ ...QWEN, num_hidden_layers: 5000 }));
    await page.click('#lab-config-add');
    assert.match(await page.textContent('#lab-config-help'), /num_hidden_layers/);
    await page.fill('#lab-config', JSON.stringify(QWEN));
    await page.fill('#lab-config-name', '组里的 Qwen / our Qwen');
    await page.click('#lab-config-add');
    await page.waitForSelector('[data-lab-model="qwen2.5-14b"]');
    await page.selectOption('#lab-scope', 'global');
    await page.waitForTimeout(250);
    await page.fill('#lab-budget', '5000');
    await page.press('#lab-budget', 'Tab');
    await page.waitForTimeout(250);
    const hash = (await page.inputValue('#lab-embed')).match(/#lab=[A-Za-z0-9_-]+/)[0];
    assert.deepEqual(errors, []);
    await context.close();

    const student = await open(browser, { locale: L.locale, url: `${pageUrl}${hash}` });
    const p = student.page;
    await p.waitForSelector('#lab-line', { timeout: 20000 });
    const groups = await p.evaluate(() => [...document.querySelectorAll('select[data-path="model.preset"] optgroup')]
      .map((g) => ({ label: g.label, options: [...g.querySelectorAll('option')].map((o) => o.textContent) })));
    assert.equal(groups.length, 2, JSON.stringify(groups));
    assert.equal(groups[0].label, L.ours);
    assert.equal(groups[0].options.length, 2, JSON.stringify(groups[0]));
    assert.match(groups[0].options[0], /Qwen2\.5.*14B/i);
    assert.match(groups[0].options[1], /^组里的 Qwen \/ our Qwen · /);
    assert.equal(groups[1].label, L.rest);
    assert.ok(!groups[1].options.some((o) => /14B/i.test(o) && /Qwen2\.5/i.test(o)), 'the lab\'s models are not listed twice');
    // The lab's defaults, marked as the lab's.
    let scope = await control(p, 'prefs.scope');
    assert.equal(scope.value, true);
    assert.ok(scope.label.includes(L.mark), scope.label);
    let budget = await control(p, 'budget.amount');
    assert.equal(budget.value, '5000');
    assert.ok(budget.label.includes(L.mark), budget.label);
    // The pasted model, picked from the list, is the request's model.
    await p.selectOption('select[data-path="model.preset"]', 'lab:0');
    await p.waitForSelector('[data-path="model.hidden"]');
    let doc = await exported(p);
    assert.equal(doc.request.model.hidden, 3584);
    assert.equal(doc.request.model.layers, 28);
    assert.equal(doc.request.model.kv_heads, 4);
    assert.deepEqual(doc.request.budget, { amount: 5000, currency: 'CNY' });
    assert.equal(doc.request.prefs?.scope, undefined);
    assert.equal(doc.request.lab.scope, 'global');
    // The student's own choices win, unmarked, and a lab link opened again keeps them.
    await p.click('#scope-global');
    await p.waitForTimeout(250);
    await setField(p, '[data-path="budget.amount"]', 800);
    await p.goto('about:blank');
    await p.goto(`${pageUrl}${hash}`);
    await p.waitForSelector('#lab-line', { timeout: 20000 });
    scope = await control(p, 'prefs.scope');
    budget = await control(p, 'budget.amount');
    assert.equal(scope.value, false);
    assert.ok(!scope.label.includes(L.mark), scope.label);
    assert.equal(budget.value, '800');
    assert.ok(!budget.label.includes(L.mark), budget.label);
    doc = await exported(p);
    assert.deepEqual(doc.request.budget, { amount: 800, currency: 'CNY' });
    assert.equal(doc.request.prefs.scope, 'cn');
    assert.deepEqual(student.errors, []);
    await student.context.close();
  });

  test(`${L.locale}: a damaged or newer settings link is named and nothing of it is applied`, async () => {
    const good = `${pageUrl}#lab=${b64(JSON.stringify(settings()))}`;
    const cases = [
      { hash: `#lab=${b64(JSON.stringify(settings()))}`.slice(0, 40) + '!!', says: L.damaged },
      { hash: `#lab=${b64(JSON.stringify(settings({ gpus: [{ gpu: 'rtx-4090', count: 4, machines: 1, wait_hours: 6, hours_per_week: 999 }] })))}`, says: L.damaged, where: L.cards },
      { hash: `#lab=${b64(JSON.stringify({ ...settings({ name: 'future' }), v: 3, shiny: true }))}`, says: L.newer },
      // A pasted model beyond the core's limits (model.layers at most 1000): refused whole, the cards with it.
      { hash: `#lab=${b64(JSON.stringify({ ...settings({ name: 'half' }), v: 2, configs: [{ name: 'deep', dims: { kind: 'decoder', params: 7e9, layers: 5000, hidden: 4096, heads: 32, kv_heads: 32, ffn: 11008, vocab: 32000, gated_mlp: true, tied_embeddings: false, experts: 1, experts_per_token: 1, head_dim: 0, model_type: 'llama' } }] }))}`, says: L.damaged },
    ];
    for (const c of cases) {
      // Fresh: nothing applied at all.
      const { context, page } = await open(browser, { locale: L.locale, url: `${pageUrl}${c.hash}` });
      const notes = await page.textContent('.notes');
      assert.ok(notes.includes(c.says), notes);
      assert.ok(!/hours_per_week|gpus\[|configs\[/.test(notes), `named in words, not by field: ${notes}`);
      if (c.where) assert.ok(notes.includes(c.where), notes);
      assert.equal(await page.$('#lab-line'), null);
      assert.equal((await storage(page))['gpuplan.lab'], undefined);
      // With settings already there: they stay exactly as they were.
      await page.goto(good);
      await page.waitForSelector('#lab-line', { timeout: 20000 });
      const kept = (await storage(page))['gpuplan.lab'];
      await page.evaluate((h) => { location.hash = h; }, c.hash);
      await until(page, async () => (await page.textContent('.notes')).includes(c.says), 'the refusal');
      assert.equal((await storage(page))['gpuplan.lab'], kept);
      assert.ok((await page.textContent('#lab-line')).includes('NLP 组 / NLP group'));
      await context.close();
    }
  });
}
