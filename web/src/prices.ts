// The user's own price quotes, kept in localStorage with a schema version.
// Never silently lost: a stored value this page cannot read (corrupted, or
// written by another version) is copied to a backup key before anything is
// reset, and the page says so; a reset keeps the old list for undo.

export interface Quote {
  platform: string;
  gpu: string;
  billing: string;
  per_gpu_hour: number;
  currency: 'CNY' | 'USD';
  note: string;
}

export const PRICES_KEY = 'gpuplan.prices';
export const BACKUP_KEY = 'gpuplan.prices.backup';
export const SCHEMA = 2;
// Schema 1 (the first drafts of this page) stored a map "platform/gpu" ->
// CNY per GPU-hour, on-demand: {"version": 1, "quotes": {"autodl/rtx-4090": 2.5}}.
// Schema 2 adds billing, currency and a note per quote.

export type Notice =
  | { kind: 'migrated'; from: number; count: number }
  | { kind: 'corrupt'; backupKey: string }
  | { kind: 'newer'; version: number; backupKey: string }
  | { kind: 'dropped'; count: number }
  | { kind: 'unavailable' };

export interface Known { platforms: Set<string>; gpus: Set<string> }

const BILLINGS = ['on-demand', 'spot', 'monthly', 'yearly', 'off-peak'];

export function validQuote(x: unknown, known: Known): Quote | null {
  if (!x || typeof x !== 'object') return null;
  const o = x as Record<string, unknown>;
  if (typeof o.platform !== 'string' || !known.platforms.has(o.platform)) return null;
  if (typeof o.gpu !== 'string' || !known.gpus.has(o.gpu)) return null;
  const price = o.per_gpu_hour;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > 1e6) return null;
  const billing = typeof o.billing === 'string' && BILLINGS.includes(o.billing) ? o.billing : 'on-demand';
  const currency = o.currency === 'USD' ? 'USD' : o.currency === undefined || o.currency === 'CNY' ? 'CNY' : null;
  if (!currency) return null;
  const note = typeof o.note === 'string' ? o.note.slice(0, 200) : '';
  return { platform: o.platform, gpu: o.gpu, billing, per_gpu_hour: price, currency, note };
}

function backup(storage: Storage, raw: string): string {
  const key = `${BACKUP_KEY}.${new Date().toISOString()}`;
  storage.setItem(key, raw);
  return key;
}

export function loadQuotes(storage: Storage | null, known: Known): { quotes: Quote[]; notices: Notice[] } {
  if (!storage) return { quotes: [], notices: [{ kind: 'unavailable' }] };
  let raw: string | null;
  try {
    raw = storage.getItem(PRICES_KEY);
  } catch {
    return { quotes: [], notices: [{ kind: 'unavailable' }] };
  }
  if (raw === null) return { quotes: [], notices: [] };
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    data = undefined;
  }
  const o = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  const version = o ? (o.schema ?? o.version) : undefined;
  if (o && version === 1 && o.quotes && typeof o.quotes === 'object' && !Array.isArray(o.quotes)) {
    const quotes: Quote[] = [];
    let dropped = 0;
    for (const [key, value] of Object.entries(o.quotes as Record<string, unknown>)) {
      const [platform, gpu] = key.split('/');
      const q = validQuote({ platform, gpu, per_gpu_hour: value, currency: 'CNY', billing: 'on-demand' }, known);
      if (q) quotes.push(q);
      else dropped += 1;
    }
    const notices: Notice[] = [{ kind: 'migrated', from: 1, count: quotes.length }];
    if (dropped) notices.push({ kind: 'dropped', count: dropped }, { kind: 'corrupt', backupKey: backup(storage, raw) });
    saveQuotes(storage, quotes);
    return { quotes, notices };
  }
  if (o && version === SCHEMA && Array.isArray(o.quotes)) {
    const quotes = o.quotes.map((q) => validQuote(q, known)).filter((q): q is Quote => q !== null);
    const dropped = o.quotes.length - quotes.length;
    if (!dropped) return { quotes, notices: [] };
    // Entries for GPUs or platforms this catalog no longer has: keep the
    // original, say how many were set aside.
    const backupKey = backup(storage, raw);
    saveQuotes(storage, quotes);
    return { quotes, notices: [{ kind: 'dropped', count: dropped }, { kind: 'corrupt', backupKey }] };
  }
  if (o && typeof version === 'number' && version > SCHEMA) {
    return { quotes: [], notices: [{ kind: 'newer', version, backupKey: backup(storage, raw) }] };
  }
  const backupKey = backup(storage, raw);
  storage.removeItem(PRICES_KEY);
  return { quotes: [], notices: [{ kind: 'corrupt', backupKey }] };
}

export function serializeQuotes(quotes: Quote[]): string {
  return JSON.stringify({ schema: SCHEMA, app: 'gpuplan', saved_at: new Date().toISOString(), quotes }, null, 2);
}

export function saveQuotes(storage: Storage | null, quotes: Quote[]): boolean {
  if (!storage) return false;
  try {
    if (quotes.length) storage.setItem(PRICES_KEY, serializeQuotes(quotes));
    else storage.removeItem(PRICES_KEY);
    return true;
  } catch {
    return false;
  }
}

// An imported file: the same schema as the export (or schema 1). Returns the
// accepted quotes and how many entries were rejected.
export function parseImport(text: string, known: Known): { quotes: Quote[]; rejected: number } | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  const o = data as Record<string, unknown>;
  const version = o.schema ?? o.version;
  let entries: unknown[];
  if (version === SCHEMA && Array.isArray(o.quotes)) entries = o.quotes;
  else if (version === 1 && o.quotes && typeof o.quotes === 'object') {
    entries = Object.entries(o.quotes as Record<string, unknown>).map(([key, value]) => {
      const [platform, gpu] = key.split('/');
      return { platform, gpu, per_gpu_hour: value, currency: 'CNY', billing: 'on-demand' };
    });
  } else return null;
  const quotes = entries.map((q) => validQuote(q, known)).filter((q): q is Quote => q !== null);
  return { quotes, rejected: entries.length - quotes.length };
}

export function quoteKey(q: { platform: string; gpu: string; billing: string }): string {
  return `${q.platform}/${q.gpu}/${q.billing}`;
}

export function mergeQuotes(base: Quote[], added: Quote[]): Quote[] {
  const map = new Map(base.map((q) => [quoteKey(q), q]));
  for (const q of added) map.set(quoteKey(q), q);
  return [...map.values()];
}
