// Issue #31 on the page, in both languages: a pasted price list becomes
// quotes dated with the day they were pasted (the date beside each price, and
// the core's offer on the plan carries it), and the printout and the CSV give
// each planned price's date and standing from the core's offer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { artifacts, launch, open, root, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// The fixture's cards, and a 5090 below AutoDL's list price (the default form plans on a 5090).
const pasted = `${readFileSync(path.join(root, 'tests/data/price_paste/marketplace_cards.txt'), 'utf8')}\nRTX 5090 / 32GB\n¥2.50/时\n`;

for (const L of [{ locale: 'zh-CN', go: '读取价格', prices: '每个价格的日期与依据', quote: '你的报价' },
  { locale: 'en', go: 'Read the prices', prices: "Each price's date and basis", quote: 'your quote' }]) {
  test(`${L.locale}: a pasted price list gives dated quotes, and the printout and CSV say each price's date and standing`, async () => {
    const { page, context, errors } = await open(browser, { locale: L.locale });
    const today = new Date().toISOString().slice(0, 10);
    await page.click('[data-platform="autodl"] summary');
    await page.click('[data-platform="autodl"] details.paste summary');
    await page.fill('[data-platform="autodl"] details.paste textarea', pasted);
    await page.click(`[data-platform="autodl"] details.paste button:has-text("${L.go}")`);
    // The quote list: the 5090's pasted price with the day beside it, not in its note.
    const row = await until(page, (p) => p.$eval('[data-quote-row="autodl/rtx-5090/on-demand"]', (tr) => ({
      price: tr.children[3].textContent, note: tr.querySelector('.note').textContent,
    })).catch(() => null), 'the pasted 5090 quote');
    assert.ok(row.price.includes(today), JSON.stringify(row));
    assert.ok(!row.note.includes(today), JSON.stringify(row));
    // The plan rests on a quote now: the printout lists it with its day.
    await page.emulateMedia({ media: 'print' });
    const printed = await until(page, async (p) => {
      const text = await p.innerText('.print-inputs');
      return text.includes(L.prices) && text.includes(L.quote) ? text : null;
    }, 'the printout\'s price list', 10000);
    assert.ok(printed.includes(`${today} · ${L.quote}`), printed);
    await page.emulateMedia({ media: 'screen' });
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`text=${L.locale === 'zh-CN' ? '导出 CSV' : 'Export CSV'}`)]);
    const file = path.join(artifacts, `prices-${L.locale}-${dl.suggestedFilename()}`);
    await dl.saveAs(file);
    const csv = readFileSync(file, 'utf8').split('\r\n');
    assert.match(csv[0], /,price_as_of,price_kind,price_confidence,price_stale,price_source,price_basis$/);
    assert.ok(csv.slice(1).some((l) => /,(\d{4}-\d{2}(-\d{2})?|),(list|floor|promo|quote),/.test(l)), csv.slice(0, 4).join('\n'));
    assert.deepEqual(errors, []);
    await context.close();
  });
}
