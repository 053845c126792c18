// Step 5: each platform's prices, billing rules and provenance, and the
// user's own quotes (saved in localStorage, exported and imported as JSON).
import { download, h, live, on, uid } from '../dom.ts';
import { money, num, percent } from '../format.ts';
import { effectiveScope } from '../request.ts';
import { PACKAGE_BILLING } from '../spellings.ts';
import { labDefaults } from '../lab_settings.ts';
import { label } from '../i18n.ts';
import { knownIds, mergeQuotes, newerFileVersion, parseImport, quoteKey, serializeQuotes, type Quote } from '../prices.ts';
import type { CatalogOffer, CatalogPlatform, Localized, Range3 } from '../types.ts';
import type { Ctx } from './context.ts';
import { button, section } from './controls.ts';
import { cash, platformName, priceDate, sourceText } from './words.ts';
import { pastePanel } from './price_paste.ts';

function localized(ctx: Ctx, text: Localized | undefined): string {
  if (!text) return '';
  // A plain-text note is in one language: shown only on that language's page.
  if (typeof text === 'string') return /[\u4e00-\u9fff]/.test(text) === (ctx.lang === 'zh-CN') ? text : '';
  return (ctx.lang === 'zh-CN' ? text.zh : text.en) ?? '';
}

// Whether the request's scope holds this platform: the core's verdict
// (`plan.platforms`, from prefs.scope and prefs.platforms: plan/offers.cpp
// platform_in_scope). Without a plan (an error) none is marked out of scope.
export function inScope(ctx: Ctx, p: CatalogPlatform): boolean {
  const scoped = ctx.response?.plan?.platforms;
  return !scoped || scoped.includes(p.id);
}

// Billings sold as packages (the core's is_package, spellings.ts): the price
// of the period, when the catalog gives it, beside its hourly equivalent.
const PACKAGES: ReadonlySet<string> = new Set(PACKAGE_BILLING);

// The figure that stands for a range: the typical price, or for a floor or a
// promotion (which have none) the lowest.
export function rep(r: Partial<Range3> | null | undefined): number {
  return typeof r?.typical === 'number' ? r.typical : typeof r?.low === 'number' ? r.low : NaN;
}

function rangeOf(ctx: Ctx, r: Partial<Range3>, currency: string): string {
  const lo = r.low ?? r.typical;
  const hi = r.high ?? r.typical;
  return lo !== undefined && hi !== undefined && lo !== hi ? ` (${cash(ctx, lo, currency)}–${cash(ctx, hi, currency)})` : '';
}

function offerPrice(ctx: Ctx, o: CatalogOffer): HTMLElement {
  const { t, lang } = ctx;
  const r = o.per_gpu_hour;
  const per = o.per_period;
  const hourly = r ? `${cash(ctx, rep(r), o.currency)} / ${t('unit.gpu_hour')}${rangeOf(ctx, r, o.currency)}` : '';
  return h('span', null,
    PACKAGES.has(o.billing) && per
      ? h('strong', { class: 'package', 'data-package': o.billing }, `${cash(ctx, rep(per), o.currency)} / ${label(t, 'period', o.billing)}${rangeOf(ctx, per, o.currency)}`) : null,
    PACKAGES.has(o.billing) && per && r ? ' · ' : null,
    hourly || (per ? '' : t('platform.ask')),
    o.price_kind && o.price_kind !== 'list' ? h('span', { class: 'badge warn' }, label(t, 'price_kind', o.price_kind)) : null,
    o.currency !== ctx.state.currency && (r || per) ? h('span', { class: 'range' }, t('platform.original', { price: money(lang, rep(r ?? per), o.currency) })) : null);
}

function quoteInput(ctx: Ctx, p: CatalogPlatform, gpu: string, billing: string, currency: string): HTMLElement {
  const { t } = ctx;
  const existing = ctx.quotes.find((q) => q.platform === p.id && q.gpu === gpu && q.billing === billing);
  const id = uid('quote');
  const input = h('input', { id, type: 'number', min: 0, max: 1e6, step: 'any', inputmode: 'decimal', value: existing ? String(existing.per_gpu_hour) : '',
    placeholder: t('quote.placeholder'), 'data-key': `quote/${p.id}/${gpu}/${billing}` });
  on(input, 'change', () => {
    const v = live(input).valueAsNumber;
    const rest = ctx.quotes.filter((q) => quoteKey(q) !== `${p.id}/${gpu}/${billing}`);
    if (live(input).value === '') {
      ctx.setQuotes(rest, t('quote.removed'));
      return;
    }
    if (!Number.isFinite(v) || v < 0 || v > 1e6) {
      live(input).setAttribute('aria-invalid', 'true');
      return;
    }
    live(input).setAttribute('aria-invalid', 'false');
    const cur = currency === 'USD' ? 'USD' : 'CNY';
    ctx.setQuotes([...rest, { platform: p.id, gpu, billing, per_gpu_hour: v, currency: cur, note: existing?.note ?? '' }], t('quote.saved'));
  });
  const gpuName = ctx.gpu(gpu)?.name ?? gpu;
  return h('span', { class: 'quote' }, h('label', { for: id, class: 'sr-only' }, t('quote.label', { platform: platformName(ctx, p), gpu: gpuName, currency })), input);
}

// Which platform cards are open survives re-rendering (not worth a URL).
const openPlatforms = new Set<string>();

// The packages named in words, each once, in the catalog's order.
function packageList(ctx: Ctx, billings: string[]): string {
  return [...new Set(billings)].map((b) => label(ctx.t, 'billing', b)).join(ctx.t('list.sep'));
}

// Packages the platform sells (its billing rules) that no offer prices: said,
// with the reason, so no one picks a billing the plan cannot price.
function unpricedPackages(ctx: Ctx, p: CatalogPlatform, priced: string[]): HTMLElement | null {
  const sold = (p.billing_rules?.packages ?? []).filter((b) => !priced.includes(b));
  return sold.length ? h('p', { class: 'help', 'data-unpriced': sold.join(' ') }, ctx.t('platform.packages_unpriced', { list: packageList(ctx, sold) })) : null;
}

function platformCard(ctx: Ctx, p: CatalogPlatform): HTMLElement {
  const { t, lang, state } = ctx;
  const rules = p.billing_rules ?? {};
  const included = !state.platforms.length || state.platforms.includes(p.id);
  const incId = uid('inc');
  const include = h('input', { type: 'checkbox', id: incId, checked: included, 'data-key': `inc/${p.id}` });
  on(include, 'change', () => {
    const all = ctx.catalog.platforms.map((x) => x.id);
    const cur = state.platforms.length ? state.platforms : all;
    const next = live(include).checked ? [...new Set([...cur, p.id])] : cur.filter((x) => x !== p.id);
    ctx.set({ platforms: next.length === all.length ? [] : next }, { now: true });
  });
  const offers = p.offers ?? [];
  const priced = offers.filter((o) => o.per_gpu_hour && !PACKAGES.has(o.billing));
  const typ = priced.map((o) => rep(o.per_gpu_hour)).filter(Number.isFinite);
  const cur = priced[0]?.currency ?? 'CNY';
  const currency = p.currency ?? offers[0]?.currency ?? 'CNY';
  const packages = offers.filter((o) => PACKAGES.has(o.billing));
  // One price reads as one ("¥1.50", not "¥1.50–¥1.50"); a platform that
  // sells only packages has prices, just none by the hour.
  const [lo, hi] = [Math.min(...typ), Math.max(...typ)];
  const summaryRange = typ.length ? `${cash(ctx, lo, cur)}${hi > lo ? `–${cash(ctx, hi, cur)}` : ''} / ${t('unit.gpu_hour')}`
    : t(packages.length ? 'platform.no_hourly' : 'platform.noprices');
  const scoped = inScope(ctx, p);
  const card = h('details', { class: 'platform', 'data-platform': p.id, open: openPlatforms.has(p.id) },
    h('summary', null, h('strong', null, platformName(ctx, p)), ` · ${label(t, 'kind', p.kind)} · ${summaryRange}`,
      packages.length ? h('span', { class: 'badge good' }, t('platform.has_packages', { list: packageList(ctx, packages.map((o) => o.billing)) })) : null,
      scoped ? null : h('span', { class: 'badge warn', 'data-out-of-scope': '' }, t('platform.out_of_scope'))),
    h('div', { class: 'field check' }, include, h('label', { for: incId }, t('platform.include'))),
    unpricedPackages(ctx, p, packages.map((o) => o.billing)),
    h('dl', { class: 'rules' },
      h('dt', null, t('platform.granularity')), h('dd', null, rules.granularity_seconds !== undefined ? t('platform.seconds', { n: num(lang, rules.granularity_seconds) }) : t('unknown')),
      h('dt', null, t('platform.minimum')), h('dd', null, rules.minimum_charge_seconds !== undefined ? t('platform.seconds', { n: num(lang, rules.minimum_charge_seconds) }) : t('unknown')),
      h('dt', null, t('platform.disk')), h('dd', null, rules.disk_bills_after_release === undefined ? t('unknown') : t(rules.disk_bills_after_release ? 'yes' : 'no')),
      h('dt', null, t('platform.queue')), h('dd', null, p.queue_risk ? label(t, 'risk', p.queue_risk) : t('unknown')),
      h('dt', null, t('platform.spot')), h('dd', null,
        p.spot?.available === false ? t('no') : p.spot?.available || offers.some((o) => o.billing === 'spot') ? t('yes') : t('unknown'),
        p.spot?.discount ? ` (${t('platform.spot.discount', { pct: percent(lang, p.spot.discount) })})` : '',
        p.spot?.notes ? h('span', { class: 'source catalog-note' }, ` ${localized(ctx, p.spot.notes)}`) : null)),
    p.notes ? h('p', { class: 'help catalog-note' }, localized(ctx, p.notes)) : null,
    offers.length
      ? h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': platformName(ctx, p) },
          h('table', null,
            h('thead', null, h('tr', null, ['platform.gpu', 'platform.billing', 'platform.price', 'platform.as_of', 'platform.source', 'quote.yours'].map((k) => h('th', { scope: 'col' }, t(k as never))))),
            h('tbody', null, offers.map((o) => h('tr', { 'data-billing': o.billing },
              h('th', { scope: 'row' }, ctx.gpu(o.gpu)?.name ?? o.gpu),
              h('td', null, label(t, 'billing', o.billing)),
              h('td', null, offerPrice(ctx, o)),
              h('td', null, priceDate(ctx, o.as_of, o.stale === true)),
              h('td', { class: 'source' }, sourceText(ctx, o.source ?? p.sources?.[0]), o.confidence ? ` · ${label(t, 'confidence', o.confidence)}` : ''),
              h('td', null, quoteInput(ctx, p, o.gpu, o.billing, o.currency)))))))
      : h('p', null, t('platform.ask')),
    addQuote(ctx, p, currency),
    pastePanel(ctx, p, currency),
    p.sources?.length ? h('p', { class: 'source' }, `${t('platform.sources')}: ${[...new Set(p.sources.map((x) => sourceText(ctx, x)))].join(t('list.sep'))}`) : null);
  on(card, 'toggle', () => {
    if (live(card).open) openPlatforms.add(p.id);
    else openPlatforms.delete(p.id);
  });
  return card;
}

function addQuote(ctx: Ctx, p: CatalogPlatform, currency: string): HTMLElement {
  const { t } = ctx;
  const gid = uid('qg');
  const pid = uid('qp');
  const nid = uid('qn');
  const gpu = h('select', { id: gid }, ctx.catalog.gpus.map((g) => h('option', { value: g.id }, g.name)));
  const price = h('input', { id: pid, type: 'number', min: 0, max: 1e6, step: 'any', inputmode: 'decimal' });
  const note = h('input', { id: nid, type: 'text', maxlength: 200, autocomplete: 'off' });
  return h('div', { class: 'addquote' },
    h('span', { class: 'field' }, h('label', { for: gid }, t('platform.gpu')), gpu),
    h('span', { class: 'field' }, h('label', { for: pid }, t('quote.price', { currency })), price),
    h('span', { class: 'field' }, h('label', { for: nid }, t('quote.note')), note),
    button(t('quote.add'), () => {
      const v = live(price).valueAsNumber;
      if (!Number.isFinite(v) || v < 0 || v > 1e6) {
        live(price).setAttribute('aria-invalid', 'true');
        live(price).focus();
        return;
      }
      const q: Quote = { platform: p.id, gpu: live(gpu).value, billing: 'on-demand', per_gpu_hour: v, currency: currency === 'USD' ? 'USD' : 'CNY', note: live(note).value.slice(0, 200) };
      ctx.setQuotes(mergeQuotes(ctx.quotes, [q]), t('quote.saved'));
    }));
}

function quotesPanel(ctx: Ctx): HTMLElement {
  const { t, lang } = ctx;
  const fileId = uid('import');
  // The visible control is a button; the file input stays out of the tab order.
  const file = h('input', { id: fileId, type: 'file', accept: 'application/json,.json', class: 'sr-only', tabindex: -1 });
  on(file, 'change', async () => {
    const f = live(file).files?.[0];
    if (!f) return;
    const known = knownIds(ctx.catalog);
    const text = await f.text();
    const parsed = parseImport(text, known);
    live(file).value = '';
    if (!parsed) {
      const newer = newerFileVersion(text);
      ctx.notify(newer === null ? t('quotes.import.bad') : t('import.newer', { v: newer }), 'error');
      return;
    }
    ctx.setQuotes(mergeQuotes(ctx.quotes, parsed.quotes), t('quotes.imported', { n: parsed.quotes.length, rejected: parsed.rejected }));
  });
  const list = ctx.quotes.length
    ? h('table', { class: 'quotes' },
        h('thead', null, h('tr', null, ['platform.name', 'platform.gpu', 'platform.billing', 'platform.price', 'quote.note', 'quote.actions'].map((k) => h('th', { scope: 'col' }, t(k as never))))),
        h('tbody', null, ctx.quotes.map((q) => {
          const p = ctx.catalog.platforms.find((x) => x.id === q.platform);
          return h('tr', { 'data-quote-row': quoteKey(q) },
            h('th', { scope: 'row' }, p ? platformName(ctx, p) : q.platform),
            h('td', null, ctx.gpu(q.gpu)?.name ?? q.gpu),
            h('td', null, label(t, 'billing', q.billing)),
            // A pasted price's day beside it; the plan that uses it says whether it is old (offer.stale).
            h('td', null, money(lang, q.per_gpu_hour, q.currency), q.as_of ? ' · ' : null, q.as_of ? priceDate(ctx, q.as_of) : null),
            h('td', { class: 'note' }, q.note),
            h('td', null, button(t('quote.delete'), () => ctx.setQuotes(ctx.quotes.filter((x) => quoteKey(x) !== quoteKey(q)), t('quote.removed')))));
        })))
    : h('p', { class: 'muted' }, t('quotes.empty'));
  return h('div', { class: 'quotes-panel' },
    h('h3', null, t('quotes.title')),
    h('p', { class: 'help' }, t('quotes.help')),
    list,
    h('div', { class: 'actions' },
      button(t('quotes.export'), () => download('gpuplan-prices.json', serializeQuotes(ctx.quotes), 'application/json')),
      button(t('quotes.import'), () => live(file).click()),
      h('label', { for: fileId, class: 'sr-only' }, t('quotes.import')),
      file,
      ctx.quotes.length ? button(t('quotes.reset'), () => {
        const before = ctx.quotes;
        ctx.setQuotes([]);
        ctx.notify(t('quotes.reset.done', { n: before.length }), 'info', { label: t('undo'), run: () => ctx.setQuotes(before, t('quotes.restored')) });
      }) : null));
}

// The platform list depends on none of the workload's inputs: it is kept
// between renders while what it shows is unchanged, so an input change does
// not rebuild ~15 cards and their quote forms (input to plan
// within 100 ms; docs/performance.md).
let kept: { key: string; el: HTMLElement } | null = null;

export function platformsView(ctx: Ctx): HTMLElement {
  const key = JSON.stringify([ctx.lang, ctx.state.currency, effectiveScope(ctx.state, ctx.lang, labDefaults(ctx).scope), ctx.state.platforms, ctx.quotes, ctx.catalog.version, ctx.response?.plan?.platforms]);
  // The element on the page (dom.ts, live): handed back as it is, the morph keeps it.
  if (kept && kept.key === key) return live(kept.el);
  const el = platformsSection(ctx);
  kept = { key, el };
  return el;
}

function platformsSection(ctx: Ctx): HTMLElement {
  const { t } = ctx;
  return section('platforms', '5', t('section.platforms'),
    h('p', { class: 'lead' }, t('platforms.lead')),
    quotesPanel(ctx),
    h('p', { class: 'help' }, t(effectiveScope(ctx.state, ctx.lang, labDefaults(ctx).scope) === 'global' ? 'platforms.scope.global' : 'platforms.scope.cn')),
    // In-scope platforms first; the others stay visible, marked.
    [...ctx.catalog.platforms].sort((a, b) => Number(inScope(ctx, b)) - Number(inScope(ctx, a))).map((p) => platformCard(ctx, p)));
}
