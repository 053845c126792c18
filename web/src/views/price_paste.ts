// The platform pane's "paste a price list" (web/src/price_paste.ts reads it):
// the student pastes what the platform's page or console shows, sees what was
// read and what was not, and the quotes replace theirs for those cards and
// billings; the plan follows (ctx.setQuotes replans).
import { h, live, uid } from '../dom.ts';
import { mergeQuotes } from '../prices.ts';
import { parsePriceList } from '../price_paste.ts';
import { label } from '../i18n.ts';
import type { CatalogPlatform } from '../types.ts';
import type { Ctx } from './context.ts';
import { button } from './controls.ts';
import { cash } from './words.ts';

export function pastePanel(ctx: Ctx, p: CatalogPlatform, currency: string): HTMLElement {
  const { t } = ctx;
  const id = uid('paste');
  const area = h('textarea', { id, rows: 5, maxlength: 20000, spellcheck: 'false', placeholder: t('paste.placeholder') });
  const report = h('div', { class: 'paste-report', 'aria-live': 'polite' });
  const read = (): void => {
    const today = new Date().toISOString().slice(0, 10);
    const gpus = ctx.catalog.gpus.map((g) => ({ id: g.id, name: g.name }));
    const r = parsePriceList(live(area).value, p.id, gpus, today, currency === 'USD' ? 'USD' : 'CNY');
    const parts: (HTMLElement | null)[] = [
      h('p', null, t('paste.read', { n: r.quotes.length, unread: r.unread.length })),
      r.read.length ? h('ul', null, r.read.map((x) => h('li', { 'data-gpu': x.quote.gpu },
        `${ctx.gpu(x.quote.gpu)?.name ?? x.quote.gpu} · ${label(t, 'billing', x.quote.billing)} · ${cash(ctx, x.quote.per_gpu_hour, x.quote.currency)}/${t('paste.hour')}`))) : null,
      r.unread.length ? h('ul', { class: 'unread' }, r.unread.map((u) => h('li', null, `${t(`paste.unread.${u.reason}` as never)}: ${u.line.slice(0, 120)}`))) : null];
    report.replaceChildren(...parts.filter((x): x is HTMLElement => x !== null));
    if (r.quotes.length) ctx.setQuotes(mergeQuotes(ctx.quotes, r.quotes), t('paste.saved', { n: r.quotes.length }));
  };
  return h('details', { class: 'paste' },
    h('summary', null, t('paste.title')),
    h('p', { class: 'help' }, t('paste.help')),
    h('label', { for: id }, t('paste.label')), area,
    button(t('paste.go'), read), report);
}
