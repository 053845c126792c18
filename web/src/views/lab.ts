// The lab's settings pane ("实验室设置 / Lab settings"): the line that says
// whose settings this page plans with, and when they were written, with a way
// to see them and to plan without them; the admin's editor; the link, the
// embed code and the file that carry them. The settings live apart from the
// student's form and projects (lab_settings.ts); this view changes them only
// through the LabCtx methods.
import { download, h, live, on, uid } from '../dom.ts';
import { iframeSnippet } from '../embed.ts';
import { bigCount } from '../format.ts';
import { customOf, hfRefusal, parseHfConfig } from '../hfconfig.ts';
import type { MessageKey, T } from '../i18n.ts';
import {
  emptyLab, encodeLab, labDefaults, labJsonSize, MAX_LAB_CONFIGS, MAX_LAB_JSON_CHARS, MAX_LAB_LINK_CHARS, type LabMine, type LabRead, type LabSettings,
} from '../lab_settings.ts';
import type { Ctx } from './context.ts';
import { button, checkField, numberField, selectField, textField } from './controls.ts';
import { gpuName, platformName } from './words.ts';

export interface LabCtx extends Ctx {
  lab: LabSettings | null;
  labMine: LabMine;
  labEditing: boolean;
  setLab(s: LabSettings | null, message?: string): void;
  setLabMine(m: LabMine, render?: boolean): void;
  setLabEditing(on: boolean): void;
  importLab(text: string): void;
}

// What a refused settings text is called, in words (nothing of it applied).
export function labRefusal(t: T, r: Exclude<LabRead, { ok: LabSettings }>, from: 'link' | 'file'): string {
  const what = t(from === 'link' ? 'lab.refused.link' : 'lab.refused.file');
  if ('newer' in r) return t('lab.refused.newer', { what, v: r.newer });
  if (r.damaged === 'size') return t('lab.refused.size', { what, max: MAX_LAB_LINK_CHARS });
  // Where, in the pane's own words (never the text's field names).
  const part = new Map<string, MessageKey>([['name', 'lab.name'], ['written', 'lab.written'], ['notes', 'lab.notes'], ['models', 'lab.models'], ['configs', 'lab.models'],
    ['gpus', 'lab.cards'], ['campus', 'lab.campus'], ['prices', 'lab.quotes'], ['budget', 'lab.budget'], ['scope', 'lab.scope']]).get(r.damaged.split(/[.[]/)[0]);
  const field = part ? t('lab.refused.at', { part: t(part) }) : '';
  return t('lab.refused.damaged', { what, field });
}

let paneOpen = false;

function pageUrl(): string {
  return location.href.split('#')[0].split('?')[0];
}

async function copy(ctx: LabCtx, text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    ctx.notify(ctx.t('lab.copied'));
  } catch {
    ctx.notify(ctx.t('lab.manual', { text }));
  }
}

// The line at the top of a page opened with lab settings.
export function labLine(ctx: LabCtx): HTMLElement | null {
  const s = ctx.lab;
  if (!s) return null;
  const params = { name: s.name || ctx.t('lab.unnamed'), date: s.written || '—' };
  return h('div', { class: 'card lab-line', id: 'lab-line', role: 'note' },
    h('p', null, ctx.t(ctx.labMine.off ? 'lab.line_off' : 'lab.line', params)),
    h('div', { class: 'actions' },
      button(ctx.t('lab.see'), () => {
        const d = document.getElementById('lab') as HTMLDetailsElement | null;
        if (d) { d.open = true; paneOpen = true; d.scrollIntoView({ block: 'start' }); }
      }, { id: 'lab-see' }),
      button(ctx.t(ctx.labMine.off ? 'lab.with' : 'lab.without'), () => ctx.setLabMine({ ...ctx.labMine, off: !ctx.labMine.off }), { id: 'lab-toggle' })));
}

function summary(ctx: LabCtx, s: LabSettings): HTMLElement[] {
  const out: HTMLElement[] = [];
  const list = (title: string, items: string[]): void => {
    if (items.length) out.push(h('h3', null, title), h('ul', null, items.map((x) => h('li', null, x))));
  };
  list(ctx.t('lab.cards'), s.gpus.map((g) => ctx.t('lab.card_line', { n: g.count, gpu: gpuName(ctx, g.gpu), m: g.machines, wait: g.wait_hours, week: g.hours_per_week })));
  if (s.campus) {
    const c = s.campus;
    list(ctx.t('lab.campus'), [ctx.t('lab.campus_line', { wait: c.wait_hours, gpus: c.max_gpus || ctx.t('lab.no_limit'), hours: c.max_hours || ctx.t('lab.no_limit') }),
      ...c.prices.map((p) => ctx.t('lab.campus_quote', { gpu: gpuName(ctx, p.gpu), price: p.per_gpu_hour }))]);
  }
  list(ctx.t('lab.quotes'), s.prices.map((p) => ctx.t('lab.quote_line', { platform: platformName(ctx, p.platform), gpu: gpuName(ctx, p.gpu), price: p.per_gpu_hour, cur: p.currency })));
  if (s.budget && s.budget.amount > 0) list(ctx.t('lab.budget'), [`${s.budget.amount} ${s.budget.currency}`]);
  if (s.models.length || s.configs.length) {
    out.push(h('h3', null, ctx.t('lab.models')), h('div', { class: 'actions' }, s.models.map((id) => {
      const name = ctx.catalog.models.find((m) => m.id === id)?.name ?? id;
      return button(ctx.t('lab.use_model', { name }), () => ctx.apply({ source: 'preset', preset: id }, name), { 'data-lab-model': id });
    }), s.configs.map((c) => button(ctx.t('lab.use_model', { name: c.name }), () => ctx.apply({ source: 'custom', custom: customOf(c.dims) }, c.name)))));
  }
  if (s.notes) out.push(h('h3', null, ctx.t('lab.notes')), h('p', { class: 'lab-notes' }, s.notes));
  // The request's currency: the lab's budget's while it stands for the student's.
  const cur = labDefaults(ctx).budget?.currency ?? ctx.state.budget_currency;
  out.push(numberField({ id: 'lab-time-value', label: ctx.t('lab.mine', { cur }), help: ctx.t('lab.mine_help'), min: 0, max: 1e5,
    value: ctx.labMine.time_value_per_hour ?? s.time_value_per_hour, path: 'prefs.time_value_per_hour' },
  (v) => { if (v !== ctx.labMine.time_value_per_hour) ctx.setLabMine({ ...ctx.labMine, time_value_per_hour: v }); }));
  return out;
}

function editor(ctx: LabCtx, s: LabSettings): HTMLElement {
  // A field removed while focused fires its change again during the re-render
  // its own edit caused: an edit that changes nothing renders nothing.
  const put = (patch: Partial<LabSettings>): void => {
    const next = { ...s, ...patch };
    if (JSON.stringify(next) !== JSON.stringify(ctx.lab)) ctx.setLab(next);
  };
  const gpuOptions = ctx.catalog.gpus.map((g) => ({ value: g.id, label: g.name }));
  const platformOptions = ctx.catalog.platforms.filter((p) => p.id !== 'campus').map((p) => ({ value: p.id, label: platformName(ctx, p) }));
  const row = (...fields: HTMLElement[]): HTMLElement => h('div', { class: 'lab-row' }, fields);
  const gpus = s.gpus.map((g, i) => {
    const set = (patch: Partial<typeof g>): void => put({ gpus: s.gpus.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
    return row(
      selectField({ label: ctx.t('lab.gpu'), value: g.gpu, options: gpuOptions, id: `lab-gpu${i}` }, (v) => set({ gpu: v })),
      numberField({ label: ctx.t('lab.count'), value: g.count, min: 1, max: 4096, int: true, id: `lab-count${i}` }, (v) => set({ count: v, machines: v % g.machines === 0 ? g.machines : 1 })),
      numberField({ label: ctx.t('lab.machines'), value: g.machines, min: 1, max: g.count, int: true, id: `lab-machines${i}` }, (v) => { if (g.count % v === 0) set({ machines: v }); }),
      numberField({ label: ctx.t('lab.wait'), value: g.wait_hours, min: 0, max: 87600, id: `lab-wait${i}` }, (v) => set({ wait_hours: v })),
      numberField({ label: ctx.t('lab.week'), value: g.hours_per_week, min: 1, max: 168, id: `lab-week${i}` }, (v) => set({ hours_per_week: v })),
      button(ctx.t('lab.remove_row'), () => put({ gpus: s.gpus.filter((_, j) => j !== i) })));
  });
  const campus = s.campus;
  const campusRows = campus ? campus.prices.map((p, i) => row(
    selectField({ label: ctx.t('lab.gpu'), value: p.gpu, options: gpuOptions, id: `lab-cgpu${i}` }, (v) => put({ campus: { ...campus, prices: campus.prices.map((x, j) => (j === i ? { ...x, gpu: v } : x)) } })),
    numberField({ label: ctx.t('lab.price'), value: p.per_gpu_hour, min: 0, max: 1e6, id: `lab-cprice${i}` }, (v) => put({ campus: { ...campus, prices: campus.prices.map((x, j) => (j === i ? { ...x, per_gpu_hour: v } : x)) } })),
    button(ctx.t('lab.remove_row'), () => put({ campus: { ...campus, prices: campus.prices.filter((_, j) => j !== i) } })))) : [];
  const quotes = s.prices.map((p, i) => {
    const set = (patch: Partial<typeof p>): void => put({ prices: s.prices.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
    return row(
      selectField({ label: ctx.t('lab.platform'), value: p.platform, options: platformOptions, id: `lab-qplatform${i}` }, (v) => set({ platform: v })),
      selectField({ label: ctx.t('lab.gpu'), value: p.gpu, options: gpuOptions, id: `lab-qgpu${i}` }, (v) => set({ gpu: v })),
      numberField({ label: ctx.t('lab.price'), value: p.per_gpu_hour, min: 0, max: 1e6, id: `lab-qprice${i}` }, (v) => set({ per_gpu_hour: v })),
      selectField({ label: ctx.t('lab.currency'), value: p.currency, options: [{ value: 'CNY', label: 'CNY' }, { value: 'USD', label: 'USD' }], id: `lab-qcur${i}` }, (v) => set({ currency: v === 'USD' ? 'USD' : 'CNY' })),
      button(ctx.t('lab.remove_row'), () => put({ prices: s.prices.filter((_, j) => j !== i) })));
  });
  const modelOptions = [{ value: '', label: '—' }, ...ctx.catalog.models.filter((m) => !s.models.includes(m.id)).map((m) => ({ value: m.id, label: m.name ?? m.id }))];
  const notesId = uid('lab-notes');
  const notes = h('textarea', { id: notesId, rows: 3, maxlength: 4000 }, s.notes);
  on(notes, 'change', () => put({ notes: live(notes).value.slice(0, 4000) }));
  const firstGpu = ctx.catalog.gpus[0]?.id ?? '';
  return h('div', { class: 'lab-editor', id: 'lab-editor' },
    textField({ id: 'lab-name', label: ctx.t('lab.name'), value: s.name, max: 200 }, (v) => put({ name: v })),
    textField({ id: 'lab-written', label: ctx.t('lab.written'), value: s.written, max: 200 }, (v) => put({ written: v })),
    h('h3', null, ctx.t('lab.cards')), ...gpus,
    button(ctx.t('lab.add_cards'), () => put({ gpus: [...s.gpus, { gpu: firstGpu, count: 1, machines: 1, wait_hours: 0, hours_per_week: 168 }] }), { id: 'lab-add-cards' }),
    h('h3', null, ctx.t('lab.campus')),
    checkField({ id: 'lab-campus-on', label: ctx.t('lab.campus_on'), value: !!campus }, (on) => put({ campus: on ? { wait_hours: 0, max_gpus: 0, max_hours: 0, prices: [] } : null })),
    campus ? row(
      numberField({ id: 'lab-campus-wait', label: ctx.t('lab.campus_wait'), value: campus.wait_hours, min: 0, max: 87600 }, (v) => put({ campus: { ...campus, wait_hours: v } })),
      numberField({ id: 'lab-campus-gpus', label: ctx.t('lab.campus_gpus'), value: campus.max_gpus, min: 0, max: 4096, int: true }, (v) => put({ campus: { ...campus, max_gpus: v } })),
      numberField({ id: 'lab-campus-hours', label: ctx.t('lab.campus_hours'), value: campus.max_hours, min: 0, max: 87600 }, (v) => put({ campus: { ...campus, max_hours: v } }))) : null,
    ...campusRows,
    campus ? button(ctx.t('lab.add_campus_quote'), () => put({ campus: { ...campus, prices: [...campus.prices, { gpu: firstGpu, per_gpu_hour: 0 }] } }), { id: 'lab-add-campus-quote' }) : null,
    h('h3', null, ctx.t('lab.quotes')), ...quotes,
    button(ctx.t('lab.add_quote'), () => put({ prices: [...s.prices, { platform: platformOptions[0]?.value ?? '', gpu: firstGpu, per_gpu_hour: 0, currency: 'CNY' }] }), { id: 'lab-add-quote' }),
    row(
      numberField({ id: 'lab-budget', label: ctx.t('lab.budget_amount'), value: s.budget?.amount ?? 0, min: 0, max: 1e12 }, (v) => put({ budget: v > 0 ? { amount: v, currency: s.budget?.currency ?? 'CNY' } : null })),
      selectField({ id: 'lab-budget-currency', label: ctx.t('lab.currency'), value: s.budget?.currency ?? 'CNY', options: [{ value: 'CNY', label: 'CNY' }, { value: 'USD', label: 'USD' }] },
        (v) => put({ budget: { amount: s.budget?.amount ?? 0, currency: v === 'USD' ? 'USD' : 'CNY' } }))),
    selectField({ id: 'lab-scope', label: ctx.t('lab.scope'), value: s.scope, options: [{ value: '', label: ctx.t('lab.scope_any') }, { value: 'cn', label: ctx.t('lab.scope_cn') }, { value: 'global', label: ctx.t('lab.scope_global') }] },
      (v) => put({ scope: v === 'cn' || v === 'global' ? v : '' })),
    checkField({ id: 'lab-electricity', label: ctx.t('lab.electricity'), value: s.electricity }, (on) => put({ electricity: on })),
    numberField({ id: 'lab-suggested-value', label: ctx.t('lab.time_value'), value: s.time_value_per_hour, min: 0, max: 1e5 }, (v) => put({ time_value_per_hour: v })),
    selectField({ id: 'lab-add-model', label: ctx.t('lab.add_model'), value: '', options: modelOptions }, (v) => { if (v) put({ models: [...s.models, v].slice(0, 32) }); }),
    s.models.length || s.configs.length ? h('ul', null, s.models.map((id, i) => h('li', null, ctx.catalog.models.find((m) => m.id === id)?.name ?? id, ' ',
      button(ctx.t('lab.remove_row'), () => put({ models: s.models.filter((_, j) => j !== i) })))),
    s.configs.map((c, i) => h('li', null, `${c.name} · ${bigCount(ctx.lang, c.dims.params)} `,
      button(ctx.t('lab.remove_row'), () => put({ configs: s.configs.filter((_, j) => j !== i) }))))) : null,
    s.configs.length < MAX_LAB_CONFIGS ? pasteModel(ctx, (c) => put({ configs: [...s.configs, c] })) : null,
    h('div', { class: 'field' }, h('label', { for: notesId }, ctx.t('lab.notes_field')), notes));
}

// The custom model's config.json paste (views/inputs.ts), its parser and
// limits, for a model the lab adds to its settings.
function pasteModel(ctx: LabCtx, add: (c: LabSettings['configs'][number]) => void): HTMLElement {
  const paste = h('textarea', { id: 'lab-config', rows: 3, spellcheck: 'false', 'aria-describedby': 'lab-config-help' });
  const name = h('input', { id: 'lab-config-name', type: 'text', maxlength: 200, autocomplete: 'off' });
  const status = h('p', { class: 'help', id: 'lab-config-help', role: 'status' }, ctx.t('lab.paste_help', { n: MAX_LAB_CONFIGS }));
  return h('div', { class: 'field' }, h('label', { for: 'lab-config' }, ctx.t('lab.paste')), paste,
    h('label', { for: 'lab-config-name' }, ctx.t('lab.paste_name')), name, status,
    button(ctx.t('lab.paste_add'), () => {
      const r = parseHfConfig(live(paste).value);
      if (!r.ok) {
        live(status).textContent = hfRefusal(ctx.t, r);
        live(status).className = 'help bad';
        return;
      }
      add({ name: live(name).value.trim().slice(0, 200) || `${r.dims.model_type || '?'} · ${bigCount(ctx.lang, r.dims.params)}`, dims: r.dims });
    }, { id: 'lab-config-add' }));
}

function sharing(ctx: LabCtx, s: LabSettings): HTMLElement {
  const hash = encodeLab(s);
  const fits = hash.length <= MAX_LAB_LINK_CHARS && labJsonSize(s) <= MAX_LAB_JSON_CHARS;
  const link = `${pageUrl()}${hash}`;
  const snippet = iframeSnippet(pageUrl(), hash);
  const area = h('textarea', { id: 'lab-embed', rows: 6, readonly: true, spellcheck: 'false' }, snippet);
  const fileId = uid('lab-file');
  const file = h('input', { type: 'file', id: fileId, accept: 'application/json,.json' });
  on(file, 'change', () => {
    const f = live(file).files?.[0];
    if (f) void f.text().then((text) => ctx.importLab(text));
  });
  return h('div', { class: 'lab-share' },
    h('h3', null, ctx.t('lab.share')),
    h('p', { id: 'lab-size', class: fits ? 'help' : 'help bad' }, ctx.t('lab.size', { n: hash.length, max: MAX_LAB_LINK_CHARS, json: MAX_LAB_JSON_CHARS }), fits ? '' : ` ${ctx.t('lab.too_big')}`),
    fits ? h('div', { class: 'actions' },
      button(ctx.t('lab.copy_link'), () => void copy(ctx, link), { id: 'lab-copy-link' }),
      button(ctx.t('lab.copy_embed'), () => void copy(ctx, snippet), { id: 'lab-copy-embed' }),
      button(ctx.t('lab.file'), () => download('gpuplan-lab.json', JSON.stringify(s, null, 2), 'application/json'), { id: 'lab-download' })) : null,
    fits ? h('label', { for: 'lab-embed' }, ctx.t('lab.embed')) : null,
    fits ? area : null,
    h('div', { class: 'field' }, h('label', { for: fileId }, ctx.t('lab.import')), file));
}

export function labView(ctx: LabCtx): HTMLElement {
  const s = ctx.lab;
  const body: (HTMLElement | null)[] = [];
  if (!s) {
    body.push(h('p', null, ctx.t('lab.none')),
      button(ctx.t('lab.write'), () => { ctx.setLab(emptyLab(new Date().toISOString().slice(0, 10))); ctx.setLabEditing(true); }, { id: 'lab-write' }));
    const fileId = uid('lab-file');
    const file = h('input', { type: 'file', id: fileId, accept: 'application/json,.json' });
    on(file, 'change', () => {
      const f = live(file).files?.[0];
      if (f) void f.text().then((text) => ctx.importLab(text));
    });
    body.push(h('div', { class: 'field' }, h('label', { for: fileId }, ctx.t('lab.import')), file));
  } else {
    body.push(...summary(ctx, s));
    if (!ctx.embed || ctx.labEditing) {
      body.push(h('div', { class: 'actions' },
        button(ctx.t(ctx.labEditing ? 'lab.done' : 'lab.edit'), () => ctx.setLabEditing(!ctx.labEditing), { id: 'lab-edit' }),
        button(ctx.t('lab.remove'), () => ctx.setLab(null), { id: 'lab-remove' })));
    }
    if (ctx.labEditing) body.push(editor(ctx, s));
    body.push(sharing(ctx, s));
  }
  const details = h('details', { class: 'card lab', id: 'lab', open: paneOpen || ctx.labEditing || undefined },
    h('summary', null, h('h2', { class: 'inline' }, ctx.t('lab.title'))), ...body);
  // Open stays open across the page's re-renders (an edit re-renders the form).
  on(details, 'toggle', () => { paneOpen = live(details).open; });
  return details;
}
