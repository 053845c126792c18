// Numbers, money, bytes and hours through Intl, in the page's language.
// A GiB is 2^30 bytes (contract: "say GB only for 10^9").
import type { Lang } from './i18n';

export const GIB = 2 ** 30;

const cache = new Map<string, Intl.NumberFormat>();
function nf(lang: Lang, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = lang + JSON.stringify(opts);
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(lang, opts);
    cache.set(key, f);
  }
  return f;
}

function safe(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

export function num(lang: Lang, x: unknown, digits = 0): string {
  const v = safe(x);
  return v === null ? '—' : nf(lang, { maximumFractionDigits: digits }).format(v);
}

// Three significant figures: enough for an estimate, never false precision.
export function sig(lang: Lang, x: unknown): string {
  const v = safe(x);
  return v === null ? '—' : nf(lang, { maximumSignificantDigits: 3 }).format(v);
}

export function gib(lang: Lang, bytes: unknown): string {
  const v = safe(bytes);
  if (v === null) return '—';
  return `${nf(lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(v / GIB)} GiB`;
}

export function money(lang: Lang, amount: unknown, currency: string): string {
  const v = safe(amount);
  if (v === null) return '—';
  const digits = Math.abs(v) >= 100 ? 0 : 2;
  return nf(lang, { style: 'currency', currency, maximumFractionDigits: digits, minimumFractionDigits: digits }).format(v);
}

export function hours(lang: Lang, h: unknown): string {
  const v = safe(h);
  if (v === null) return '—';
  if (v < 1) return nf(lang, { style: 'unit', unit: 'minute', unitDisplay: 'short', maximumFractionDigits: 0 }).format(Math.max(1, v * 60));
  if (v >= 48) return nf(lang, { style: 'unit', unit: 'day', unitDisplay: 'short', maximumSignificantDigits: 3 }).format(v / 24);
  return nf(lang, { style: 'unit', unit: 'hour', unitDisplay: 'short', maximumSignificantDigits: 3 }).format(v);
}

export function percent(lang: Lang, fraction: unknown): string {
  const v = safe(fraction);
  return v === null ? '—' : nf(lang, { style: 'percent', maximumFractionDigits: 0 }).format(v);
}

export function bigCount(lang: Lang, x: unknown): string {
  const v = safe(x);
  return v === null ? '—' : nf(lang, { notation: 'compact', maximumSignificantDigits: 3 }).format(v);
}
