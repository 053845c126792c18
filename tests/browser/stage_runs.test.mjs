// Issue #16, defect 1: the stage run counts. Every edit to a stage's fields
// is kept, whatever order they come in and whichever stage is edited next,
// and the plan is the one a share link stating the same numbers gives.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const stage = (name) => `fieldset.stage[data-stage="${name}"]`;

// Types a value into a stage's n-th number field (0 seeds, 1 sweep, 2 ablations) as a user does.
async function type(page, name, index, value) {
  const input = page.locator(`${stage(name)} .row4 input`).nth(index);
  await input.fill(String(value));
  await input.press('Tab');
  await page.waitForTimeout(250);
}

// The state the page holds, read from its share link.
function linkState(page) {
  return page.evaluate(() => {
    const b64 = location.hash.slice(3).replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  });
}

const counts = (s, name) => {
  const x = s.stages.find((y) => y.stage === name);
  return [x.on, x.seeds, x.sweep, x.ablations];
};

for (const [locale, runs40, formalName] of [['zh-CN', '共 40 次运行', '正式实验'], ['en-US', '40 runs', 'Formal experiments']]) {
  test(`${locale}: 5 seeds then 4 ablations plan 40 formal runs, and later edits keep them`, async () => {
    const { page, context, errors } = await open(browser, { locale });
    await type(page, 'formal', 0, 5);
    await type(page, 'formal', 2, 4);
    assert.match(await page.textContent(`${stage('formal')} output.runs`), new RegExp(runs40));
    assert.deepEqual(counts(await linkState(page), 'formal'), [true, 5, 2, 4]);
    // The formal stage's card, platform, hours and cost (its share moves with the other stages).
    const row = (p) => p.locator('#budget tbody tr', { has: p.locator(`th:text-is("${formalName}")`) }).locator('td').evaluateAll((tds) => tds.slice(0, 4).map((td) => td.textContent));
    const formalRow = () => row(page);
    const typed = { total: await page.textContent('#budget-total'), formal: await formalRow() };

    // The same numbers from a share link plan the same cost.
    const url = await page.evaluate(() => location.href);
    const fresh = await open(browser, { locale, url });
    assert.equal(await fresh.page.textContent('#budget-total'), typed.total);
    assert.deepEqual(await row(fresh.page), typed.formal);
    await fresh.context.close();

    // Editing another stage keeps the formal edits.
    await type(page, 'revision', 0, 2);
    let s = await linkState(page);
    assert.deepEqual(counts(s, 'formal'), [true, 5, 2, 4]);
    assert.deepEqual(counts(s, 'revision'), [true, 2, 1, 1]);
    assert.deepEqual(await formalRow(), typed.formal);

    // Toggling "include this stage" off and on keeps its numbers.
    await page.locator(`${stage('formal')} input[type=checkbox]`).uncheck();
    await page.waitForTimeout(100);
    assert.deepEqual(counts(await linkState(page), 'formal'), [false, 5, 2, 4]);
    await page.locator(`${stage('formal')} input[type=checkbox]`).check();
    await page.waitForTimeout(100);
    s = await linkState(page);
    assert.deepEqual(counts(s, 'formal'), [true, 5, 2, 4]);
    assert.deepEqual(counts(s, 'revision'), [true, 2, 1, 1]);
    assert.deepEqual(await formalRow(), typed.formal);
    assert.match(await page.textContent(`${stage('formal')} output.runs`), new RegExp(runs40));
    assert.deepEqual(errors, []);
    await context.close();
  });
}
