// Exports: Markdown for a lab report or grant application, CSV of the GPU
// table, JSON of the request and the response exactly as the planner saw them.
import { gib, hours, money, num, percent } from './format';
import { label } from './i18n';
import { stageRuns } from './state';
import type { Ctx } from './views/context';
import { budgetOf } from './views/budget';
import { rows } from './views/gpus';

// Markdown table cells: user text must not break the table or become links.
function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
}

export function toMarkdown(ctx: Ctx, version: string): string {
  const { t, lang, state } = ctx;
  const r = ctx.response;
  const lines: string[] = [`# ${md(state.title || t('app.title'))}`, ''];
  const model = state.source === 'preset'
    ? ctx.catalog.models.find((m) => m.id === state.preset)?.name ?? state.preset
    : `${t('model.source.custom')} (${num(lang, state.custom.params / 1e9, 2)}B)`;
  const sc = state.science;
  if (state.mode === 'science') {
    // Science mode has no model: the measured baseline describes the work.
    lines.push(`- ${t('mode')}: ${label(t, 'mode', 'science')} · ${label(t, 'sci.kind', sc.kind)} · ${label(t, 'sci.precision', sc.precision)} · ${label(t, 'sci.bound', sc.bound)}`,
      `- ${t('sci.baseline')}: ${md(ctx.gpu(sc.gpu)?.name ?? sc.gpu)} ×${sc.count} · ${num(lang, sc.rate, 3)} ${sc.unit}${sc.unit === 'hours' ? '' : ` · ${t('sci.job', { unit: sc.unit === 'ns/day' ? 'ns' : t('sci.steps') })}: ${num(lang, sc.job)}`}`, '');
  } else lines.push(`- ${t('export.model')}: ${md(model)}`,
    `- ${t('mode')}: ${label(t, 'mode', state.mode)}${state.mode === 'train' ? ` · ${label(t, 'method', state.method)}` : ''} · ${label(t, 'precision', state.precision)}`,
    `- ${t('micro_batch')}: ${state.micro_batch} · ${t('seq_len')}: ${state.seq_len}`, '');
  if (r) {
    lines.push(`## ${t('section.memory')}`, '', `| ${t('memory.component')} | GiB |`, '| --- | ---: |');
    for (const c of r.memory.components) lines.push(`| ${md(label(t, 'component', c.id))} | ${gib(lang, c.bytes)} |`);
    lines.push(`| **${t('memory.total')}** | **${gib(lang, r.memory.per_gpu.total_bytes)}** |`,
      `| ${t('memory.recommended', { pct: percent(lang, r.memory.headroom) })} | ${gib(lang, r.memory.recommended_bytes)} |`, '');
    lines.push(`## ${t('section.gpus')}`, '', `| GPU | ${t('gpus.col.count')} | ${t('gpus.col.hours')} | ${t('gpus.col.cost')} | ${t('gpus.col.project')} |`, '| --- | ---: | ---: | ---: | ---: |');
    for (const x of rows(ctx).filter((x) => x.gpu.fits).sort((a, b) => (a.runCost || Infinity) - (b.runCost || Infinity)).slice(0, 10)) {
      lines.push(`| ${md(x.name)} | ${x.gpu.count} | ${hours(lang, x.gpu.hours)} | ${money(lang, x.runCost, state.currency)} | ${money(lang, x.projectCost, state.currency)} |`);
    }
    lines.push('');
  }
  const b = budgetOf(ctx);
  if (b) {
    lines.push(`## ${t('section.budget')}`, '', `| ${t('budget.stage')} | ${t('budget.runs')} | GPU | ${t('budget.hours')} | ${t('budget.cost')} |`, '| --- | ---: | --- | ---: | ---: |');
    for (const s of b.stages) {
      const st = state.stages.find((x) => x.stage === s.stage);
      lines.push(`| ${md(label(t, 'stage', s.stage))} | ${st ? stageRuns(st) : ''} | ${md(ctx.gpu(s.gpu)?.name ?? s.gpu)} ×${s.count} | ${hours(lang, s.hours)} | ${money(lang, s.cost, b.currency)} |`);
    }
    lines.push(`| **${t('budget.total')}** | | | | **${money(lang, b.total, b.currency)}** |`, '');
  }
  for (const w of r?.warnings ?? []) lines.push(`> ${md(w.message)}`);
  lines.push('', `${t('export.footer', { version, catalog: ctx.catalog.version })}`);
  return lines.join('\n');
}

// RFC 4180 quoting; a leading = + - @ is prefixed so spreadsheets do not run it as a formula.
function csvCell(v: string | number): string {
  let s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  if (/^[=+\-@\t\r]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(ctx: Ctx): string {
  const head = ['gpu_id', 'gpu', 'memory_bytes', 'fits', 'count', 'hours', 'hours_low', 'hours_high', 'platform', 'billing',
    `per_gpu_hour_${ctx.state.currency}`, `run_cost_${ctx.state.currency}`, `project_cost_${ctx.state.currency}`];
  const lines = [head.join(',')];
  for (const x of rows(ctx)) {
    lines.push([x.gpu.id, x.name, x.memoryBytes, String(x.gpu.fits), x.gpu.count, x.gpu.hours, x.gpu.hours_low ?? '', x.gpu.hours_high ?? '',
      x.best?.platform.id ?? '', x.best?.billing ?? '', x.best?.perGpuHour.typical ?? NaN, x.runCost, x.projectCost].map((v) => csvCell(v as string | number)).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function toJson(ctx: Ctx): string {
  return JSON.stringify({ request: ctx.request, response: ctx.response ?? { error: ctx.error } }, null, 2);
}
