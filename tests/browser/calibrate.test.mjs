// Issue 15 on the page: the framework question (workload.stack), the
// calibration inputs re-anchoring every option's numbers, and the verify
// script: offered, copyable, valid Python, and printing the line the page
// reads back. In both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { launch, open, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const rows = (page) => page.$$eval('tr[data-gpu]', (trs) => trs.map((tr) => [tr.getAttribute('data-gpu'), tr.textContent]));
// The options that hold the job (data-fit comfortable or tight): their memory, time and cost
// are what the calibration re-anchors.
const fittingRows = (page) =>
  page.$$eval('tr[data-gpu]:not([data-fit="no"])', (trs) => trs.map((tr) => [tr.getAttribute('data-gpu'), tr.textContent]));

// A result line of the form the verify script prints (tests/js/verify_script.test.mjs
// runs the script's own print statement and checks it gives exactly this form).
const RESULT = 'GPUPLAN_RESULT {"gpu": "NVIDIA GeForce RTX 4090", "count": 1, "micro_batch": 2, "seq_len": 1024, ' +
  '"peak_memory_bytes": 32212254720, "tokens_per_s": 1280.0, "samples_per_s": 1.25}';

for (const locale of ['zh-CN', 'en']) {
  const question = locale === 'en' ? 'Which framework?' : '用什么框架跑？';

  test(`the framework question sets the stack class (${locale})`, async () => {
    const { page, context, errors } = await open(browser, { locale });
    await page.waitForSelector('#framework');
    const labelText = await page.textContent('label[for="framework"]');
    assert.equal(labelText, question);
    const before = await rows(page);
    await page.selectOption('#framework', 'compiled');
    await until(page, async (p) => JSON.stringify(await rows(p)) !== JSON.stringify(before), 'the GPU rows to change', 20000);
    const help = await page.textContent('#framework-help');
    assert.match(help, locale === 'en' ? /compiled/ : /编译/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`calibration inputs change every option's numbers (${locale})`, async () => {
    const { page, context, errors } = await open(browser, { locale });
    await page.waitForSelector('#calib summary');
    await page.click('#calib summary');
    const before = new Map(await fittingRows(page));
    assert.ok(before.size > 5, 'several GPU options are listed');
    await page.selectOption('#calib-gpu', 'rtx-4090');
    await page.fill('#calib-memory', '40');
    await page.press('#calib-memory', 'Tab');
    await page.fill('#calib-rate', '500');
    await page.press('#calib-rate', 'Tab');
    const factors = await until(page, async (p) => ((await p.textContent('#calib-factors').catch(() => '')) || '').includes('×') && p.textContent('#calib-factors'), 'the correction factors', 20000);
    assert.match(factors, /×\d/);
    const after = new Map(await rows(page));
    const unchanged = [...before].filter(([id, text]) => after.get(id) === text).map(([id]) => id);
    assert.deepEqual(unchanged, [], 'every option is re-anchored');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`the verify script is offered, copyable, valid Python, and read back (${locale})`, async () => {
    const { page, context, errors } = await open(browser, { locale });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.waitForSelector('#verify summary');
    await page.click('#verify summary');
    const script = await page.textContent('#verify-script');
    assert.match(script, /from_config/);
    assert.match(script, /LoraConfig\(r=16/);  // the default workload: LoRA r16, all-linear
    const parse = spawnSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { input: script, encoding: 'utf8' });
    assert.equal(parse.status, 0, parse.stderr);
    await page.click('#verify-copy');
    const copied = await until(page, (p) => p.evaluate(() => navigator.clipboard.readText()), 'the clipboard');
    assert.equal(copied, script);
    // What the script prints is what the page reads.
    assert.match(script, /GPUPLAN_RESULT/);
    await page.click('#calib summary');
    await page.fill('#calib textarea', `some log\n${RESULT}\n`);
    await page.click('#calib-read');
    await until(page, async (p) => (await p.inputValue('#calib-memory')) === '30', 'the memory read back');
    assert.equal(await page.inputValue('#calib-gpu'), 'rtx-4090');
    assert.equal(await page.inputValue('#calib-batch'), '2');
    assert.equal(Number(await page.inputValue('#calib-rate')), 1280);
    await until(page, async (p) => ((await p.textContent('#calib-factors').catch(() => '')) || '').includes('×') && p.textContent('#calib-factors'), 'the correction factors', 20000);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
