// Step 4: every GPU the planner evaluated, with its fit, count, time and the
// planner's own cost of one run (gpus[].cost, on the cheapest in-scope offer:
// contract v1.1), sortable, and the reasons in words. The page prices nothing.
import { h } from '../dom.ts';
import { gib, hours, num, sig } from '../format.ts';
import { label } from '../i18n.ts';
import type { GpuRow } from '../types.ts';
import type { Ctx } from './context.ts';
import { section } from './controls.ts';
import { cash, cashValue, fxNote, platformName, priceDate } from './words.ts';

export type Fit = 'comfortable' | 'tight' | 'no';

export interface Row {
  gpu: GpuRow;
  name: string;
  memoryBytes: number;
  fit: Fit;
  cost: number; // the planner's one-run cost, in costCurrency; NaN when none
  costCurrency: string;
  value: number; // cheapest fitting run cost / this run cost (1 = best), display only
}

// The currency of the planner's money figures: the plan's, else the budget's
// (the page's request names one whenever it has a budget, request.ts).
export function coreCurrency(ctx: Ctx): string {
  return ctx.response?.plan?.currency ?? (ctx.request.budget as { currency?: string } | undefined)?.currency ?? 'CNY';
}

export function rows(ctx: Ctx): Row[] {
  const r = ctx.response;
  if (!r) return [];
  const fallback = coreCurrency(ctx);
  const out = r.gpus.map((g): Row => {
    const cat = ctx.gpu(g.id);
    // The planner's verdict and one run's cost, as the core writes them
    // (write_gpu in core/src/write/response_json.cpp: `fit` always, `cost` where priced).
    return {
      gpu: g, name: cat?.name ?? g.id, memoryBytes: cat?.memory_bytes ?? 0, fit: g.fit,
      cost: g.fit === 'no' ? NaN : g.cost ?? NaN, costCurrency: fallback, value: NaN,
    };
  });
  // The ratio of two of the planner's costs (in one currency): a ranking aid, not a price.
  const costs = out.filter((x) => Number.isFinite(x.cost) && x.cost > 0).map((x) => cashValue(ctx, x.cost, x.costCurrency));
  const cheapest = Math.min(...costs);
  for (const x of out) {
    const c = cashValue(ctx, x.cost, x.costCurrency);
    x.value = Number.isFinite(c) && c > 0 ? cheapest / c : NaN;
  }
  return out;
}

const COLUMNS = ['name', 'memory', 'count', 'hours', 'gpu_hours', 'cost', 'value'] as const;

function sortKey(ctx: Ctx, x: Row, col: string): number | string {
  const fits = x.fit !== 'no';
  switch (col) {
    case 'name': return x.name;
    case 'memory': return x.memoryBytes;
    case 'count': return fits ? x.gpu.count : Infinity;
    case 'hours': return fits && x.gpu.hours > 0 ? x.gpu.hours : Infinity;
    case 'gpu_hours': return fits && x.gpu.hours > 0 ? x.gpu.hours * x.gpu.count : Infinity;
    case 'cost': { const c = cashValue(ctx, x.cost, x.costCurrency); return Number.isFinite(c) ? c : Infinity; }
    default: return Number.isFinite(x.value) ? -x.value : Infinity;
  }
}

// The date of the offer the core priced the row on (contract v1.2 `offer`).
function rowDate(g: GpuRow): string | undefined {
  return g.offer?.as_of || undefined;
}

function reasons(ctx: Ctx, x: Row): string[] {
  const { t, lang } = ctx;
  const g = x.gpu;
  const out: string[] = [];
  const sci = g.science;
  if (x.fit === 'no') out.push(t('gpus.reason.nofit'));
  else if (sci) {
    // Science mode (docs/science.md): the baseline's rate moved to this card.
    out.push(t('sci.speedup', { x: sig(lang, sci.speedup) }));
    if (typeof sci.rate === 'number' && sci.rate > 0) out.push(`${sig(lang, sci.rate)} ${ctx.state.science.unit}`);
    if (typeof sci.fp64_ratio === 'number' && sci.fp64_ratio > 0) out.push(t('sci.ratio', { r: `1/${num(lang, 1 / sci.fp64_ratio)}` }));
  } else if (g.count > 1) out.push(t('gpus.reason.count', { n: g.count, mem: gib(lang, g.memory_total_bytes) }));
  else out.push(t('gpus.reason.one', { mem: gib(lang, g.memory_total_bytes), cap: gib(lang, x.memoryBytes) }));
  if (x.fit === 'tight') out.push(t('gpus.reason.tight'));
  // "No price" only from a planner that prices rows (contract v1.1 gpus[].cost).
  const priced = (ctx.response?.gpus ?? []).some((r) => r.cost !== undefined);
  if (priced && x.fit !== 'no' && g.hours > 0 && !Number.isFinite(x.cost)) out.push(t('gpus.reason.noprice'));
  if (g.platform) {
    out.push(t('gpus.reason.platform', { platform: platformName(ctx, g.platform), billing: label(t, 'billing', g.billing ?? '') }));
  }
  if (x.fit !== 'no' && !(g.hours > 0)) out.push(t('gpus.reason.nodata'));
  // The reverse questions (docs/api.md, "Memory fields"): on one card of this
  // type, the largest micro-batch and the longest sequence that fit.
  if (g.max_micro_batch > 0) out.push(t('gpus.reason.max_batch', { n: num(lang, g.max_micro_batch) }));
  if (g.max_seq_len > 0) out.push(t('gpus.reason.max_seq', { n: num(lang, g.max_seq_len) }));
  // Seed 004's cost-effectiveness coefficient, as the planner computes it
  // (gpus[].cost_effectiveness: TFLOPS per unit of the row's hourly price,
  // in the plan's currency).
  const eff = g.cost_effectiveness;
  if (x.fit !== 'no' && typeof eff === 'number' && eff > 0)
    out.push(t('gpus.reason.coef', { eff: sig(lang, eff), fp32: sig(lang, g.cost_effectiveness_fp32), cur: x.costCurrency }));
  return out;
}

// Time range: the rate's plausible band (throughput.low_factor..high_factor,
// the 10th-90th percentile of measured/estimated: docs/time-model.md "Range").
export function rangeText(ctx: Ctx, g: GpuRow): string {
  const tp = g.throughput ?? {};
  const lo = typeof tp.low_factor === 'number' ? tp.low_factor : undefined;
  const hi = typeof tp.high_factor === 'number' ? tp.high_factor : undefined;
  return ctx.t('range.explain', { lo: lo !== undefined ? num(ctx.lang, lo, 2) : '—', hi: hi !== undefined ? num(ctx.lang, hi, 2) : '—' });
}

export function gpusView(ctx: Ctx): HTMLElement {
  const { t, lang, state } = ctx;
  const all = rows(ctx);
  if (!all.length) return section('gpus', '4', t('section.gpus'), h('p', { class: 'muted' }, t('memory.none')));
  const desc = state.sort.startsWith('-');
  const col = desc ? state.sort.slice(1) : state.sort;
  all.sort((a, b) => {
    const ka = sortKey(ctx, a, col);
    const kb = sortKey(ctx, b, col);
    const c = typeof ka === 'string' ? ka.localeCompare(String(kb)) : ka === kb ? 0 : ka < (kb as number) ? -1 : 1;
    return desc ? -c : c;
  });
  const head = COLUMNS.map((c) => {
    const active = c === col;
    const sortAttr = active ? (desc ? 'descending' : 'ascending') : undefined;
    return h('th', { scope: 'col', 'aria-sort': sortAttr },
      h('button', { type: 'button', class: 'sort', 'data-key': `sort/${c}`, onclick: () => ctx.set({ sort: active && !desc ? `-${c}` : c }, { now: true }) },
        t(`gpus.col.${c}` as never), active ? (desc ? ' ▼' : ' ▲') : ''));
  });
  const fitText: Record<Fit, string> = { comfortable: '✓', tight: '⚠', no: '✗' };
  const body = all.map((x) => {
    const g = x.gpu;
    const fits = x.fit !== 'no';
    const timed = fits && g.hours > 0;
    const date = Number.isFinite(x.cost) ? rowDate(g) : undefined;
    return h('tr', { class: fits ? '' : 'nofit', 'data-gpu': g.id, 'data-fit': x.fit },
      h('th', { scope: 'row' }, x.name, g.science?.fp64_starved ? h('span', { class: 'badge bad', 'data-starved': '' }, t('sci.starved')) : null),
      h('td', null, gib(lang, x.memoryBytes)),
      h('td', null, fits ? `${fitText[x.fit]} ×${num(lang, g.count)}` : `✗ ${t('gpus.nofit')}`,
        x.fit === 'tight' ? h('span', { class: 'range' }, t('fit.tight')) : null),
      h('td', null, timed ? hours(lang, g.hours) : '—',
        timed && g.hours_low !== undefined && g.hours_low !== g.hours_high
          ? h('span', { class: 'range', title: rangeText(ctx, g) }, `${hours(lang, g.hours_low)}–${hours(lang, g.hours_high)}`) : null),
      h('td', null, timed ? num(lang, g.hours * g.count, 1) : '—'),
      h('td', { 'data-cost': '' }, cash(ctx, x.cost, x.costCurrency), date || x.gpu.offer?.confidence ? h('span', { class: 'range' }, date ? priceDate(ctx, date, x.gpu.offer?.stale) : '',
        x.gpu.offer?.confidence ? ` · ${x.gpu.offer.confidence === 'quote' ? ctx.t('confidence.quote') : label(ctx.t, 'confidence', x.gpu.offer.confidence)}` : '') : null),
      h('td', null, Number.isFinite(x.value) ? `${num(lang, x.value * 100)}%` : '—'),
      h('td', { class: 'reasons' }, reasons(ctx, x).join(t('list.sep'))));
  });
  const withCost = all.find((x) => Number.isFinite(x.cost));
  return section('gpus', '4', t('section.gpus'),
    h('p', { class: 'lead' }, t('gpus.lead')),
    h('p', { class: 'help', id: 'gpus-range-help' }, t('gpus.range.help')),
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': t('gpus.caption') },
      h('table', { class: 'gpus' },
        h('caption', { class: 'sr-only' }, t('gpus.caption')),
        h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, t('gpus.col.reasons')))),
        h('tbody', null, body))),
    withCost ? fxNote(ctx, withCost.costCurrency) : null,
    // The page's catalog leaves the spec sheets' sources out (CatalogProfile::page): say where they are.
    h('p', { class: 'source' }, t('catalog.sources')));
}
