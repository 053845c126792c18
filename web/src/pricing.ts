// Price look-ups for the GPU table and the platform list: the catalog's
// offers, overridden by the user's own quotes, in the display currency at
// the catalog's exchange rate. The page multiplies; the prices are data.
import type { Quote } from './prices';
import type { State } from './state';
import type { Catalog, CatalogPlatform, Range3 } from './types';

export interface PriceOption {
  platform: CatalogPlatform;
  billing: string;
  perGpuHour: Range3; // display currency
  fromQuote: boolean;
  asOf?: string;
  source?: string;
}

export function convert(amount: number, from: string, to: string, catalog: Catalog): number {
  if (from === to) return amount;
  const rate = catalog.fx?.cny_per_usd;
  if (!rate || !Number.isFinite(rate) || rate <= 0) return NaN;
  if (from === 'USD' && to === 'CNY') return amount * rate;
  if (from === 'CNY' && to === 'USD') return amount / rate;
  return NaN;
}

function convertRange(r: Range3, from: string, to: string, catalog: Catalog): Range3 {
  return { low: convert(r.low, from, to, catalog), typical: convert(r.typical, from, to, catalog), high: convert(r.high, from, to, catalog) };
}

export function priceOptions(gpuId: string, state: State, catalog: Catalog, quotes: Quote[]): PriceOption[] {
  const out: PriceOption[] = [];
  for (const p of catalog.platforms) {
    if (state.platforms.length && !state.platforms.includes(p.id)) continue;
    const seen = new Set<string>();
    for (const q of quotes) {
      if (q.platform !== p.id || q.gpu !== gpuId) continue;
      if (state.billing && q.billing !== state.billing) continue;
      seen.add(q.billing);
      const v = convert(q.per_gpu_hour, q.currency, state.currency, catalog);
      out.push({ platform: p, billing: q.billing, perGpuHour: { low: v, typical: v, high: v }, fromQuote: true });
    }
    for (const o of p.offers ?? []) {
      if (o.gpu !== gpuId || !o.per_gpu_hour || seen.has(o.billing)) continue;
      // Monthly and yearly offers are per GPU-hour equivalents in the catalog;
      // they only pay off for long projects, so they count only when asked for.
      const wanted = state.billing ? o.billing === state.billing : o.billing !== 'monthly' && o.billing !== 'yearly';
      if (wanted) {
        out.push({ platform: p, billing: o.billing, perGpuHour: convertRange(o.per_gpu_hour, o.currency, state.currency, catalog),
          fromQuote: false, asOf: o.as_of, source: o.source });
      }
      // A platform with a typical spot discount but no listed spot price:
      // on-demand x (1 - discount), as the planner prices it (docs/catalog.md).
      const d = p.spot?.available ? p.spot.discount : undefined;
      if (o.billing === 'on-demand' && d !== undefined && d > 0 && d < 1 && !seen.has('spot') && (!state.billing || state.billing === 'spot') &&
          !(p.offers ?? []).some((x) => x.gpu === gpuId && x.billing === 'spot')) {
        const r = o.per_gpu_hour;
        out.push({ platform: p, billing: 'spot', fromQuote: false, asOf: o.as_of, source: o.source,
          perGpuHour: convertRange({ low: r.low * (1 - d), typical: r.typical * (1 - d), high: r.high * (1 - d) }, o.currency, state.currency, catalog) });
      }
    }
  }
  return out.filter((o) => Number.isFinite(o.perGpuHour.typical)).sort((a, b) => a.perGpuHour.typical - b.perGpuHour.typical);
}
