// Accessibility (axe-core finds no violations, keyboard-only use works, the
// live region announces results) and how the page looks at desktop and phone
// widths: screenshots are written to test-results/ as artifacts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axeViolations, launch, open, setField } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const VIEWS = [
  { name: 'desktop-zh', locale: 'zh-CN', viewport: { width: 1280, height: 900 } },
  { name: 'desktop-en', locale: 'en-US', viewport: { width: 1280, height: 900 } },
  { name: 'phone-zh', locale: 'zh-CN', viewport: { width: 390, height: 844 }, mobile: true },
  { name: 'phone-en', locale: 'en-US', viewport: { width: 390, height: 844 }, mobile: true },
];

for (const v of VIEWS) {
  test(`axe-core finds no violations, and a screenshot: ${v.name}`, async () => {
    const { page, context } = await open(browser, v);
    // Open what is folded so axe sees it too.
    await page.click('details.advanced summary');
    await page.click('[data-platform="autodl"] summary');
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(artifacts, `page-${v.name}.png`), fullPage: true });
    const violations = await axeViolations(page);
    assert.deepEqual(violations, []);
    if (v.mobile) {
      // One column: the results sit below the inputs, and nothing scrolls sideways.
      const [inputs, results] = await Promise.all([page.$eval('.inputs', (e) => e.getBoundingClientRect()), page.$eval('#results', (e) => e.getBoundingClientRect())]);
      assert.ok(results.top >= inputs.bottom - 1, 'results below inputs on a phone');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'horizontal overflow');
    }
    await context.close();
  });
}

test('keyboard only: tab to a control, change it, the result is announced', async () => {
  const { page, context } = await open(browser, { locale: 'en-US' });
  const live = await page.textContent('#live');
  assert.ok(live.length > 0, 'live region empty');
  // Tab from the top reaches the skip link first.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip');
  // Every focusable control has an accessible name (axe checks labels; this checks focus is visible).
  await page.focus('[data-path="workload.micro_batch"]');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'focus is not visible');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('16');
  await page.keyboard.press('Tab');
  await page.waitForTimeout(300);
  assert.notEqual(await page.textContent('#live'), live, 'the live region did not announce the new result');
  // A change that rebuilds the form (task: train -> inference) keeps the focus where it was.
  await page.focus('[data-path="workload.mode"]');
  await page.selectOption('[data-path="workload.mode"]', 'infer');
  await page.waitForSelector('[data-path="workload.kv_cache_bits"]', { state: 'attached' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-path')), 'workload.mode');
  // So does switching the language.
  await page.focus('#lang-toggle');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'lang-toggle');
  // Sorting the GPU table by keyboard.
  await page.focus('[data-key="sort/hours"]');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-key')), 'sort/hours', 'focus lost after re-render');
  assert.equal(await page.getAttribute('[data-key="sort/hours"] >> xpath=..', 'aria-sort'), 'ascending');
  await context.close();
});

test('print stylesheet hides the inputs', async () => {
  const { page, context } = await open(browser, { locale: 'zh-CN' });
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.$eval('.inputs', (e) => getComputedStyle(e).display), 'none');
  assert.notEqual(await page.$eval('#memory', (e) => getComputedStyle(e).display), 'none');
  await page.pdf?.({ path: path.join(artifacts, 'print-zh.pdf') }).catch(() => {});
  await context.close();
});
