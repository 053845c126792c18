// Issue #19: the page remembers. The last inputs come back when the page is
// opened again without a link (in a new browser session over the same
// storage), a share link wins and touches no project, projects are saved,
// compared, exported and imported into a fresh browser, and a page whose
// storage is off or damaged still works and says so. Both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { axeViolations, launch, open, pageUrl, setField } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const LANGS = [
  { locale: 'zh-CN', restored: '已恢复上次的输入', fresh: '重新开始', linkOver: '已打开分享链接', cannot: '不允许页面保存数据', compare: '方案对比', differs: '不同', corrupt: '已损坏' },
  { locale: 'en-US', restored: 'Restored your last inputs', fresh: 'Start fresh', linkOver: 'Opened a shared link', cannot: 'does not let the page keep anything', compare: 'Comparison', differs: 'differs', corrupt: 'damaged' },
];

// Everything this page keeps, as a new browser session over the same profile sees it.
const dump = (page) => page.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
// A fresh context whose storage holds `items` when the page first opens
// (an init script as source text: it carries the items with it).
function seedScript(items) {
  const seed = (entries) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    localStorage.clear();
    for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
  };
  return `(${seed})(${JSON.stringify(items)});`;
}
function openSeeded(locale, items, url = pageUrl) {
  return open(browser, { locale, url, init: seedScript(items) });
}

for (const L of LANGS) {
  test(`${L.locale}: the form is restored in a new session over the same storage; Start fresh resets it`, async () => {
    const first = await open(browser, { locale: L.locale });
    await setField(first.page, '#project-title', '毕业论文 LoRA');
    await setField(first.page, '[data-path="budget.amount"]', 4321);
    await setField(first.page, '[data-path="stages[1].runs"]', 5);
    const stored = await dump(first.page);
    await first.context.close();

    const { page, context, errors } = await openSeeded(L.locale, stored);
    assert.match(await page.textContent('.notes'), new RegExp(L.restored));
    assert.equal(await page.inputValue('#project-title'), '毕业论文 LoRA');
    await page.waitForSelector('[data-path="budget.amount"]');
    assert.equal(await page.inputValue('[data-path="budget.amount"]'), '4321');
    assert.equal(await page.inputValue('[data-path="stages[1].runs"]'), '5');
    assert.match(await page.evaluate(() => location.hash), /^#s=/, 'the address bar holds the restored state');
    await page.click(`.note-item button:text-is("${L.fresh}")`);
    await page.waitForFunction(() => document.querySelector('[data-path="budget.amount"]')?.value === '3000');
    assert.equal(await page.inputValue('#project-title'), '');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${L.locale}: a share link wins over the stored inputs and never changes a saved project`, async () => {
    const first = await open(browser, { locale: L.locale });
    await setField(first.page, '[data-path="budget.amount"]', 1111);
    await first.page.fill('#project-save-name', 'Mine');
    await first.page.click('#project-save');
    await first.page.waitForSelector('table.projects tr[data-project]');
    const stored = await dump(first.page);
    // A labmate's link: another budget.
    await setField(first.page, '[data-path="budget.amount"]', 9999);
    const link = await first.page.evaluate(() => location.href);
    await first.context.close();

    const { page, context, errors } = await openSeeded(L.locale, stored, link);
    await page.waitForSelector('[data-path="budget.amount"]');
    assert.equal(await page.inputValue('[data-path="budget.amount"]'), '9999');
    assert.match(await page.textContent('.notes'), new RegExp(L.linkOver));
    assert.doesNotMatch(await page.textContent('.notes'), new RegExp(L.restored));
    await setField(page, '[data-path="budget.amount"]', 7777);
    const after = await dump(page);
    assert.equal(after['gpuplan.projects'], stored['gpuplan.projects'], 'the project is untouched');
    assert.equal(JSON.parse(after['gpuplan.projects']).projects[0].state.budget, 1111);
    // The inputs the link replaced are kept (a backup), and the link's own are now the last ones.
    assert.equal(JSON.parse(after['gpuplan.last']).state.budget, 7777);
    const backup = Object.keys(after).find((k) => k.startsWith('gpuplan.last.backup.'));
    assert.ok(backup && JSON.parse(after[backup]).state.budget === 1111, `backup of the replaced inputs in ${Object.keys(after)}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${L.locale}: two projects saved, compared, exported, imported into a fresh browser and compared again`, async () => {
    const { page, context, errors } = await open(browser, { locale: L.locale });
    await page.selectOption('[data-path="workload.method"]', 'lora');
    await page.fill('#project-save-name', 'Plan A LoRA');
    await page.click('#project-save');
    await page.selectOption('[data-path="workload.method"]', 'full');
    await page.waitForTimeout(200);
    await page.fill('#project-save-name', 'Plan B full');
    await page.click('#project-save');
    const rowOf = (p, name) => p.locator('table.projects tr[data-project]', { hasText: name });
    await rowOf(page, 'Plan B full').waitFor();
    // Rename, duplicate and delete keep the list straight.
    await rowOf(page, 'Plan B full').locator('button', { hasText: L.locale === 'zh-CN' ? '复制' : 'Duplicate' }).click();
    assert.equal(await page.locator('table.projects tr[data-project]').count(), 3);
    const copy = page.locator('table.projects tr[data-project]').nth(2);
    await copy.locator('button', { hasText: L.locale === 'zh-CN' ? '删除' : 'Delete' }).click();
    assert.equal(await page.locator('table.projects tr[data-project]').count(), 2);

    const compareOf = async (p) => {
      await rowOf(p, 'Plan A LoRA').locator('input[data-compare]').check();
      await rowOf(p, 'Plan B full').locator('input[data-compare]').check();
      await p.waitForSelector('#compare table.compare-table');
      return p.$$eval('#compare tr[data-row]', (trs) => trs.map((tr) => [tr.getAttribute('data-row'), tr.classList.contains('differs'), [...tr.querySelectorAll('td')].map((td) => td.textContent)]));
    };
    const table = await compareOf(page);
    assert.match(await page.textContent('#compare h3'), new RegExp(L.compare));
    const byRow = Object.fromEntries(table.map(([k, d, cells]) => [k, { d, cells }]));
    assert.equal(byRow.model.d, true, 'LoRA and full fine-tuning differ');
    assert.equal(byRow.model.cells.length, 2);
    assert.equal(byRow.memory.d, true, 'full fine-tuning needs more memory per GPU');
    for (const k of ['fit', 'stage-formal', 'hours', 'total', 'budget', 'warnings']) assert.ok(byRow[k], `row ${k}`);
    assert.ok(byRow.total.cells.every((c) => /[¥$]|CN¥|无可行方案|No option/.test(c)), byRow.total.cells.join(' | '));
    assert.match(await page.textContent('#compare tr.differs th'), new RegExp(L.differs));
    assert.deepEqual(await axeViolations(page), [], 'the comparison is axe-clean');
    // The form as it is (full fine-tuning now) against one saved project.
    await rowOf(page, 'Plan B full').locator('input[data-compare]').uncheck();
    await page.check('input[data-compare="current"]');
    await page.waitForSelector('#compare table.compare-table');
    const heads = await page.$$eval('#compare thead th', (ths) => ths.slice(1).map((th) => th.textContent));
    assert.equal(heads.length, 2);
    assert.ok(heads.includes('Plan A LoRA'), heads.join());
    assert.equal(await page.$eval('#compare tr[data-row="model"]', (tr) => tr.classList.contains('differs')), true);
    await page.uncheck('input[data-compare="current"]');
    await rowOf(page, 'Plan B full').locator('input[data-compare]').check();

    // Printed alone: the comparison shows, the rest of the page does not.
    await page.emulateMedia({ media: 'print' });
    await page.evaluate(() => document.body.classList.add('print-compare'));
    const vis = (sel) => page.$eval(sel, (e) => getComputedStyle(e).visibility);
    assert.equal(await vis('#compare table'), 'visible');
    assert.equal(await vis('h1'), 'hidden');
    await page.evaluate(() => document.body.classList.remove('print-compare'));
    assert.equal(await page.$eval('#projects', (e) => getComputedStyle(e).display), 'none', 'the plan\'s own printout leaves the projects out');
    await page.emulateMedia({ media: 'screen' });
    const [md] = await Promise.all([page.waitForEvent('download'), page.click('#compare-export')]);
    const mdText = await readFile(await md.path(), 'utf8');
    assert.match(mdText, /Plan A LoRA \| Plan B full/);
    assert.match(mdText, /\*\*≠\*\*/);
    const [file] = await Promise.all([page.waitForEvent('download'), page.click('#projects-export')]);
    const exported = JSON.parse(await readFile(await file.path(), 'utf8'));
    assert.equal(exported.schema, 3);
    assert.deepEqual(exported.projects.map((p) => p.name), ['Plan A LoRA', 'Plan B full']);
    assert.deepEqual(errors, []);
    await context.close();

    const fresh = await open(browser, { locale: L.locale });
    await fresh.page.setInputFiles('#projects input[type=file]', { name: 'gpuplan-projects.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await rowOf(fresh.page, 'Plan B full').waitFor();
    assert.deepEqual(await compareOf(fresh.page), table, 'the same comparison in the fresh browser');
    // An old quotes-only file still imports.
    await fresh.page.setInputFiles('#projects input[type=file]', { name: 'prices.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "quotes": {"autodl/rtx-4090": 1.5}}') });
    await fresh.page.waitForSelector('[data-quote-row="autodl/rtx-4090/on-demand"]');
    assert.deepEqual(fresh.errors, []);
    await fresh.context.close();
  });

  test(`${L.locale}: storage disabled: the page works, says it cannot remember, and keeps projects for the session`, async () => {
    const { page, context, errors } = await open(browser, {
      locale: L.locale,
      init: () => Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } }),
    });
    assert.match(await page.textContent('#memory-total'), /GiB/);
    const notes = await page.textContent('.notes');
    assert.match(notes, new RegExp(L.cannot));
    assert.equal(notes.split(L.cannot).length - 1, 1, 'said once');
    await setField(page, '[data-path="budget.amount"]', 2500);
    await page.fill('#project-save-name', 'Session only');
    await page.click('#project-save');
    await page.waitForSelector('table.projects tr[data-project]');
    assert.equal((await page.textContent('.notes')).split(L.cannot).length - 1, 1, 'still said once');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${L.locale}: corrupted last inputs and projects are reported and skipped, not fatal`, async () => {
    const good = { id: 'pgood', name: 'Still here', saved_at: '2026-12-01T10:00:00.000Z', state: { budget: 2222 } };
    const { page, context, errors } = await openSeeded(L.locale, {
      'gpuplan.last': '{bad',
      'gpuplan.projects': JSON.stringify({ schema: 1, projects: [good, { name: 5 }, 'junk'] }),
    });
    assert.match(await page.textContent('#memory-total'), /GiB/);
    const notes = await page.textContent('.notes');
    assert.match(notes, new RegExp(L.corrupt));
    assert.match(notes, /2/);
    assert.equal(await page.locator('table.projects tr[data-project]').count(), 1);
    assert.match(await page.textContent('table.projects'), /Still here/);
    const keys = Object.keys(await dump(page));
    assert.ok(keys.some((k) => k.startsWith('gpuplan.last.backup.')), `${keys}`);
    assert.ok(keys.some((k) => k.startsWith('gpuplan.projects.backup.')), `${keys}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
