// Shared set-up for the browser tests: Debian's Chromium driven by
// playwright-core, headless, the page opened from file:// with every
// network request refused and recorded, CSP violations and page errors
// collected. Artifacts (screenshots, downloads) go to test-results/.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const pagePath = path.join(root, 'dist/index.html');
export const pageUrl = pathToFileURL(pagePath).href;
export const artifacts = path.join(root, 'test-results');
mkdirSync(artifacts, { recursive: true });

if (!existsSync(pagePath)) throw new Error('dist/index.html is missing: run npm run build (or ./dev.sh build) first');

export async function launch() {
  return chromium.launch({
    executablePath: process.env.GPUPLAN_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    // As root (CI here) Chromium's sandbox cannot start; the page is our own file.
    chromiumSandbox: false,
    args: ['--disable-gpu', '--no-first-run'],
  });
}

// A fresh context: its own localStorage, a locale, network refused.
export async function open(browser, { locale = 'zh-CN', viewport = { width: 1280, height: 900 }, url = pageUrl, init, mobile = false } = {}) {
  const context = await browser.newContext({ locale, viewport, acceptDownloads: true, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: 1 });
  const requests = [];
  const errors = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    return u.startsWith('file:') ? route.continue() : route.abort();
  });
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await page.waitForSelector('#memory-total, .error', { timeout: 20000 });
  return { context, page, requests, errors };
}

// Waits until fn(page) returns a truthy value (polling in Node).
export async function until(page, fn, what, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    last = await fn(page);
    if (last) return last;
    await page.waitForTimeout(50);
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

// Fills a field like a user and waits for the debounced re-render.
export async function setField(page, selector, value) {
  const before = await page.textContent('#summary-text');
  await page.fill(selector, String(value));
  await page.press(selector, 'Tab');
  await page.waitForTimeout(250);
  return before;
}

export function summary(page) {
  return page.textContent('#summary-text');
}

export async function axeViolations(page) {
  const source = readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
  // page.evaluate runs through the DevTools protocol, which the page's CSP
  // does not govern; the page itself still runs no injected script.
  await page.evaluate(source);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
}

export function onlyLocal(requests) {
  return requests.filter((u) => !/^(file|data|blob):/.test(u));
}
