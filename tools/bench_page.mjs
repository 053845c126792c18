#!/usr/bin/env node
// Page budgets (docs/performance.md): the page's weight gzipped, the time to the
// first figure in headless Chromium from file://, the time from an input
// change to the repainted figures and its main-thread CPU, from file:// and
// over http (a server on 127.0.0.1 inside this script: served pages run the
// browser's autofill, which file:// skips), and plan() in wasm.
//   node tools/bench_page.mjs [--runs N] [--html PATH]
//   node tools/bench_page.mjs --weight-only [--html PATH] [--max-kib N]
// Exits 1 when a hard budget is broken: page > 206 KiB gzipped (the guard while
// the page is over its 200 KiB aim: docs/performance.md), or a full plan() median > 5 ms in wasm.
// The first-figure time (aim 200 ms) and the input-to-repaint time (aim 16 ms
// median over http, with at most 20 ms of main-thread CPU per change) are
// machine-dependent benchmarks, reported without failing the run.
// Results also go to test-results/bench-page.json.
// --weight-only measures the page's weight alone (no browser, no timing, so a
// loaded CI runner cannot flake it): what ./dev.sh test runs. It fails over
// --max-kib (default: the 200 KiB budget, which ./dev.sh test holds too). --html weighs another build of the page (default dist/index.html).
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUDGET = { page_kib: 206, page_aim_kib: 200, first_figure_ms: 200, update_ms: 16, update_cpu_ms: 20, plan_ms: 5 };
const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const RUNS = Number(arg('--runs') ?? 15);
const HTML = path.resolve(root, arg('--html') ?? 'dist/index.html');
const WEIGHT_ONLY = process.argv.includes('--weight-only');
const MAX_KIB = Number(arg('--max-kib') ?? BUDGET.page_kib);

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const kib = (bytes) => bytes / 1024;
const gz = (text) => gzipSync(Buffer.from(text, 'utf8'), { level: 9 }).length;

// 1. Weight: what a server sends with gzip, and where it goes.
const html = readFileSync(HTML, 'utf8');
const script = /<script type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
const style = /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
// The one long base64 literal: the page's script and the wasm in one LZMA
// stream (vite.config.mts, packedPage(); web/src/boot.ts decodes it).
const packedB64 = /["'`]([A-Za-z0-9+/=]{20000,})["'`]/.exec(script)?.[1] ?? '';
const weight = {
  raw_bytes: Buffer.byteLength(html),
  gzip_bytes: gz(html),
  // The packed stream as the page carries it: LZMA, base64, in the gzipped page.
  packed_base64_gzip_bytes: gz(packedB64),
  packed_compressed_bytes: packedB64 ? Buffer.from(packedB64, 'base64').length : 0,
  // The boot script around it (the LZMA decoder and the hand-over).
  boot_script_gzip_bytes: gz(script.replace(packedB64, '')),
  css_gzip_bytes: gz(style),
};

const f1 = (x) => x.toFixed(1);
const verdict = (ok) => (ok ? 'ok' : 'OVER BUDGET');
const pageOk = kib(weight.gzip_bytes) <= BUDGET.page_kib;
const weightLines = () => {
  console.log(`page weight (${path.relative(root, HTML)}, gzip -9): ${f1(kib(weight.gzip_bytes))} KiB  [budget ${BUDGET.page_kib} KiB, aim ${BUDGET.page_aim_kib}] ${verdict(pageOk)}`);
  console.log(`  page script + wasm (one LZMA stream, base64) ${f1(kib(weight.packed_base64_gzip_bytes))} KiB · boot script ${f1(kib(weight.boot_script_gzip_bytes))} KiB · CSS ${f1(kib(weight.css_gzip_bytes))} KiB · raw ${f1(kib(weight.raw_bytes))} KiB`);
};
if (WEIGHT_ONLY) {
  if (!packedB64) {
    console.error(`${path.relative(root, HTML)}: no embedded stream found; is it the built page?`);
    process.exit(1);
  }
  weightLines();
  if (MAX_KIB !== BUDGET.page_kib) {
    const ok = kib(weight.gzip_bytes) <= MAX_KIB;
    console.log(`  ceiling until the page meets its budget: ${f1(MAX_KIB)} KiB ${ok ? 'ok' : 'OVER THE CEILING: the page grew'}`);
    process.exit(ok ? 0 : 1);
  }
  process.exit(pageOk ? 0 : 1);
}

// 2. plan() in wasm (Node, the CommonJS module the contract names).
const require = createRequire(import.meta.url);
const wasm = await require(path.join(root, 'build/wasm/bin/gpuplan.js'))();
const reqDir = path.join(root, 'tests/data/requests');
const requests = readdirSync(reqDir).filter((f) => f.endsWith('.json') && !f.startsWith('error-')).sort()
  .map((f) => ({ name: f, text: readFileSync(path.join(reqDir, f), 'utf8') }));
const planTimes = {};
for (const r of requests) {
  for (let i = 0; i < 5; i++) wasm.plan(r.text); // warm-up: lazy compilation, catalog parse
  const times = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    wasm.plan(r.text);
    times.push(performance.now() - t0);
  }
  planTimes[r.name] = median(times);
}
// "A full plan()": the request with stages, budget, prefs and prices, over every GPU.
const fullName = 'plan-stages-budget.json';
const fullPlanMs = planTimes[fullName] ?? Math.max(...Object.values(planTimes));

// The page over http, as a host serves it: dist/ from 127.0.0.1 on a free
// port, nothing else answered, the server closed at the end (and never keeps
// this process alive on its own).
const distDir = path.dirname(HTML);
const server = createServer((req, res) => {
  const name = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
  const file = path.resolve(distDir, name);
  if (!file.startsWith(distDir + path.sep) || !file.endsWith('.html')) { res.writeHead(404).end(); return; }
  try {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(file));
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
server.unref();
const origin = `http://127.0.0.1:${server.address().port}`;
const httpUrl = `${origin}/${path.basename(HTML)}`;
// Only the page itself: file:// or this server; anything else is refused.
const allow = (u) => u.startsWith('file:') || u.startsWith(`${origin}/`);

// 3. Time to first figure: navigation start to the memory figure on screen
//    (performance mark 'gpuplan:first-figure', set by the page), headless
//    Chromium, file://, network refused, a fresh context each run. Two pages,
//    loaded in turn: a fresh one, whose first figure is the answer its build
//    asked of the planner (web/src/first_answer.ts), and one opened on another
//    form by a link (as a remembered form opens), whose first figure waits
//    for the planner's first call. The mark says which answered. The fresh
//    page is loaded over http too.
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: process.env.GPUPLAN_CHROMIUM || '/usr/bin/chromium', headless: true, chromiumSandbox: false, args: ['--disable-gpu'] });
const url = pathToFileURL(HTML).href;
const firstLoads = {
  fresh: { url, answer: 'build', ms: [] },
  other_form: { url: `${url}#s=${Buffer.from(JSON.stringify({ micro_batch: 8 })).toString('base64url')}`, answer: 'planner', ms: [] },
  fresh_http: { url: httpUrl, answer: 'build', ms: [] },
};
for (let i = 0; i < RUNS + 1; i++) {
  for (const load of Object.values(firstLoads)) {
    const context = await browser.newContext({ locale: 'zh-CN' });
    await context.route('**/*', (route) => (allow(route.request().url()) ? route.continue() : route.abort()));
    const page = await context.newPage();
    await page.goto(load.url);
    await page.waitForSelector('#memory-total');
    const mark = await page.evaluate(() => {
      const m = performance.getEntriesByName('gpuplan:first-figure')[0];
      return { t: m?.startTime, answer: m?.detail?.answer };
    });
    if (mark.answer !== load.answer) throw new Error(`the first figure of ${load.url} was answered by ${mark.answer}, not the ${load.answer}`);
    if (i > 0) load.ms.push(mark.t); // the first run warms the disk cache
    await context.close();
  }
}
const firstFigure = firstLoads.fresh.ms;

// 4. Input to repainted figures: a student changes the micro-batch (a
//    `change` event, as when leaving the field); the page re-plans and
//    re-renders in the handler. Measured: the time from the event to the
//    first task after the next frame (the figures painted), and the main
//    thread's CPU time for the change: its thread clock (a trace's `tts`,
//    not wall time, which a loaded machine inflates) from a mark at the
//    change to the mark of the next one, the change's deferred
//    second pass (the OOM advice) and frames included (and this script's
//    idle wait, a few tasks). Two values alternate
//    so every change is a new plan; three warm-up changes. From file:// and
//    over http.
async function updates(pageUrl) {
  const context = await browser.newContext({ locale: 'zh-CN' });
  await context.route('**/*', (route) => (allow(route.request().url()) ? route.continue() : route.abort()));
  const page = await context.newPage();
  await page.goto(pageUrl);
  await page.waitForSelector('#budget-total');
  const out = { ms: [], cpu_ms: [] };
  await page.waitForTimeout(300);
  const traceFile = path.join(root, 'test-results/bench-page-trace.json');
  for (let i = 0; i < RUNS + 3; i++) {
    if (i === 3) await browser.startTracing(page, { path: traceFile, categories: ['devtools.timeline', 'blink.user_timing'] });
    const ms = await page.evaluate(async (value) => {
      const el = document.querySelector('[data-path="workload.micro_batch"]');
      const before = document.getElementById('summary-text')?.textContent;
      performance.mark('gpuplan:bench-change');
      const t0 = performance.now();
      el.value = String(value);
      el.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => { const ch = new MessageChannel(); ch.port1.onmessage = () => r(); ch.port2.postMessage(0); }));
      const changed = document.getElementById('summary-text')?.textContent !== before;
      return changed ? performance.now() - t0 : -1;
    }, i % 2 ? 4 : 2);
    // Idle again: the deferred pass (a 0 ms timer) and its frame are done.
    await page.evaluate(() => new Promise((r) => setTimeout(() => requestAnimationFrame(() => setTimeout(r, 50)), 0)));
    if (i >= 3) out.ms.push(ms);
  }
  await page.evaluate(() => performance.mark('gpuplan:bench-change'));
  await browser.stopTracing();
  // Each mark carries the main thread's own clock (tts, its CPU time): a
  // change's CPU is the thread time from its mark to the next one.
  const tts = JSON.parse(readFileSync(traceFile, 'utf8')).traceEvents
    .filter((e) => e.name === 'gpuplan:bench-change').sort((a, b) => a.ts - b.ts).map((e) => e.tts);
  rmSync(traceFile, { force: true });
  for (let k = 0; k + 1 < tts.length; k++) out.cpu_ms.push((tts[k + 1] - tts[k]) / 1000);
  await context.close();
  if (out.ms.some((x) => x < 0)) out.ms = out.ms.filter((x) => x >= 0);
  return out;
}
const updateFile = await updates(url);
const updateHttp = await updates(httpUrl);
await browser.close();
server.close();
const stats = (xs) => (xs.length ? { median: median(xs), p90: pct(xs, 0.9), runs: xs.length } : { median: null, p90: null, runs: 0 });

const result = {
  measured_at: new Date().toISOString(),
  page: { ...weight, gzip_kib: kib(weight.gzip_bytes) },
  first_figure_ms: { median: median(firstFigure), p90: pct(firstFigure, 0.9), runs: firstFigure.length },
  first_figure_other_form_ms: stats(firstLoads.other_form.ms),
  first_figure_http_ms: stats(firstLoads.fresh_http.ms),
  input_to_repaint_ms: { file: stats(updateFile.ms), http: stats(updateHttp.ms) },
  input_cpu_ms: { file: stats(updateFile.cpu_ms), http: stats(updateHttp.cpu_ms) },
  load_average_1min: loadavg()[0],
  wasm_plan_ms: { full: fullPlanMs, per_request_median: planTimes },
  budgets: BUDGET,
};
mkdirSync(path.join(root, 'test-results'), { recursive: true });
writeFileSync(path.join(root, 'test-results/bench-page.json'), `${JSON.stringify(result, null, 2)}\n`);

const planOk = fullPlanMs <= BUDGET.plan_ms;
const figOk = result.first_figure_ms.median <= BUDGET.first_figure_ms;
weightLines();
console.log(`time to first figure (headless Chromium, file://), fresh page: median ${f1(result.first_figure_ms.median)} ms, p90 ${f1(result.first_figure_ms.p90)} ms over ${firstFigure.length} loads  [aim ${BUDGET.first_figure_ms} ms] ${figOk ? 'ok' : 'over the aim (not a CI failure)'}`);
const other = result.first_figure_other_form_ms;
console.log(`  opened on another form (the planner's first call before the figure): median ${f1(other.median)} ms, p90 ${f1(other.p90)} ms over ${other.runs} loads`);
console.log(`  over http (127.0.0.1): median ${f1(result.first_figure_http_ms.median)} ms, p90 ${f1(result.first_figure_http_ms.p90)} ms over ${result.first_figure_http_ms.runs} loads`);
console.log(`  (this machine's load average: ${loadavg()[0].toFixed(1)}: the times are wall-clock; the CPU is the main thread's own)`);
for (const scheme of ['file', 'http']) {
  const upd = result.input_to_repaint_ms[scheme];
  const cpu = result.input_cpu_ms[scheme];
  const ok = upd.median !== null && upd.median <= BUDGET.update_ms && cpu.median <= BUDGET.update_cpu_ms;
  console.log(upd.runs
    ? `input change to repainted figures (micro-batch, ${scheme}): median ${f1(upd.median)} ms, p90 ${f1(upd.p90)} ms; main-thread CPU median ${f1(cpu.median)} ms, p90 ${f1(cpu.p90)} ms over ${upd.runs} changes  [aim ${BUDGET.update_ms} ms, ${BUDGET.update_cpu_ms} ms CPU] ${ok ? 'ok' : 'over the aim (not a CI failure)'}`
    : `input change to repainted figures (${scheme}): the summary never changed (page broken?)`);
}
console.log(`plan() in wasm (node), full request ${fullName}: median ${result.wasm_plan_ms.full.toFixed(3)} ms  [budget ${BUDGET.plan_ms} ms] ${verdict(planOk)}`);
for (const [name, ms] of Object.entries(planTimes)) console.log(`  ${name.padEnd(28)} ${ms.toFixed(3)} ms`);
if (!pageOk || !planOk) process.exit(1);
