#!/usr/bin/env node
// Page budgets (issue #6, #7, #16): the page's weight gzipped, the time to the
// first figure in headless Chromium from file://, the time from an input
// change to the updated plan on screen, and plan() in wasm.
//   node tools/bench_page.mjs [--runs N] [--html PATH]
//   node tools/bench_page.mjs --weight-only [--html PATH] [--max-kib N]
// Exits 1 when a hard budget is broken: page > 175 KiB gzipped (issue #16:
// room for the planner's new fields), or a full plan() median > 5 ms in wasm.
// The first-figure time (aim 200 ms) and the input-to-plan time (aim 100 ms,
// median) are machine-dependent benchmarks, reported without failing the run.
// Results also go to test-results/bench-page.json.
// --weight-only measures the page's weight alone (no browser, no timing, so a
// loaded CI runner cannot flake it): what ./dev.sh test runs. It fails over
// --max-kib (default: the 175 KiB budget of issue #16, which ./dev.sh test
// holds too). --html weighs another build of the page (default dist/index.html).
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUDGET = { page_kib: 175, page_aim_kib: 100, first_figure_ms: 200, update_ms: 100, plan_ms: 5 };
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

// 3. Time to first figure: navigation start to the memory figure on screen
//    (performance mark 'gpuplan:first-figure', set by the page), headless
//    Chromium, file://, network refused, a fresh context each run. Two pages,
//    loaded in turn: a fresh one, whose first figure is the answer its build
//    asked of the planner (web/src/first_answer.ts), and one opened on another
//    form by a link (as a remembered form opens), whose first figure waits
//    for the planner's first call. The mark says which answered.
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: process.env.GPUPLAN_CHROMIUM || '/usr/bin/chromium', headless: true, chromiumSandbox: false, args: ['--disable-gpu'] });
const url = pathToFileURL(HTML).href;
const firstLoads = {
  fresh: { url, answer: 'build', ms: [] },
  other_form: { url: `${url}#s=${Buffer.from(JSON.stringify({ micro_batch: 8 })).toString('base64url')}`, answer: 'planner', ms: [] },
};
for (let i = 0; i < RUNS + 1; i++) {
  for (const load of Object.values(firstLoads)) {
    const context = await browser.newContext({ locale: 'zh-CN' });
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
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

// 4. Input to updated plan: a student changes the micro-batch (a `change`
//    event, as when leaving the field); the page re-plans and re-renders in
//    the handler, so the time to the next frame after the event is what the
//    student waits. Two values alternate so every change is a new plan.
const updates = [];
{
  const context = await browser.newContext({ locale: 'zh-CN' });
  await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#budget-total');
  for (let i = 0; i < RUNS + 3; i++) {
    const ms = await page.evaluate(async (value) => {
      const el = document.querySelector('[data-path="workload.micro_batch"]');
      const before = document.getElementById('summary-text')?.textContent;
      const t0 = performance.now();
      el.value = String(value);
      el.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => r()));
      const changed = document.getElementById('summary-text')?.textContent !== before;
      return changed ? performance.now() - t0 : -1;
    }, i % 2 ? 4 : 2);
    if (i >= 3 && ms >= 0) updates.push(ms); // three warm-up changes
  }
  await context.close();
}
await browser.close();

const result = {
  measured_at: new Date().toISOString(),
  page: { ...weight, gzip_kib: kib(weight.gzip_bytes) },
  first_figure_ms: { median: median(firstFigure), p90: pct(firstFigure, 0.9), runs: firstFigure.length },
  first_figure_other_form_ms: { median: median(firstLoads.other_form.ms), p90: pct(firstLoads.other_form.ms, 0.9), runs: firstLoads.other_form.ms.length },
  input_to_plan_ms: { median: updates.length ? median(updates) : null, p90: updates.length ? pct(updates, 0.9) : null, runs: updates.length },
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
const upd = result.input_to_plan_ms;
console.log(upd.runs
  ? `input change to updated plan (micro-batch, headless Chromium): median ${f1(upd.median)} ms, p90 ${f1(upd.p90)} ms over ${upd.runs} changes  [aim ${BUDGET.update_ms} ms] ${upd.median <= BUDGET.update_ms ? 'ok' : 'over the aim (not a CI failure)'}`
  : 'input change to updated plan: the summary never changed (page broken?)');
console.log(`plan() in wasm (node), full request ${fullName}: median ${result.wasm_plan_ms.full.toFixed(3)} ms  [budget ${BUDGET.plan_ms} ms] ${verdict(planOk)}`);
for (const [name, ms] of Object.entries(planTimes)) console.log(`  ${name.padEnd(28)} ${ms.toFixed(3)} ms`);
if (!pageOk || !planOk) process.exit(1);
