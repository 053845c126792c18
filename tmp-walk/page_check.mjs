// walk5: open the built page with a share-link state, read what it shows and
// its JSON export, and compare the export's response with the native CLI.
// Usage: node tmp-walk/page_check.mjs PAGE.html CLI   (playwright-core from PW)
import { writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
const [page_html, cli] = process.argv.slice(2);
const { chromium } = await import(process.env.PW || 'playwright-core');
const cases = {
  qwen7b_lora_zh: { lang: 'zh-CN', preset: 'qwen2.5-7b', method: 'lora', micro_batch: 4, seq_len: 2048, grad_checkpointing: false, samples: 50000, epochs: 3, budget: 2000 },
  vit_base_en: { lang: 'en', preset: 'vit-base', method: 'full', micro_batch: 128, image_size: 224, seq_len: 0, grad_checkpointing: false, samples: 1281167, epochs: 30 },
  llama8b_full_zh: { lang: 'zh-CN', preset: 'llama-3.1-8b', method: 'full', micro_batch: 4, seq_len: 2048, grad_checkpointing: false, samples: 20000, epochs: 3 },
  bert_large_en: { lang: 'en', preset: 'bert-large', method: 'full', micro_batch: 32, seq_len: 512, grad_checkpointing: false, samples: 400000, epochs: 3 },
};
const b64 = (s) => Buffer.from(s, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, chromiumSandbox: false, args: ['--disable-gpu'] });
for (const [name, st] of Object.entries(cases)) {
  const ctx = await browser.newContext({ locale: st.lang, acceptDownloads: true });
  await ctx.route('**/*', (r) => (r.request().url().startsWith('file:') ? r.continue() : r.abort()));
  const page = await ctx.newPage();
  await page.goto(pathToFileURL(page_html).href + '#s=' + b64(JSON.stringify(st)));
  await page.waitForSelector('#budget-total', { timeout: 30000 });
  await page.waitForTimeout(1500);
  const shown = { total: (await page.textContent('#budget-total'))?.trim(), summary: (await page.textContent('#summary-text'))?.trim(),
                  memory: (await page.textContent('#memory-total'))?.trim(), budget_rows: (await page.textContent('#budget table.budget tbody'))?.replace(/\s+/g, ' ').trim() };
  const label = st.lang === 'en' ? 'Export JSON' : '导出 JSON';
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`text=${label}`)]);
  const file = `/tmp/walk5-page/${name}.json`;
  await dl.saveAs(file);
  const json = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8'));
  writeFileSync(`/tmp/walk5-page/${name}.request.json`, JSON.stringify(json.request));
  const r = JSON.parse(spawnSync(cli, ['plan', `/tmp/walk5-page/${name}.request.json`], { encoding: 'utf8' }).stdout);
  const pick = (x) => x.plan && { total: x.plan.total_cost, stages: x.plan.stages.map((s) => [s.stage, s.gpu, s.count, s.platform, s.hours, s.cost, s.workload_changes]) };
  console.log('==', name, JSON.stringify(shown));
  console.log('   request', JSON.stringify(json.request.workload), JSON.stringify(json.request.stages));
  console.log('   page  ', JSON.stringify(pick(json.response)));
  console.log('   cli   ', JSON.stringify(pick(r)));
  await ctx.close();
}
await browser.close();
