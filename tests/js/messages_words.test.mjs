// Every sentence the planner writes is in the student's words, in both
// languages: no request field names ("prefs.billing", "stages[1].runs"), no
// ids of the catalog's or the API's spellings ("monthly 套餐", "formal 阶段",
// "none across the 8 GPUs"), no doubled words ("Formal experiments
// experiments"). Asked of every request the test suites hold
// (tests/data/requests, tests/data/labmate, catalog/scenarios.json), each
// also over budget, on a package billing, and on eight cards against a
// deadline, in zh-CN and en, through the CLI (build/native/bin/gpuplan).
// Errors name the field in the student's words too, never by its request
// path (`stages[1].runs`, `prefs.billing`: the path is the error's own `path`
// field, which the page uses to mark the input), asked also of a request that
// breaks each limit, gives each field the wrong type, and misspells a field
// of each object; only an unknown field's message says the name as written
// and the known name it is closest to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from './page_modules.mjs';

// GPUPLAN_CLI: another build's binary (to see this test fail on the code before).
const cli = process.env.GPUPLAN_CLI ?? path.join(root, 'build/native/bin/gpuplan');

function requests() {
  const out = [];
  const dir = path.join(root, 'tests/data/requests');
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    try { out.push([f, JSON.parse(readFileSync(path.join(dir, f), 'utf8'))]); } catch { /* a deliberately broken request */ }
  }
  const lab = path.join(root, 'tests/data/labmate');
  for (const f of readdirSync(lab).filter((x) => x.endsWith('.json') && !x.startsWith('_'))) {
    const d = JSON.parse(readFileSync(path.join(lab, f), 'utf8'));
    out.push([d.id, d.request]);
  }
  const stages = [{ stage: 'debug', runs: 4, data_fraction: 0.1 }, { stage: 'formal', runs: 12 }, { stage: 'revision', runs: 3 }];
  for (const sc of JSON.parse(readFileSync(path.join(root, 'catalog/scenarios.json'), 'utf8')).scenarios) out.push([sc.id, { stages, ...sc.request }]);
  return [...out, ...broken()];
}

// Requests the core refuses, one field at a time: past each limit of
// web/src/limits.ts, of the wrong type, and a misspelt field in each object.
function broken() {
  const base = () => ({ model: { preset: 'llama-3.1-8b' }, data: { samples: 1000, epochs: 1 }, stages: [{ stage: 'debug', runs: 2 }, { stage: 'formal', runs: 3 }] });
  const put = (r, p, v) => {
    const keys = p.replace('stages[]', 'stages.1').split('.');
    let o = r;
    for (const k of keys.slice(0, -1)) o = o[k] ??= {};
    o[keys.at(-1)] = v;
    return r;
  };
  const limits = readFileSync(path.join(root, 'web/src/limits.ts'), 'utf8');
  const out = [];
  for (const [, p, max] of limits.matchAll(/'([a-z_.[\]]+)': \{ min: [-\d.e]+, max: ([-\d.e]+)/g)) {
    out.push([`${p} over`, put(base(), p, Number(max) * 10 + 1)]);
    out.push([`${p} text`, put(base(), p, 'x')]);
  }
  for (const p of ['workload.micro_bach', 'prefs.biling', 'model.layrs', 'data.sample', 'budget.amout', 'stages[].rnus', 'prices']) {
    out.push([`${p} unknown`, p === 'prices' ? { ...base(), prices: [{ platform: 'autodl', gpu: 'rtx-4090', per_gpu_hour: 2, currency: 'CNY', cost: 1 }] } : put(base(), p, 1)]);
  }
  out.push(['stage wrong type', { ...base(), stages: [{ stage: 'formal', runs: 2 }, 3] }]);
  out.push(['platform unknown', { ...base(), prefs: { platforms: ['autodl', 'nowhere'] } }]);
  out.push(['quote gpu unknown', { ...base(), prices: [{ platform: 'autodl', gpu: 'rtx-9999', per_gpu_hour: 2, currency: 'CNY' }] }]);
  out.push(['quote date', { ...base(), prices: [{ platform: 'autodl', gpu: 'rtx-4090', per_gpu_hour: 2, currency: 'CNY', as_of: 'soon' }] }]);
  out.push(['mean longer than seq', { ...base(), workload: { seq_len: 512 }, data: { samples: 10, epochs: 1, mean_seq_len: 1024 } }]);
  out.push(['count and gpus', { ...base(), hardware: { gpu: 'rtx-4090', count: 2 }, workload: { gpus: 4 } }]);
  out.push(['custom no dims', { model: { params: 1e9 } }]);
  out.push(['heads', { model: { params: 1e8, layers: 4, hidden: 100, heads: 3, vocab: 1000 } }]);
  out.push(['baseline no rate', { ...base(), baseline: { gpu: 'rtx-4090' } }]);
  out.push(['baseline bytes', { ...base(), baseline: { gpu: 'rtx-4090', tokens_per_s: 1000, memory_bytes: 1e15 } }]);
  out.push(['objective infer', { ...base(), workload: { mode: 'infer', objective: 'dpo' } }]);
  out.push(['rl with sft', { ...base(), workload: { rl: { group_size: 4 } } }]);
  out.push(['precision for mode', { ...base(), workload: { mode: 'infer', precision: 'mixed-bf16' } }]);
  out.push(['science no baseline', { workload: { mode: 'science' }, science: { kind: 'md' } }]);
  out.push(['lab gpu', { ...base(), lab: { gpus: [{ gpu: 'rtx-9999', count: 1 }] } }]);
  return out;
}

function* variants(r) {
  yield r;
  if (!r || typeof r !== 'object' || !r.model) return;
  const copy = () => ({ stages: [{ stage: 'formal', runs: 12 }], data: { samples: 20000, epochs: 3 }, ...structuredClone(r) });
  const over = copy(); over.budget = { amount: 1, currency: 'CNY' }; yield over;
  const pkg = copy(); pkg.prefs = { ...pkg.prefs, billing: 'monthly' }; yield pkg;
  const daily = copy(); daily.prefs = { ...daily.prefs, billing: 'daily' }; yield daily;
  const eight = copy(); eight.workload = { ...eight.workload, sharding: 'none' }; eight.prefs = { ...eight.prefs, deadline_days: 0.01 }; yield eight;
}

// Every sentence of a reply, with where it is.
function* sentences(o, at = '') {
  if (Array.isArray(o)) for (const [i, x] of o.entries()) yield* sentences(x, `${at}[${i}]`);
  else if (o && typeof o === 'object') {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'string' && ['message', 'why', 'category_advice'].includes(k)) yield [`${at}.${k}`, v];
      else yield* sentences(v, `${at}.${k}`);
    }
  }
}

// Names a student types into their own code (PyTorch, transformers, vLLM, DeepSpeed): said as they are.
const CODE_NAMES = new Set(['device_map', 'num_workers', 'pin_memory', 'max_num_seqs', 'tensor_parallel_size', 'gradient_checkpointing',
  'torch_compile', 'channels_last', 'load_in_4bit', 'per_device_train_batch_size', 'gradient_accumulation_steps']);
const FIELD = /\b(?:workload|prefs|model|data|hardware|baseline|budget|science|lab)\.[a-z_]+|\b(?:stages|prices|gpus)\[\d*\]/g;
const SNAKE = /\b[a-z]+(?:_[a-z0-9]+)+\b/g;
const DOUBLED = /\b(\w{3,}) \1\b/gi;
const ZH_IDS = /\b(?:debug|formal|revision|monthly|weekly|daily|yearly|on-demand|off-peak|none|ddp|zero[123])\b/g;
const EN_IDS = /\b(?:none across|on-demand billing|off-peak billing)\b/g;

test('the planner\'s sentences name no request field or id, in zh-CN and en', { timeout: 600_000 }, () => {
  assert.ok(existsSync(cli), `${cli} is missing: build the native preset first`);
  const found = new Map();
  let asked = 0;
  let errors = 0;
  for (const [name, r] of requests()) {
    for (const v of variants(r)) {
      for (const locale of ['zh-CN', 'en']) {
        const run = spawnSync(cli, ['plan', '-'], { input: JSON.stringify({ ...v, locale }), encoding: 'utf8' });
        asked += 1;
        let reply;
        try { reply = JSON.parse(run.stdout); } catch { continue; }
        if (reply.error) errors += 1;
        for (const [where, text] of sentences(reply)) {
          const body = reply.error?.code === 'unknown_field' ? text.replace(SNAKE, '') : text;
          const hits = [...body.matchAll(FIELD), ...body.matchAll(SNAKE), ...body.matchAll(DOUBLED),
            ...(locale === 'zh-CN' ? body.matchAll(ZH_IDS) : body.matchAll(EN_IDS))].map((m) => m[0]).filter((x) => !CODE_NAMES.has(x));
          for (const h of hits) if (!found.has(`${locale} ${h}`)) found.set(`${locale} ${h}`, `${name} ${where}: ${text}`);
        }
      }
    }
  }
  assert.ok(asked > 400, `asked ${asked}`);
  assert.ok(errors > 150, `errors ${errors}`);
  assert.deepEqual([...found.entries()].map(([k, v]) => `${k} — ${v}`), []);
});
