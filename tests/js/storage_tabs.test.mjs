// One store, many tabs (web/src/storage_state.ts, storage.ts): every change
// re-reads the key and applies itself to what is there now, so two tabs that
// each hold a stale list never erase each other's projects; a newer page's
// key is never rewritten; over-cap lists stay whole; imports do not add the
// same project twice; a Storage stand-in that answers objects cannot hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStorage } from './memory_storage.mjs';
import { pageModules } from './page_modules.mjs';

const { storage, storage_state: saved, state, prices } = await pageModules(['storage', 'storage_state', 'state', 'prices']);
const { Store } = storage;
const { changeProjects, readProjects, loadProjects, mergeProjects, saveLast, saveProjects, PROJECTS_KEY, LAST_KEY, MAX_PROJECTS } = saved;

const project = (id, name, over = {}) => ({ id, name, saved_at: '2026-12-01T10:00:00.000Z', state: { ...state.defaultState(), ...over } });
const stored = (mem) => JSON.parse(mem.getItem(PROJECTS_KEY)).projects.map((p) => p.name);

test('two tabs with stale lists: each change applies to the stored list, none erases the other tab\'s project', () => {
  const mem = new MemoryStorage();
  const a = new Store(mem);
  const b = new Store(mem);
  // Both tabs loaded an empty list; A saves, then B saves from its stale view.
  const ra = changeProjects(a, [], (now) => [...now, project('pa', 'Thesis A')]);
  const rb = changeProjects(b, [], (now) => [...now, project('pb', 'Paper B')]);
  assert.deepEqual([ra.status, rb.status], ['ok', 'ok']);
  assert.deepEqual(stored(mem), ['Thesis A', 'Paper B']);
  assert.deepEqual(rb.projects.map((p) => p.id), ['pa', 'pb'], 'the writer sees the other tab\'s project');
  // A renames from its list of one: B's project stays.
  changeProjects(a, ra.projects, (now) => now.map((p) => (p.id === 'pa' ? { ...p, name: 'Thesis A renamed' } : p)));
  assert.deepEqual(stored(mem), ['Thesis A renamed', 'Paper B']);
});

test('a newer page\'s projects are never rewritten; the change is kept for the session only', () => {
  const mem = new MemoryStorage();
  const newer = JSON.stringify({ schema: 2, app: 'gpuplan', projects: [{ id: 'x', name: 'From the future', shape: 'new' }] });
  mem.setItem(PROJECTS_KEY, newer);
  const store = new Store(mem);
  const r = changeProjects(store, [], (now) => [...now, project('p1', 'Mine')]);
  assert.equal(r.status, 'newer');
  assert.equal(r.version, 2);
  assert.deepEqual(r.projects.map((p) => p.name), ['Mine']);
  assert.equal(mem.getItem(PROJECTS_KEY), newer, 'the newer value is untouched');
  assert.equal(saveProjects(store, [project('p1', 'Mine')]), false);
  assert.equal(store.failure, 'newer');
  assert.equal(mem.getItem(PROJECTS_KEY), newer);
  // The same for the last inputs.
  const last = JSON.stringify({ schema: 5, state: {} });
  mem.setItem(LAST_KEY, last);
  assert.equal(saveLast(store, state.defaultState()), false);
  assert.equal(mem.getItem(LAST_KEY), last);
  // And an import of a newer file says so.
  assert.equal(prices.newerFileVersion('{"schema": 4, "quotes": [], "projects": []}'), 4);
  assert.equal(prices.newerFileVersion('{"schema": 3, "quotes": []}'), null);
});

test('entries this page cannot read stay in the key through a change', () => {
  const mem = new MemoryStorage();
  mem.setItem(PROJECTS_KEY, JSON.stringify({ schema: 1, projects: [project('p1', 'One'), { name: '' }] }));
  changeProjects(new Store(mem), [], (now) => [...now, project('p2', 'Two')]);
  const doc = JSON.parse(mem.getItem(PROJECTS_KEY));
  assert.equal(doc.projects.length, 3);
  assert.deepEqual(doc.projects[2], { name: '' });
  assert.deepEqual(readProjects(new Store(mem)).projects.map((p) => p.name), ['One', 'Two']);
});

test('a list over the cap is a limit, not damage: every project is kept on load and in the key', () => {
  const mem = new MemoryStorage();
  const list = Array.from({ length: MAX_PROJECTS + 10 }, (_, i) => project(`q${i}`, `N${i}`));
  const raw = JSON.stringify({ schema: 1, app: 'gpuplan', projects: list });
  mem.setItem(PROJECTS_KEY, raw);
  const r = loadProjects(new Store(mem));
  assert.equal(r.projects.length, MAX_PROJECTS + 10);
  assert.equal(r.skipped, 0);
  assert.equal(r.over, 10);
  assert.equal(mem.getItem(PROJECTS_KEY), raw);
});

test('imports deduplicate by id and by content: a file re-imported adds nothing, "Twice 2" never "Twice 3"', () => {
  const twice = [project('tw', 'Twice'), project('tw', 'Twice', { budget: 1234 })];
  const first = mergeProjects([], { projects: twice });
  assert.deepEqual(first.projects.map((p) => p.name), ['Twice', 'Twice 2']);
  const again = mergeProjects(first.projects, { projects: twice });
  assert.equal(again.added, 0);
  assert.deepEqual(again.projects.map((p) => p.name), ['Twice', 'Twice 2']);
  // Past the cap the rest are returned, not dropped.
  const lots = Array.from({ length: MAX_PROJECTS + 7 }, (_, i) => project(`l${i}`, `L${i}`, { budget: i + 1 }));
  const capped = mergeProjects([], { projects: lots });
  assert.equal(capped.projects.length, MAX_PROJECTS);
  assert.equal(capped.skipped, 0, 'over the cap is not "invalid"');
  assert.deepEqual(capped.left.map((p) => p.name), lots.slice(MAX_PROJECTS).map((p) => p.name));
});

test('a Storage whose getItem answers an object for every key: backup() ends', () => {
  const odd = {
    length: 0, key: () => null, getItem: () => ({}), setItem() {}, removeItem() {},
  };
  const store = new Store(odd);
  // A loop would hang here: the test runner's timeout is the judge, not a clock.
  assert.equal(typeof store.backup('gpuplan.last', 'damaged'), 'string');
  const always = { length: 0, key: () => null, getItem: () => 'taken', setItem() {}, removeItem() {} };
  assert.equal(new Store(always).backup('k', 'v'), null, 'every name taken: no backup, no hang');
});

test('a tab\'s quote change is applied to the stored list quote by quote: a stale tab keeps what another tab saved', () => {
  const q = (gpu, per_gpu_hour, billing = 'on-demand') => ({ platform: 'autodl', gpu, billing, per_gpu_hour, currency: 'CNY', note: '' });
  // Tab B read [4090 @ 2.0]; tab A has since saved a 3090 quote and changed the 4090 to 1.9.
  const seenByB = [q('rtx-4090', 2.0)];
  const stored = [q('rtx-4090', 1.9), q('rtx-3090', 1.3)];
  // B adds an A100 quote: A's two quotes stay as A saved them.
  const added = prices.applyQuoteChange(stored, seenByB, [...seenByB, q('a100-pcie-40g', 2.8)]);
  assert.deepEqual(added.map((x) => `${x.gpu}@${x.per_gpu_hour}`).sort(), ['a100-pcie-40g@2.8', 'rtx-3090@1.3', 'rtx-4090@1.9']);
  // B changes its 4090 quote: the last writer of that quote wins, the 3090 stays.
  const changed = prices.applyQuoteChange(stored, seenByB, [q('rtx-4090', 1.7)]);
  assert.deepEqual(changed.map((x) => `${x.gpu}@${x.per_gpu_hour}`).sort(), ['rtx-3090@1.3', 'rtx-4090@1.7']);
  // B deletes its 4090 quote: only that one leaves.
  assert.deepEqual(prices.applyQuoteChange(stored, seenByB, []).map((x) => x.gpu), ['rtx-3090']);
  // Writing the whole stale list back, as the old page did, would have lost the 3090.
  assert.ok(prices.applyQuoteChange(stored, seenByB, seenByB).some((x) => x.gpu === 'rtx-3090'));
});
