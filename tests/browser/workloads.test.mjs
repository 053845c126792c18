// Issue #18 as a student walks it in both languages: the GRPO scenario (the
// objective and its rollout settings filled in, memory and hours from the
// core), then "the paper says: 8 x A100 for 3 days" turned into every card's
// hours. The page computes nothing itself; axe-core must stay clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { artifacts, axeViolations, launch, onlyLocal, open, setField, until } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const LANGS = [
  { locale: 'zh-CN', paper: /论文里写的：8 × A100 训练 3 天/ },
  { locale: 'en-US', paper: /The paper says: 8 × A100 for 3 days/ },
];
const gibOf = (text) => Number(String(text).replace(/[^\d.]/g, ''));
const hoursOf = (page, gpu) => page.textContent(`table.gpus tr[data-gpu="${gpu}"] td:nth-of-type(3)`);

for (const L of LANGS) {
  test(`GRPO plan and a paper's run in ${L.locale}`, async () => {
    const { page, requests, errors } = await open(browser, { locale: L.locale });
    await page.click('[data-key="scenario/grpo-7b"]');
    await until(page, async (p) => (await p.getAttribute('[data-key="scenario/grpo-7b"]', 'aria-pressed')) === 'true', 'GRPO pressed');
    assert.equal(await page.inputValue('[data-path="workload.objective"]'), 'grpo');
    assert.equal(await page.inputValue('[data-path="workload.rl.group_size"]'), '8');
    assert.equal(await page.inputValue('[data-path="workload.rl.completion_len"]'), '1024');
    assert.equal(await page.inputValue('[data-path="workload.rl.rollout"]'), 'vllm');
    const grpo = gibOf(await page.textContent('#memory-total'));
    assert.ok(grpo > 0, 'a memory figure for GRPO');
    const h = await until(page, async (p) => { const t = await hoursOf(p, 'h100-sxm'); return /\d/.test(t ?? '') && t; }, 'GRPO hours on an H100');
    // Longer completions: more KV cache and more generation time.
    await setField(page, '[data-path="workload.rl.completion_len"]', 2048);
    await until(page, async (p) => gibOf(await p.textContent('#memory-total')) > grpo, 'memory to grow with the completion length');
    await until(page, async (p) => (await hoursOf(p, 'h100-sxm')) !== h, 'hours to change with the completion length');
    // Back to SFT: the RL fields go away.
    await page.selectOption('[data-path="workload.objective"]', 'sft');
    await until(page, async (p) => (await p.$('[data-path="workload.rl.group_size"]')) === null, 'the RL fields to go');

    // The paper's run.
    assert.match(await page.textContent('.paper-run legend'), L.paper);
    const before = await hoursOf(page, 'h100-sxm');
    await page.check('#paper-on');
    await until(page, (p) => p.$('[data-path="baseline.wall_hours"]'), 'the paper-run fields');
    await page.selectOption('[data-path="baseline.gpu"]', 'a100-sxm4-80g');
    await setField(page, '[data-path="baseline.count"]', 8);
    await setField(page, '[data-path="baseline.wall_hours"]', 72);
    await until(page, async (p) => { const t = await hoursOf(p, 'h100-sxm'); return /\d/.test(t ?? '') && t !== before; }, 'hours priced from the paper');
    await page.screenshot({ path: path.join(artifacts, `workloads-${L.locale}.png`), fullPage: true });
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(onlyLocal(requests), []);
    assert.deepEqual(errors, []);
  });
}
