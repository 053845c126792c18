// Issue #14 item 6: when a plan is over budget the planner lists the campus
// centre, and the budget view shows its queue-priority advice (plan.advice,
// views/budget.ts) in both languages, quoting the catalog's tiers: the page's
// catalog copy keeps them (core/src/read/catalog_profile.cpp).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, onlyLocal, open, setField, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ITEM = '#budget li[data-code="campus-queue-priority"]';

for (const [locale, words] of [['zh-CN', /队列优先级.*调试和消融.*截止日期/], ['en-US', /queue priority.*ablations.*deadline/]]) {
  test(`${locale}: the campus change brings the queue-priority advice, with the catalog's tiers`, async () => {
    const { page, context, errors, requests } = await open(browser, { locale });
    await page.waitForSelector('#budget-total');
    assert.equal(await page.$(ITEM), null, 'a plan within its budget lists no campus centre, so no queue advice');
    await setField(page, '[data-path="budget.amount"]', 1);
    const text = await until(page, async (p) => (await p.$(ITEM)) && p.textContent(ITEM), 'the queue-priority advice');
    assert.match(text, /4 \/ 6 \/ 8 CNY/);
    assert.match(text, /2018/);
    assert.match(text, words);
    assert.match(text, locale === 'zh-CN' ? /北京大学/ : /Peking University/);
    assert.deepEqual(onlyLocal(requests), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
