// Issue #16, the first figure: a fresh page shows its memory figure from the
// answer the build asked of the page's own planner (web/src/first_answer.ts);
// any other form asks the planner. Either way the figure is the one the full
// plan shows a moment later, in both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { artifacts, launch, open, pageUrl } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Clicks "Export JSON" the moment the first figure is in the document, before
// the planner has come and the rest has rendered.
function exportAtFirstFigure() {
  const seen = new MutationObserver(() => {
    if (!document.getElementById('memory-total')) return;
    seen.disconnect();
    [...document.querySelectorAll('button')].find((b) => b.textContent.includes('JSON')).click();
  });
  seen.observe(document, { childList: true, subtree: true });
}

async function exportedJson(page, download) {
  const file = path.join(artifacts, `first-figure-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return JSON.parse(readFileSync(file, 'utf8'));
}

// Records the memory figure's text as the first figure shows it, before the
// rest of the page renders in a later task (app.ts, renderAll).
function recordFirstFigure() {
  const seen = new MutationObserver(() => {
    const el = document.getElementById('memory-total');
    if (!el) return;
    window.__firstFigure = el.textContent;
    seen.disconnect();
  });
  seen.observe(document, { childList: true, subtree: true });
}

async function firstAndFinal(locale, url) {
  const { page, context, errors } = await open(browser, { locale, url, init: recordFirstFigure });
  await page.waitForSelector('#summary-text');
  const got = await page.evaluate(() => ({
    answer: performance.getEntriesByName('gpuplan:first-figure')[0]?.detail?.answer,
    first: window.__firstFigure,
    final: document.getElementById('memory-total')?.textContent,
  }));
  assert.deepEqual(errors, []);
  await context.close();
  return got;
}

for (const locale of ['zh-CN', 'en-US']) {
  test(`${locale}: a fresh page's first figure is the build's answer, and the full plan's`, async () => {
    const got = await firstAndFinal(locale);
    assert.equal(got.answer, 'build');
    assert.match(got.first, /\d/);
    assert.equal(got.first, got.final);
  });

  test(`${locale}: another form's first figure is the planner's, and the full plan's`, async () => {
    const state = { micro_batch: 8, seq_len: 4096 };
    const got = await firstAndFinal(locale, `${pageUrl}#s=${Buffer.from(JSON.stringify(state)).toString('base64url')}`);
    assert.equal(got.answer, 'planner');
    assert.match(got.first, /\d/);
    assert.equal(got.first, got.final);
  });

  test(`${locale}: an export asked for at the first figure is the whole plan`, async () => {
    const context = await browser.newContext({ locale, acceptDownloads: true });
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    await context.addInitScript(exportAtFirstFigure);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const first = page.waitForEvent('download');
    await page.goto(pageUrl);
    const early = await exportedJson(page, await first);
    await page.waitForSelector('#summary-text');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=JSON')]);
    const late = await exportedJson(page, download);
    assert.ok(late.response.gpus.length > 1 && late.response.plan);
    assert.deepEqual(early.response, late.response);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
