// "The paper says: 8 x A100 for 3 days" (docs/api.md, baseline.wall_hours):
// the paper's reported run becomes every option's time and cost, priced by the
// core through the time model's relative speeds. The page only edits the request.
import { h } from '../dom.ts';
import type { State } from '../state.ts';
import type { Ctx } from './context.ts';
import { checkField, numberField, selectField } from './controls.ts';

export function paperRunFields(ctx: Ctx): HTMLElement | null {
  const { t, state, catalog } = ctx;
  if (state.mode !== 'train') return null;
  const set = (patch: Partial<State['paper']>): void => ctx.set({ paper: { ...ctx.state.paper, ...patch } });
  return h('fieldset', { class: 'plain paper-run' },
    h('legend', null, t('paper.legend')),
    h('p', { class: 'help' }, t('paper.help')),
    checkField({ id: 'paper-on', label: t('paper.on'), value: state.paper.on }, (on) => ctx.set({ paper: { ...ctx.state.paper, on } }, { inputs: true, now: true })),
    state.paper.on
      ? h('div', { class: 'row3' },
        selectField({ label: t('paper.gpu'), value: state.paper.gpu, options: catalog.gpus.map((g) => ({ value: g.id, label: g.name })), path: 'baseline.gpu' }, (gpu) => set({ gpu })),
        numberField({ label: t('paper.count'), value: state.paper.count, min: 1, max: 4096, int: true, path: 'baseline.count' }, (count) => set({ count })),
        numberField({ label: t('paper.hours'), help: t('paper.hours.help'), value: state.paper.hours, min: 0.0001, max: 1e6, path: 'baseline.wall_hours' }, (hours) => set({ hours })))
      : null);
}
