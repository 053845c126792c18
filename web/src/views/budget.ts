// Step 6: the money. The planner's `plan` (per-stage choices and costs) when
// the response carries one; until then, an estimate from the cheapest GPU
// row, labelled as such. Then the budget and deadline checks, and cheaper
// alternatives ranked by what they save.
import { h } from '../dom';
import { hours, money, percent, num } from '../format';
import { label } from '../i18n';
import { convert } from '../pricing';
import { stageRuns } from '../state';
import type { Plan, PlanStage, RentVsBuy } from '../types';
import type { Ctx } from './context';
import { section } from './controls';
import { rows, type Row } from './gpus';

export interface StageCost {
  stage: string; gpu: string; count: number; platform: string; billing: string; hours: number; cost: number; share: number;
  feasible: boolean; why: string; storage: number;
}
export interface Budget { source: 'planner' | 'page'; stages: StageCost[]; total: number; currency: string; within?: boolean; category?: string; wallHours: number }

function fromPlan(ctx: Ctx, plan: Plan): Budget {
  const stages = (plan.stages ?? []).map((s) => ({
    stage: String(s.stage), gpu: String(s.gpu ?? ''), count: Number(s.count ?? 1), platform: String(s.platform ?? ''),
    billing: String(s.billing ?? ''), hours: Number(s.hours ?? 0), cost: Number(s.cost ?? 0), share: Number(s.share ?? 0),
    feasible: s.feasible !== false, why: typeof s.why === 'string' ? s.why : '', storage: Number(s.storage_cost ?? 0),
  }));
  const currency = typeof plan.currency === 'string' ? plan.currency : ctx.state.budget_currency;
  return { source: 'planner', stages, total: Number(plan.total_cost ?? 0), currency, within: plan.within_budget,
    category: plan.category,
    wallHours: typeof plan.wall_hours === 'number' ? plan.wall_hours : stages.reduce((s, x) => s + x.hours / Math.max(1, x.count), 0) };
}

export function cheapestRow(all: Row[]): Row | null {
  return all.filter((x) => Number.isFinite(x.runCost)).sort((a, b) => a.runCost - b.runCost)[0] ?? null;
}

function fromRows(ctx: Ctx, best: Row): Budget {
  const on = ctx.state.stages.filter((s) => s.on && stageRuns(s) > 0);
  const stages = on.map((s) => {
    const runs = stageRuns(s) * s.fraction;
    return { stage: s.stage, gpu: best.gpu.id, count: best.gpu.count, platform: best.best?.platform.id ?? '', billing: best.best?.billing ?? '',
      hours: runs * best.gpu.hours * best.gpu.count, cost: runs * best.runCost, share: 0, feasible: true, why: '', storage: 0 };
  });
  const total = stages.reduce((s, x) => s + x.cost, 0);
  for (const s of stages) s.share = total > 0 ? s.cost / total : 0;
  const budget = convert(ctx.state.budget, ctx.state.budget_currency, ctx.state.currency, ctx.catalog);
  return { source: 'page', stages, total, currency: ctx.state.currency, within: ctx.state.budget > 0 ? total <= budget : undefined,
    wallHours: stages.reduce((s, x) => s + x.hours / Math.max(1, x.count), 0) };
}

export function budgetOf(ctx: Ctx): Budget | null {
  const plan = ctx.response?.plan;
  if (plan && Array.isArray(plan.stages) && plan.stages.length) return fromPlan(ctx, plan);
  const best = cheapestRow(rows(ctx));
  return best && ctx.state.stages.some((s) => s.on && stageRuns(s) > 0) ? fromRows(ctx, best) : null;
}

export function budgetView(ctx: Ctx): HTMLElement {
  const { t, lang, state } = ctx;
  const b = budgetOf(ctx);
  if (!b) return section('budget', '6', t('section.budget'), h('p', { class: 'muted' }, t('budget.none')));
  const bar = h('div', { class: 'bar stages', role: 'img', 'aria-label': b.stages.map((s) => `${label(t, 'stage', s.stage)} ${percent(lang, s.share)}`).join(', ') });
  b.stages.forEach((s, i) => {
    const seg = h('span', { class: `seg seg-${i + 4}` }, s.share >= 0.12 ? label(t, 'stage', s.stage) : '');
    seg.style.width = `${100 * s.share}%`;
    bar.appendChild(seg);
  });
  const budgetInCur = convert(state.budget, state.budget_currency, b.currency, ctx.catalog);
  const over = state.budget > 0 && b.total > budgetInCur;
  const deadlineHours = state.deadline_days * 24;
  const parallel = deadlineHours > 0 && b.wallHours > deadlineHours ? Math.ceil(b.wallHours / deadlineHours) : 0;
  const plan = b.source === 'planner' ? ctx.response?.plan : undefined;
  // The planner ranks its own changes by saving; the page's are a fallback.
  const alternatives = !over ? [] : plan?.changes
    ? [...plan.changes].sort((x, y) => (y.saving ?? 0) - (x.saving ?? 0)).map((c) => `${c.message ?? c.code} (${t(c.saving_is_upper_bound ? 'budget.saves_upto' : 'budget.saves', { saving: money(lang, c.saving, b.currency) })})`)
    : cheaper(ctx, b);
  const whys = b.stages.filter((s) => s.why).map((s) => [s.stage, s.why] as const);
  const storage = b.stages.reduce((sum, s) => sum + (Number.isFinite(s.storage) ? s.storage : 0), 0);
  return section('budget', '6', t('section.budget'),
    b.source === 'page' ? h('p', { class: 'note' }, t('budget.page_estimate')) : null,
    b.category ? h('p', null, t('budget.category'), ' ', h('strong', null, label(t, 'category', b.category))) : null,
    h('p', { class: 'figure' }, h('strong', { class: 'big', id: 'budget-total' }, money(lang, b.total, b.currency)), ' ', t('budget.total'),
      state.budget > 0 ? h('span', { class: over ? 'badge bad' : 'badge good' }, t(over ? 'budget.over' : 'budget.within', { budget: money(lang, budgetInCur, b.currency) })) : null),
    h('div', { class: 'chart' }, bar),
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': t('budget.table') },
      h('table', null,
        h('thead', null, h('tr', null, ['budget.stage', 'platform.gpu', 'platform.name', 'budget.hours', 'budget.cost', 'memory.share'].map((k) => h('th', { scope: 'col' }, t(k as never))))),
        h('tbody', null, b.stages.map((s) => h('tr', null,
          h('th', { scope: 'row' }, label(t, 'stage', s.stage)),
          h('td', null, s.feasible ? `${ctx.gpu(s.gpu)?.name ?? s.gpu} ×${num(lang, s.count)}` : t('budget.infeasible')),
          h('td', null, s.platform ? `${ctx.catalog.platforms.find((p) => p.id === s.platform)?.name ?? s.platform} · ${label(t, 'billing', s.billing)}` : '—'),
          h('td', null, hours(lang, s.hours)),
          h('td', null, money(lang, s.cost, b.currency)),
          h('td', null, percent(lang, s.share))))))),
    whys.length ? h('ul', { class: 'whys' }, whys.map(([st, why]) => h('li', null, h('strong', null, label(t, 'stage', st)), `: ${why}`,
      alternativesLine(ctx, (plan?.stages ?? []).find((x) => x.stage === st), b.currency)))) : null,
    plan?.category_advice ? h('p', { class: 'help' }, plan.category_advice) : null,
    b.source === 'planner'
      ? h('p', null, t('budget.wall.plan', { time: hours(lang, b.wallHours) }),
          plan?.meets_deadline === false ? h('strong', { class: 'badge bad' }, t('budget.deadline.missed')) : null)
      : h('p', null, t('budget.wall', { time: hours(lang, b.wallHours) }),
          parallel ? h('strong', null, ' ', t('budget.parallel', { n: parallel, days: num(lang, state.deadline_days) })) : null),
    (plan?.advice ?? []).length ? h('ul', { class: 'plan-advice' }, (plan?.advice ?? []).map((a) => h('li', { 'data-code': a.code }, a.message ?? a.code))) : null,
    h('h3', null, t('budget.hidden.title')),
    h('ul', { class: 'hidden-costs' },
      storage > 0 ? h('li', null, t('budget.hidden.storage', { cost: money(lang, storage, b.currency) })) : null,
      ['budget.hidden.disk', 'budget.hidden.data', 'budget.hidden.idle', 'budget.hidden.failed'].map((k) => h('li', null, t(k as never)))),
    plan?.rent_vs_buy ? rentVsBuy(ctx, plan.rent_vs_buy, b.currency) : null,
    over ? h('h3', null, t('budget.cheaper')) : null,
    over ? (alternatives.length ? h('ol', { class: 'changes' }, alternatives.map((a) => h('li', null, a))) : h('p', null, t('budget.cheaper.none'))) : null);
}

// The planner's other options for a stage (cheapest, fastest, best value).
function alternativesLine(ctx: Ctx, stage: PlanStage | undefined, currency: string): HTMLElement | null {
  const { t, lang } = ctx;
  const alts = Array.isArray(stage?.alternatives) ? (stage.alternatives as PlanStage[]) : [];
  const others = alts.filter((a) => !(a.gpu === stage?.gpu && a.platform === stage?.platform && a.billing === stage?.billing));
  if (!others.length) return null;
  return h('span', { class: 'range' }, `${t('budget.alternatives')} `, others.map((a, i) => {
    const p = ctx.catalog.platforms.find((x) => x.id === a.platform);
    const name = p ? (lang === 'zh-CN' ? p.name_zh ?? p.name : p.name) : String(a.platform ?? '');
    return `${i ? t('list.sep') : ''}${label(t, 'alt', String(a.kind ?? ''))}: ${ctx.gpu(String(a.gpu ?? ''))?.name ?? a.gpu} ×${num(lang, a.count)} · ${name} · ${money(lang, a.cost, currency)} · ${hours(lang, a.wall_hours)}`;
  }).join(''));
}

function rentVsBuy(ctx: Ctx, r: RentVsBuy, currency: string): HTMLElement {
  const { t, lang } = ctx;
  return h('div', { class: 'rent-buy' },
    h('h3', null, t('budget.rentbuy.title', { gpu: ctx.gpu(String(r.gpu ?? ''))?.name ?? String(r.gpu ?? '') })),
    h('dl', { class: 'rules' },
      h('dt', null, t('budget.rentbuy.rent')), h('dd', null, money(lang, r.rent_cost, currency)),
      h('dt', null, t('budget.rentbuy.buy')), h('dd', null, money(lang, r.buy_cost, currency)),
      h('dt', null, t('budget.rentbuy.break_even')), h('dd', null, `${num(lang, r.break_even_gpu_hours)} ${t('unit.gpu_hour')}`),
      h('dt', null, t('budget.rentbuy.utilization')), h('dd', null, percent(lang, r.utilization_to_break_even))),
    h('p', null, h('strong', null, t(r.cheaper === 'buy' ? 'budget.rentbuy.buy_cheaper' : 'budget.rentbuy.rent_cheaper'))),
    r.source ? h('p', { class: 'source' }, r.source) : null);
}

// Cheaper ways to the same results, ranked by what they save.
function cheaper(ctx: Ctx, b: Budget): string[] {
  const { t, lang } = ctx;
  const all = rows(ctx);
  const runs = ctx.state.stages.filter((s) => s.on).reduce((s, x) => s + stageRuns(x) * x.fraction, 0);
  const options: { saving: number; text: string }[] = [];
  const total = convert(b.total, b.currency, ctx.state.currency, ctx.catalog);
  for (const r of all) {
    if (!Number.isFinite(r.projectCost) || !(r.projectCost < total)) continue;
    options.push({ saving: total - r.projectCost, text: t('budget.alt.gpu', { gpu: r.name, cost: money(lang, r.projectCost, ctx.state.currency), saving: money(lang, total - r.projectCost, ctx.state.currency) }) });
  }
  const debug = ctx.state.stages.find((s) => s.stage === 'debug' && s.on);
  if (debug && debug.fraction > 0.05 && runs > 0) {
    const saving = (total / runs) * stageRuns(debug) * (debug.fraction - 0.05);
    options.push({ saving, text: t('budget.alt.debug', { saving: money(lang, saving, ctx.state.currency) }) });
  }
  const formal = ctx.state.stages.find((s) => s.stage === 'formal' && s.on);
  if (formal && formal.seeds > 3 && runs > 0) {
    const saving = (total / runs) * formal.sweep * formal.ablations * (formal.seeds - 3) * formal.fraction;
    options.push({ saving, text: t('budget.alt.seeds', { saving: money(lang, saving, ctx.state.currency) }) });
  }
  return options.filter((o) => Number.isFinite(o.saving) && o.saving > 0).sort((a, b2) => b2.saving - a.saving).slice(0, 5).map((o) => o.text);
}
