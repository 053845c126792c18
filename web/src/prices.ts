// The user's own price quotes, kept in localStorage with a schema version.
// Never silently lost: a stored value this page cannot read (corrupted, or
// written by another version) is copied to a backup key before anything is
// reset (storage.ts, bounded), and the page says so; a reset keeps the old
// list for undo.
import { asRecord, loadVersioned, migrate, writeVersioned, type Schema, type Store } from './storage.ts';
import { BILLING } from './spellings.ts';

export interface Quote {
  platform: string;
  gpu: string;
  billing: string;
  per_gpu_hour: number;
  currency: 'CNY' | 'USD';
  note: string;
  // The day the price was read (YYYY-MM-DD), a pasted price list's day: sent
  // as the quote's `as_of` (docs/api.md, prices[]), shown beside the price and aged like a catalog price.
  as_of?: string;
}

export const PRICES_KEY = 'gpuplan.prices';
export const SCHEMA = 2;
// Schema 1 (the first drafts of this page) stored a map "platform/gpu" ->
// CNY per GPU-hour, on-demand: {"version": 1, "quotes": {"autodl/rtx-4090": 2.5}}.
// Schema 2 adds billing, currency and a note per quote.

// The reasons a stored or imported quote is set aside, each counted.
export type Reason = 'malformed' | 'platform' | 'gpu' | 'price' | 'currency' | 'duplicate' | 'cap';
export type SetAside = Partial<Record<Reason, number>>;

// At most this many quotes are kept: one person's quotes are a few dozen,
// and every one travels in each plan() request (a list of 40 000 made the
// request too large to plan).
export const MAX_QUOTES = 500;

// One notice per load: what was upgraded, what was set
// aside and why, and where the original went.
export type Notice =
  // backupKey: where the set-aside entries went (null: none needed, or inPlace:
  // they did not fit, and the stored list is left as it was, locked).
  | { kind: 'loaded'; from?: number; kept: number; setAside: SetAside; backupKey: string | null; inPlace: boolean }
  | { kind: 'corrupt'; backupKey: string | null; key: string }
  | { kind: 'newer'; version: number; backupKey: string | null; key: string }
  | { kind: 'unavailable' };

export interface Known { platforms: Set<string>; gpus: Set<string> }

// The core's billings (spellings.ts, generated from its table): weekly and daily
// quotes survive a reload as what they are.
const BILLINGS: readonly string[] = BILLING;

// The quote, or the reason it cannot be one.
export function checkQuote(x: unknown, known: Known): Quote | Exclude<Reason, 'duplicate' | 'cap'> {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return 'malformed';
  const o = x as Record<string, unknown>;
  if (typeof o.platform !== 'string' || typeof o.gpu !== 'string') return 'malformed';
  if (!known.platforms.has(o.platform)) return 'platform';
  if (!known.gpus.has(o.gpu)) return 'gpu';
  const price = o.per_gpu_hour;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > 1e6) return 'price';
  const currency = o.currency === 'USD' ? 'USD' : o.currency === undefined || o.currency === 'CNY' ? 'CNY' : null;
  if (!currency) return 'currency';
  const billing = typeof o.billing === 'string' && BILLINGS.includes(o.billing) ? o.billing : 'on-demand';
  const note = typeof o.note === 'string' ? o.note.slice(0, 200) : '';
  const q: Quote = { platform: o.platform, gpu: o.gpu, billing, per_gpu_hour: price, currency, note };
  if (typeof o.as_of === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(o.as_of)) q.as_of = o.as_of;
  return q;
}

export function validQuote(x: unknown, known: Known): Quote | null {
  const q = checkQuote(x, known);
  return typeof q === 'string' ? null : q;
}

// Valid, de-duplicated (the later of two quotes for the same platform, GPU
// and billing wins, as when importing) and capped; the rest counted by
// reason. `removed` holds what was set aside and is not an exact copy of a
// kept quote: what a backup must keep so that nothing is lost.
export function cleanQuotes(entries: unknown[], known: Known): { quotes: Quote[]; setAside: SetAside; removed: unknown[] } {
  const setAside: SetAside = {};
  const removed: unknown[] = [];
  const count = (r: Reason, n = 1): void => { setAside[r] = (setAside[r] ?? 0) + n; };
  const byKey = new Map<string, Quote>();
  for (const e of entries) {
    const q = checkQuote(e, known);
    if (typeof q === 'string') { count(q); removed.push(e); continue; }
    const k = quoteKey(q);
    const before = byKey.get(k);
    if (before) {
      count('duplicate');
      if (before.per_gpu_hour !== q.per_gpu_hour || before.currency !== q.currency || before.note !== q.note || before.as_of !== q.as_of) removed.push(before);
      byKey.delete(k);
    }
    byKey.set(k, q);
  }
  const all = [...byKey.values()];
  if (all.length > MAX_QUOTES) {
    count('cap', all.length - MAX_QUOTES);
    removed.push(...all.slice(MAX_QUOTES));
  }
  return { quotes: all.slice(0, MAX_QUOTES), setAside, removed };
}

export function setAsideCount(s: SetAside): number {
  return Object.values(s).reduce((a, b) => a + (b ?? 0), 0);
}

// Schema 1 -> 2: the map becomes a list of CNY on-demand quotes.
function v1to2(doc: Record<string, unknown>): Record<string, unknown> | null {
  const map = asRecord(doc.quotes);
  if (!map) return null;
  return { ...doc, schema: 2, quotes: Object.entries(map).map(([key, value]) => {
    const [platform, gpu] = key.split('/');
    return { platform, gpu, per_gpu_hour: value, currency: 'CNY', billing: 'on-demand' };
  }) };
}
// File schema 2 -> 3: a file can also carry named projects.
function v2to3(doc: Record<string, unknown>): Record<string, unknown> | null {
  return Array.isArray(doc.quotes) ? { ...doc, schema: 3, projects: [] } : null;
}

export const QUOTES_SCHEMA: Schema = { key: PRICES_KEY, version: SCHEMA, migrations: { 1: v1to2 } };
// The export file: quotes and projects together; older quote files still read.
export const FILE_SCHEMA: Schema = { key: '', version: 3, migrations: { 1: v1to2, 2: v2to3 } };

// The catalog's platform and GPU ids, the quotes a page may keep (a quote on
// a card or platform the catalog no longer has is set aside).
export function knownIds(catalog: { platforms: readonly { id: string }[]; gpus: readonly { id: string }[] }): Known {
  return { platforms: new Set(catalog.platforms.map((p) => p.id)), gpus: new Set(catalog.gpus.map((g) => g.id)) };
}

export function loadQuotes(store: Store, known: Known): { quotes: Quote[]; notices: Notice[] } {
  const r = loadVersioned(store, QUOTES_SCHEMA);
  switch (r.status) {
    case 'empty': return { quotes: [], notices: [] };
    case 'unavailable': return { quotes: [], notices: [{ kind: 'unavailable' }] };
    case 'corrupt': return { quotes: [], notices: [{ kind: 'corrupt', backupKey: r.backupKey, key: PRICES_KEY }] };
    case 'newer': return { quotes: [], notices: [{ kind: 'newer', version: r.version, backupKey: r.backupKey, key: PRICES_KEY }] };
  }
  if (!Array.isArray(r.doc.quotes)) {
    const backupKey = store.backup(PRICES_KEY, r.raw);
    if (backupKey) store.remove(PRICES_KEY);
    else store.lock(PRICES_KEY);
    return { quotes: [], notices: [{ kind: 'corrupt', backupKey, key: PRICES_KEY }] };
  }
  const { quotes, setAside, removed } = cleanQuotes(r.doc.quotes, known);
  const from = r.status === 'migrated' ? r.from : undefined;
  if (from === undefined && !setAsideCount(setAside)) return { quotes, notices: [] };
  // Something changed: keep what was set aside (bounded, once; exact
  // duplicates need no copy), then store the clean list.
  const backupKey = removed.length ? store.backup(PRICES_KEY, serializeSetAside(removed)) : null;
  if (backupKey || !removed.length) saveQuotes(store, quotes);
  else store.lock(PRICES_KEY);
  return { quotes, notices: [{ kind: 'loaded', from, kept: quotes.length, setAside, backupKey, inPlace: removed.length > 0 && !backupKey }] };
}

// The set-aside entries as they were, in a file the user can read.
function serializeSetAside(entries: unknown[]): string {
  return JSON.stringify({ schema: SCHEMA, app: 'gpuplan', set_aside: true, saved_at: new Date().toISOString(), quotes: entries });
}

export function serializeQuotes(quotes: Quote[]): string {
  return JSON.stringify({ schema: SCHEMA, app: 'gpuplan', saved_at: new Date().toISOString(), quotes }, null, 2);
}

export function saveQuotes(store: Store, quotes: Quote[]): boolean {
  return writeVersioned(store, QUOTES_SCHEMA, quotes.length ? serializeQuotes(quotes) : null);
}

// An imported file: a quote file (schema 1 or 2) or a projects file (3).
// Returns the accepted quotes, how many entries were rejected and why, and
// the file's document (its projects are read by projects.ts).
export function parseImport(text: string, known: Known): { quotes: Quote[]; rejected: number; setAside: SetAside; doc: Record<string, unknown> } | null {
  const m = migrate(text, FILE_SCHEMA);
  if (!m || 'newer' in m || !Array.isArray(m.doc.quotes)) return null;
  const { quotes, setAside } = cleanQuotes(m.doc.quotes, known);
  return { quotes, rejected: setAsideCount(setAside) - (setAside.duplicate ?? 0), setAside, doc: m.doc };
}

// The schema of a file written by a newer page (one this page cannot read),
// so the import can say so instead of calling it not a gpuplan file.
export function newerFileVersion(text: string): number | null {
  const m = migrate(text, FILE_SCHEMA);
  return m && 'newer' in m ? m.newer : null;
}

export function quoteKey(q: { platform: string; gpu: string; billing: string }): string {
  return `${q.platform}/${q.gpu}/${q.billing}`;
}

// One tab's change of its quote list, applied to the list the store holds
// now (another tab may have saved since this one read it): the quotes this
// tab added or changed, and the ones it removed, by platform, card and
// billing; every other stored quote is kept as stored. The same rule as the
// projects' (docs/storage.md): last writer per quote, never per list.
export function applyQuoteChange(stored: Quote[], before: Quote[], after: Quote[]): Quote[] {
  const was = new Map(before.map((q) => [quoteKey(q), JSON.stringify(q)]));
  const now = new Map(after.map((q) => [quoteKey(q), q]));
  const out = new Map(stored.map((q) => [quoteKey(q), q]));
  for (const k of was.keys()) if (!now.has(k)) out.delete(k);
  for (const [k, q] of now) if (was.get(k) !== JSON.stringify(q)) out.set(k, q);
  return [...out.values()];
}

export function mergeQuotes(base: Quote[], added: Quote[]): Quote[] {
  const map = new Map(base.map((q) => [quoteKey(q), q]));
  for (const q of added) map.set(quoteKey(q), q);
  return [...map.values()];
}

// The list as it can be kept: at most MAX_QUOTES (the first ones), and the
// ones left out (offered as a file, never dropped in silence).
export function capQuotes(quotes: Quote[]): { quotes: Quote[]; over: number; left: Quote[] } {
  const left = quotes.slice(MAX_QUOTES);
  return { quotes: quotes.slice(0, MAX_QUOTES), over: left.length, left };
}
