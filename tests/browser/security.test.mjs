// Issue #7, the page half: whatever the user, a URL or an imported file
// supplies is shown as text; the CSP lets only the page's own inline code
// run; nothing is fetched from the network.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, onlyLocal, open, pagePath, pageUrl, setField } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const PAYLOAD = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><svg onload="window.__xss=3">';

async function assertInert(page) {
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'injected code ran');
  assert.equal(await page.evaluate(() => document.querySelectorAll('#app img, #app svg, #app script, #app iframe').length), 0, 'markup was parsed');
}

function hashFor(state) {
  return `#s=${Buffer.from(JSON.stringify(state), 'utf8').toString('base64url')}`;
}

test('the CSP is strict, names no remote origin, and holds', async () => {
  const html = readFileSync(pagePath, 'utf8');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  assert.ok(csp, 'no CSP meta');
  assert.match(csp, /default-src 'none'/);
  // Two hashes: the boot script, and the page's script it decodes and adds
  // (web/src/boot.ts); nothing else may run.
  assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /unsafe-inline|'unsafe-eval'|https?:|\*/);
  // The CSP meta comes before any script, or it would not cover it.
  assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<script'));
  const { page, requests, errors, context } = await open(browser);
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'the page itself violates its CSP');
  // An inline script added at run time is refused.
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__ran = 1';
    document.body.appendChild(s);
    return window.__ran;
  });
  assert.equal(ran, undefined);
  assert.ok((await page.evaluate(() => window.__csp)).some((v) => v.startsWith('script-src')));
  assert.deepEqual(onlyLocal(requests), [], 'network requests');
  assert.deepEqual(requests, [pageUrl]);
  assert.deepEqual(errors.filter((e) => !/Content Security Policy/.test(e)), []);
  await context.close();
});

test('markup typed into text fields stays text', async () => {
  const { page, context } = await open(browser, { locale: 'en-US' });
  await setField(page, '#project-title', PAYLOAD);
  assert.equal(await page.textContent('#project-name'), PAYLOAD);
  await page.click('[data-platform="autodl"] summary');
  await page.fill('[data-platform="autodl"] .addquote input[type=number]', '2');
  await page.fill('[data-platform="autodl"] .addquote input[type=text]', PAYLOAD);
  await page.click('[data-platform="autodl"] .addquote button');
  await page.waitForSelector('td.note');
  assert.equal(await page.textContent('td.note'), PAYLOAD);
  // A config.json whose strings carry markup.
  await page.click('text=Own dimensions');
  await page.fill('#hf-config', JSON.stringify({ model_type: PAYLOAD, hidden_size: 64, num_hidden_layers: 2, num_attention_heads: 4, vocab_size: 100 }));
  await page.click('#hf-parse');
  await page.waitForTimeout(200);
  await assertInert(page);
  // The Markdown export escapes it too.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('text=Export Markdown')]);
  const md = readFileSync(await dl.path(), 'utf8');
  // Markdown renderers pass raw HTML through; every < must arrive escaped as \<.
  assert.doesNotMatch(md, /(^|[^\\])<(img|script|svg)/, 'raw markup in the Markdown export');
  assert.match(md, /\\<img/);
  await context.close();
});

test('a shared link carrying markup and wrong types is rendered as text and sanitized', async () => {
  const url = `${pageUrl}${hashFor({ title: PAYLOAD, micro_batch: '<b>8</b>', preset: '"><script>', platforms: ['<x>'], stages: 'nope' })}`;
  const { page, context } = await open(browser, { locale: 'en-US', url });
  assert.equal(await page.textContent('#project-name'), PAYLOAD);
  assert.equal(await page.inputValue('[data-path="workload.micro_batch"]'), '4', 'a bad value falls back to the default');
  await assertInert(page);
  await context.close();
  const broken = await open(browser, { locale: 'en-US', url: `${pageUrl}#s=%%%<svg/onload=alert(1)>` });
  assert.match(await broken.page.textContent('.notes'), /share link is damaged/);
  assert.match(await broken.page.textContent('#memory-total'), /GiB/);
  await assertInert(broken.page);
  await broken.context.close();
});

test('an imported price file carrying markup is rendered as text', async () => {
  const { page, context } = await open(browser, { locale: 'en-US' });
  await page.setInputFiles('.quotes-panel input[type=file]', {
    name: 'evil.json', mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ schema: 2, quotes: [
      { platform: 'autodl', gpu: 'rtx-4090', billing: 'on-demand', per_gpu_hour: 2, currency: 'CNY', note: PAYLOAD },
      { platform: PAYLOAD, gpu: PAYLOAD, per_gpu_hour: 1 },
    ] })),
  });
  await page.waitForSelector('td.note');
  assert.equal(await page.textContent('td.note'), PAYLOAD);
  await assertInert(page);
  await context.close();
});

test('a planner error message quoting the input is shown as text', async () => {
  const url = `${pageUrl}${hashFor({ source: 'custom', custom: { kind: 'decoder', params: 1000, layers: 2, hidden: 64, heads: 4, kv_heads: 4, ffn: 256, vocab: 100 } })}`;
  const { page, context } = await open(browser, { locale: 'en-US', url });
  // 1000 parameters cannot hold a 100 x 64 embedding: the planner says so, naming the field in words (its path marks the input).
  await page.waitForSelector('.error');
  assert.match(await page.textContent('.error'), /parameter count/);
  assert.doesNotMatch(await page.textContent('.error'), /model\.params/);
  assert.equal(await page.getAttribute('[data-path="model.params"]', 'aria-invalid'), 'true');
  await context.close();
});
