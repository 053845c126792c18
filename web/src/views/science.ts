// Science mode (docs/science.md): molecular dynamics, CFD, finite elements are
// described by a speed measured on one card and the resource that bounds the
// code; the planner moves that speed to every other card.
import { LIMITS } from '../limits.ts';
import { h } from '../dom.ts';
import { SCI_BOUNDS, SCI_KINDS, SCI_PRECISIONS, SCI_UNITS, type State } from '../state.ts';
import type { Ctx } from './context.ts';
import { numberField, selectField } from './controls.ts';
import { opts } from './inputs.ts';

export function scienceFields(ctx: Ctx): HTMLElement {
  const { t, state, catalog } = ctx;
  const sc = state.science;
  const set = (patch: Partial<State['science']>, inputs = false): void =>
    ctx.set({ science: { ...ctx.state.science, ...patch } }, inputs ? { inputs: true, now: true } : {});
  const sel = <K extends 'precision' | 'bound' | 'unit'>(key: K, values: readonly string[], inputs = false): HTMLElement =>
    selectField({ label: t(`sci.${key}` as never), help: t(`sci.${key}.help` as never), value: sc[key], options: opts(ctx, `sci.${key}`, values), path: `science.${key === 'unit' ? 'baseline.unit' : key}` },
      (v) => set({ [key]: v } as Partial<State['science']>, inputs));
  const jobUnit = sc.unit === 'ns/day' ? 'ns' : t('sci.steps');
  return h('div', { class: 'science' },
    h('div', { class: 'row3' },
      // A new kind brings its defaults (docs/science.md, "Request"): CFD and
      // FEM solvers in FP64 and bandwidth-bound, MD and others mixed and compute-bound.
      selectField({ label: t('sci.kind'), help: t('sci.kind.help'), value: sc.kind, options: opts(ctx, 'sci.kind', SCI_KINDS), path: 'science.kind' }, (v) => {
        const kind = v as State['science']['kind'];
        const solver = kind === 'cfd' || kind === 'fem';
        set({ kind, precision: solver ? 'fp64' : 'mixed', bound: solver ? 'bandwidth' : 'compute' }, true);
      }),
      sel('precision', SCI_PRECISIONS), sel('bound', SCI_BOUNDS)),
    h('fieldset', { class: 'plain' }, h('legend', null, t('sci.baseline')),
      h('p', { class: 'help' }, t('sci.baseline.help')),
      h('div', { class: 'row3' },
        selectField({ label: t('sci.gpu'), value: sc.gpu, options: catalog.gpus.map((g) => ({ value: g.id, label: g.name })), path: 'science.baseline.gpu' }, (gpu) => set({ gpu })),
        numberField({ label: t('sci.count'), value: sc.count, ...LIMITS['science.baseline.count'], path: 'science.baseline.count' }, (count) => set({ count })),
        numberField({ label: t('sci.rate'), help: t('sci.rate.help'), value: sc.rate, ...LIMITS['science.baseline.rate'], path: 'science.baseline.rate' }, (rate) => set({ rate })),
        sel('unit', SCI_UNITS, true))),
    h('div', { class: 'row3' },
      sc.unit === 'hours' ? null : numberField({ label: t('sci.job', { unit: jobUnit }), help: t('sci.job.help'), value: sc.job, ...LIMITS['science.job'], path: 'science.job' }, (job) => set({ job })),
      numberField({ label: t('sci.memory_gb'), help: t('sci.memory_gb.help'), value: sc.memory_gb, ...LIMITS['science.memory_gb'], path: 'science.memory_gb' }, (memory_gb) => set({ memory_gb }))));
}
