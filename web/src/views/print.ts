// What a printout carries beyond the results: the inputs,
// the assumptions and the date, so a printed plan stands on its own. Hidden
// on screen (the form says the same there).
import { h } from '../dom.ts';
import { assumptionLines, inputLines, priceLines } from '../export.ts';
import type { Ctx } from './context.ts';

export function printView(ctx: Ctx): HTMLElement {
  const { t } = ctx;
  const prices = priceLines(ctx);
  return h('section', { class: 'card print-only print-inputs', 'aria-hidden': 'true' },
    h('h2', null, t('export.inputs')),
    h('p', null, `${t('export.date')}: ${new Date().toISOString().slice(0, 10)}`),
    h('dl', null, inputLines(ctx).map(([k, v]) => [h('dt', null, k), h('dd', null, v)])),
    // Each planned price's date and standing, which the plan's table on paper shows only in part.
    prices.length ? h('h3', null, t('export.prices')) : null,
    prices.length ? h('ul', { class: 'print-prices' }, prices.map((x) => h('li', null, x))) : null,
    h('h3', null, t('export.assumptions')),
    h('ul', null, assumptionLines(ctx).map((a) => h('li', null, a))),
    h('p', { class: 'source' }, t('export.sources.text')));
}
