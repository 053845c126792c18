// The page's storage layer (web/src/storage.ts, prices.ts, storage_state.ts)
// against an in-memory Storage that fails like a browser's: full, disabled,
// holding damaged or newer values. Nothing thrown, nothing silently lost,
// backups bounded (issue #20 items 1, 2, 6, 7; issue #19).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStorage } from './memory_storage.mjs';
import { pageModules } from './page_modules.mjs';

const { storage, prices, storage_state: saved, state } = await pageModules(['storage', 'prices', 'storage_state', 'state']);
const { Store, BACKUPS_PER_KEY, BACKUP_MAX_CHARS, loadVersioned, migrate } = storage;
const { loadQuotes, saveQuotes, parseImport, cleanQuotes, MAX_QUOTES, PRICES_KEY, capQuotes } = prices;
const { loadLast, saveLast, loadProjects, saveProjects, serializeFile, mergeProjects, LAST_KEY, PROJECTS_KEY, MAX_PROJECTS } = saved;

const known = { platforms: new Set(['autodl', 'campus']), gpus: new Set(['rtx-4090', 'a100-pcie-80g']) };
const quote = (over = {}) => ({ platform: 'autodl', gpu: 'rtx-4090', billing: 'on-demand', per_gpu_hour: 1.9, currency: 'CNY', note: '', ...over });
const backups = (mem, key) => [...mem.map.keys()].filter((k) => k.startsWith(`${key}.backup.`));

test('a write that does not fit, or storage that is off, returns false with the reason and never throws', () => {
  const mem = new MemoryStorage(100);
  const store = new Store(mem);
  assert.equal(store.write('a', 'x'.repeat(50)), true);
  assert.equal(store.write('b', 'x'.repeat(80)), false);
  assert.equal(store.failure, 'full');
  assert.equal(mem.getItem('b'), null);
  assert.equal(mem.getItem('a'), 'x'.repeat(50), 'what was saved before is untouched');
  mem.failGet = true;
  assert.equal(store.read('a'), undefined);
  assert.equal(store.failure, 'unavailable');
  const off = new Store(null);
  assert.equal(off.available, false);
  assert.equal(off.write('a', '1'), false);
  assert.equal(off.read('a'), undefined);
  assert.equal(off.failure, 'unavailable');
});

test('issue #20 item 1: a damaged value too large to back up stays in place, locked, and loading does not throw', () => {
  // localStorage.setItem('gpuplan.prices', 'x'.repeat(4 << 20)) in a 5 MiB store.
  const mem = new MemoryStorage(5 << 20);
  mem.setItem(PRICES_KEY, 'x'.repeat(4 << 20));
  const store = new Store(mem);
  const r = loadQuotes(store, known);
  assert.deepEqual(r.quotes, []);
  assert.equal(r.notices.length, 1);
  assert.equal(r.notices[0].kind, 'corrupt');
  assert.equal(r.notices[0].backupKey, null);
  assert.equal(mem.getItem(PRICES_KEY).length, 4 << 20, 'the original is not removed');
  assert.equal(saveQuotes(store, [quote()]), false, 'nor overwritten in this session');
  assert.equal(mem.getItem(PRICES_KEY).length, 4 << 20);
  // '{bad' with storage nearly full: the backup does not fit, nothing throws.
  const full = new MemoryStorage(60);
  full.setItem(PRICES_KEY, '{bad');
  full.setItem('other', 'y'.repeat(30));
  const r2 = loadQuotes(new Store(full), known);
  assert.equal(r2.notices[0].kind, 'corrupt');
  assert.equal(r2.notices[0].backupKey, null);
  assert.equal(full.getItem(PRICES_KEY), '{bad');
});

test('a damaged value that fits is backed up, removed, and the backup holds it byte for byte', () => {
  const mem = new MemoryStorage();
  mem.setItem(PRICES_KEY, '{"schema": 2, "quotes": [tru');
  const r = loadQuotes(new Store(mem), known);
  assert.equal(r.notices[0].kind, 'corrupt');
  assert.equal(mem.getItem(r.notices[0].backupKey), '{"schema": 2, "quotes": [tru');
  assert.equal(mem.getItem(PRICES_KEY), null);
});

test('issue #20 item 2: a newer value is backed up once however often the page loads, and backups stay bounded', () => {
  // The repro, {schema: 3, pad: 1 MiB}: over the backup cap, so it
  // stays in place, locked; six loads later nothing has grown.
  const mem = new MemoryStorage(5 << 20);
  const huge = JSON.stringify({ schema: 3, pad: 'p'.repeat(1 << 20) });
  mem.setItem(PRICES_KEY, huge);
  for (let i = 0; i < 6; i += 1) {
    const store = new Store(mem);
    const r = loadQuotes(store, known);
    assert.deepEqual([r.notices[0].kind, r.notices[0].version, r.notices[0].backupKey], ['newer', 3, null]);
    assert.equal(saveQuotes(store, [quote()]), false, 'a value that could not be copied is not overwritten');
  }
  assert.equal(backups(mem, PRICES_KEY).length, 0);
  assert.equal(mem.getItem(PRICES_KEY), huge);
  // A smaller newer value is copied once, however often the page loads.
  const newer = JSON.stringify({ schema: 3, pad: 'p'.repeat(1 << 18) });
  mem.setItem(PRICES_KEY, newer);
  for (let i = 0; i < 6; i += 1) assert.equal(loadQuotes(new Store(mem), known).notices[0].kind, 'newer');
  assert.equal(backups(mem, PRICES_KEY).length, 1);
  assert.equal(mem.getItem(backups(mem, PRICES_KEY)[0]), newer);
  assert.equal(mem.getItem(PRICES_KEY), newer, 'left in place for the version that wrote it');
  // Distinct damaged values: at most BACKUPS_PER_KEY are kept, the oldest dropped.
  const store = new Store(mem);
  for (let i = 0; i < BACKUPS_PER_KEY + 3; i += 1) store.backup('k', `value ${i}`, new Date(Date.UTC(2026, 0, 1, 0, i)));
  const kept = backups(mem, 'k');
  assert.equal(kept.length, BACKUPS_PER_KEY);
  assert.deepEqual(kept.map((k) => mem.getItem(k)).sort(), ['value 3', 'value 4', 'value 5']);
  assert.equal(store.backup('k', 'z'.repeat(BACKUP_MAX_CHARS + 1)), null, 'a value over the cap is not copied');
});

test('migrations: schema 1 quotes become schema 2 with one notice; unknown versions and shapes are refused', () => {
  const mem = new MemoryStorage();
  mem.setItem(PRICES_KEY, '{"version": 1, "quotes": {"autodl/rtx-4090": 1.5, "nowhere/rtx-4090": 2}}');
  const r = loadQuotes(new Store(mem), known);
  assert.deepEqual(r.quotes.map((q) => [q.platform, q.gpu, q.per_gpu_hour, q.currency, q.billing]), [['autodl', 'rtx-4090', 1.5, 'CNY', 'on-demand']]);
  assert.equal(r.notices.length, 1, 'one notice, not three');
  assert.deepEqual({ from: r.notices[0].from, kept: r.notices[0].kept, setAside: r.notices[0].setAside }, { from: 1, kept: 1, setAside: { platform: 1 } });
  assert.equal(JSON.parse(mem.getItem(PRICES_KEY)).schema, 2);
  const aside = JSON.parse(mem.getItem(r.notices[0].backupKey));
  assert.deepEqual(aside.quotes, [{ platform: 'nowhere', gpu: 'rtx-4090', per_gpu_hour: 2, currency: 'CNY', billing: 'on-demand' }], 'the set-aside entry is kept as it was');
  const schema = { key: 'x', version: 3, migrations: { 1: (d) => ({ ...d, b: 1 }), 2: (d) => (d.b ? { ...d, c: 2 } : null) } };
  assert.deepEqual(migrate('{"schema": 1}', schema), { doc: { schema: 3, b: 1, c: 2 }, from: 1 });
  assert.deepEqual(migrate('{"schema": 2}', schema), null, 'a step that cannot migrate makes the value unreadable');
  assert.deepEqual(migrate('{"schema": 4}', schema), { newer: 4 });
  for (const bad of ['[]', '"x"', '{"schema": 0}', '{"schema": 1.5}', '{}', '{bad']) assert.equal(migrate(bad, schema), null, bad);
  assert.equal(loadVersioned(new Store(new MemoryStorage()), schema).status, 'empty');
});

test('issue #20 items 6, 7: duplicates are merged, the list is capped, and each quote set aside has its own reason', () => {
  const entries = [
    ...Array.from({ length: 10000 }, () => quote({ per_gpu_hour: 2 })),
    quote({ per_gpu_hour: 3 }),
    quote({ platform: 'nowhere' }), quote({ gpu: 'nope' }), quote({ per_gpu_hour: -1 }), quote({ per_gpu_hour: '2' }),
    quote({ currency: 'EUR' }), 'x', null,
  ];
  const { quotes, setAside } = cleanQuotes(entries, known);
  assert.deepEqual(quotes.map((q) => q.per_gpu_hour), [3], 'the later duplicate wins');
  assert.deepEqual(setAside, { duplicate: 10000, platform: 1, gpu: 1, price: 2, currency: 1, malformed: 2 });
  // MAX_QUOTES + 7 distinct platform, GPU and billing keys (a wider catalog than `known`).
  const wide = { platforms: new Set(Array.from({ length: 200 }, (_, i) => `p${i}`)), gpus: known.gpus };
  const distinct = Array.from({ length: MAX_QUOTES + 7 }, (_, i) => quote({ platform: `p${i % 200}`, gpu: i % 400 < 200 ? 'rtx-4090' : 'a100-pcie-80g', billing: ['on-demand', 'spot', 'monthly'][Math.floor(i / 400)] }));
  const capped = cleanQuotes(distinct, wide);
  assert.equal(capped.quotes.length, MAX_QUOTES);
  assert.equal(capped.setAside.cap, 7);
  assert.deepEqual(capQuotes(distinct).over, 7);
  // On load: one notice that lists the reasons, the clean list stored.
  const mem = new MemoryStorage();
  mem.setItem(PRICES_KEY, JSON.stringify({ schema: 2, quotes: entries }));
  const r = loadQuotes(new Store(mem), known);
  assert.equal(r.notices.length, 1);
  assert.equal(r.notices[0].kind, 'loaded');
  assert.deepEqual(r.notices[0].setAside, setAside);
  assert.equal(JSON.parse(mem.getItem(PRICES_KEY)).quotes.length, 1, 'the clean list replaces the 10 000 copies');
  // The backup holds what differs from the kept quote (the 2.0 price once, and the invalid ones), not 10 000 copies.
  assert.equal(JSON.parse(mem.getItem(r.notices[0].backupKey)).quotes.length, 1 + 7);
  assert.equal(loadQuotes(new Store(mem), known).notices.length, 0, 'the next load has nothing to say');
  // On import: the same cleaning.
  const imp = parseImport(JSON.stringify({ schema: 2, quotes: entries }), known);
  assert.equal(imp.quotes.length, 1);
  assert.equal(imp.rejected, 7, 'invalid entries are rejected; duplicates are merged, not rejected');
});

test('a free quote (0 per GPU-hour) is a price, kept like any other', () => {
  assert.deepEqual(cleanQuotes([quote({ platform: 'campus', gpu: 'a100-pcie-80g', per_gpu_hour: 0 })], known).quotes.map((q) => q.per_gpu_hour), [0]);
});

test('the last inputs: saved, restored, and a damaged or newer one reported', () => {
  const mem = new MemoryStorage();
  const store = new Store(mem);
  const s = { ...state.defaultState(), title: '7B LoRA', budget: 5000 };
  assert.equal(saveLast(store, s), true);
  assert.deepEqual(loadLast(new Store(mem)), { state: s, found: { status: 'ok' } });
  mem.setItem(LAST_KEY, JSON.stringify({ schema: 1, state: { budget: -5, gpus: 2 } }));
  const cleaned = loadLast(new Store(mem));
  assert.equal(cleaned.state.budget, 3000, 'sanitized like a share link');
  assert.equal(cleaned.state.gpus, 2);
  mem.setItem(LAST_KEY, JSON.stringify({ schema: 1 }));
  const noState = loadLast(new Store(mem));
  assert.equal(noState.state, null);
  assert.equal(noState.found.status, 'corrupt');
  assert.ok(noState.found.backupKey);
  mem.setItem(LAST_KEY, JSON.stringify({ schema: 2, state: {} }));
  const newer = loadLast(new Store(mem));
  assert.equal(newer.state, null);
  assert.deepEqual([newer.found.status, newer.found.version], ['newer', 2]);
  assert.equal(loadLast(new Store(null)).found.status, 'unavailable');
});

test('projects: damaged entries skipped and reported, the original backed up; saving past the quota fails softly', () => {
  const mem = new MemoryStorage();
  const good = { id: 'p1', name: 'LoRA 4090', saved_at: '2026-12-01T10:00:00.000Z', state: { ...state.defaultState(), method: 'lora' } };
  mem.setItem(PROJECTS_KEY, JSON.stringify({ schema: 1, projects: [good, { name: '' }, 42, { name: 'x' }] }));
  const r = loadProjects(new Store(mem));
  assert.deepEqual(r.projects.map((p) => p.name), ['LoRA 4090']);
  assert.equal(r.skipped, 3);
  assert.ok(mem.getItem(r.backupKey).includes('"x"'));
  assert.equal(JSON.parse(mem.getItem(PROJECTS_KEY)).projects.length, 1);
  const tiny = new MemoryStorage(200);
  assert.equal(saveProjects(new Store(tiny), r.projects), false);
  assert.equal(tiny.getItem(PROJECTS_KEY), null);
});

test('the file: projects and quotes together (schema 3); old quote files still read; import merges without clobbering', () => {
  const a = { id: 'pa', name: 'A', saved_at: '2026-12-01T10:00:00.000Z', state: state.defaultState() };
  const b = { id: 'pb', name: 'B', saved_at: '2026-12-01T11:00:00.000Z', state: { ...state.defaultState(), method: 'full' } };
  const text = serializeFile([a, b], [quote()]);
  const doc = JSON.parse(text);
  assert.equal(doc.schema, 3);
  const parsed = parseImport(text, known);
  assert.equal(parsed.quotes.length, 1);
  const into = mergeProjects([], parsed.doc);
  assert.deepEqual(into.projects.map((p) => p.name), ['A', 'B']);
  // The same file again adds nothing; another project named A gets a new name.
  assert.equal(mergeProjects(into.projects, parsed.doc).added, 0);
  const other = mergeProjects(into.projects, { projects: [{ ...a, id: 'pc', state: { ...a.state, budget: 1 } }] });
  assert.deepEqual(other.projects.map((p) => p.name), ['A', 'B', 'A 2']);
  // Schema 1 and 2 quote files: quotes, no projects.
  assert.equal(parseImport('{"version": 1, "quotes": {"autodl/rtx-4090": 1.5}}', known).quotes.length, 1);
  assert.deepEqual(parseImport(JSON.stringify({ schema: 2, quotes: [quote()] }), known).doc.projects, []);
  assert.equal(parseImport('{"schema": 9, "quotes": []}', known), null);
  // The cap holds on import.
  const lots = Array.from({ length: MAX_PROJECTS + 5 }, (_, i) => ({ ...a, id: `q${i}`, name: `N${i}` }));
  const capped = mergeProjects([], { projects: lots });
  assert.equal(capped.projects.length, MAX_PROJECTS);
  assert.equal(capped.skipped + capped.over, 5);
});

test('a backup that does not fit removes no older backup', () => {
  const mem = new MemoryStorage(400);
  const store = new Store(mem);
  for (let i = 0; i < BACKUPS_PER_KEY; i += 1) assert.ok(store.backup('k', `v${i}`, new Date(Date.UTC(2026, 0, 1, 0, i))));
  const before = backups(mem, 'k');
  assert.equal(store.backup('k', 'w'.repeat(300)), null);
  assert.deepEqual(backups(mem, 'k'), before);
});
