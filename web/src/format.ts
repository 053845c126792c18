// Numbers, money, bytes and hours in the page's language: money, hours and
// compact counts through Intl, plain decimals by plain() below.
// A GiB is 2^30 bytes (contract: "say GB only for 10^9").
import type { Lang } from './i18n.ts';

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

// Plain decimals (counts, GiB, percentages) without Intl. Why: a page's
// first Intl.NumberFormat initialises ICU, 45–95 ms in headless Chromium on
// this machine, and the first figure (the memory view) needs only plain
// decimals (docs/performance-log.md, "The first figure"). Both of the page's
// languages write them alike (zh-CN and en: "1,234.5", "45%"). As ICU does,
// this rounds the shortest decimal that reads back as the double (so 0.15
// rounds to 0.2), half away from zero; tests/js/page_logic.test.mjs holds it
// to Intl's strings over random values in both languages. `shift` moves the
// decimal point right on those digits (2 for a percentage): no float multiply.
function plain(v: number, minDigits: number, maxDigits: number, shift = 0): string {
  const [mantissa, exponent] = Math.abs(v).toExponential().split('e');
  let digits = mantissa.replace('.', '');
  let point = Number(exponent) + 1 + shift; // digits before the decimal point
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  const keep = point + maxDigits;
  if (digits.length <= keep) digits = digits.padEnd(keep, '0');
  else {
    const up = digits[keep] >= '5';
    digits = digits.slice(0, keep);
    if (up) {
      const carried = (BigInt(digits || '0') + 1n).toString().padStart(keep, '0');
      point += carried.length - keep;
      digits = carried;
    }
  }
  let fraction = digits.slice(point);
  while (fraction.length > minDigits && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const whole = (digits.slice(0, point).replace(/^0+/, '') || '0').replace(/\B(?=(\d{3})+$)/g, ',');
  return `${v < 0 || Object.is(v, -0) ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function num(_lang: Lang, x: unknown, digits = 0): string {
  const v = safe(x);
  return v === null ? '—' : plain(v, 0, digits);
}

// Three significant figures: enough for an estimate, never false precision.
export function sig(lang: Lang, x: unknown): string {
  const v = safe(x);
  return v === null ? '—' : nf(lang, { maximumSignificantDigits: 3 }).format(v);
}

export function gib(_lang: Lang, bytes: unknown): string {
  const v = safe(bytes);
  if (v === null) return '—';
  return `${plain(v / GIB, 1, 1)} GiB`;
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

export function percent(_lang: Lang, fraction: unknown): string {
  const v = safe(fraction);
  return v === null ? '—' : `${plain(v, 0, 0, 2)}%`;
}

export function bigCount(lang: Lang, x: unknown): string {
  const v = safe(x);
  return v === null ? '—' : nf(lang, { notation: 'compact', maximumSignificantDigits: 3 }).format(v);
}

// --- the catalog's age ---------------------------------------------------------
// Catalog dates are "2026", "2026-11" or "2026-11-30": a partial date counts
// from the start of its period (the oldest it can be). Whether a price is too
// old to trust is the core's to say (`stale`), not the page's.
function parseAsOf(asOf: unknown): Date | null {
  if (typeof asOf !== 'string') return null;
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(asOf);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), m[2] ? Number(m[2]) - 1 : 0, m[3] ? Number(m[3]) : 1));
  return Number.isFinite(d.getTime()) ? d : null;
}

// Whole days from asOf to now (0 for a future or unparsable date: null).
export function ageDays(asOf: unknown, now: Date): number | null {
  const d = parseAsOf(asOf);
  if (!d) return null;
  return Math.max(0, Math.floor((now.getTime() - d.getTime()) / 86_400_000));
}

