// The request is the student's (contract v1.2): every field the page sends
// for the default form and for each scenario (catalog/scenarios.json) is
// listed here, and none is a choice the student did not make. The planner's
// own choices (card count, sharding, the card, scope, billing, platforms)
// stay out unless the student set them, and the page's language changes
// `locale` and nothing else.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pageModules, root } from './page_modules.mjs';

let m;
before(async () => { m = await pageModules(['state', 'request', 'scenario', 'apply']); });

const catalog = JSON.parse(readFileSync(path.join(root, 'catalog/scenarios.json'), 'utf8'));
const models = JSON.parse(readFileSync(path.join(root, 'catalog/models.json'), 'utf8'));
const modelList = Array.isArray(models) ? models : models.models;

// Every leaf path of a request ("workload.micro_batch", "stages[].runs").
function paths(v, prefix = '') {
  if (Array.isArray(v)) return [...new Set(v.flatMap((x) => paths(x, `${prefix}[]`)))];
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => paths(x, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

// The fields the form fills from what the student sees and edits in it (its
// starting values are the form's, shown as the student's inputs): the
// experiment, the data, the stages, the budget and the deadline.
const FORM = ['locale', 'model.preset', 'workload.mode', 'workload.precision', 'workload.micro_batch', 'workload.flash_attention',
  'workload.seq_len', 'workload.image_size', 'workload.method', 'workload.optimizer', 'workload.grad_checkpointing', 'workload.cpu_offload',
  'workload.lora.rank', 'workload.lora.targets', 'workload.kv_cache_bits', 'data.samples', 'data.epochs',
  'stages[].stage', 'stages[].runs', 'stages[].data_fraction', 'budget.amount', 'budget.currency', 'prefs.deadline_days'];
// The planner's choices: never sent unless the student made them.
const PLANNERS = ['workload.gpus', 'workload.sharding', 'hardware.gpu', 'hardware.count', 'prefs.scope', 'prefs.billing', 'prefs.platforms[]', 'prices[].platform'];

const presetOf = (s) => modelList.find((x) => x.id === s.preset);

test('request: the default form sends the form\'s fields and none of the planner\'s choices, in both languages', () => {
  const d = m.state.defaultState();
  const zh = m.request.toRequest(d, 'zh-CN', [], presetOf(d));
  const en = m.request.toRequest(d, 'en', [], presetOf(d));
  assert.deepEqual(paths(zh).sort(), [
    'budget.amount', 'budget.currency', 'data.epochs', 'data.samples', 'locale', 'model.preset', 'prefs.deadline_days',
    'stages[].data_fraction', 'stages[].runs', 'stages[].stage', 'workload.cpu_offload', 'workload.flash_attention',
    'workload.grad_checkpointing', 'workload.lora.rank', 'workload.lora.targets', 'workload.method', 'workload.micro_batch',
    'workload.mode', 'workload.optimizer', 'workload.precision', 'workload.seq_len'].sort());
  for (const p of PLANNERS) assert.ok(!paths(zh).includes(p), p);
  // The language is the locale and nothing else.
  assert.deepEqual({ ...en, locale: 'zh-CN' }, zh);
});

test('request: each scenario sends what the scenario and the form say, never a planner\'s choice, in both languages', () => {
  assert.ok(catalog.scenarios.length >= 10);
  for (const sc of catalog.scenarios) {
    const s = m.scenario.scenarioState(m.state.defaultState(), sc);
    const zh = m.request.toRequest(s, 'zh-CN', [], presetOf(s));
    const en = m.request.toRequest(s, 'en', [], presetOf(s));
    assert.deepEqual({ ...en, locale: 'zh-CN' }, zh, sc.id);
    const own = new Set(paths(sc.request));
    for (const p of paths(zh)) {
      assert.ok(!PLANNERS.includes(p) || own.has(p), `${sc.id}: ${p} is the planner's choice`);
      assert.ok(own.has(p) || FORM.includes(p) || p.startsWith('science.') || p === 'workload.images_per_sample' ||
        p.startsWith('workload.rl.') || p === 'workload.objective' || p === 'workload.cached_text_embeddings', `${sc.id}: ${p} is neither the scenario's nor the form's`);
    }
    // What the scenario names is sent as it says.
    const w = sc.request.workload;
    for (const [k, v] of Object.entries(w)) if (typeof v !== 'object') assert.deepEqual(zh.workload[k], v, `${sc.id}: workload.${k}`);
  }
});

test('request: a card count or sharding the student sets is sent; emptied, it is the planner\'s again', () => {
  const d = m.state.defaultState();
  const set = m.request.toRequest({ ...d, gpus: 4, sharding: 'zero3', hardware: 'rtx-4090' }, 'zh-CN', []);
  assert.equal(set.workload.gpus, 4);
  assert.equal(set.workload.sharding, 'zero3');
  assert.deepEqual(set.hardware, { gpu: 'rtx-4090', count: 4 });
  const card = m.request.toRequest({ ...d, hardware: 'rtx-4090' }, 'zh-CN', []);
  assert.deepEqual(card.hardware, { gpu: 'rtx-4090' });
  assert.equal(card.workload.gpus, undefined);
  // Several cards with no sharding named: the page sends the count alone (the core's rule makes it DDP).
  const four = m.request.toRequest({ ...d, gpus: 4 }, 'zh-CN', []);
  assert.equal(four.workload.sharding, undefined);
});

// A link or saved form from the page before: gpus 1 and sharding none were
// its defaults, sent whether or not the student chose them.
test('state: an old form\'s default one card / no sharding becomes the planner\'s choice; a hand-set value is kept', () => {
  const old = m.state.sanitize({ gpus: 1, sharding: 'none', micro_batch: 2 });
  assert.equal(old.gpus, 0);
  assert.equal(old.sharding, '');
  assert.equal(old.micro_batch, 2);
  assert.equal(old.form, m.state.FORM_VERSION);
  const hand = m.state.sanitize({ gpus: 4, sharding: 'zero2' });
  assert.equal(hand.gpus, 4);
  assert.equal(hand.sharding, 'zero2');
  const mixed = m.state.sanitize({ gpus: 8, sharding: 'none' });
  assert.equal(mixed.gpus, 8);
  assert.equal(mixed.sharding, '');
  // A form of this version keeps even one card and no sharding: the student set them.
  const now = m.state.sanitize({ form: m.state.FORM_VERSION, gpus: 1, sharding: 'none' });
  assert.equal(now.gpus, 1);
  assert.equal(now.sharding, 'none');
  // Through the share link as well.
  const link = m.state.decodeHash(m.state.encodeHash({ ...m.state.defaultState(), gpus: 1, sharding: 'none' }));
  assert.equal(link.gpus, 1);
  assert.equal(link.sharding, 'none');
});

// A pasted config.json keeps head_dim (Qwen3-4B: 32 heads of 128 on hidden
// 2560): without it the planner takes hidden / heads = 80 and plans the
// wrong attention.
test('request: a pasted config\'s head_dim reaches the request when it is not hidden / heads', async () => {
  const { hfconfig } = await pageModules(['hfconfig']);
  const qwen = hfconfig.parseHfConfig(readFileSync(path.join(root, 'tests/data/hf-configs/qwen3-4b.json'), 'utf8'));
  assert.ok(qwen.ok);
  assert.equal(qwen.dims.head_dim, 128);
  const llama = hfconfig.parseHfConfig(readFileSync(path.join(root, 'tests/data/hf-configs/llama-3.1-8b.json'), 'utf8'));
  assert.equal(llama.dims.head_dim, 0, 'no head_dim in the config: hidden / heads, nothing sent');
  const d = m.state.defaultState();
  const { model_type: _t, ...dims } = qwen.dims;
  const s = m.state.sanitize({ ...d, form: m.state.FORM_VERSION, source: 'custom', custom: dims });
  assert.equal(s.custom.head_dim, 128);
  assert.equal(m.request.toRequest(s, 'zh-CN', []).model.head_dim, 128);
  assert.equal(m.request.toRequest({ ...s, custom: { ...s.custom, head_dim: 0 } }, 'zh-CN', []).model.head_dim, undefined);
});
