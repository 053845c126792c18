// Seed 004's cost-effectiveness coefficient in the GPU table: computed on the
// precision the workload really uses, shown next to the seed's FP32 version,
// which undervalues tensor-core cards for mixed-precision training.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// "... 12.3 TFLOPS per CNY/h at the precision used (the common FP32-peak version: 4.5)" -> [12.3, 4.5]
function coefficients(text) {
  const m = /([\d.,]+) TFLOPS per \w+\/h at the precision used \(the common FP32-peak version: ([\d.,]+)\)/.exec(text);
  return m ? [Number(m[1].replace(/,/g, '')), Number(m[2].replace(/,/g, ''))] : null;
}

for (const locale of ['en', 'zh-CN']) {
  test(`the GPU table gives the value coefficient on the precision used (${locale})`, async (t) => {
    const { page, context, errors } = await open(browser, { locale });
    // The coefficient divides by the price of the offer the planner priced the
    // row on (gpus[].platform, contract v1.1); a core without it names none.
    if (!(await page.$('table.gpus td[data-cost] .as-of'))) {
      await context.close();
      t.skip('the planner does not price GPU rows yet (gpus[].cost, contract v1.1)');
      return;
    }
    const pattern = locale === 'en' ? 'TFLOPS per' : '性价比系数';
    // A data-centre card (tensor cores far above its FP32 peak) priced on a
    // listed offer: a derived spot or off-peak price has no listed figure to divide by.
    const row = await until(page, async (p) => {
      const texts = await p.$$eval('tr[data-gpu^="a100"] td.reasons, tr[data-gpu^="a800"] td.reasons, tr[data-gpu^="h100"] td.reasons, tr[data-gpu^="h800"] td.reasons, tr[data-gpu^="h200"] td.reasons',
        (tds) => tds.map((td) => td.textContent)).catch(() => []);
      return texts.find((text) => text.includes(pattern)) ?? null;
    }, 'a data-centre card with its coefficient', 20000);
    if (locale === 'en') {
      const [effective, fp32] = coefficients(row);
      // The default workload trains in bf16-mixed: the A100's tensor cores give it
      // far more TFLOPS per yuan than its FP32 peak suggests.
      assert.ok(effective > 2 * fp32, `effective ${effective} vs seed FP32 ${fp32}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}
