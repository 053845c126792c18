// What the page shows of the core's answer is the core's, in the student's
// words (issues #28 and #33): an error names the field as the form does,
// never its request path, with figures in the unit the student typed (the
// path only finds the input to mark); the billing menu offers only billings
// some in-scope offer has, the others shown disabled with the reason; the
// display currency is the core's conversion, said with its rate. Both
// languages; each test fails on the page before.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, pageUrl } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const link = (state) => `${pageUrl}#s=${Buffer.from(JSON.stringify(state)).toString('base64url')}`;
const PATH = /stages\[|prefs\.|workload\.|baseline\.|model\.|data\.|\(\s*[a-z_]+(?:\.[a-z_]+|\[\d+\])/;

const LOCALES = [
  { locale: 'zh-CN', runs: '正式实验阶段的运行次数', memory: /实测峰值显存应在 .* GiB 到 93132\.3 GiB 之间，收到 100000 GiB/ },
  { locale: 'en-US', runs: 'The number of runs of the formal-experiments stage', memory: /The measured peak memory must be between .* GiB and 93132\.3 GiB, got 100000 GiB/ },
];

for (const L of LOCALES) {
  test(`an error names the field in the student's words, never its path (${L.locale})`, async () => {
    const stages = [{ stage: 'formal', on: true, seeds: 1000, sweep: 1000, ablations: 1 }];
    const { page, context } = await open(browser, { locale: L.locale, url: link({ stages }) });
    await page.waitForSelector('.error');
    const text = await page.textContent('.error');
    assert.ok(text.includes(L.runs), text);
    assert.doesNotMatch(text, PATH);
    assert.equal(await page.$('.error code'), null);
    // The path still finds the input: the formal stage's runs are marked.
    assert.equal(await page.getAttribute('fieldset.stage[data-stage="formal"] [aria-invalid="true"]', 'aria-invalid'), 'true');
    await context.close();
  });

  test(`a GiB field's error quotes GiB, not bytes (${L.locale})`, async () => {
    const calib = { gpu: 'rtx-4090', micro_batch: 4, memory_gib: 100000, rate: 1000 };
    const { page, context } = await open(browser, { locale: L.locale, url: link({ calib }) });
    await page.waitForSelector('.error');
    const text = await page.textContent('.error');
    assert.match(text, L.memory);
    assert.doesNotMatch(text, PATH);
    assert.doesNotMatch(text, /\d{10,}/);
    await context.close();
  });
}

const BILLING = [
  { locale: 'zh-CN', reason: '所选范围内没有这种计费方式的报价', json: '导出 JSON' },
  { locale: 'en-US', reason: 'no offer in the chosen scope bills this way', json: 'Export JSON' },
];
const options = (page) => page.$$eval('select[data-path="prefs.billing"] option', (os) => os.map((o) => [o.value, o.disabled, o.textContent]));

for (const L of BILLING) {
  test(`the billing menu offers what the in-scope catalog has, the rest disabled with the reason (${L.locale})`, async () => {
    const { page, context, errors } = await open(browser, { locale: L.locale });
    await page.waitForSelector('#budget-total');
    let found = await options(page);
    const by = (v) => found.find((o) => o[0] === v);
    // No CNY offer is yearly: disabled, saying why; on-demand and "let the planner choose" stay.
    assert.equal(by('yearly')[1], true);
    assert.ok(by('yearly')[2].includes(L.reason), by('yearly')[2]);
    assert.equal(by('on-demand')[1], false);
    assert.equal(by('')[1], false);
    assert.ok(!by('on-demand')[2].includes(L.reason));
    // Every platform: the USD clouds' yearly offers count.
    await page.check('#scope-global');
    await page.waitForTimeout(400);
    found = await options(page);
    assert.equal(by('yearly')[1], false, JSON.stringify(found));
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`the display currency is the core's: sent as the student's choice, never NaN (${L.locale})`, async () => {
    const { page, context, errors } = await open(browser, { locale: L.locale });
    await page.waitForSelector('#budget-total');
    await page.selectOption('#display-currency', 'USD');
    await page.waitForTimeout(400);
    const total = await page.textContent('#budget-total');
    assert.match(total, /\$|US/);
    assert.doesNotMatch(await page.textContent('body'), /NaN/);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`.actions button:text-is("${L.json}")`)]);
    const sent = JSON.parse(await (await import('node:fs/promises')).readFile(await dl.path(), 'utf8'));
    assert.equal(sent.request.prefs.display_currency, 'USD');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
