// The lab's settings text (web/src/lab_settings.ts) without a browser: a model
// pasted as a config.json travels in the link under the core's limits (the
// custom model's own parser and checks, hfconfig.ts), a version-1 text (the
// docs' example) still reads, and the lab's budget and scope stand only where
// the student has set nothing of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pageModules, root } from './page_modules.mjs';

const mods = await pageModules(['lab_settings', 'hfconfig', 'state', 'request']);
const { decodeLab, emptyLab, encodeLab, labDefaults, readLab, withLab, MAX_LAB_CONFIGS, LAB_VERSION } = mods.lab_settings;
const { parseHfConfig } = mods.hfconfig;
const { defaultState } = mods.state;
const { effectiveScope, toRequest } = mods.request;

const cat = (f, k) => JSON.parse(readFileSync(path.join(root, 'catalog', `${f}.json`), 'utf8'))[k].map((x) => x.id);
const known = { gpus: new Set(cat('gpus', 'gpus')), platforms: new Set(cat('platforms', 'platforms')), models: new Set(cat('models', 'models')) };

// Qwen2.5-7B's config.json, as Hugging Face serves it (the fields the parser reads).
const QWEN = {
  architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', hidden_size: 3584, intermediate_size: 18944, num_hidden_layers: 28,
  num_attention_heads: 28, num_key_value_heads: 4, vocab_size: 152064, hidden_act: 'silu', tie_word_embeddings: false, max_position_embeddings: 32768,
};
const pasted = () => {
  const r = parseHfConfig(JSON.stringify(QWEN));
  assert.equal(r.ok, true);
  return { name: 'Qwen2.5-7B (组里的 / ours)', dims: r.dims };
};
const lab = (over = {}) => ({ ...emptyLab('2026-12-04'), name: 'NLP', ...over });

test('a pasted config.json travels in the link whole and reads back as the same model', () => {
  const s = lab({ configs: [pasted()] });
  const back = decodeLab(encodeLab(s), known);
  assert.deepEqual(back, { ok: s });
  assert.equal(back.ok.v, LAB_VERSION);
});

test('a pasted model outside the core\'s limits, of the wrong shape or one too many is refused whole', () => {
  const { dims } = pasted();
  const bad = [
    { ...dims, layers: 1001 }, // model.layers max 1000 (core/include/gpuplan/limits.h)
    { ...dims, hidden: 3584.5 }, // model.hidden is a whole number
    { ...dims, params: '7e9' }, // a number as text
    { ...dims, experts_per_token: 2 }, // more experts per token than experts
    { ...dims, kind: 'cnn' }, // not a kind the paste gives
    { ...dims, head_dim: 5000 },
    { ...dims, shiny: 1 },
  ];
  for (const d of bad) assert.deepEqual(readLab(lab({ configs: [{ name: 'x', dims: d }] }), known), { damaged: 'configs[0]' }, JSON.stringify(d));
  assert.deepEqual(readLab(lab({ configs: [{ name: '', dims }] }), known), { damaged: 'configs[0]' });
  const many = Array.from({ length: MAX_LAB_CONFIGS + 1 }, () => pasted());
  assert.deepEqual(readLab(lab({ configs: many }), known), { damaged: 'configs' });
  assert.ok('ok' in readLab(lab({ configs: many.slice(1) }), known));
});

test('the docs\' example embed (a version-1 settings text) reads, with no pasted models; a later version is named newer', () => {
  const doc = readFileSync(path.join(root, 'docs/scenarios.md'), 'utf8');
  const hash = doc.match(/#lab=[A-Za-z0-9_-]+/)[0];
  const r = decodeLab(hash, known);
  assert.ok('ok' in r, JSON.stringify(r));
  assert.equal(r.ok.v, 1);
  assert.deepEqual(r.ok.configs, []);
  assert.equal(r.ok.gpus[0].gpu, 'rtx-2080ti');
  assert.deepEqual(readLab({ ...lab(), v: LAB_VERSION + 1, shiny: true }, known), { newer: LAB_VERSION + 1 });
});

test('the lab\'s budget and scope stand where the student has set none; the student\'s own win', () => {
  const s = lab({ budget: { amount: 5000, currency: 'USD' }, scope: 'global', configs: [pasted()] });
  const mine = { off: false, time_value_per_hour: null };
  const fresh = defaultState();
  const req = (state, m = mine) => withLab(toRequest(state, 'zh-CN', []), s, m, state);
  // A fresh form: the lab's.
  assert.deepEqual(labDefaults({ lab: s, labMine: mine, state: fresh }), { budget: { amount: 5000, currency: 'USD' }, scope: 'global' });
  assert.deepEqual(req(fresh).budget, { amount: 5000, currency: 'USD' });
  assert.equal(req(fresh).prefs?.scope, undefined, 'the core applies lab.scope where prefs names none');
  assert.equal(req(fresh).lab.scope, 'global');
  assert.equal(effectiveScope(fresh, 'zh-CN', labDefaults({ lab: s, labMine: mine, state: fresh }).scope), 'global');
  // The request's lab is format 1 and carries no pasted model (the student's choice of one is `model`).
  assert.equal(req(fresh).lab.version, 1);
  assert.equal(req(fresh).lab.configs, undefined);
  // The student's own budget (any other amount, or the default amount set with the lab's showing) and scope win.
  const own = { ...fresh, budget: 800 };
  assert.deepEqual(req(own).budget, { amount: 800, currency: 'CNY' });
  assert.deepEqual(req(fresh, { ...mine, budget: true }).budget, { amount: 3000, currency: 'CNY' });
  const cn = { ...fresh, scope: 'cn' };
  assert.equal(labDefaults({ lab: s, labMine: mine, state: cn }).scope, '');
  assert.equal(req(cn).prefs.scope, 'cn');
  // Planning without the settings: none of them.
  assert.deepEqual(labDefaults({ lab: s, labMine: { ...mine, off: true }, state: fresh }), { budget: null, scope: '' });
  assert.deepEqual(req(fresh, { ...mine, off: true }).budget, { amount: 3000, currency: 'CNY' });
});
