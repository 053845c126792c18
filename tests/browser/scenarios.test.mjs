// The scenario guide (issue #9), as a student walks it in both languages:
// pick "what are you doing?", see the form filled from the catalog's scenario
// (catalog/scenarios.json), see memory and hours, change an input and see
// them move; molecular dynamics in science mode with its FP64 explanation; a
// share link that carries the scenario. axe-core must stay clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { artifacts, axeViolations, launch, onlyLocal, open, root, setField, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const LANGS = [
  { locale: 'zh-CN', md: '分子动力学', fp64: /FP64/, exportMd: '导出 Markdown' },
  { locale: 'en-US', md: 'Molecular dynamics', fp64: /FP64/, exportMd: 'Export Markdown' },
];

// "12.3 GiB" -> 12.3 (both languages format with a '.' decimal and ',' groups).
const gibOf = (text) => Number(String(text).replace(/[^\d.]/g, ''));
const memory = (page) => page.textContent('#memory-total');
// The hours cell of one card's row in the GPU table.
const hoursOf = (page, gpu) => page.textContent(`table.gpus tr[data-gpu="${gpu}"] td:nth-of-type(3)`);

async function pick(page, id) {
  await page.click(`[data-key="scenario/${id}"]`);
  await until(page, async (p) => (await p.getAttribute(`[data-key="scenario/${id}"]`, 'aria-pressed')) === 'true', `${id} pressed`);
  // Only one choice is pressed at a time.
  assert.equal((await page.$$('#scenario [aria-pressed="true"]')).length, 1);
}

for (const L of LANGS) {
  test(`scenarios in ${L.locale}: detection, diffusion full and LoRA, molecular dynamics, share link`, async () => {
    const { page, context, requests, errors } = await open(browser, { locale: L.locale });
    // The first question comes before every other input.
    const first = await page.$eval('.inputs > section', (e) => e.id);
    assert.equal(first, 'scenario');
    assert.equal(await page.getAttribute('[data-key="scenario/custom"]', 'aria-pressed'), 'true');

    // Object detection: YOLOv8s at 640 px, batch 16 (Ultralytics default.yaml).
    await pick(page, 'object-detection');
    assert.equal(await page.inputValue('[data-path="model.preset"]'), 'yolov8s');
    assert.equal(await page.inputValue('[data-path="workload.image_size"]'), '640');
    assert.equal(await page.inputValue('[data-path="workload.micro_batch"]'), '16');
    assert.match(await page.textContent('#scenario-about'), /ultralytics|Ultralytics|YOLO/);
    const det640 = gibOf(await memory(page));
    assert.ok(det640 > 0, 'a memory figure for detection');
    await until(page, async (p) => /\d/.test(await hoursOf(p, 'rtx-4090') ?? ''), 'hours for detection on a 4090');
    const h640 = await hoursOf(page, 'rtx-4090');
    // Every field stays editable: a smaller image needs less memory and time.
    await setField(page, '[data-path="workload.image_size"]', 320);
    await until(page, async (p) => gibOf(await memory(p)) < det640, 'detection memory to fall at 320 px');
    await until(page, async (p) => (await hoursOf(p, 'rtx-4090')) !== h640, 'detection hours to change at 320 px');
    // The OOM doctor's speed side, though the run fits the 4090: a starved
    // data loader wastes rented hours, and fp32 leaves tensor cores idle.
    await until(page, (p) => p.$('#memory [data-tip="data_loader"]'), 'data-loader tip');
    assert.equal(await page.$('#memory [data-tip="use_mixed_precision"]'), null);
    await page.selectOption('[data-path="workload.precision"]', 'fp32');
    await until(page, (p) => p.$('#memory [data-tip="use_mixed_precision"]'), 'mixed-precision tip for fp32');
    await page.selectOption('[data-path="workload.precision"]', 'fp16-mixed');
    // ... and the choice of scenario stays marked as the starting point.
    assert.equal(await page.getAttribute('[data-key="scenario/object-detection"]', 'aria-pressed'), 'true');

    // Diffusion: the SD 1.5 UNet fully fine-tuned, then with LoRA; LoRA keeps
    // no optimizer state for the frozen UNet, so it needs less memory.
    await pick(page, 'diffusion-finetune');
    assert.equal(await page.inputValue('[data-path="model.preset"]'), 'sd15-unet');
    assert.equal(await page.inputValue('[data-path="workload.method"]'), 'full');
    assert.equal(await page.inputValue('[data-path="workload.image_size"]'), '512');
    const full = gibOf(await memory(page));
    await pick(page, 'diffusion-lora');
    assert.equal(await page.inputValue('[data-path="workload.method"]'), 'lora');
    const lora = gibOf(await memory(page));
    assert.ok(lora > 0 && lora < full, `LoRA ${lora} GiB < full ${full} GiB`);
    await until(page, async (p) => /\d/.test(await hoursOf(p, 'rtx-4090') ?? ''), 'hours for diffusion LoRA');
    await setField(page, '[data-path="workload.micro_batch"]', 4);
    await until(page, async (p) => gibOf(await memory(p)) > lora, 'LoRA memory to grow with the batch');

    // Molecular dynamics: science mode, a measured baseline, no model inputs.
    await pick(page, 'molecular-dynamics');
    assert.equal(await page.inputValue('[data-path="workload.mode"]'), 'science');
    assert.equal(await page.$('[data-path="model.preset"]'), null);
    assert.equal(await page.inputValue('[data-path="science.baseline.gpu"]'), 'rtx-3090');
    assert.equal(await page.inputValue('[data-path="science.baseline.rate"]'), '100');
    assert.equal(await page.inputValue('[data-path="science.precision"]'), 'mixed');
    // The FP64 explanation: under the precision, and the planner's warning.
    assert.match(await page.textContent('[data-path="science.precision"] ~ .help'), L.fp64);
    assert.ok(await page.$('.warnings li[data-code="md_mixed_precision"]'), 'md_mixed_precision warning');
    // Hours, and the baseline card runs at exactly the measured rate (×1).
    const h3090 = await until(page, async (p) => { const t = await hoursOf(p, 'rtx-3090'); return /\d/.test(t ?? '') && t; }, 'hours on the baseline card');
    assert.match(await page.textContent('table.gpus tr[data-gpu="rtx-3090"] .reasons'), /×1\b|×1(?!\d)/);
    assert.match(await page.textContent('table.gpus tr[data-gpu="rtx-3090"] .reasons'), /100 ns\/day/);
    // Twice the measured speed halves the hours.
    await setField(page, '[data-path="science.baseline.rate"]', 200);
    await until(page, async (p) => (await hoursOf(p, 'rtx-3090')) !== h3090, 'hours to change with the rate');
    assert.equal(await page.$('[data-starved]'), null, 'no FP64 marker for mixed precision');
    // A true FP64 code: consumer cards are marked, and the warnings say why.
    await page.selectOption('[data-path="science.precision"]', 'fp64');
    await until(page, (p) => p.$('table.gpus tr[data-gpu="rtx-4090"] [data-starved]'), 'FP64-starved marker on the 4090');
    assert.equal(await page.$('table.gpus tr[data-gpu="a100-sxm4-80g"] [data-starved]'), null, 'an A100 is not FP64-starved');
    assert.ok(await page.$('.warnings li[data-code="fp64_consumer_card"]'));
    assert.ok(await page.$('.warnings li[data-code="fp64_consider_cpu"]'));
    assert.match(await page.textContent('table.gpus tr[data-gpu="rtx-4090"] .reasons'), /FP64\/FP32 = 1\/\d+/);
    // A CFD solver brings its own defaults: FP64 and bandwidth-bound.
    await page.selectOption('[data-path="science.kind"]', 'cfd');
    assert.equal(await page.inputValue('[data-path="science.precision"]'), 'fp64');
    assert.equal(await page.inputValue('[data-path="science.bound"]'), 'bandwidth');
    await page.selectOption('[data-path="science.kind"]', 'md');
    assert.equal(await page.inputValue('[data-path="science.bound"]'), 'compute');
    await page.selectOption('[data-path="science.precision"]', 'fp64');
    await until(page, (p) => p.$('table.gpus tr[data-gpu="rtx-4090"] [data-starved]'), 'FP64 marker back');
    await page.screenshot({ path: path.join(artifacts, `scenario-md-${L.locale}.png`), fullPage: true });
    assert.deepEqual(await axeViolations(page), []);

    // The Markdown export describes the measured baseline, not a model.
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('text=' + L.exportMd)]);
    const file = path.join(artifacts, `scenario-md-${L.locale}.md`);
    await dl.saveAs(file);
    const mdText = readFileSync(file, 'utf8');
    assert.match(mdText, /200 ns\/day/);
    assert.match(mdText, /RTX 3090 ×1/);

    // The share link carries the scenario and the edited fields.
    const url = page.url();
    assert.match(url, /#s=/);
    const again = await open(browser, { locale: L.locale, url });
    assert.equal(await again.page.getAttribute('[data-key="scenario/molecular-dynamics"]', 'aria-pressed'), 'true');
    assert.equal(await again.page.inputValue('[data-path="science.baseline.rate"]'), '200');
    assert.equal(await again.page.inputValue('[data-path="science.precision"]'), 'fp64');
    assert.equal(await hoursOf(again.page, 'rtx-3090'), await hoursOf(page, 'rtx-3090'));
    assert.match(await again.page.textContent('#scenario'), new RegExp(L.md));
    // "Custom" keeps the form as it is and only forgets the scenario.
    await again.page.click('[data-key="scenario/custom"]');
    assert.equal(await again.page.getAttribute('[data-key="scenario/custom"]', 'aria-pressed'), 'true');
    assert.equal(await again.page.inputValue('[data-path="science.baseline.rate"]'), '200');
    await again.context.close();

    assert.deepEqual(onlyLocal(requests), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the scenario picker works from the keyboard', async () => {
  const { page, context } = await open(browser, { locale: 'en-US' });
  await page.focus('[data-key="scenario/object-detection"]');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  // Focus survives the re-render and the next scenario is chosen.
  const key = await page.evaluate(() => document.activeElement?.getAttribute('data-key'));
  assert.ok(key?.startsWith('scenario/'), `focus on ${key}`);
  assert.equal(await page.getAttribute(`[data-key="${key}"]`, 'aria-pressed'), 'true');
  await page.screenshot({ path: path.join(artifacts, 'scenario-picker-en.png') });
  await context.close();
});

// Every catalog scenario, picked on the page, sends the planner the request
// the catalog wrote (catalog/scenarios.json): the page drops or bends none of
// its fields. Read from the exported JSON, which is the request as sent.
test('every scenario fills the form with its own request', async () => {
  const scenarios = JSON.parse(readFileSync(path.join(root, 'catalog/scenarios.json'), 'utf8')).scenarios;
  assert.ok(scenarios.length >= 11);
  const { page, context, errors } = await open(browser, { locale: 'en-US' });
  for (const sc of scenarios) {
    await pick(page, sc.id);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('text=Export JSON')]);
    const sent = JSON.parse(readFileSync(await dl.path(), 'utf8')).request;
    const want = sc.request;
    assert.equal(sent.workload.mode, want.workload.mode, sc.id);
    if (want.workload.mode === 'science') {
      const { baseline, ...rest } = want.science;
      for (const [k, v] of Object.entries(rest)) assert.equal(sent.science[k], v, `${sc.id} science.${k}`);
      for (const [k, v] of Object.entries(baseline)) assert.equal(sent.science.baseline[k], v, `${sc.id} science.baseline.${k}`);
      assert.equal(sent.model, undefined, `${sc.id}: no model in science mode`);
      continue;
    }
    assert.equal(sent.model.preset, want.model.preset, sc.id);
    const { lora, ...workload } = want.workload;
    for (const [k, v] of Object.entries(workload)) assert.deepStrictEqual(sent.workload[k], v, `${sc.id} workload.${k}`);
    if (lora) assert.deepEqual(sent.workload.lora, lora, `${sc.id} workload.lora`);
    if (want.data.tokens) {
      // Pre-training counts tokens: the page holds them as whole sequences.
      const tokens = sent.data.samples * sent.data.epochs * sent.workload.seq_len;
      assert.ok(Math.abs(tokens / want.data.tokens - 1) < 1e-3, `${sc.id} tokens ${tokens}`);
    } else {
      assert.equal(sent.data.samples, want.data.samples, `${sc.id} data.samples`);
      if (want.workload.mode === 'train') assert.equal(sent.data.epochs, want.data.epochs, `${sc.id} data.epochs`);
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});
