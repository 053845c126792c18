// Words and figures every view writes the same way: platform and stage names
// in the page's language, money in the display currency with the rate beside
// it, a price's date with its freshness mark, a source a student can open.
import { h } from '../dom.ts';
import { ageDays, money, num } from '../format.ts';
import type { CatalogPlatform } from '../types.ts';
import type { Ctx } from './context.ts';

export function platformName(ctx: Ctx, p: CatalogPlatform | string | undefined): string {
  // The lab's own cards (request `lab`) are the planner's platform "lab", no catalog entry.
  if (p === 'lab') return ctx.t('platform.lab');
  const found = typeof p === 'string' ? ctx.catalog.platforms.find((x) => x.id === p) : p;
  if (!found) return typeof p === 'string' && p ? p : '—';
  return ctx.lang === 'zh-CN' ? found.name_zh ?? found.name : found.name;
}

export function gpuName(ctx: Ctx, id: string | undefined): string {
  return id ? ctx.gpu(id)?.name ?? id : '—';
}

// A figure in `from`, in the display currency at the rate the core gave for
// it (response `display`, docs/api.md "Money"); with none, in its own currency.
function shown(ctx: Ctx, amount: unknown, from: string | undefined): [number, string] {
  const d = ctx.response?.display;
  const c = from || 'CNY';
  const k = d?.rates[c];
  const v = typeof amount === 'number' ? amount : NaN;
  return d && k !== undefined ? [v * k, d.currency] : [v, c];
}
export function cash(ctx: Ctx, amount: unknown, from: string | undefined): string {
  return money(ctx.lang, ...shown(ctx, amount, from));
}
export function cashValue(ctx: Ctx, amount: unknown, from: string | undefined): number {
  return shown(ctx, amount, from)[0];
}

// "converted at 1 USD = 6.79 CNY (2026-07-31)", when the core converted a figure.
export function fxNote(ctx: Ctx, from: string | undefined): HTMLElement | null {
  const fx = ctx.catalog.fx;
  const d = ctx.response?.display;
  if (!fx || !from || !d || from === d.currency || d.rates[from] === undefined) return null;
  return h('p', { class: 'source fx-note' }, ctx.t('fx.converted', { rate: num(ctx.lang, fx.cny_per_usd, 4), as_of: fx.as_of ?? '—' }));
}

// A price's date; marked to check on the platform when the core says it is
// old (`stale`: an offer's in a response or in the page's catalog copy, more
// than six months before the catalog's date; core/src/read/price_age.cpp).
// A quote in the student's list has no verdict here: its day is shown, and
// the plan that uses it carries the core's.
export function priceDate(ctx: Ctx, asOf: string | undefined, stale?: boolean): HTMLElement {
  return h('span', { class: stale ? 'as-of stale' : 'as-of', 'data-stale': stale === undefined ? null : String(stale) },
    asOf || ctx.t('unknown'),
    stale ? h('strong', { class: 'stale-mark' }, ` ${ctx.t('price.stale')}`) : null);
}

// Under a heading or after a label "Source": a source as the core wrote it
// for the page (core/src/read/catalog_profile.cpp, page_source_label and
// page_citation: the page's catalog copy and every response's `offer.source`),
// the site, repository or citation as it stands; the core's words for what a
// source is, in the page's language.
const SOURCE_WORDS = { unverified: 'source.unverified', 'student article': 'source.seed', lab: 'source.lab', request: 'source.request' } as const;
export function sourceText(ctx: Ctx, source: unknown): string {
  const s = typeof source === 'string' ? source : '';
  return s && !Object.hasOwn(SOURCE_WORDS, s) ? s : ctx.t(SOURCE_WORDS[(s || 'unverified') as keyof typeof SOURCE_WORDS]);
}

// How old the catalog is (days to today) and how many of its prices the core
// marks old, for the footer.
export function catalogAge(ctx: Ctx): { date: string; days: number | null; stale: number; total: number } {
  const offers = ctx.catalog.platforms.flatMap((p) => p.offers ?? []);
  const dates = offers.map((o) => o.as_of).filter((d): d is string => typeof d === 'string');
  const date = /^\d{4}-\d{2}/.test(ctx.catalog.version) ? ctx.catalog.version : [...dates].sort().pop() ?? '';
  return { date, days: ageDays(date, new Date()), stale: offers.filter((o) => o.stale === true).length, total: offers.length };
}

