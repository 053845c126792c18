// The whole decision flow, as a student would walk it, in both languages:
// stages, workload (preset search, inference, a pasted config.json), memory,
// the GPU table, a platform quote, the budget, exports and the share link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { artifacts, launch, onlyLocal, open, root, setField, summary, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// A Llama-3.1-8B config.json, as published (dimensions from
// tests/data/hf-configs/README.md); the page must read it into dimensions
// whose parameter count matches the published 8.03e9 within 1%.
const llamaConfig = readFileSync(path.join(root, 'tests/data/hf-configs/llama-3.1-8b.json'), 'utf8');

const LANGS = [
  { locale: 'zh-CN', title: 'GPU 租用规划', other: 'English', key: /[\u4e00-\u9fff]/ },
  { locale: 'en-US', title: 'GPU rental planner', other: '中文', key: /^[^\u4e00-\u9fff]*$/ },
];

for (const L of LANGS) {
  test(`whole flow in ${L.locale}`, async () => {
    const { page, requests, errors, context } = await open(browser, { locale: L.locale });
    assert.equal(await page.textContent('h1'), L.title);
    assert.equal(await page.getAttribute('html', 'lang'), L.locale === 'zh-CN' ? 'zh-CN' : 'en');
    // 1. stages: five seeds in the formal stage changes the project total.
    const s0 = await summary(page);
    await setField(page, '[data-path="stages[1].runs"]', 5);
    await until(page, async (p) => (await summary(p)) !== s0, 'summary to change after seeds');
    // 2. workload: search a preset and pick it.
    await page.fill('#model-search', 'bert');
    await page.selectOption('[data-path="model.preset"]', 'bert-large');
    const bert = await until(page, async (p) => { const t = await p.textContent('#memory-total'); return t !== null && !t.startsWith('—') && t; }, 'memory for bert');
    // a CNN preset asks for an image size instead of a sequence length
    await page.fill('#model-search', 'resnet');
    await page.selectOption('[data-path="model.preset"]', 'resnet-50');
    await page.waitForSelector('[data-path="workload.image_size"]');
    assert.equal(await page.$('[data-path="workload.seq_len"]'), null);
    await page.fill('#model-search', 'bert');
    await page.selectOption('[data-path="model.preset"]', 'bert-large');
    await page.waitForSelector('[data-path="workload.seq_len"]');
    // inference with int8 weights
    await page.selectOption('[data-path="workload.mode"]', 'infer');
    await page.selectOption('[data-path="workload.precision"]', 'int8');
    await until(page, async (p) => (await p.textContent('#memory-total')) !== bert, 'memory to change for inference');
    await page.selectOption('[data-path="workload.mode"]', 'train');
    // own dimensions from a pasted config.json
    await page.click('text=' + (L.locale === 'zh-CN' ? '自定义尺寸' : 'Own dimensions'));
    await page.fill('#hf-config', llamaConfig);
    await page.click('#hf-parse');
    const params = Number(await page.inputValue('[data-path="model.params"]'));
    assert.ok(Math.abs(params / 8.03e9 - 1) < 0.01, `parsed params ${params}`);
    assert.equal(await page.inputValue('[data-path="model.kv_heads"]'), '8');
    // 3. memory: a stacked bar with a table of components and a verdict.
    assert.ok((await page.$$('#memory .bar .seg')).length >= 3);
    assert.ok((await page.$$('#memory table.legend tbody tr')).length >= 4);
    assert.ok(await page.$('#memory .verdict'));
    // 4. GPU table: sortable by name.
    await page.click('[data-key="sort/name"]');
    assert.equal(await page.getAttribute('[data-key="sort/name"] >> xpath=..', 'aria-sort'), 'ascending');
    await page.click('[data-key="sort/name"]');
    assert.equal(await page.getAttribute('[data-key="sort/name"] >> xpath=..', 'aria-sort'), 'descending');
    assert.ok((await page.$$('table.gpus tbody tr')).length >= 2);
    // 5. platform: rules and a price with its date and source are shown.
    await page.click('[data-platform="autodl"] summary');
    const card = await page.textContent('[data-platform="autodl"]');
    assert.match(card, /\d{4}-\d{2}/);
    // 6. budget: a total and the stage split.
    await until(page, (p) => p.$('#budget-total'), 'budget total');
    assert.ok((await page.$$('#budget .bar.stages .seg')).length >= 1);
    // Every visible string comes from the catalog of this language: no raw keys.
    const text = await page.innerText('body');
    assert.doesNotMatch(text, /\b(section|memory|gpus|budget|platform|quote|stage|advice|notice|summary)\.[a-z_]+\b/);
    assert.match(await page.textContent('#budget h2'), L.key);
    // Switching language keeps the state.
    const title = await page.textContent('h1');
    await page.click('#lang-toggle');
    assert.notEqual(await page.textContent('h1'), title);
    assert.equal(await page.inputValue('[data-path="model.kv_heads"]'), '8');
    assert.deepEqual(onlyLocal(requests), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('share link restores the state exactly', async () => {
  const { page, context } = await open(browser, { locale: 'zh-CN' });
  await setField(page, '#project-title', '课题 A：LoRA 对比');
  await setField(page, '[data-path="workload.micro_batch"]', 8);
  await setField(page, '[data-path="stages[0].runs"]', 2);
  await page.selectOption('#display-currency', 'USD');
  await page.waitForTimeout(200);
  const url = page.url();
  assert.match(url, /#s=[A-Za-z0-9_-]+$/);
  const want = await summary(page);
  const second = await open(browser, { locale: 'en-US', url });
  const p2 = second.page;
  assert.equal(await p2.inputValue('#project-title'), '课题 A：LoRA 对比');
  assert.equal(await p2.inputValue('[data-path="workload.micro_batch"]'), '8');
  assert.equal(await p2.inputValue('[data-path="stages[0].runs"]'), '2');
  assert.equal(await p2.inputValue('#display-currency'), 'USD');
  // Same state, same language (the link carries no language unless chosen): same figures.
  assert.equal(await p2.textContent('#memory-total'), await page.textContent('#memory-total'));
  assert.ok(want.length > 0);
  assert.equal(p2.url(), url);
  await second.context.close();
  await context.close();
});

test('exports: Markdown, CSV and JSON; JSON matches the native CLI', async () => {
  const { page, context } = await open(browser, { locale: 'en-US' });
  await setField(page, '#project-title', 'Thesis | runs');
  const grab = async (name) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`text=${name}`)]);
    const file = path.join(artifacts, dl.suggestedFilename());
    await dl.saveAs(file);
    return readFileSync(file, 'utf8');
  };
  const md = await grab('Export Markdown');
  assert.match(md, /^# Thesis \\\| runs/);
  assert.match(md, /\| Weights \|/);
  const csv = await grab('Export CSV');
  assert.match(csv.split('\r\n')[0], /^gpu_id,gpu,memory_bytes,fit,count,wall_hours,wall_hours_low,wall_hours_high,gpu_hours,platform,billing,run_cost_CNY/);
  assert.ok(csv.split('\r\n').length >= 3);
  const json = JSON.parse(await grab('Export JSON'));
  const cli = process.env.GPUPLAN_CLI || path.join(root, 'build/native/bin/gpuplan');
  if (existsSync(cli)) {
    const reqFile = path.join(artifacts, 'exported-request.json');
    writeFileSync(reqFile, JSON.stringify(json.request));
    const r = spawnSync(cli, ['plan', reqFile], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout);
    // The same answer: the core labels every source as the page shows it.
    assert.deepEqual(json.response, JSON.parse(r.stdout), 'the page (web wasm build) and the CLI disagree');
  }
  await context.close();
});

test('the offered download is the whole page and works on its own', async () => {
  const { page, context } = await open(browser, { locale: 'zh-CN' });
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#download-page')]);
  const file = path.join(artifacts, 'gpuplan-downloaded.html');
  await dl.saveAs(file);
  const html = readFileSync(file, 'utf8');
  assert.match(html, /Content-Security-Policy/);
  const again = await open(browser, { locale: 'zh-CN', url: `file://${file}` });
  assert.match(await again.page.textContent('#memory-total'), /GiB/);
  assert.deepEqual(await again.page.evaluate(() => window.__csp), []);
  assert.match(await page.textContent('footer'), /gpuplan \d+\.\d+\.\d+/);
  await again.context.close();
  await context.close();
});

// Published totals (tests/data/hf-configs/README.md); the page's count leaves out
// biases, so it must land within 1% but need not be exact.
const CONFIGS = [
  { file: 'llama-3.1-8b.json', params: 8030261248, kind: 'decoder', kv: '8' },
  { file: 'gpt2.json', params: 124439808, kind: 'decoder', kv: '12' },
];
test('pasted config.json files give the published parameter counts', async () => {
  const { page, context } = await open(browser, { locale: 'en-US' });
  await page.click('text=Own dimensions');
  for (const c of CONFIGS) {
    await page.fill('#hf-config', readFileSync(path.join(root, 'tests/data/hf-configs', c.file), 'utf8'));
    await page.click('#hf-parse');
    await page.waitForTimeout(200);
    const params = Number(await page.inputValue('[data-path="model.params"]'));
    assert.ok(Math.abs(params / c.params - 1) < 0.01, `${c.file}: ${params} vs ${c.params}`);
    assert.equal(await page.inputValue('[data-path="model.kv_heads"]'), c.kv);
    assert.equal(await page.inputValue('[data-path="model.kind"]'), c.kind);
  }
  // Not JSON: a message, and the dimensions stay as they were.
  await page.fill('#hf-config', '{"hidden_size": 4096,');
  await page.click('#hf-parse');
  assert.match(await page.textContent('#hf-config-help'), /not valid JSON/);
  await context.close();
});
