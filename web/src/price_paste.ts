// "Paste a price list": text copied from a platform's price page or console
// (any layout: a table, a card list, a checkout line) becomes the student's
// dated quotes. Each line with a card name and a price per hour, day, week or
// month is read; every other line that names a card or a price is listed as
// not read, with its reason. The page computes no price from it: a quote is
// the figure as the platform showed it, and the core plans with it.
import type { Quote } from './prices.ts';

export interface PasteGpu { id: string; name: string }

export interface PasteResult {
  quotes: Quote[];                       // what was read, one per card and billing (the last line wins)
  read: { line: string; quote: Quote }[];
  unread: { line: string; reason: 'no_card' | 'no_price' | 'two_cards' }[];
}

// Billing by the unit the price is quoted per: 时/小时/h → on-demand,
// 天/日 → daily, 周 → weekly, 月 → monthly. A package's per-period price is
// kept per hour of its period (day 24, week 168, 30-day month 720), the
// form quotes take, and the core bills the period.
const UNITS: { re: RegExp; billing: string; hours: number }[] = [
  { re: /^(?:小时|时|h|hr|hour)\b|^(?:小时|时)/i, billing: 'on-demand', hours: 1 },
  { re: /^(?:天|日|day)\b|^(?:天|日)/i, billing: 'daily', hours: 24 },
  { re: /^(?:周|星期|week)\b|^(?:周|星期)/i, billing: 'weekly', hours: 168 },
  { re: /^(?:月|month|mo)\b|^月/i, billing: 'monthly', hours: 720 },
];

// A price: an amount with a currency mark (¥ 元 $ CNY USD) or followed by
// "/unit" or "元/unit"; thousands separators allowed (¥1,923.60/月).
const PRICE = /(?:(¥|￥|\$|CNY|RMB|USD)\s*)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(元|CNY|RMB|USD|美元)?\s*(?:\/|每|per\s+)\s*(?:卡\s*[·・.]?\s*)?([^\s\d,;，；)）]*)/gi;

// Card names as pages write them: "RTX 4090", "4090D", "GeForce RTX 3090 24G", "A100-PCIE-40GB", "H800".
function normal(s: string): string {
  return s.toLowerCase().replace(/geforce|nvidia|tesla|显卡/g, ' ').replace(/[\s_\-]+/g, ' ').trim();
}

// The catalog's cards that a line names: a card's key words all present,
// memory sizes telling the 40 and 80 GB cards apart. The longest match wins
// ("4090 D" over "4090").
export function cardsIn(line: string, gpus: PasteGpu[]): PasteGpu[] {
  const text = ` ${normal(line).replace(/(\d)\s*g(?:b)?\b/g, '$1g')} `;
  const hits: { g: PasteGpu; model: string; score: number }[] = [];
  for (const g of gpus) {
    const words = normal(g.name).replace(/\(.*\)/, '').replace(/(\d)\s*gb\b/g, '$1g').split(' ').filter((w) => w && w !== 'rtx');
    const model = words.find((w) => /\d/.test(w)) ?? words[0];
    if (!model) continue;
    const re = new RegExp(`(?:^|[^a-z0-9])${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9])`);
    if (!re.test(text)) continue;
    // Suffixes that make another card: "4090 d", "4080 super", "3080 ti".
    const rest = words.filter((w) => w !== model);
    if (rest.some((w) => !text.includes(` ${w}`) && !text.includes(`${model}${w}`) && !/^\d+g$/.test(w) && !/^(pcie|sxm\d?|blackwell)$/.test(w))) continue;
    const mem = rest.find((w) => /^\d+g$/.test(w));
    if (mem && /\b\d+g\b/.test(text) && !text.includes(mem)) continue;
    const suffixAfter = new RegExp(`${model}\\s?(d|ti|super|s)\\b`).exec(text);
    if (suffixAfter && !rest.some((w) => w.startsWith(suffixAfter[1]))) continue;
    // The form factor, where the line gives it: a PCIe card is not an SXM one.
    const form = words.find((w) => /^(pcie|sxm\d?)$/.test(w));
    if (form && /pcie|sxm/.test(text) && !text.includes(form.replace(/\d$/, ''))) continue;
    hits.push({ g, model, score: words.length + (mem && text.includes(mem) ? 2 : 0) });
  }
  if (!hits.length) return [];
  // Two models on one line ("A100 / 3090"): both returned, and the line is not read.
  const models = new Set(hits.map((x) => x.model));
  if (models.size > 1) return [...models].map((m) => hits.find((x) => x.model === m)!.g);
  const best = Math.max(...hits.map((x) => x.score));
  const top = hits.filter((x) => x.score === best).map((x) => x.g);
  return top.length > 1 ? top.slice(0, 2) : top;
}

// Reads `text` for `platform`; `asOf` (YYYY-MM-DD) dates every quote, `currency` is the default.
export function parsePriceList(text: string, platform: string, gpus: PasteGpu[], asOf: string,
  currency: 'CNY' | 'USD' = 'CNY'): PasteResult {
  const out: PasteResult = { quotes: [], read: [], unread: [] };
  const byKey = new Map<string, Quote>();
  let card: PasteGpu | null = null;  // a card named on a line of its own, for the price lines after it
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const cards = cardsIn(line, gpus);
    // A price is an amount per a known unit: "4000 / 48GB" is a model and its memory.
    const prices = [...line.matchAll(PRICE)].filter((m) => UNITS.some((u) => u.re.test(m[4] ?? '')));
    if (cards.length > 1) { out.unread.push({ line, reason: 'two_cards' }); continue; }
    if (cards.length === 1) card = cards[0];
    // A card heading the catalog does not know ("MTT S4000 / 48GB"): the prices under it are not the card's above.
    else if (!prices.length && /\b\d+\s*G(?:B)?\b|[A-Za-z]{2,}\s?-?\d{3,4}/i.test(line)) {
      card = null;
      out.unread.push({ line, reason: 'no_card' });
      continue;
    }
    if (!prices.length) {
      if (!cards.length && /\d/.test(line) && /元|¥|￥|\$/.test(line)) out.unread.push({ line, reason: 'no_price' });
      continue;
    }
    if (!card) { out.unread.push({ line, reason: 'no_card' }); continue; }
    let any = false;
    for (const m of prices) {
      const unit = UNITS.find((u) => u.re.test(m[4] ?? ''));
      if (!unit) continue;
      const amount = Number(m[2].replace(/,/g, ''));
      if (!Number.isFinite(amount) || amount <= 0) continue;
      const mark = `${m[1] ?? ''}${m[3] ?? ''}`.toUpperCase();
      const cur: 'CNY' | 'USD' = /\$|USD|美元/.test(mark) ? 'USD' : /¥|￥|元|CNY|RMB/.test(mark) ? 'CNY' : currency;
      const quote: Quote = {
        platform, gpu: card.id, billing: unit.billing, per_gpu_hour: Number((amount / unit.hours).toFixed(6)), currency: cur,
        note: m[0].trim(), as_of: asOf,
      };
      byKey.set(`${quote.gpu}/${quote.billing}`, quote);
      out.read.push({ line, quote });
      any = true;
    }
    if (!any) out.unread.push({ line, reason: 'no_price' });
  }
  out.quotes = [...byKey.values()];
  return out;
}
