// Exports: Markdown a student can hand to a supervisor on its own (inputs,
// plan, assumptions, sources, date), CSV of the GPU table, JSON of the request
// and the response exactly as the planner saw them. Every figure is the
// planner's, in the display currency (views/words.ts).
import { gib, hours, num, percent } from './format.ts';
import { label } from './i18n.ts';
import { effectiveScope } from './request.ts';
import { labDefaults } from './lab_settings.ts';
import { stageRuns } from './state.ts';
import { csvCell, mdCell } from './table_text.ts';
import type { Ctx } from './views/context.ts';
import { budgetOf } from './views/budget.ts';
import { rangeText, rows } from './views/gpus.ts';
import { cash, cashValue, catalogAge, gpuName, platformName, sourceText } from './views/words.ts';
import type { OfferRef } from './types.ts';

// What a price is, in words, from the core's `offer` (contract v1.2; the page
// derives none of it): its date, its kind (list price, floor, promotion, or the
// student's own quote), its confidence and source, and the core's mark of an
// old price. '' where the core gave no offer.
export function priceBasis(ctx: Ctx, o: OfferRef | undefined): string {
  if (!o) return '';
  const { t } = ctx;
  const quote = o.confidence === 'quote';
  return [o.as_of || t('unknown'), quote ? t('confidence.quote') : label(t, 'price_kind', o.price_kind),
    quote ? '' : label(t, 'confidence', o.confidence), quote ? '' : sourceText(ctx, o.source), o.stale ? t('price.stale') : '']
    .filter((x) => x).join(' · ');
}

// One line per planned stage: what its price rests on (the printout's list, views/print.ts).
export function priceLines(ctx: Ctx): string[] {
  const b = budgetOf(ctx);
  if (!b) return [];
  return b.stages.filter((s) => s.feasible && s.offer).map((s) =>
    `${label(ctx.t, 'stage', s.stage)}: ${gpuName(ctx, s.gpu)} · ${platformName(ctx, s.platform)} · ${priceBasis(ctx, s.offer)}${s.reference ? ` · ${s.reference}` : ''}`);
}

// The form's inputs, as lines "label: value": the same list the printout shows.
export function inputLines(ctx: Ctx): [string, string][] {
  const { t, lang, state } = ctx;
  const out: [string, string][] = [];
  const sc = state.science;
  if (state.mode === 'science') {
    out.push([t('mode'), `${label(t, 'mode', 'science')} · ${label(t, 'sci.kind', sc.kind)} · ${label(t, 'sci.precision', sc.precision)} · ${label(t, 'sci.bound', sc.bound)}`],
      [t('sci.baseline'), `${gpuName(ctx, sc.gpu)} ×${sc.count} · ${num(lang, sc.rate, 3)} ${sc.unit}${sc.unit === 'hours' ? '' : ` · ${t('sci.job', { unit: sc.unit === 'ns/day' ? 'ns' : t('sci.steps') })}: ${num(lang, sc.job)}`}`]);
  } else {
    const model = state.source === 'preset'
      ? ctx.catalog.models.find((m) => m.id === state.preset)?.name ?? state.preset
      : `${t('model.source.custom')} (${num(lang, state.custom.params / 1e9, 2)}B)`;
    out.push([t('export.model'), model],
      [t('mode'), `${label(t, 'mode', state.mode)}${state.mode === 'train' ? ` · ${label(t, 'method', state.method)}` : ''} · ${label(t, 'precision', state.precision)}`],
      [t('micro_batch'), num(lang, state.micro_batch)],
      [t('seq_len'), num(lang, state.seq_len)],
      [t('samples'), num(lang, state.samples)]);
    if (state.mode === 'train') out.push([t('epochs'), num(lang, state.epochs)]);
    out.push([t('gpus'), `${state.gpus > 0 ? num(lang, state.gpus) : t('planner_chooses')} · ${state.sharding ? label(t, 'sharding', state.sharding) : t('planner_chooses')}`]);
  }
  for (const st of state.stages) {
    out.push([label(t, 'stage', st.stage), st.on
      ? t('export.stage', { n: num(lang, stageRuns(st)), seeds: st.seeds, sweep: st.sweep, ablations: st.ablations, pct: percent(lang, st.fraction) })
      : t('export.stage.off')]);
  }
  const lab = labDefaults(ctx);
  out.push([t('budget.amount'), lab.budget ? cash(ctx, lab.budget.amount, lab.budget.currency) : state.budget > 0 ? cash(ctx, state.budget, state.budget_currency) : t('export.none')],
    [t('deadline'), state.deadline_days > 0 ? t('export.days', { n: num(lang, state.deadline_days) }) : t('export.none')],
    [t('billing'), label(t, 'billing', state.billing)],
    [t('scope.global'), t(effectiveScope(state, ctx.lang, lab.scope) === 'global' ? 'yes' : 'no')]);
  return out;
}

// What every figure rests on, for the reader who was not at the keyboard.
export function assumptionLines(ctx: Ctx): string[] {
  const { t, lang } = ctx;
  const r = ctx.response;
  const out = [t('export.assume.memory', { pct: percent(lang, r?.memory.headroom ?? 0.3) }), t('export.assume.range'), t('export.assume.cost')];
  const fx = ctx.catalog.fx;
  if (fx) out.push(t('footer.fx', { rate: num(lang, fx.cny_per_usd, 4), as_of: fx.as_of ?? '—' }));
  const age = catalogAge(ctx);
  out.push(t('footer.age', { date: age.date || '—', days: age.days === null ? '—' : num(lang, age.days), stale: num(lang, age.stale), total: num(lang, age.total) }));
  return out;
}

export function toMarkdown(ctx: Ctx, version: string, now = new Date()): string {
  const { t, lang, state } = ctx;
  const r = ctx.response;
  const lines: string[] = [`# ${mdCell(state.title || t('app.title'))}`, '', `${t('export.date')}: ${now.toISOString().slice(0, 10)}`, ''];
  lines.push(`## ${t('export.inputs')}`, '');
  for (const [k, v] of inputLines(ctx)) lines.push(`- ${mdCell(k)}: ${mdCell(v)}`);
  lines.push('');
  const b = budgetOf(ctx);
  if (b) {
    lines.push(`## ${t('section.budget')}`, '');
    if (!b.feasible) lines.push(`**${t('budget.infeasible.title')}**`, '');
    else lines.push(`**${t('budget.total')}: ${cash(ctx, b.total, b.currency)}**${b.budget !== undefined ? ` · ${t(b.within === false ? 'budget.over' : 'budget.within', { budget: cash(ctx, b.budget, b.currency) })}` : ''} · ${t('budget.wall.plan', { time: hours(lang, b.wallHours) })}`, '');
    lines.push(`| ${t('budget.stage')} | ${t('budget.runs')} | GPU | ${t('platform.name')} | ${t('budget.gpu_hours')} | ${t('budget.wall')} | ${t('budget.cost')} | ${t('export.price_basis')} |`,
      '| --- | ---: | --- | --- | ---: | ---: | ---: | --- |');
    for (const s of b.stages) {
      const st = state.stages.find((x) => x.stage === s.stage);
      lines.push(s.feasible
        ? `| ${mdCell(label(t, 'stage', s.stage))} | ${st ? stageRuns(st) : ''} | ${mdCell(gpuName(ctx, s.gpu))} ×${s.count} | ${mdCell(platformName(ctx, s.platform))} · ${mdCell(label(t, 'billing', s.billing))} | ${num(lang, s.gpuHours, 1)} | ${hours(lang, s.wallHours)} | ${cash(ctx, s.cost, b.currency)} | ${mdCell(priceBasis(ctx, s.offer))} |`
        : `| ${mdCell(label(t, 'stage', s.stage))} | ${st ? stageRuns(st) : ''} | ${t('budget.infeasible')} | — | — | — | — | — |`);
    }
    if (b.feasible) lines.push(`| **${t('budget.total')}** | | | | | | **${cash(ctx, b.total, b.currency)}** | |`);
    lines.push('');
  }
  if (r) {
    lines.push(`## ${t('section.memory')}`, '', `| ${t('memory.component')} | GiB |`, '| --- | ---: |');
    for (const c of r.memory.components) lines.push(`| ${mdCell(label(t, 'component', c.id))} | ${gib(lang, c.bytes)} |`);
    lines.push(`| **${t('memory.total')}** | **${gib(lang, r.memory.per_gpu.total_bytes)}** |`,
      `| ${t('memory.recommended', { pct: percent(lang, r.memory.headroom) })} | ${gib(lang, r.memory.recommended_bytes)} |`, '');
    lines.push(`## ${t('section.gpus')}`, '', `| GPU | ${t('gpus.col.count')} | ${t('gpus.col.hours')} | ${t('gpus.col.gpu_hours')} | ${t('gpus.col.cost')} | ${t('platform.name')} | ${t('export.price_basis')} |`, '| --- | ---: | ---: | ---: | ---: | --- | --- |');
    const priced = rows(ctx).filter((x) => x.fit !== 'no')
      .sort((a, b2) => (cashValue(ctx, a.cost, a.costCurrency) || Infinity) - (cashValue(ctx, b2.cost, b2.costCurrency) || Infinity)).slice(0, 10);
    for (const x of priced) {
      const g = x.gpu;
      lines.push(`| ${mdCell(x.name)} | ${g.count} | ${hours(lang, g.hours)} | ${num(lang, g.hours * g.count, 1)} | ${cash(ctx, x.cost, x.costCurrency)} | ${mdCell(g.platform ? `${platformName(ctx, g.platform)} · ${label(t, 'billing', g.billing ?? '')}` : '—')} | ${mdCell(priceBasis(ctx, g.offer)) || '—'} |`);
    }
    if (priced[0]) lines.push('', mdCell(rangeText(ctx, priced[0].gpu)));
    lines.push('');
  }
  const warnings = r?.warnings ?? [];
  if (warnings.length) {
    lines.push(`## ${t('export.warnings')}`, '');
    for (const w of warnings) lines.push(`- ${mdCell(w.message)}`);
    lines.push('');
  }
  lines.push(`## ${t('export.assumptions')}`, '');
  for (const a of assumptionLines(ctx)) lines.push(`- ${mdCell(a)}`);
  lines.push('', `## ${t('export.sources')}`, '', `- ${mdCell(t('export.sources.text'))}`, '',
    `${t('export.footer', { version, catalog: ctx.catalog.version })}`);
  return lines.join('\n');
}

// The cards that hold the job (the planner's fit), one row each: a card
// that does not fit has no count, time or cost to list.
function offerCells(ctx: Ctx, o: OfferRef | undefined): string[] {
  if (!o) return ['', '', '', '', '', ''];
  const quote = o.confidence === 'quote';
  return [o.as_of, quote ? 'quote' : o.price_kind, o.confidence, o.stale ? 'true' : 'false', quote ? 'quote' : sourceText(ctx, o.source), priceBasis(ctx, o)];
}

export function toCsv(ctx: Ctx): string {
  const cur = ctx.state.currency;
  // The price's date and standing (the core's offer): ids a spreadsheet can
  // filter on, then the same in the page's words.
  const head = ['gpu_id', 'gpu', 'memory_bytes', 'fit', 'count', 'wall_hours', 'wall_hours_low', 'wall_hours_high', 'gpu_hours', 'platform', 'billing', `run_cost_${cur}`,
    'price_as_of', 'price_kind', 'price_confidence', 'price_stale', 'price_source', 'price_basis'];
  const lines = [head.join(',')];
  for (const x of rows(ctx).filter((r) => r.fit !== 'no')) {
    const g = x.gpu;
    lines.push([g.id, x.name, x.memoryBytes, x.fit, g.count, g.hours, g.hours_low ?? '', g.hours_high ?? '', g.hours * g.count,
      g.platform ?? '', g.billing ?? '', cashValue(ctx, x.cost, x.costCurrency),
      ...offerCells(ctx, g.offer)]
      .map((v) => csvCell(v as string | number)).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function toJson(ctx: Ctx): string {
  return JSON.stringify({ request: ctx.request, response: ctx.response ?? { error: ctx.error } }, null, 2);
}
