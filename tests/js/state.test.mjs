// The page's state logic (web/src/state.ts) without a browser: an edit to one
// stage keeps every other edit, whatever order they come in (issue #16,
// defect 1), and what a share link or storage holds is sanitized.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageModules } from './page_modules.mjs';

const { state: { applyPatch, defaultState, stageRuns, withStage, sanitize, encodeHash, decodeHash } } = await pageModules(['state']);

const runs = (s, name) => stageRuns(s.stages.find((x) => x.stage === name));

test('successive stage edits accumulate: 5 seeds then 4 ablations plan 40 runs', () => {
  let s = defaultState();
  // Each edit is the updater the stage fields send: applied to the state as it is then.
  const edit = (stage, patch) => { s = applyPatch(s, (now) => ({ stages: withStage(now, stage, patch) })); };
  edit('formal', { seeds: 5 });
  edit('formal', { ablations: 4 });
  assert.equal(runs(s, 'formal'), 5 * 2 * 4);
  // An edit to another stage keeps the formal edits.
  edit('revision', { seeds: 2 });
  assert.equal(runs(s, 'formal'), 40);
  assert.equal(runs(s, 'revision'), 2 * 1 * 1);
  // Toggling a stage off and on keeps its numbers.
  edit('formal', { on: false });
  edit('formal', { on: true });
  const formal = s.stages.find((x) => x.stage === 'formal');
  assert.deepEqual({ on: formal.on, seeds: formal.seeds, sweep: formal.sweep, ablations: formal.ablations }, { on: true, seeds: 5, sweep: 2, ablations: 4 });
});

test('an updater sees the current state, a plain patch does not need to', () => {
  const s0 = defaultState();
  const s1 = applyPatch(s0, { budget: 5000 });
  const s2 = applyPatch(s1, (now) => ({ budget: now.budget * 2 }));
  assert.equal(s2.budget, 10000);
  assert.equal(s0.budget, 3000, 'the old state is not mutated');
});

test('withStage keeps the stage name and leaves the other stages untouched', () => {
  const s = defaultState();
  const stages = withStage(s, 'debug', { seeds: 7, stage: 'formal' });
  assert.deepEqual(stages.map((x) => x.stage), ['debug', 'formal', 'revision']);
  assert.equal(stages[0].seeds, 7);
  assert.equal(stages[1], s.stages[1]);
  assert.equal(stages[2], s.stages[2]);
});

test('a share link round-trips; a broken one is reported, out-of-range values fall back', () => {
  let s = defaultState();
  s = applyPatch(s, (now) => ({ title: '毕业论文 7B', stages: withStage(now, 'formal', { seeds: 5, ablations: 4 }) }));
  const back = decodeHash(encodeHash(s));
  assert.deepEqual(back, s);
  assert.equal(decodeHash('#s=%%%'), 'invalid');
  assert.equal(decodeHash('#s=e30x'), 'invalid');
  assert.equal(decodeHash(''), null);
  const clean = sanitize({ budget: -1, gpus: 1e9, stages: [{ stage: 'formal', seeds: 1e9, sweep: 3 }], mode: 'nope' });
  assert.equal(clean.budget, 3000);
  assert.equal(clean.gpus, 0); // the default: the planner chooses
  assert.equal(clean.mode, 'train');
  assert.equal(clean.stages[1].seeds, 3);
  assert.equal(clean.stages[1].sweep, 3);
});
