// The page's limits are the core's: every input that names a limited request
// field takes its min and max from web/src/limits.ts, which
// tests/core/limits_test.cpp holds to core/include/gpuplan/limits.h; a pasted
// config or calibration line past a limit is refused in the student's units;
// custom CNN is not offered; a share link that is not an object, or a huge
// hash, gets the damaged-link notice at once. Both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, open, pageUrl } from './harness.mjs';
import { pageModules } from '../js/page_modules.mjs';

let browser;
let LIMITS;
let encodeHash;
let defaultState;
before(async () => {
  browser = await launch();
  const m = await pageModules(['limits', 'state']);
  LIMITS = m.limits.LIMITS;
  encodeHash = m.state.encodeHash;
  defaultState = m.state.defaultState;
});
after(async () => { await browser?.close(); });

const LANGS = [
  { locale: 'zh-CN', hidden: /hidden_size 是 1e200，规划器只接受 1 到 1,048,576/, batch: /每卡批大小是 1e9，规划器只接受 1 到 65,536/, memory: /峰值显存（GiB）是 1e-7，规划器只接受 9\.31323e-4 到 93,132\.3/, damaged: '分享链接已损坏' },
  { locale: 'en-US', hidden: /hidden_size = 1e200; the planner takes 1 to 1,048,576/, batch: /the batch per GPU = 1e9; the planner takes 1 to 65,536/, memory: /the peak memory \(GiB\) = 1e-7; the planner takes 9\.31323e-4 to 93,132\.3/, damaged: 'share link is damaged' },
];

// Every number input on the page that names a limited field, with its min and max.
const bounded = (page) => page.$$eval('input[type=number][data-path]', (els) => els.map((e) => [e.getAttribute('data-path'), e.getAttribute('min'), e.getAttribute('max')]));
const normal = (path) => path.replace(/\[\d+\]/g, '[]');

function checkBounds(found) {
  let checked = 0;
  for (const [path, min, max] of found) {
    // The seeds field points its errors at stages[].runs, but holds one factor of them.
    const lim = normal(path) === 'stages[].runs' ? null : LIMITS[normal(path)];
    if (!lim) continue;
    // The share of the data is typed in percent, the measured peak memory in GiB.
    const unit = { 'stages[].data_fraction': 100, 'baseline.memory_bytes': 1 / 2 ** 30 }[normal(path)] ?? 1;
    // A measured figure may be left at 0: not measured (calibration.ts leaves it out).
    if (!(normal(path).startsWith('baseline.') && Number(min) === 0)) assert.equal(Number(min), lim.min * unit, `${path} min`);
    assert.equal(Number(max), lim.max * unit, `${path} max`);
    checked += 1;
  }
  return checked;
}

for (const L of LANGS) {
  test(`${L.locale}: every limited input takes its bounds from the core's table (custom model, workload, science)`, async () => {
    const custom = encodeHash({ ...defaultState(), source: 'custom' });
    const { page, context } = await open(browser, { locale: L.locale, url: `${pageUrl}${custom}` });
    await page.waitForSelector('[data-path="workload.micro_batch"]');
    const n = checkBounds(await bounded(page));
    assert.ok(n >= 12, `${n} inputs checked`);
    // Custom kinds: no "cnn" (its fields are not on this form).
    const kinds = await page.$$eval('select[data-path="model.kind"] option', (os) => os.map((o) => o.value));
    assert.ok(kinds.length >= 3 && !kinds.includes('cnn'), kinds.join());
    await context.close();

    const sci = encodeHash({ ...defaultState(), mode: 'science' });
    const s = await open(browser, { locale: L.locale, url: `${pageUrl}${sci}` });
    await s.page.waitForSelector('[data-path="science.memory_gb"]');
    assert.equal(await s.page.getAttribute('[data-path="science.memory_gb"]', 'max'), String(LIMITS['science.memory_gb'].max));
    assert.equal(LIMITS['science.memory_gb'].max, 1e5);
    checkBounds(await bounded(s.page));
    await s.context.close();
  });

  test(`${L.locale}: a pasted config or calibration line past a limit is refused in the student's units`, async () => {
    const custom = encodeHash({ ...defaultState(), source: 'custom' });
    const { page, context } = await open(browser, { locale: L.locale, url: `${pageUrl}${custom}` });
    await page.waitForSelector('#hf-config');
    await page.fill('#hf-config', JSON.stringify({ model_type: 'llama', hidden_size: 1e200, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 32000 }));
    await page.click('#hf-parse');
    assert.match(await page.textContent('#hf-config-help'), L.hidden);
    await context.close();

    const c = await open(browser, { locale: L.locale });
    await c.page.waitForSelector('#calib-read', { state: 'attached', timeout: 20000 });
    const paste = c.page.locator('textarea[id*="calib-paste"]');
    await c.page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    const line = (o) => `GPUPLAN_RESULT ${JSON.stringify({ gpu: 'NVIDIA GeForce RTX 4090', count: 1, micro_batch: 4, seq_len: 512, peak_memory_bytes: 8e9, tokens_per_s: 1000, samples_per_s: 2, ...o })}`;
    await paste.fill(line({ micro_batch: 1e9 }));
    await c.page.click('#calib-read');
    const help = c.page.locator('[id*="calib-paste"][id$="-help"]');
    assert.match(await help.textContent(), L.batch);
    await paste.fill(line({ peak_memory_bytes: 2 ** 30 * 1e-7 }));
    await c.page.click('#calib-read');
    assert.match(await help.textContent(), L.memory);
    await c.context.close();
  });

  test(`${L.locale}: a share link whose JSON is not an object, or a 1.5 MB hash, gets the damaged-link notice at once`, async () => {
    const b64 = (x) => Buffer.from(JSON.stringify(x)).toString('base64url');
    for (const payload of [[1, 2], null, 42, 'text']) {
      const { page, context } = await open(browser, { locale: L.locale, url: `${pageUrl}#s=${b64(payload)}` });
      assert.match(await page.textContent('.notes'), new RegExp(L.damaged), JSON.stringify(payload));
      await context.close();
    }
    // What the browser does with a 1.5 MB address before the page's first
    // script runs is the browser's; from then on the page drops the link at
    // once (the address bar holds the page's own link) and shows its first
    // figure like an ordinary page. How long that takes is the bench's to
    // say, not a test's.
    for (const n of [21, 1_500_000]) {
      const { page, context } = await open(browser, { locale: L.locale, url: `${pageUrl}#s=${'A'.repeat(n)}` });
      assert.match(await page.textContent('.notes'), new RegExp(L.damaged));
      assert.ok((await page.evaluate(() => location.hash.length)) < 20000, 'the address bar holds the page\'s own link');
      assert.ok(await page.evaluate(() => performance.getEntriesByName('gpuplan:first-figure').length > 0), 'the first figure is on the page');
      await context.close();
    }
  });
}
