// Two or three plans side by side: each saved project (or the
// form as it is) planned by the same planner, one row per figure, and the
// rows where they differ marked. Every figure is the planner's own; the page
// adds no fit, price or verdict (the fit is gpus[].fit / plan.stages[].fit).
import { h } from '../dom.ts';
import { gib, hours, money } from '../format.ts';
import { label } from '../i18n.ts';
import { toRequest } from '../request.ts';
import { STAGES, type State } from '../state.ts';
import { mdCell } from '../table_text.ts';
import type { PlanResponse } from '../types.ts';
import type { Ctx } from './context.ts';
import { gpuName, platformName } from './words.ts';

export interface CompareEntry { label: string; state: State; response: PlanResponse | null; error: string | null }

// plan() answers remembered by request text, for the comparison and the
// lab's total (views/lab_total.ts): a table stays open while the form
// changes, and only a changed request is planned again. A string: the
// planner's error message.
const answers = new Map<string, PlanResponse | string>();

export function planOf(ctx: Ctx, text: string): PlanResponse | string {
  let a = answers.get(text);
  if (a === undefined) {
    try {
      const out = JSON.parse(ctx.planner.plan(text)) as Record<string, unknown>;
      const err = out.error as { message?: unknown } | undefined;
      a = err ? String(err.message ?? '') : (out as unknown as PlanResponse);
    } catch {
      a = ctx.t('error.internal');
    }
    if (answers.size > 24) answers.clear();
    answers.set(text, a);
  }
  return a;
}

export function compareEntries(ctx: Ctx, list: { label: string; state: State }[]): CompareEntry[] {
  return list.map(({ label: name, state }) => {
    const a = planOf(ctx, JSON.stringify(toRequest(state, ctx.lang, ctx.quotes, ctx.catalog.models.find((m) => m.id === state.preset))));
    return typeof a === 'string' ? { label: name, state, response: null, error: a } : { label: name, state, response: a, error: null };
  });
}

export interface CompareRow { key: string; title: string; cells: string[]; differs: boolean }

function modelName(ctx: Ctx, s: State): string {
  if (s.mode === 'science') return `${label(ctx.t, 'mode', 'science')} · ${label(ctx.t, 'sci.kind', s.science.kind)}`;
  const m = s.source === 'preset' ? ctx.catalog.models.find((x) => x.id === s.preset)?.name ?? s.preset : ctx.t('model.source.custom');
  return `${m} · ${label(ctx.t, 'mode', s.mode)}${s.mode === 'train' ? ` · ${label(ctx.t, 'method', s.method)}` : ''}`;
}

// The planner's verdict on the card the plan chose (the formal stage's, else the first).
function fitOf(ctx: Ctx, r: PlanResponse): string {
  const stages = r.plan?.stages ?? [];
  const st = stages.find((s) => s.stage === 'formal' && s.feasible !== false) ?? stages.find((s) => s.feasible !== false);
  const gpu = st?.gpu ?? (r.gpus.length === 1 ? r.gpus[0].id : undefined);
  if (!gpu) return '—';
  const row = r.gpus.find((g) => g.id === gpu);
  // The stage's verdict (a feasible stage's `fit`), else the card's (gpus[].fit, always written).
  const verdict = st?.fit ?? row?.fit;
  return verdict ? `${ctx.gpu(gpu)?.name ?? gpu}: ${label(ctx.t, 'compare.fit', verdict)}` : '—';
}

export function compareRows(ctx: Ctx, entries: CompareEntry[]): CompareRow[] {
  const { t, lang } = ctx;
  const each = (f: (r: PlanResponse, e: CompareEntry) => string): string[] =>
    entries.map((e) => (e.response ? f(e.response, e) : e.error ?? '—'));
  const rows: Omit<CompareRow, 'differs'>[] = [
    { key: 'model', title: t('export.model'), cells: entries.map((e) => modelName(ctx, e.state)) },
    { key: 'memory', title: t('compare.memory'), cells: each((r) => gib(lang, r.memory.per_gpu.total_bytes)) },
    { key: 'fit', title: t('compare.fit'), cells: each((r) => fitOf(ctx, r)) },
    ...STAGES.map((stage) => ({
      key: `stage-${stage}`, title: label(t, 'stage', stage),
      cells: each((r) => {
        const s = (r.plan?.stages ?? []).find((x) => x.stage === stage);
        if (!s) return '—';
        if (s.feasible === false) return t('budget.infeasible');
        // The planner's verdict on this stage's card, said when it is tight (inside the headroom).
        const tight = s.fit === 'tight' ? ` · ${label(t, 'compare.fit', 'tight')}` : '';
        return `${gpuName(ctx, s.gpu)} ×${s.count} · ${platformName(ctx, s.platform)} · ${label(t, 'billing', s.billing ?? '')}${tight}`;
      }),
    })),
    { key: 'hours', title: t('compare.hours'), cells: each((r) => hours(lang, r.plan?.wall_hours)) },
    { key: 'total', title: t('compare.total'), cells: each((r) => {
      const p = r.plan;
      if (!p) return '—';
      const cur = p.currency;
      return p.feasible === false ? t('budget.infeasible')
        : `${money(lang, p.total_cost, cur)} (${money(lang, p.total_cost_low, cur)}–${money(lang, p.total_cost_high, cur)})`;
    }) },
    { key: 'budget', title: t('compare.budget'), cells: each((r) => {
      const p = r.plan;
      if (!p) return '—';
      if (p.feasible === false) return t('budget.infeasible');
      return t(p.within_budget === false ? 'compare.over' : 'compare.within', { budget: money(lang, p.budget, p.currency) });
    }) },
    { key: 'warnings', title: t('compare.warnings'), cells: each((r) => r.warnings.slice(0, 3).map((w) => w.message).join('\n') || '—') },
  ];
  return rows.map((r) => ({ ...r, differs: new Set(r.cells).size > 1 }));
}

// Markdown for a report: the same rows, differing ones marked.
export function compareMarkdown(ctx: Ctx, entries: CompareEntry[]): string {
  const lines = [`# ${ctx.t('compare.title')}`, '', `| | ${entries.map((e) => mdCell(e.label)).join(' | ')} |`, `| --- |${entries.map(() => ' --- |').join('')}`];
  for (const r of compareRows(ctx, entries)) lines.push(`| ${r.differs ? '**≠** ' : ''}${mdCell(r.title)} | ${r.cells.map(mdCell).join(' | ')} |`);
  lines.push('', ctx.t('compare.md_note'), '');
  return lines.join('\n');
}

export function compareTable(ctx: Ctx, entries: CompareEntry[]): HTMLElement {
  const { t } = ctx;
  return h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': t('compare.title') },
    h('table', { class: 'compare-table' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('compare.item')), entries.map((e) => h('th', { scope: 'col' }, e.label)))),
      h('tbody', null, compareRows(ctx, entries).map((r) => h('tr', { class: r.differs ? 'differs' : null, 'data-row': r.key },
        h('th', { scope: 'row' }, r.title, r.differs ? h('span', { class: 'badge diff' }, t('compare.differs')) : null),
        r.cells.map((c) => h('td', null, c)))))));
}
