// Embed mode: the page inside a wiki's iframe, compact, reporting its height
// to the parent with postMessage; the embed dialog gives the snippet.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { artifacts, launch, onlyLocal, open, pageUrl, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('?embed=1 in an iframe is compact and reports its height', async () => {
  const parent = path.join(artifacts, 'embed-parent.html');
  writeFileSync(parent, `<!doctype html><meta charset="utf-8"><title>wiki</title>
<h1>Group wiki</h1>
<iframe id="gpuplan" src="${pageUrl}?embed=1" title="gpuplan" style="width:100%;border:0;height:300px"></iframe>
<script>
  window.heights = [];
  window.addEventListener('message', function (e) {
    var f = document.getElementById('gpuplan');
    if (e.source === f.contentWindow && e.data && e.data.type === 'gpuplan:height') {
      window.heights.push(e.data.height);
      f.style.height = e.data.height + 'px';
    }
  });
</script>`);
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 900, height: 800 } });
  const requests = [];
  await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  const page = await context.newPage();
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`file://${parent}`);
  const heights = await until(page, async (p) => { const h = await p.evaluate(() => window.heights); return h.length ? h : null; }, 'a height message', 20000);
  assert.ok(heights.at(-1) > 500, `height ${heights}`);
  const frame = page.frames().find((f) => f.url().includes('embed=1'));
  assert.ok(frame);
  await frame.waitForSelector('#memory-total');
  assert.equal(await frame.evaluate(() => document.body.classList.contains('embed')), true);
  assert.equal(await frame.$('#embed-open'), null, 'no embed button inside an embed');
  // The parent sized the frame to the last height reported (the page settles
  // after its deferred rendering, so wait for the messages to stop changing).
  await until(page, (p) => p.evaluate(() => {
    const f = document.getElementById('gpuplan');
    return window.heights.length > 0 && Math.abs(f.getBoundingClientRect().height - window.heights.at(-1)) < 2;
  }), 'the iframe to take the reported height');
  assert.ok(heights.length > 0);
  await page.screenshot({ path: path.join(artifacts, 'embed-zh.png'), fullPage: false });
  assert.deepEqual(onlyLocal(requests), []);
  await context.close();
});

// A page that gets shorter (here English -> Chinese on a phone) gives the
// wiki its new height: the frame shrinks with it, no blank space below.
test('an embedded page that gets shorter shrinks its frame', async () => {
  const parent = path.join(artifacts, 'embed-parent-shrink.html');
  writeFileSync(parent, `<!doctype html><meta charset="utf-8"><title>wiki</title>
<iframe id="gpuplan" src="${pageUrl}?embed=1" title="gpuplan" style="width:100%;border:0;height:300px"></iframe>
<script>
  window.addEventListener('message', function (e) {
    var f = document.getElementById('gpuplan');
    if (e.source === f.contentWindow && e.data && e.data.type === 'gpuplan:height') f.style.height = e.data.height + 'px';
  });
</script>`);
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  const page = await context.newPage();
  await page.goto(`file://${parent}`);
  const frameHeight = () => page.evaluate(() => document.getElementById('gpuplan').getBoundingClientRect().height);
  const frame = await until(page, () => page.frames().find((f) => f.url().includes('embed=1')), 'the frame');
  await frame.waitForSelector('#summary-text');
  // Settled: the frame holds the page's content, whatever it measured first.
  const settled = async () => {
    let last = -1;
    return until(page, async () => {
      const now = await frameHeight();
      const body = await frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
      const done = now === last && Math.abs(now - body) < 2;
      last = now;
      return done ? now : null;
    }, 'the frame to take the page\'s height', 10000);
  };
  const english = await settled();
  await frame.click('#lang-toggle');
  await frame.waitForSelector('html[lang="zh-CN"]');
  const chinese = await settled();
  assert.ok(chinese < english - 200, `English ${english} px, then Chinese ${chinese} px`);
  await context.close();
});

test('the embed dialog gives an iframe snippet with the current state', async () => {
  const { page, context } = await open(browser, { locale: 'en-US' });
  await page.click('#embed-open');
  const snippet = await page.inputValue('#embed-snippet');
  assert.match(snippet, /<iframe id="gpuplan" src="file:[^"]*\?embed=1#s=/);
  assert.match(snippet, /e\.source === f\.contentWindow/);
  await page.keyboard.press('Escape');
  assert.equal(await page.$('dialog[open]'), null);
  await context.close();
});
