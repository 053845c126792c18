// The lab's total (lab settings pane): every saved project planned by the
// planner with the lab's settings, its stages' costs summed by stage and by
// month against the lab's budget, and the projects that need the lab's cards
// in the same weeks. Each figure is the planner's; the page only adds them up
// and lays the stages end to end from the day the project was saved (the
// planner's stage order and wall times), which is what "month" and "week" mean here.
import { download, h } from '../dom.ts';
import { withLab, type LabMine, type LabSettings } from '../lab_settings.ts';
import { toRequest } from '../request.ts';
import type { Project } from '../storage_state.ts';
import { csvCell, mdCell } from '../table_text.ts';
import type { PlanStage } from '../types.ts';
import type { Ctx } from './context.ts';
import { label } from '../i18n.ts';
import { cash, cashValue, gpuName, platformName } from './words.ts';
import { planOf } from './compare.ts';

const stageName = (ctx: Ctx, id: string): string => label(ctx.t, 'stage', id);

export interface TotalRow {
  project: string; stage: string; platform: string; gpu: string; count: number;
  cost: number; currency: string; start: Date; end: Date; month: string;
  priceDate: string; standing: string; waitHours: number;
}
export interface Clash { a: string; b: string; gpu: string; week: string }
export interface LabTotal { rows: TotalRow[]; errors: string[]; byStage: Map<string, number>; byMonth: Map<string, number>; total: number; budget: number | null; clashes: Clash[] }

// ISO week "2026-W49" of a date.
function isoWeek(d: Date): string {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const jan1 = new Date(Date.UTC(t.getUTCFullYear(), 0, 1));
  const week = Math.ceil(((t.getTime() - jan1.getTime()) / 86400000 + 1) / 7);
  return `${t.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

// A stage's price: its date and standing, from the offer the core priced it on
// (contract v1.2 `offer`: the lab's cards and the lab's quotes say `source` "lab").
function priceOf(s: PlanStage): { date: string; standing: string } {
  const o = s.offer;
  const lab = o?.source === 'lab';
  const standing = s.platform === 'lab' ? (s.electricity ? 'electricity' : 'lab') : lab ? 'lab quote' : o?.confidence ?? '';
  return { date: o?.as_of ?? '', standing };
}

export function labTotal(ctx: Ctx, lab: LabSettings, mine: LabMine, projects: Project[]): LabTotal {
  const rows: TotalRow[] = [];
  const errors: string[] = [];
  for (const p of projects) {
    const req = withLab(toRequest(p.state, ctx.lang, ctx.quotes, ctx.catalog.models.find((m) => m.id === p.state.preset)), lab, { ...mine, off: false }, p.state);
    const r = planOf(ctx, JSON.stringify(req));
    if (typeof r === 'string') {
      errors.push(`${p.name}: ${r}`);
      continue;
    }
    const saved = new Date(p.saved_at);
    let at = Number.isNaN(saved.getTime()) ? Date.now() : saved.getTime();
    const currency = r.plan?.currency ?? 'CNY';
    for (const s of r.plan?.stages ?? []) {
      if (s.feasible === false) continue;
      // A feasible stage's figures as the core writes them (write_stage).
      const wall = (s.wall_hours ?? 0) + s.upload_hours;
      const start = new Date(at);
      at += wall * 3600e3;
      const platform = s.platform ?? '';
      const gpu = s.gpu ?? '';
      const price = priceOf(s);
      rows.push({ project: p.name, stage: s.stage, platform, gpu, count: s.count ?? 0, cost: cashValue(ctx, s.cost, currency), currency,
        start, end: new Date(at), month: start.toISOString().slice(0, 7), priceDate: price.date, standing: price.standing,
        waitHours: s.wait_hours });
    }
  }
  const byStage = new Map<string, number>();
  const byMonth = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    byStage.set(r.stage, (byStage.get(r.stage) ?? 0) + r.cost);
    byMonth.set(r.month, (byMonth.get(r.month) ?? 0) + r.cost);
    total += r.cost;
  }
  // The lab's cards held by two projects at once: their stages on the same card type overlapping in time.
  const clashes: Clash[] = [];
  const onLab = rows.filter((r) => r.platform === 'lab');
  for (let i = 0; i < onLab.length; i++)
    for (let j = i + 1; j < onLab.length; j++) {
      const a = onLab[i], b = onLab[j];
      if (a.project === b.project || a.gpu !== b.gpu || !(a.start < b.end && b.start < a.end)) continue;
      const from = a.start > b.start ? a.start : b.start;
      if (!clashes.some((c) => c.a === a.project && c.b === b.project && c.gpu === a.gpu)) clashes.push({ a: a.project, b: b.project, gpu: a.gpu, week: isoWeek(from) });
    }
  const budget = lab.budget && lab.budget.amount > 0 ? cashValue(ctx, lab.budget.amount, lab.budget.currency) : null;
  return { rows, errors, byStage, byMonth, total, budget, clashes };
}

// Prints one element alone: everything beside it and beside each of its
// ancestors is left out of the print (data-print-hide, styles.css) until the
// print dialog closes, so it fills its own page and nothing else prints blank.
function printAlone(id: string): void {
  const hidden: Element[] = [];
  for (let el = document.getElementById(id); el && el !== document.body; el = el.parentElement)
    for (const sib of el.parentElement?.children ?? [])
      if (sib !== el && !sib.hasAttribute('data-print-hide')) {
        sib.setAttribute('data-print-hide', '');
        hidden.push(sib);
      }
  window.addEventListener('afterprint', () => { for (const e of hidden) e.removeAttribute('data-print-hide'); }, { once: true });
  window.print();
}

const COLUMNS = ['project', 'stage', 'month', 'platform', 'gpu', 'count', 'wait_hours', 'cost', 'currency', 'price_as_of', 'price_standing'] as const;

function cells(ctx: Ctx, r: TotalRow): string[] {
  return [r.project, stageName(ctx, r.stage), r.month, platformName(ctx, r.platform), gpuName(ctx, r.gpu), String(r.count), String(Math.round(r.waitHours)),
    r.cost.toFixed(2), ctx.state.currency, r.priceDate || '—', r.standing || '—'];
}

export function totalCsv(ctx: Ctx, t: LabTotal): string {
  return [COLUMNS.join(','), ...t.rows.map((r) => cells(ctx, r).map(csvCell).join(','))].join('\n') + '\n';
}

export function totalMarkdown(ctx: Ctx, lab: LabSettings, t: LabTotal): string {
  const out = [`# ${ctx.t('lab.total')} — ${lab.name || ctx.t('lab.unnamed')} (${lab.written || '—'})`, '',
    `| ${COLUMNS.join(' | ')} |`, `| ${COLUMNS.map(() => '---').join(' | ')} |`,
    ...t.rows.map((r) => `| ${cells(ctx, r).map(mdCell).join(' | ')} |`), '',
    `${ctx.t('lab.total_sum')}: ${cash(ctx, t.total, ctx.state.currency)}${t.budget !== null ? ` / ${ctx.t('lab.budget')}: ${cash(ctx, t.budget, ctx.state.currency)}` : ''}`, ''];
  for (const c of t.clashes) out.push(`- ${ctx.t('lab.clash', { a: c.a, b: c.b, gpu: gpuName(ctx, c.gpu), week: c.week })}`);
  return out.join('\n') + '\n';
}

export function labTotalView(ctx: Ctx, lab: LabSettings, mine: LabMine, projects: Project[]): HTMLElement | null {
  if (!projects.length || !ctx.planner) return null;
  const t = labTotal(ctx, lab, mine, projects);
  const cur = ctx.state.currency;
  const money = (x: number): string => cash(ctx, x, cur);
  const over = t.budget !== null && t.total > t.budget + 1e-9;
  return h('section', { class: 'card lab-total', id: 'lab-total', 'aria-labelledby': 'lab-total-h' },
    h('h2', { id: 'lab-total-h' }, ctx.t('lab.total')),
    h('p', { class: 'help' }, ctx.t('lab.total_help')),
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': ctx.t('lab.total_table') }, h('table', { class: 'lab-total-table' },
      h('thead', null, h('tr', null, [ctx.t('lab.col_project'), ctx.t('lab.col_stage'), ctx.t('lab.col_month'), ctx.t('lab.col_where'), ctx.t('lab.col_cost'), ctx.t('lab.col_price')].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', null, t.rows.map((r) => h('tr', null, h('th', { scope: 'row' }, r.project), h('td', null, stageName(ctx, r.stage)), h('td', null, r.month),
        h('td', null, `${r.count} × ${gpuName(ctx, r.gpu)} · ${platformName(ctx, r.platform)}`), h('td', null, money(r.cost)),
        h('td', null, `${r.priceDate || '—'} · ${r.standing || '—'}`)))))),
    h('p', { id: 'lab-total-sum', class: over ? 'badge bad' : undefined },
      `${ctx.t('lab.total_sum')}: ${money(t.total)}`, t.budget !== null ? ` / ${ctx.t('lab.budget')}: ${money(t.budget)}${over ? ` — ${ctx.t('lab.over')}` : ''}` : ''),
    h('ul', null, [...t.byStage].map(([s, c]) => h('li', null, `${stageName(ctx, s)}: ${money(c)}`)),
      [...t.byMonth].sort().map(([m, c]) => h('li', null, `${m}: ${money(c)}`))),
    t.clashes.length ? h('ul', { id: 'lab-clashes' }, t.clashes.map((c) => h('li', null, ctx.t('lab.clash', { a: c.a, b: c.b, gpu: gpuName(ctx, c.gpu), week: c.week })))) : null,
    t.errors.length ? h('ul', null, t.errors.map((e) => h('li', null, e))) : null,
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'lab-total-md', onclick: () => download('gpuplan-lab-total.md', totalMarkdown(ctx, lab, t), 'text/markdown') }, ctx.t('lab.total_md')),
      h('button', { type: 'button', id: 'lab-total-csv', onclick: () => download('gpuplan-lab-total.csv', totalCsv(ctx, t), 'text/csv') }, ctx.t('lab.total_csv')),
      h('button', { type: 'button', id: 'lab-total-print', onclick: () => printAlone('lab-total') }, ctx.t('lab.total_print'))));
}
