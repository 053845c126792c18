// Step 6: the money, as the planner planned it (`plan`): per-stage choices,
// card-hours, wall time and costs, the budget and deadline checks, and the
// planner's cheaper changes ranked by what they save, each with "Apply".
// The page prices nothing: without a plan there is no budget.
import { h } from '../dom.ts';
import { changePatch, fieldPatch } from '../apply.ts';
import { hours, num, percent } from '../format.ts';
import { label } from '../i18n.ts';
import type { Alternative, OfferRef, Plan, PlanStage, RentVsBuy } from '../types.ts';
import type { Ctx } from './context.ts';
import { button, section } from './controls.ts';
import { cash, fxNote, gpuName, platformName, priceDate, sourceText } from './words.ts';

export interface StageCost {
  stage: string; gpu: string; count: number; platform: string; billing: string;
  gpuHours: number; wallHours: number; cost: number; share: number;
  feasible: boolean; why: string; storage: number; sharding: string; fit: string;
  changes: { field: string; value: unknown }[];
  memoryBytes: number; perRun: number; parallel: number;  // one run's per-GPU memory as planned; its cards; runs side by side
  offer?: OfferRef; costLow: number; costHigh: number; reference: string;  // the core's: what the price is, the range, a lower unverified price
}
export interface Budget {
  stages: StageCost[]; total: number; currency: string; feasible: boolean; within?: boolean;
  category?: string; wallHours: number; budget?: number;
}

// Card-hours (卡·时, GPU-hours) of a stage: its billed instance hours × GPUs
// per instance (docs/api.md, plan.stages[]).
export function stageGpuHours(s: PlanStage): number {
  return s.hours * Math.max(1, s.count ?? 1);
}

// The plan's stages as the views read them. The core writes every field a
// feasible stage has (core/src/write/response_json.cpp, write_stage); an
// infeasible one has no card, platform or price, read here as none.
export function budgetOf(ctx: Ctx): Budget | null {
  const plan: Plan | undefined = ctx.response?.plan;
  if (!plan?.stages.length) return null;
  const stages = plan.stages.map((s): StageCost => ({
    stage: s.stage, gpu: s.gpu ?? '', count: s.count ?? 1, platform: s.platform ?? '',
    billing: s.billing ?? '', gpuHours: stageGpuHours(s), wallHours: s.wall_hours ?? 0,
    cost: s.cost, share: s.share, feasible: s.feasible, why: s.why,
    storage: s.storage_cost ?? 0, sharding: s.sharding ?? '', fit: s.fit ?? '', changes: s.workload_changes,
    memoryBytes: s.memory_bytes ?? 0, perRun: s.gpus_per_run ?? 1, parallel: s.parallel_runs ?? 1,
    offer: s.offer, costLow: s.cost_low ?? NaN, costHigh: s.cost_high ?? NaN, reference: s.reference?.message ?? '',
  }));
  const feasible = plan.feasible !== false && stages.every((s) => s.feasible);
  return {
    stages, total: plan.total_cost, currency: plan.currency, feasible,
    within: feasible ? plan.within_budget : false, category: plan.category, wallHours: plan.wall_hours, budget: plan.budget,
  };
}

// Every price shows its date: the offer the stage was priced on.
// With the core's `offer` (contract v1.2): its date, its confidence, and the
// stage's cost range beside the point figure; a lower unverified price after.
function dateOf(ctx: Ctx, s: StageCost, currency: string): HTMLElement | null {
  const { t } = ctx;
  const o = s.offer;
  const d = o?.as_of;
  const range = Number.isFinite(s.costLow) && Number.isFinite(s.costHigh) && s.costHigh > s.costLow
    ? t('budget.cost_range', { low: cash(ctx, s.costLow, currency), high: cash(ctx, s.costHigh, currency) }) : '';
  const parts: (string | HTMLElement)[] = [range, d ? priceDate(ctx, d, o?.stale) : o?.confidence === 'quote' ? t('confidence.quote') : '',
    o?.confidence && o.confidence !== 'quote' ? label(t, 'confidence', o.confidence) : ''].filter((x) => x !== '');
  if (!parts.length && !s.reference) return null;
  const joined = parts.flatMap((x, i) => (i ? [' · ', x] : [x]));
  return h('span', { class: 'range', 'data-offer': o?.confidence ?? '' }, ...joined,
    s.reference ? h('span', { class: 'reference' }, ` ${s.reference}`) : '');
}

// "Apply" next to a proposed change: the form takes it (undoable), the plan follows.
function applyButton(ctx: Ctx, patch: ReturnType<typeof changePatch>, what: string, key: string): HTMLElement | null {
  return patch ? button(ctx.t('apply'), () => ctx.apply(patch, what), { class: 'apply', 'data-apply': key, 'aria-label': `${ctx.t('apply')}: ${what}` }) : null;
}

function changeText(ctx: Ctx, c: { field: string; value: unknown }): string {
  const { t } = ctx;
  const key = c.field.replace(/^workload\./, '').replace(/^lora\./, 'lora.');
  const name = label(t, 'field', key);
  const value = typeof c.value === 'boolean' ? t(c.value ? 'on' : 'off')
    : typeof c.value === 'string' ? label(t, key, c.value) : num(ctx.lang, c.value, 2);
  return t('budget.workload_change', { field: name === key ? key : name, value });
}

function stageNotes(ctx: Ctx, b: Budget): HTMLElement | null {
  const { t } = ctx;
  const items = b.stages.filter((s) => s.why || s.changes.length || (s.sharding && s.sharding !== 'none') || s.fit === 'tight');
  if (!items.length) return null;
  const plan = ctx.response?.plan;
  return h('ul', { class: 'whys' }, items.map((s) => h('li', { 'data-stage': s.stage },
    h('strong', null, label(t, 'stage', s.stage)), s.why ? `: ${s.why}` : '',
    s.sharding && s.sharding !== 'none' ? h('span', { class: 'range' }, t(ctx.state.sharding ? 'budget.sharding.yours' : 'budget.sharding', { how: shardingText(ctx, s.sharding) })) : null,
    s.fit === 'tight' ? h('span', { class: 'range' }, t('fit.tight')) : null,
    s.changes.map((c) => {
      const text = changeText(ctx, c);
      return h('span', { class: 'range change' }, text, ' ', applyButton(ctx, fieldPatch(ctx.state, c.field, c.value), text, `${s.stage}/${c.field}`));
    }),
    alternativesLine(ctx, (plan?.stages ?? []).find((x) => x.stage === s.stage), b.currency))));
}

// Inference has no gradients to shard: several cards either split the
// weights (the core's zero3) or each hold a copy (the stage's why says how).
function shardingText(ctx: Ctx, sharding: string): string {
  if (ctx.state.mode !== 'infer') return label(ctx.t, 'sharding', sharding);
  return ctx.t(sharding === 'zero3' ? 'sharding.infer.split' : 'sharding.infer.copies');
}

const COLUMNS = ['budget.stage', 'budget.runs', 'platform.gpu', 'platform.name', 'budget.gpu_hours', 'budget.wall', 'budget.cost', 'memory.share'] as const;

export function budgetView(ctx: Ctx): HTMLElement {
  const { t, lang, state } = ctx;
  const b = budgetOf(ctx);
  if (!b) return section('budget', '6', t('section.budget'), h('p', { class: 'muted' }, t('budget.none')));
  const plan = ctx.response?.plan;
  const over = b.feasible && b.within === false;
  const nothing = (ctx.response?.warnings ?? []).find((w) => w.code === 'nothing_fits' || w.code === 'no_option');
  const headline = b.feasible
    ? h('p', { class: 'figure' }, h('strong', { class: 'big', id: 'budget-total' }, cash(ctx, b.total, b.currency)), ' ', t('budget.total'),
        b.budget !== undefined ? h('span', { class: over ? 'badge bad' : 'badge good', id: 'budget-verdict' },
          t(over ? 'budget.over' : 'budget.within', { budget: cash(ctx, b.budget, b.currency) })) : null)
    : h('div', { class: 'infeasible bad', id: 'budget-infeasible', role: 'alert' },
        h('strong', { class: 'big' }, t('budget.infeasible.title')),
        h('p', null, nothing ? nothing.message : t('budget.infeasible.help')));
  const bar = h('div', { class: 'bar stages', role: 'img', 'aria-label': b.stages.map((s) => `${label(t, 'stage', s.stage)} ${percent(lang, s.share)}`).join(', ') });
  b.stages.forEach((s, i) => {
    const seg = h('span', { class: `seg seg-${i + 4}` }, s.share >= 0.12 ? label(t, 'stage', s.stage) : '');
    seg.style.width = `${100 * s.share}%`;
    bar.appendChild(seg);
  });
  const storage = b.stages.reduce((sum, s) => sum + s.storage, 0);
  const changes = over && plan?.changes ? [...plan.changes].sort((x, y) => (y.saving ?? 0) - (x.saving ?? 0)) : [];
  return section('budget', '6', t('section.budget'),
    b.category ? h('p', null, t('budget.category'), ' ', h('strong', null, label(t, 'category', b.category))) : null,
    headline,
    b.feasible ? h('div', { class: 'chart' }, bar) : null,
    // On a phone each stage is a block of "label: value" lines (styles.css): the
    // explicit roles keep it a table for screen readers whatever its display.
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': t('budget.table') },
      h('table', { class: 'budget', role: 'table' },
        h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, COLUMNS.map((k) => h('th', { scope: 'col', role: 'columnheader' }, t(k))))),
        h('tbody', { role: 'rowgroup' }, b.stages.map((s) => {
          const st = (plan?.stages ?? []).find((x) => x.stage === s.stage);
          const cell = (k: (typeof COLUMNS)[number], attrs: Record<string, string>, ...kids: (string | HTMLElement | null)[]): HTMLElement =>
            h('td', { role: 'cell', 'data-label': t(k), ...attrs }, ...kids);
          return h('tr', { 'data-stage': s.stage, role: 'row' },
            h('th', { scope: 'row', class: 'stage-name', role: 'rowheader' }, label(t, 'stage', s.stage)),
            cell('budget.runs', {}, num(lang, st?.runs)),
            cell('platform.gpu', {}, s.feasible ? `${gpuName(ctx, s.gpu)} ×${num(lang, s.count)}` : t('budget.infeasible')),
            cell('platform.name', {}, s.feasible && s.platform ? `${platformName(ctx, s.platform)} · ${label(t, 'billing', s.billing)}` : '—'),
            cell('budget.gpu_hours', { 'data-gpu-hours': '' }, s.feasible ? num(lang, s.gpuHours, 1) : '—'),
            cell('budget.wall', { 'data-wall-hours': '' }, s.feasible ? hours(lang, s.wallHours) : '—'),
            cell('budget.cost', { 'data-cost': '' }, s.feasible ? cash(ctx, s.cost, b.currency) : '—', s.feasible && s.platform ? dateOf(ctx, s, b.currency) : null),
            cell('memory.share', {}, s.feasible ? percent(lang, s.share) : '—'));
        })))),
    h('p', { class: 'help' }, t('budget.columns.help')),
    fxNote(ctx, b.currency),
    stageNotes(ctx, b),
    plan?.category_advice ? h('p', { class: 'help' }, plan.category_advice) : null,
    b.feasible ? h('p', { id: 'budget-wall' }, t('budget.wall.plan', { time: hours(lang, b.wallHours) }),
      plan?.meets_deadline === false ? h('strong', { class: 'badge bad' }, t('budget.deadline.missed')) : null) : null,
    (plan?.advice ?? []).length ? h('ul', { class: 'plan-advice' }, (plan?.advice ?? []).map((a) => h('li', { 'data-code': a.code }, a.message ?? a.code))) : null,
    h('h3', null, t('budget.hidden.title')),
    h('ul', { class: 'hidden-costs' },
      storage > 0 ? h('li', null, t('budget.hidden.storage', { cost: cash(ctx, storage, b.currency) })) : null,
      ['budget.hidden.disk', 'budget.hidden.data', 'budget.hidden.idle', 'budget.hidden.failed'].map((k) => h('li', null, t(k as never)))),
    plan?.rent_vs_buy ? rentVsBuy(ctx, plan.rent_vs_buy, b.currency) : null,
    over ? h('h3', null, t('budget.cheaper')) : null,
    over ? (changes.length
      ? h('ol', { class: 'changes' }, changes.map((c) => {
          // The planner's sentence names its amounts in the plan's currency;
          // shown in another, the change is named by its code instead.
          const text = c.message && state.currency === b.currency ? c.message : label(t, 'change', c.code);
          return h('li', { 'data-change': c.code }, text, ' ',
            h('span', { class: 'saving' }, `(${t(c.saving_is_upper_bound ? 'budget.saves_upto' : 'budget.saves', { saving: cash(ctx, c.saving, b.currency) })})`), ' ',
            applyButton(ctx, changePatch(state, c), text, `change/${c.code}`));
        }))
      : h('p', null, t('budget.cheaper.none'))) : null);
}

// The planner's other options for a stage (cheapest, fastest, best value).
function alternativesLine(ctx: Ctx, stage: PlanStage | undefined, currency: string): HTMLElement | null {
  const { t, lang } = ctx;
  const alts: Alternative[] = stage?.alternatives ?? [];
  const others = alts.filter((a) => !(a.gpu === stage?.gpu && a.platform === stage?.platform && a.billing === stage?.billing));
  if (!others.length) return null;
  return h('span', { class: 'range' }, `${t('budget.alternatives')} `, others.map((a, i) =>
    `${i ? t('list.sep') : ''}${label(t, 'alt', a.kind)}: ${gpuName(ctx, a.gpu)} ×${num(lang, a.count)} · ${platformName(ctx, a.platform)} · ${cash(ctx, a.cost, currency)} · ${hours(lang, a.wall_hours)}`).join(''));
}

function rentVsBuy(ctx: Ctx, r: RentVsBuy, currency: string): HTMLElement {
  const { t, lang } = ctx;
  return h('div', { class: 'rent-buy' },
    h('h3', null, t('budget.rentbuy.title', { gpu: gpuName(ctx, r.gpu) })),
    h('dl', { class: 'rules' },
      h('dt', null, t('budget.rentbuy.rent')), h('dd', null, cash(ctx, r.rent_cost, currency)),
      h('dt', null, t('budget.rentbuy.buy')), h('dd', null, cash(ctx, r.buy_cost, currency)),
      h('dt', null, t('budget.rentbuy.break_even')), h('dd', null, `${num(lang, r.break_even_gpu_hours)} ${t('unit.gpu_hour')}`),
      h('dt', null, t('budget.rentbuy.utilization')), h('dd', null, percent(lang, r.utilization_to_break_even))),
    h('p', null, h('strong', null, t(r.cheaper === 'buy' ? 'budget.rentbuy.buy_cheaper' : 'budget.rentbuy.rent_cheaper'))),
    r.source ? h('p', { class: 'source' }, `${t('platform.sources')}: ${sourceText(ctx, r.source)}`) : null);
}
