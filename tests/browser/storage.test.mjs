// The user's quotes: kept across a reload, exported and imported, and never
// silently lost when what is stored is corrupted or from another version.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const QUOTE = '[data-key="quote/autodl/rtx-4090/on-demand"]';

test('an edited price survives a reload and changes the cost', async () => {
  const { page, context } = await open(browser, { locale: 'zh-CN' });
  await page.click('[data-platform="autodl"] summary');
  // The plan's total: the planner prices the quote (the GPU table shows the
  // planner's gpus[].cost, which responses before contract v1.1 lack).
  const costBefore = await page.textContent('#budget-total');
  await page.fill(QUOTE, '0.5');
  await page.press(QUOTE, 'Tab');
  await page.waitForSelector('[data-quote-row="autodl/rtx-4090/on-demand"]');
  const costAfter = await page.textContent('#budget-total');
  assert.notEqual(costAfter, costBefore);
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('gpuplan.prices')));
  assert.equal(stored.schema, 2);
  assert.equal(stored.quotes[0].per_gpu_hour, 0.5);
  await page.reload();
  await page.waitForSelector('#memory-total');
  await page.click('[data-platform="autodl"] summary');
  assert.equal(await page.inputValue(QUOTE), '0.5');
  assert.equal(await page.textContent('#budget-total'), costAfter);
  // Reset to the catalog keeps an undo, and undo brings the quote back.
  await page.click('text=恢复目录价格');
  assert.equal(await page.evaluate(() => localStorage.getItem('gpuplan.prices')), null);
  await page.click('.note-item >> text=撤销');
  await page.waitForSelector('[data-quote-row="autodl/rtx-4090/on-demand"]');
  assert.ok(await page.evaluate(() => localStorage.getItem('gpuplan.prices')));
  await context.close();
});

test('corrupted storage is backed up, reset, and said so; the page still works', async () => {
  const { page, context } = await open(browser, {
    locale: 'zh-CN',
    init: () => { if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1'); localStorage.setItem('gpuplan.prices', '{"schema": 2, "quotes": [tru'); } },
  });
  assert.match(await page.textContent('.notes'), /已损坏/);
  assert.match(await page.textContent('#memory-total'), /GiB/);
  const keys = await page.evaluate(() => Object.keys(localStorage));
  const backup = keys.find((k) => k.startsWith('gpuplan.prices.backup.'));
  assert.ok(backup, `no backup key in ${keys}`);
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), backup), '{"schema": 2, "quotes": [tru');
  await context.close();
});

test('an old-version store (schema 1) is migrated with a message', async () => {
  const { page, context } = await open(browser, {
    locale: 'en-US',
    init: () => { if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1'); localStorage.setItem('gpuplan.prices', '{"version": 1, "quotes": {"autodl/rtx-4090": 1.5}}'); } },
  });
  assert.match(await page.textContent('.notes'), /Upgraded 1 quotes/);
  assert.ok(await page.$('[data-quote-row="autodl/rtx-4090/on-demand"]'));
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('gpuplan.prices')));
  assert.equal(stored.schema, 2);
  assert.deepEqual(stored.quotes.map((q) => [q.platform, q.gpu, q.per_gpu_hour, q.currency]), [['autodl', 'rtx-4090', 1.5, 'CNY']]);
  await context.close();
});

test('a store from a newer version is kept aside, not overwritten', async () => {
  const raw = '{"schema": 99, "quotes": []}';
  const { page, context } = await open(browser, {
    locale: 'en-US',
    init: () => { if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1'); localStorage.setItem('gpuplan.prices', '{"schema": 99, "quotes": []}'); } },
  });
  assert.match(await page.textContent('.notes'), /newer version/);
  const values = await page.evaluate(() => Object.values(localStorage));
  assert.ok(values.includes(raw));
  await context.close();
});

test('quotes export and import round-trip; bad entries are rejected and counted', async () => {
  const { page, context } = await open(browser, { locale: 'en-US' });
  const file = {
    name: 'prices.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ schema: 2, quotes: [
      { platform: 'autodl', gpu: 'rtx-4090', billing: 'on-demand', per_gpu_hour: 1.7, currency: 'CNY', note: 'lab deal' },
      { platform: 'nowhere', gpu: 'rtx-4090', per_gpu_hour: 1 },
      { platform: 'autodl', gpu: 'rtx-4090', billing: 'spot', per_gpu_hour: -3 },
    ] })),
  };
  await page.setInputFiles('.quotes-panel input[type=file]', file);
  await page.waitForSelector('[data-quote-row="autodl/rtx-4090/on-demand"]');
  assert.match(await page.textContent('.notes'), /Imported 1 quotes; skipped 2/);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('text=Export quotes')]);
  const exported = JSON.parse(await (await import('node:fs')).promises.readFile(await dl.path(), 'utf8'));
  assert.equal(exported.schema, 2);
  assert.deepEqual(exported.quotes.map((q) => q.note), ['lab deal']);
  await page.setInputFiles('.quotes-panel input[type=file]', { name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('not json') });
  await page.waitForFunction(() => document.querySelector('.notes')?.textContent?.includes('Cannot read this file'));
  await context.close();
});
