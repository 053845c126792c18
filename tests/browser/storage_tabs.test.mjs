// Nothing saved is ever lost: one store for many tabs (two real tabs in one
// browser context), undo of one action only, a newer version's keys never
// rewritten, typed work flushed when the tab goes, every failure to save said
// once, a link that replaces the form said with a way back, caps stated as
// limits. Both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { open, pageUrl, setField, until } from './harness.mjs';

let browser;
before(async () => { browser = await (await import('./harness.mjs')).launch(); });
after(async () => { await browser?.close(); });

const LANGS = [
  { locale: 'zh-CN', btn: { rename: '重命名', ok: '确定', del: '删除', open: '打开', update: '保存更改', undo: '撤销', back: '回到之前的输入', clear: '下载并清除' },
    conflict: '两个版本都已保留', thisTab: '（本标签页）', newerSession: '只在本次会话保留', importNewer: '来自更新的 gpuplan 版本', locked: '没有保存', linkReplaced: '替换了你的输入',
    overCap: '超过上限 50', damaged: '已损坏', importOver: '超出上限', invalid: '无效' },
  { locale: 'en-US', btn: { rename: 'Rename', ok: 'OK', del: 'Delete', open: 'Open', update: 'Save changes', undo: 'Undo', back: 'Back to my inputs', clear: 'Download and clear' },
    conflict: 'both are kept', thisTab: ' (this tab)', newerSession: 'Kept for this session only', importNewer: 'is from a newer version', locked: 'Not saved', linkReplaced: 'replaced your inputs',
    overCap: 'over the limit of 50: all are kept', damaged: 'damaged', importOver: 'over the limit of 50', invalid: 'invalid' },
];

const stored = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('gpuplan.projects') ?? '{"projects":[]}'));
const names = async (page) => (await stored(page)).projects.map((p) => p.name);
const rows = (page) => page.$$eval('table.projects tr[data-project] th', (ths) => ths.map((th) => th.firstChild.textContent));
const row = (page, name) => page.locator('table.projects tr[data-project]', { has: page.locator(`th:text-is("${name}")`) }).or(page.locator('table.projects tr[data-project]').filter({ hasText: name }).first());
async function save(page, name) {
  await page.fill('#project-save-name', name);
  await page.click('#project-save');
  await page.locator('table.projects tr[data-project]', { hasText: name }).first().waitFor();
}
async function rename(page, from, to, L) {
  const r = page.locator('table.projects tr[data-project]', { hasText: from }).first();
  await r.locator('button', { hasText: L.btn.rename }).click();
  await r.locator('input[type=text]').fill(to);
  await r.locator('button', { hasText: L.btn.ok }).click();
}
const clickIn = (page, name, label) => page.locator('table.projects tr[data-project]', { hasText: name }).first().locator('button', { hasText: label }).first().click();
const noteButton = (page, text, label) => page.locator('.note-item', { hasText: text }).last().locator('button', { hasText: label }).click();
// A second tab of the same browser: same storage, its own page.
async function secondTab(context) {
  const page = await context.newPage();
  await page.goto(pageUrl);
  await page.waitForSelector('#project-save', { timeout: 20000 });
  return page;
}
function seed(items) {
  const f = (entries) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    localStorage.clear();
    for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
  };
  return `(${f})(${JSON.stringify(items)});`;
}
const project = (id, name, state = {}) => ({ id, name, saved_at: '2026-12-01T10:00:00.000Z', state: { budget: 3000, ...state } });

for (const L of LANGS) {
  test(`${L.locale}: two tabs save, rename and save again without erasing each other's projects; the other tab's list follows`, async () => {
    const { context, page: a, errors } = await open(browser, { locale: L.locale });
    await a.waitForSelector('#project-save');
    const b = await secondTab(context);
    await save(a, 'Thesis A');
    await save(b, 'Paper B');
    assert.deepEqual(await names(a), ['Thesis A', 'Paper B']);
    // The storage event shows B's project in A without a reload.
    await until(a, async (p) => (await rows(p)).includes('Paper B'), 'tab A to show Paper B');
    await rename(a, 'Thesis A', 'Thesis A renamed', L);
    await until(a, async (p) => (await names(p)).includes('Thesis A renamed'), 'the rename');
    assert.deepEqual(await names(a), ['Thesis A renamed', 'Paper B']);
    await until(b, async (p) => (await rows(p)).includes('Thesis A renamed'), 'tab B to show the rename');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${L.locale}: the same project saved in two tabs keeps both versions and says so`, async () => {
    const { context, page: a } = await open(browser, { locale: L.locale });
    await a.waitForSelector('#project-save');
    await save(a, 'Shared');
    const b = await secondTab(context);
    await clickIn(b, 'Shared', L.btn.open);
    await setField(a, '[data-path="budget.amount"]', 5555);
    await clickIn(a, 'Shared', L.btn.update);
    await until(a, async (p) => (await stored(p)).projects[0].state.budget === 5555, 'A\'s save');
    await setField(b, '[data-path="budget.amount"]', 6666);
    await clickIn(b, 'Shared', L.btn.update);
    await until(b, async (p) => (await stored(p)).projects.length === 2, 'both versions kept');
    const after = (await stored(b)).projects;
    assert.deepEqual(after.map((p) => [p.name, p.state.budget]), [['Shared', 5555], [`Shared${L.thisTab}`, 6666]]);
    assert.match(await b.textContent('.notes'), new RegExp(L.conflict));
    await context.close();
  });

  test(`${L.locale}: Undo reverts only its own action`, async () => {
    const { context, page } = await open(browser, { locale: L.locale });
    await page.waitForSelector('#project-save');
    await save(page, 'P1');
    await save(page, 'P2');
    await clickIn(page, 'P1', L.btn.del);
    await save(page, 'P3');
    await noteButton(page, '"P1"', L.btn.undo);
    await until(page, async (p) => (await names(p)).length === 3, 'P1 back');
    assert.deepEqual((await names(page)).sort(), ['P1', 'P2', 'P3'], 'P1 is back and P3 is kept');
    // Undoing a rename after "Save changes" to another project leaves that project's changes.
    await rename(page, 'P1', 'P1 renamed', L);
    await until(page, async (p) => (await names(p)).includes('P1 renamed'), 'the rename');
    await clickIn(page, 'P2', L.btn.open);
    await setField(page, '[data-path="budget.amount"]', 7777);
    await clickIn(page, 'P2', L.btn.update);
    await until(page, async (p) => (await stored(p)).projects.find((x) => x.name === 'P2')?.state.budget === 7777, 'P2 saved');
    await noteButton(page, '"P1 renamed"', L.btn.undo);
    await until(page, async (p) => (await names(p)).includes('P1'), 'the old name back');
    const p2 = (await stored(page)).projects.find((x) => x.name === 'P2');
    assert.equal(p2.state.budget, 7777, 'P2 keeps its saved budget');
    await context.close();
  });

  test(`${L.locale}: a newer version's projects are never rewritten; a newer file says so`, async () => {
    const newer = JSON.stringify({ schema: 2, app: 'gpuplan', projects: [{ id: 'x', name: 'Future', layout: 'new' }] });
    const { context, page } = await open(browser, { locale: L.locale, init: seed({ 'gpuplan.projects': newer }) });
    await page.waitForSelector('#project-save');
    await save(page, 'Mine');
    assert.equal(await page.evaluate(() => localStorage.getItem('gpuplan.projects')), newer);
    assert.match(await page.textContent('.notes'), new RegExp(L.newerSession));
    await page.setInputFiles('#projects input[type=file]', { name: 'p.json', mimeType: 'application/json', buffer: Buffer.from('{"schema": 4, "app": "gpuplan", "quotes": [], "projects": []}') });
    await until(page, async (p) => new RegExp(L.importNewer).test(await p.textContent('.notes')), 'the newer-file notice');
    await context.close();
  });

  test(`${L.locale}: typing is kept when the tab closes or reloads at once`, async () => {
    const { context, page } = await open(browser, { locale: L.locale });
    await page.waitForSelector('#project-save');
    await page.locator('#project-title').pressSequentially('Closed fast');
    await page.close({ runBeforeUnload: true });
    const again = await secondTab(context);
    assert.equal(await again.inputValue('#project-title'), 'Closed fast');
    await again.locator('#project-title').fill('');
    await again.locator('#project-title').pressSequentially('Reloaded');
    await again.reload();
    await again.waitForSelector('#project-save');
    assert.equal(await again.inputValue('#project-title'), 'Reloaded');
    await context.close();
  });

  test(`${L.locale}: a damaged 4 MiB gpuplan.last: saving edits fails and says so once, with what to do`, async () => {
    const { context, page } = await open(browser, { locale: L.locale, init: seed({ 'gpuplan.last': 'x'.repeat(4 << 20) }) });
    await page.waitForSelector('#project-save');
    await setField(page, '[data-path="budget.amount"]', 1234);
    await setField(page, '[data-path="budget.amount"]', 4321);
    const said = await page.locator('.note-item', { hasText: L.locked }).count();
    assert.equal(said, 1, 'said once');
    await noteButton(page, L.locked, L.btn.clear);
    await setField(page, '[data-path="budget.amount"]', 2222);
    const last = await page.evaluate(() => JSON.parse(localStorage.getItem('gpuplan.last')));
    assert.equal(last.state.budget, 2222, 'saving works again');
    await context.close();
  });

  test(`${L.locale}: a link opened in the same tab that replaces the form says so, with the way back`, async () => {
    const { context, page } = await open(browser, { locale: L.locale });
    await page.waitForSelector('#project-save');
    await setField(page, '[data-path="budget.amount"]', 4321);
    const mine = await page.evaluate(() => location.hash);
    await setField(page, '[data-path="budget.amount"]', 9999);
    const other = await page.evaluate(() => location.hash);
    await setField(page, '[data-path="budget.amount"]', 4321);
    assert.equal(await page.evaluate(() => location.hash), mine);
    await page.evaluate((h) => { location.hash = h; }, other);
    await until(page, async (p) => (await p.inputValue('[data-path="budget.amount"]')) === '9999', 'the link\'s form');
    assert.match(await page.textContent('.notes'), new RegExp(L.linkReplaced));
    await noteButton(page, L.linkReplaced, L.btn.back);
    await until(page, async (p) => (await p.inputValue('[data-path="budget.amount"]')) === '4321', 'my inputs back');
    await context.close();
  });

  test(`${L.locale}: 60 stored projects are a limit, not damage: all kept; an import over the cap names it and offers the rest`, async () => {
    const sixty = Array.from({ length: 60 }, (_, i) => project(`q${i}`, `N${i}`));
    const raw = JSON.stringify({ schema: 1, app: 'gpuplan', projects: sixty });
    const { context, page } = await open(browser, { locale: L.locale, init: seed({ 'gpuplan.projects': raw }) });
    await page.waitForSelector('#project-save');
    const notes = await page.textContent('.notes');
    assert.match(notes, new RegExp(L.overCap));
    assert.doesNotMatch(notes, new RegExp(L.damaged));
    assert.equal((await stored(page)).projects.length, 60);
    await context.close();

    const fresh = await open(browser, { locale: L.locale });
    await fresh.page.waitForSelector('#project-save');
    const file = { name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ schema: 3, app: 'gpuplan', quotes: [], projects: sixty.map((p, i) => ({ ...p, state: { budget: i + 1 } })) })) };
    await fresh.page.setInputFiles('#projects input[type=file]', file);
    await until(fresh.page, async (p) => (await stored(p)).projects.length === 50, 'the first 50 imported');
    const text = await fresh.page.textContent('.notes');
    assert.match(text, new RegExp(L.importOver));
    const download = fresh.page.waitForEvent('download');
    await fresh.page.locator('.note-item', { hasText: L.importOver }).locator('button').first().click();
    const left = JSON.parse(await (await (await download).createReadStream()).toArray().then((c) => Buffer.concat(c).toString()));
    assert.deepEqual(left.projects.map((p) => p.name), sixty.slice(50).map((p) => p.name));
    // The same file again adds nothing.
    await fresh.page.setInputFiles('#projects input[type=file]', file);
    await fresh.page.waitForTimeout(300);
    assert.equal((await stored(fresh.page)).projects.length, 50);
    await fresh.context.close();
  });
}
