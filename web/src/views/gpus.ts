// Step 4: every GPU the planner evaluated, with fit, count, time, cost and
// value, sortable, and the reasons in words.
import { h } from '../dom';
import { gib, hours, money, num, sig } from '../format';
import { priceOptions, type PriceOption } from '../pricing';
import { stageRuns } from '../state';
import type { GpuRow } from '../types';
import type { Ctx } from './context';
import { section } from './controls';

export interface Row {
  gpu: GpuRow;
  name: string;
  memoryBytes: number;
  best: PriceOption | null;
  runCost: number; // one run, display currency, typical price
  runCostLow: number;
  runCostHigh: number;
  projectCost: number; // every stage's runs
  value: number; // cheapest fitting run cost / this run cost (1 = best)
}

export function projectRuns(ctx: Ctx): number {
  const on = ctx.state.stages.filter((s) => s.on);
  return on.length ? on.reduce((sum, s) => sum + stageRuns(s) * s.fraction, 0) : 1;
}

export function rows(ctx: Ctx): Row[] {
  const r = ctx.response;
  if (!r) return [];
  const runs = projectRuns(ctx);
  const out = r.gpus.map((g): Row => {
    const cat = ctx.gpu(g.id);
    const best = priceOptions(g.id, ctx.state, ctx.catalog, ctx.quotes)[0] ?? null;
    const gpuHours = g.hours * g.count;
    const runCost = best && g.fits && g.hours > 0 ? gpuHours * best.perGpuHour.typical : NaN;
    return {
      gpu: g, name: cat?.name ?? g.id, memoryBytes: cat?.memory_bytes ?? 0, best, runCost,
      runCostLow: best ? (g.hours_low ?? g.hours) * g.count * best.perGpuHour.low : NaN,
      runCostHigh: best ? (g.hours_high ?? g.hours) * g.count * best.perGpuHour.high : NaN,
      projectCost: runCost * runs, value: NaN,
    };
  });
  const cheapest = Math.min(...out.filter((x) => Number.isFinite(x.runCost)).map((x) => x.runCost));
  for (const x of out) x.value = Number.isFinite(x.runCost) && x.runCost > 0 ? cheapest / x.runCost : NaN;
  return out;
}

const COLUMNS = ['name', 'memory', 'count', 'hours', 'cost', 'project', 'value'] as const;

function sortKey(x: Row, col: string): number | string {
  switch (col) {
    case 'name': return x.name;
    case 'memory': return x.memoryBytes;
    case 'count': return x.gpu.fits ? x.gpu.count : Infinity;
    case 'hours': return x.gpu.fits && x.gpu.hours > 0 ? x.gpu.hours : Infinity;
    case 'cost': return Number.isFinite(x.runCost) ? x.runCost : Infinity;
    case 'project': return Number.isFinite(x.projectCost) ? x.projectCost : Infinity;
    default: return Number.isFinite(x.value) ? -x.value : Infinity;
  }
}

function reasons(ctx: Ctx, x: Row): string[] {
  const { t, lang } = ctx;
  const g = x.gpu;
  const out: string[] = [];
  const sci = g.science;
  if (!g.fits) out.push(t('gpus.reason.nofit'));
  else if (sci) {
    // Science mode (docs/science.md): the baseline's rate moved to this card.
    out.push(t('sci.speedup', { x: sig(lang, sci.speedup) }));
    if (typeof sci.rate === 'number' && sci.rate > 0) out.push(`${sig(lang, sci.rate)} ${ctx.state.science.unit}`);
    if (typeof sci.fp64_ratio === 'number' && sci.fp64_ratio > 0) out.push(t('sci.ratio', { r: `1/${num(lang, 1 / sci.fp64_ratio)}` }));
  } else if (g.count > 1) out.push(t('gpus.reason.count', { n: g.count, mem: gib(lang, g.memory_total_bytes) }));
  else out.push(t('gpus.reason.one', { mem: gib(lang, g.memory_total_bytes), cap: gib(lang, x.memoryBytes) }));
  if (g.fits && !x.best) out.push(t('gpus.reason.noprice'));
  if (x.best) out.push(t('gpus.reason.platform', { platform: ctx.lang === 'zh-CN' ? x.best.platform.name_zh ?? x.best.platform.name : x.best.platform.name, billing: t(`billing.${x.best.billing}` as never) }));
  if (g.fits && !(g.hours > 0)) out.push(t('gpus.reason.nodata'));
  // The reverse questions (docs/api.md, "Memory fields"): on one card of this
  // type, the largest micro-batch and the longest sequence that fit.
  if (typeof g.max_micro_batch === 'number' && g.max_micro_batch > 0) out.push(t('gpus.reason.max_batch', { n: num(lang, g.max_micro_batch) }));
  if (typeof g.max_seq_len === 'number' && g.max_seq_len > 0) out.push(t('gpus.reason.max_seq', { n: num(lang, g.max_seq_len) }));
  // Seed 004's cost-effectiveness coefficient, TFLOPS per unit of hourly price:
  // on the precision the workload really uses (achieved rate, docs/time-model.md),
  // next to the seed's own version (FP32 peak x utilization), which ranks an A100
  // below consumer cards because it ignores the tensor cores.
  const tp = g.throughput;
  const price = x.best?.perGpuHour.typical ?? 0;
  if (g.fits && price > 0 && tp && typeof tp.achieved_tflops === 'number' && tp.achieved_tflops > 0)
    out.push(t('gpus.reason.coef', { eff: sig(lang, tp.achieved_tflops / price),
      fp32: sig(lang, (tp.fp32_peak_tflops ?? 0) * (tp.utilization ?? 0) / price), cur: ctx.state.currency }));
  // Extra reasons the planner may send (strings or {message}).
  const extra = Array.isArray(g.reasons) ? g.reasons : [];
  for (const e of extra) {
    if (typeof e === 'string') out.push(e);
    else if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') out.push((e as { message: string }).message);
  }
  return out;
}

export function gpusView(ctx: Ctx): HTMLElement {
  const { t, lang, state } = ctx;
  const all = rows(ctx);
  if (!all.length) return section('gpus', '4', t('section.gpus'), h('p', { class: 'muted' }, t('memory.none')));
  const desc = state.sort.startsWith('-');
  const col = desc ? state.sort.slice(1) : state.sort;
  all.sort((a, b) => {
    const ka = sortKey(a, col);
    const kb = sortKey(b, col);
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
  const cur = state.currency;
  const body = all.map((x) => {
    const g = x.gpu;
    return h('tr', { class: g.fits ? '' : 'nofit', 'data-gpu': g.id },
      h('th', { scope: 'row' }, x.name, g.science?.fp64_starved ? h('span', { class: 'badge bad', 'data-starved': '' }, t('sci.starved')) : null),
      h('td', null, gib(lang, x.memoryBytes)),
      h('td', null, g.fits ? `${g.fits ? '✓' : ''} ×${num(lang, g.count)}` : `✗ ${t('gpus.nofit')}`),
      h('td', null, g.fits && g.hours > 0 ? hours(lang, g.hours) : '—',
        g.fits && g.hours_low !== undefined && g.hours > 0 && g.hours_low !== g.hours_high ? h('span', { class: 'range' }, `${hours(lang, g.hours_low)}–${hours(lang, g.hours_high)}`) : null),
      h('td', null, money(lang, x.runCost, cur),
        Number.isFinite(x.runCost) ? h('span', { class: 'range' }, `${money(lang, x.runCostLow, cur)}–${money(lang, x.runCostHigh, cur)}`) : null),
      h('td', null, money(lang, x.projectCost, cur)),
      h('td', null, Number.isFinite(x.value) ? `${num(lang, x.value * 100)}%` : '—'),
      h('td', { class: 'reasons' }, reasons(ctx, x).join(t('list.sep'))));
  });
  return section('gpus', '4', t('section.gpus'),
    h('p', { class: 'lead' }, t('gpus.lead', { runs: num(lang, projectRuns(ctx), 1) })),
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': t('gpus.caption') },
      h('table', { class: 'gpus' },
        h('caption', { class: 'sr-only' }, t('gpus.caption')),
        h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, t('gpus.col.reasons')))),
        h('tbody', null, body))),
    // The page's catalog leaves the spec sheets' sources out (CatalogProfile::page): say where they are.
    h('p', { class: 'source' }, t('catalog.sources')));
}
