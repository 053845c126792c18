// The first figure's question and a fresh page's answers to it, asked at build
// time (web/src/first_answer.ts, vite.config.mts; issue #16). Run after
// ./dev.sh build (build/wasm).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageModules, plannerModules } from './page_modules.mjs';

const { nodeModule, webModule } = await plannerModules();
const catalog = JSON.parse(webModule.catalog());
const m = await pageModules(['first_answer', 'state', 'request']);

test('the first question asks for the memory alone, on the largest card', () => {
  const gpus = [{ id: 'small', memory_bytes: 24e9 }, { id: 'big', memory_bytes: 141e9 }, { id: 'mid', memory_bytes: 80e9 }];
  const request = { locale: 'en', model: { preset: 'x' }, workload: { mode: 'train' }, data: { samples: 10, epochs: 1 },
    hardware: { gpu: 'small', count: 4 }, stages: [{ stage: 'formal', runs: 2 }], budget: { amount: 1 }, prefs: { scope: 'global' }, prices: [{}] };
  assert.deepEqual(JSON.parse(m.first_answer.figureQuestion(request, gpus, 2)), {
    locale: 'en', model: { preset: 'x' }, workload: { mode: 'train' }, data: { samples: 10, epochs: 1 }, hardware: { gpu: 'big', count: 2 },
  });
});

test("a fresh page's answers: one per language, each the planner's own, cut to what the figure reads", () => {
  const answers = m.first_answer.firstAnswers(webModule, catalog);
  const questions = Object.keys(answers);
  assert.deepEqual(questions.map((q) => JSON.parse(q).locale).sort(), ['en', 'zh-CN']);
  for (const q of questions) {
    // The Node module (the speed-built core behind Embind) gives the same answer.
    const full = JSON.parse(nodeModule.plan(q));
    const cut = JSON.parse(answers[q]);
    assert.deepEqual(cut.memory, full.memory);
    assert.deepEqual(cut.warnings, full.warnings);
    assert.deepEqual(cut.gpus, full.gpus.map((g) => ({ count: g.count, fit: g.fit, fits: g.fits, id: g.id })));
    assert.deepEqual(Object.keys(cut), ['gpus', 'memory', 'warnings']);
    assert.ok(cut.memory.per_gpu.total_bytes > 0);
  }
});

test('an error answer is kept whole', () => {
  const error = '{"error":{"code":"unknown_field","message":"m","path":"x"}}';
  assert.equal(m.first_answer.figureAnswer(error), error);
});

test("the first figure's memory is the full plan's, as the page shows one then the other", () => {
  for (const lang of ['zh-CN', 'en']) {
    const s = m.state.defaultState();
    const full = m.request.toRequest(s, lang, [], catalog.models.find((x) => x.id === s.preset));
    const first = JSON.parse(webModule.plan(m.first_answer.figureQuestion(full, catalog.gpus, s.gpus)));
    const plan = JSON.parse(webModule.plan(JSON.stringify(full)));
    assert.deepEqual(first.memory, plan.memory);
  }
});
