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

// The pane's words, both languages side by side ({name} placeholders as in i18n.ts).
const WORDS = {
  title: ['实验室设置', 'Lab settings'],
  line: ['本页按「{name}」的实验室设置规划（写于 {date}）：实验室的卡、校级平台、报价和预算。', 'This page plans with the lab settings of “{name}” (written {date}): the lab’s cards, campus centre, quotes and budget.'],
  line_off: ['本页有「{name}」的实验室设置（写于 {date}），现在不用它们规划。', 'This page has the lab settings of “{name}” (written {date}); it is planning without them now.'],
  unnamed: ['未署名', 'unnamed'],
  see: ['查看设置', 'See the settings'],
  without: ['不用实验室设置规划', 'Plan without them'],
  with: ['用实验室设置规划', 'Plan with them'],
  none: ['本页没有实验室设置。课题组管理员可以在这里写下实验室的卡、校级平台和报价，再把链接或嵌入代码放到组里的 wiki 上。', 'This page has no lab settings. A lab admin can record the lab’s cards, campus centre and quotes here, then put the link or embed code on the lab’s wiki.'],
  edit: ['编辑设置', 'Edit the settings'],
  write: ['写实验室设置', 'Write lab settings'],
  done: ['完成编辑', 'Done editing'],
  remove: ['删除本页的实验室设置', 'Remove the lab settings from this page'],
  cards: ['实验室的卡', 'The lab’s cards'],
  card_line: ['{n} × {gpu}，{m} 台机器，通常等 {wait} 小时，每周可用约 {week} 小时', '{n} × {gpu} on {m} machine(s), usually a {wait} h wait, about {week} h a week'],
  campus: ['校级算力平台', 'Campus centre'],
  campus_line: ['排队约 {wait} 小时；每人最多 {gpus} 张卡、每个作业最长 {hours} 小时', 'queue about {wait} h; at most {gpus} cards per user, {hours} h per job'],
  no_limit: ['不限', 'no limit'],
  quotes: ['实验室的报价', 'The lab’s quotes'],
  quote_line: ['{platform}：{gpu} 每卡时 {price} {cur}', '{platform}: {gpu} at {price} {cur} per card-hour'],
  campus_quote: ['{gpu} 每卡时 {price} 元', '{gpu} at {price} CNY per card-hour'],
  budget: ['默认预算', 'Default budget'],
  models: ['实验室常用模型', 'Models the lab uses'],
  use_model: ['用 {name}', 'Use {name}'],
  notes: ['说明', 'Notes'],
  mine: ['你的等待每小时值多少（{cur}）', 'What an hour of your waiting is worth ({cur})'],
  mine_help: ['0 表示等待不计成本；例如按每月补助折算的时薪。填了以后，规划把实验室卡的等待时间折成钱，与租卡比较。', '0: waiting costs nothing; e.g. your monthly stipend as an hourly rate. With it the plan prices the wait for the lab’s cards against renting.'],
  name: ['谁的设置（课题组 / 管理员）', 'Whose settings (group / admin)'],
  written: ['写于', 'Written'],
  gpu: ['显卡', 'GPU'],
  count: ['张数', 'Cards'],
  machines: ['机器数', 'Machines'],
  wait: ['通常要等（小时）', 'Usual wait (hours)'],
  week: ['每周可用（小时）', 'Hours a week'],
  add_cards: ['添加一组卡', 'Add a group of cards'],
  remove_row: ['删除这一行', 'Remove this row'],
  campus_on: ['组里用校级算力平台', 'The lab uses a campus centre'],
  campus_wait: ['排队（小时）', 'Queue (hours)'],
  campus_gpus: ['每人最多卡数（0 不限）', 'Cards per user (0: no limit)'],
  campus_hours: ['每个作业最长（小时，0 不限）', 'Hours per job (0: no limit)'],
  price: ['每卡时价格', 'Per card-hour'],
  add_campus_quote: ['添加校级平台单价', 'Add a campus rate'],
  platform: ['平台', 'Platform'],
  currency: ['币种', 'Currency'],
  add_quote: ['添加一条报价', 'Add a quote'],
  budget_amount: ['默认预算（0 表示不设）', 'Default budget (0: none)'],
  scope: ['默认范围', 'Default scope'],
  scope_any: ['按学生自己的设置', 'the student’s own'],
  scope_cn: ['国内平台', 'platforms in China'],
  scope_global: ['全部平台', 'every platform'],
  electricity: ['实验室卡的电费计入（按目录电价 × 显卡功耗）', 'Charge the lab’s cards their electricity (catalog tariff × card power)'],
  time_value: ['建议的等待时薪（学生可改）', 'Suggested value of a waiting hour (students may change it)'],
  add_model: ['添加常用模型', 'Add a model the lab uses'],
  notes_field: ['说明（怎么申请校级平台、找谁）', 'Notes (how to apply for the campus centre, whom to ask)'],
  share: ['分享这些设置', 'Share these settings'],
  size: ['设置链接 {n} / {max} 个字符（设置内容最多 {json} 个字符）。', 'Settings link: {n} of {max} characters (the settings at most {json} characters).'],
  too_big: ['设置太长，链接放不下：请缩短说明或减少报价。', 'The settings are too long for a link: shorten the notes or drop quotes.'],
  copy_link: ['复制设置链接', 'Copy the settings link'],
  embed: ['嵌入代码（放到 wiki 页面里）', 'Embed code (for the wiki page)'],
  copy_embed: ['复制嵌入代码', 'Copy the embed code'],
  file: ['下载设置文件', 'Download the settings file'],
  import: ['导入设置文件', 'Import a settings file'],
  copied: ['已复制。', 'Copied.'],
  manual: ['无法自动复制，请手动复制：{text}', 'Could not copy; copy it by hand: {text}'],
  total: ['实验室总账', 'The lab’s total'],
  total_help: ['每个已保存的项目按实验室设置重新规划；各阶段从项目保存那天起依次排开，按阶段、按月合计，与实验室预算对比。', 'Each saved project planned again with the lab settings; its stages laid end to end from the day it was saved, summed by stage and by month against the lab’s budget.'],
  col_project: ['项目', 'Project'],
  col_stage: ['阶段', 'Stage'],
  col_month: ['月份', 'Month'],
  col_where: ['在哪里跑', 'Where'],
  col_cost: ['费用', 'Cost'],
  col_price: ['价格日期 · 可信度', 'Price date · standing'],
  total_table: ['实验室总账：各项目各阶段', 'The lab’s total, project by project and stage by stage'],
  total_sum: ['合计', 'Total'],
  over: ['超出预算', 'over budget'],
  clash: ['「{a}」和「{b}」在 {week} 同时要用实验室的 {gpu}', '“{a}” and “{b}” both need the lab’s {gpu} in {week}'],
  total_md: ['导出总账 Markdown', 'Export the total as Markdown'],
  total_csv: ['导出总账 CSV', 'Export the total as CSV'],
  total_print: ['打印总账（A4 一页）', 'Print the total (one A4 page)'],
  lab_default: ['实验室默认', 'the lab’s default'],
  models_first: ['实验室的模型', 'The lab’s models'],
  models_rest: ['其他模型', 'Other models'],
  paste: ['粘贴模型的 config.json（Hugging Face）', 'Paste a model’s config.json (Hugging Face)'],
  paste_name: ['它的名称', 'Its name'],
  paste_help: ['最多 {n} 个粘贴的模型，随设置链接和文件一起分享。', 'At most {n} pasted models; they travel with the settings link and file.'],
  paste_add: ['添加这个模型', 'Add this model'],
} as const;
export type LabWord = keyof typeof WORDS;

export function labWord(lang: string, key: LabWord, params: Record<string, string | number> = {}): string {
  const text: string = WORDS[key][lang === 'en' ? 1 : 0];
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

// What a refused settings text is called, in words (nothing of it applied).
export function labRefusal(lang: string, r: Exclude<LabRead, { ok: LabSettings }>, from: 'link' | 'file'): string {
  const what = from === 'link' ? (lang === 'en' ? 'The lab settings link' : '实验室设置链接') : (lang === 'en' ? 'The lab settings file' : '实验室设置文件');
  if ('newer' in r)
    return lang === 'en' ? `${what} comes from a newer version of this page (settings version ${r.newer}); nothing of it was applied. Open it in the newer page.`
      : `${what}来自更新版本的页面（设置版本 ${r.newer}），本页没有应用其中任何内容；请用新版页面打开。`;
  if (r.damaged === 'size')
    return lang === 'en' ? `${what} is longer than ${MAX_LAB_LINK_CHARS} characters; nothing of it was applied.` : `${what}超过 ${MAX_LAB_LINK_CHARS} 个字符，本页没有应用其中任何内容。`;
  // Where, in the pane's own words (never the text's field names).
  const part = new Map<string, LabWord>([['name', 'name'], ['written', 'written'], ['notes', 'notes'], ['models', 'models'], ['configs', 'models'],
    ['gpus', 'cards'], ['campus', 'campus'], ['prices', 'quotes'], ['budget', 'budget'], ['scope', 'scope']]).get(r.damaged.split(/[.[]/)[0]);
  const field = part ? (lang === 'en' ? ` (at “${labWord(lang, part)}”)` : `（出错处：${labWord(lang, part)}）`) : '';
  return lang === 'en' ? `${what} is damaged${field}; nothing of it was applied. Ask for the link again.` : `${what}已损坏${field}，本页没有应用其中任何内容；请重新索取链接。`;
}

let paneOpen = false;

function pageUrl(): string {
  return location.href.split('#')[0].split('?')[0];
}

async function copy(ctx: LabCtx, text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    ctx.notify(labWord(ctx.lang, 'copied'));
  } catch {
    ctx.notify(labWord(ctx.lang, 'manual', { text }));
  }
}

// The line at the top of a page opened with lab settings.
export function labLine(ctx: LabCtx): HTMLElement | null {
  const s = ctx.lab;
  if (!s) return null;
  const w = (k: LabWord, p?: Record<string, string | number>): string => labWord(ctx.lang, k, p);
  const params = { name: s.name || w('unnamed'), date: s.written || '—' };
  return h('div', { class: 'card lab-line', id: 'lab-line', role: 'note' },
    h('p', null, w(ctx.labMine.off ? 'line_off' : 'line', params)),
    h('div', { class: 'actions' },
      button(w('see'), () => {
        const d = document.getElementById('lab') as HTMLDetailsElement | null;
        if (d) { d.open = true; paneOpen = true; d.scrollIntoView({ block: 'start' }); }
      }, { id: 'lab-see' }),
      button(w(ctx.labMine.off ? 'with' : 'without'), () => ctx.setLabMine({ ...ctx.labMine, off: !ctx.labMine.off }), { id: 'lab-toggle' })));
}

function summary(ctx: LabCtx, s: LabSettings): HTMLElement[] {
  const w = (k: LabWord, p?: Record<string, string | number>): string => labWord(ctx.lang, k, p);
  const out: HTMLElement[] = [];
  const list = (title: string, items: string[]): void => {
    if (items.length) out.push(h('h3', null, title), h('ul', null, items.map((x) => h('li', null, x))));
  };
  list(w('cards'), s.gpus.map((g) => w('card_line', { n: g.count, gpu: gpuName(ctx, g.gpu), m: g.machines, wait: g.wait_hours, week: g.hours_per_week })));
  if (s.campus) {
    const c = s.campus;
    list(w('campus'), [w('campus_line', { wait: c.wait_hours, gpus: c.max_gpus || w('no_limit'), hours: c.max_hours || w('no_limit') }),
      ...c.prices.map((p) => w('campus_quote', { gpu: gpuName(ctx, p.gpu), price: p.per_gpu_hour }))]);
  }
  list(w('quotes'), s.prices.map((p) => w('quote_line', { platform: platformName(ctx, p.platform), gpu: gpuName(ctx, p.gpu), price: p.per_gpu_hour, cur: p.currency })));
  if (s.budget && s.budget.amount > 0) list(w('budget'), [`${s.budget.amount} ${s.budget.currency}`]);
  if (s.models.length || s.configs.length) {
    out.push(h('h3', null, w('models')), h('div', { class: 'actions' }, s.models.map((id) => {
      const name = ctx.catalog.models.find((m) => m.id === id)?.name ?? id;
      return button(w('use_model', { name }), () => ctx.apply({ source: 'preset', preset: id }, name), { 'data-lab-model': id });
    }), s.configs.map((c) => button(w('use_model', { name: c.name }), () => ctx.apply({ source: 'custom', custom: customOf(c.dims) }, c.name)))));
  }
  if (s.notes) out.push(h('h3', null, w('notes')), h('p', { class: 'lab-notes' }, s.notes));
  // The request's currency: the lab's budget's while it stands for the student's.
  const cur = labDefaults(ctx).budget?.currency ?? ctx.state.budget_currency;
  out.push(numberField({ id: 'lab-time-value', label: w('mine', { cur }), help: w('mine_help'), min: 0, max: 1e5,
    value: ctx.labMine.time_value_per_hour ?? s.time_value_per_hour, path: 'prefs.time_value_per_hour' },
  (v) => { if (v !== ctx.labMine.time_value_per_hour) ctx.setLabMine({ ...ctx.labMine, time_value_per_hour: v }); }));
  return out;
}

function editor(ctx: LabCtx, s: LabSettings): HTMLElement {
  const w = (k: LabWord, p?: Record<string, string | number>): string => labWord(ctx.lang, k, p);
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
      selectField({ label: w('gpu'), value: g.gpu, options: gpuOptions, id: `lab-gpu${i}` }, (v) => set({ gpu: v })),
      numberField({ label: w('count'), value: g.count, min: 1, max: 4096, int: true, id: `lab-count${i}` }, (v) => set({ count: v, machines: v % g.machines === 0 ? g.machines : 1 })),
      numberField({ label: w('machines'), value: g.machines, min: 1, max: g.count, int: true, id: `lab-machines${i}` }, (v) => { if (g.count % v === 0) set({ machines: v }); }),
      numberField({ label: w('wait'), value: g.wait_hours, min: 0, max: 87600, id: `lab-wait${i}` }, (v) => set({ wait_hours: v })),
      numberField({ label: w('week'), value: g.hours_per_week, min: 1, max: 168, id: `lab-week${i}` }, (v) => set({ hours_per_week: v })),
      button(w('remove_row'), () => put({ gpus: s.gpus.filter((_, j) => j !== i) })));
  });
  const campus = s.campus;
  const campusRows = campus ? campus.prices.map((p, i) => row(
    selectField({ label: w('gpu'), value: p.gpu, options: gpuOptions, id: `lab-cgpu${i}` }, (v) => put({ campus: { ...campus, prices: campus.prices.map((x, j) => (j === i ? { ...x, gpu: v } : x)) } })),
    numberField({ label: w('price'), value: p.per_gpu_hour, min: 0, max: 1e6, id: `lab-cprice${i}` }, (v) => put({ campus: { ...campus, prices: campus.prices.map((x, j) => (j === i ? { ...x, per_gpu_hour: v } : x)) } })),
    button(w('remove_row'), () => put({ campus: { ...campus, prices: campus.prices.filter((_, j) => j !== i) } })))) : [];
  const quotes = s.prices.map((p, i) => {
    const set = (patch: Partial<typeof p>): void => put({ prices: s.prices.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
    return row(
      selectField({ label: w('platform'), value: p.platform, options: platformOptions, id: `lab-qplatform${i}` }, (v) => set({ platform: v })),
      selectField({ label: w('gpu'), value: p.gpu, options: gpuOptions, id: `lab-qgpu${i}` }, (v) => set({ gpu: v })),
      numberField({ label: w('price'), value: p.per_gpu_hour, min: 0, max: 1e6, id: `lab-qprice${i}` }, (v) => set({ per_gpu_hour: v })),
      selectField({ label: w('currency'), value: p.currency, options: [{ value: 'CNY', label: 'CNY' }, { value: 'USD', label: 'USD' }], id: `lab-qcur${i}` }, (v) => set({ currency: v === 'USD' ? 'USD' : 'CNY' })),
      button(w('remove_row'), () => put({ prices: s.prices.filter((_, j) => j !== i) })));
  });
  const modelOptions = [{ value: '', label: '—' }, ...ctx.catalog.models.filter((m) => !s.models.includes(m.id)).map((m) => ({ value: m.id, label: m.name ?? m.id }))];
  const notesId = uid('lab-notes');
  const notes = h('textarea', { id: notesId, rows: 3, maxlength: 4000 }, s.notes);
  on(notes, 'change', () => put({ notes: live(notes).value.slice(0, 4000) }));
  const firstGpu = ctx.catalog.gpus[0]?.id ?? '';
  return h('div', { class: 'lab-editor', id: 'lab-editor' },
    textField({ id: 'lab-name', label: w('name'), value: s.name, max: 200 }, (v) => put({ name: v })),
    textField({ id: 'lab-written', label: w('written'), value: s.written, max: 200 }, (v) => put({ written: v })),
    h('h3', null, w('cards')), ...gpus,
    button(w('add_cards'), () => put({ gpus: [...s.gpus, { gpu: firstGpu, count: 1, machines: 1, wait_hours: 0, hours_per_week: 168 }] }), { id: 'lab-add-cards' }),
    h('h3', null, w('campus')),
    checkField({ id: 'lab-campus-on', label: w('campus_on'), value: !!campus }, (on) => put({ campus: on ? { wait_hours: 0, max_gpus: 0, max_hours: 0, prices: [] } : null })),
    campus ? row(
      numberField({ id: 'lab-campus-wait', label: w('campus_wait'), value: campus.wait_hours, min: 0, max: 87600 }, (v) => put({ campus: { ...campus, wait_hours: v } })),
      numberField({ id: 'lab-campus-gpus', label: w('campus_gpus'), value: campus.max_gpus, min: 0, max: 4096, int: true }, (v) => put({ campus: { ...campus, max_gpus: v } })),
      numberField({ id: 'lab-campus-hours', label: w('campus_hours'), value: campus.max_hours, min: 0, max: 87600 }, (v) => put({ campus: { ...campus, max_hours: v } }))) : null,
    ...campusRows,
    campus ? button(w('add_campus_quote'), () => put({ campus: { ...campus, prices: [...campus.prices, { gpu: firstGpu, per_gpu_hour: 0 }] } }), { id: 'lab-add-campus-quote' }) : null,
    h('h3', null, w('quotes')), ...quotes,
    button(w('add_quote'), () => put({ prices: [...s.prices, { platform: platformOptions[0]?.value ?? '', gpu: firstGpu, per_gpu_hour: 0, currency: 'CNY' }] }), { id: 'lab-add-quote' }),
    row(
      numberField({ id: 'lab-budget', label: w('budget_amount'), value: s.budget?.amount ?? 0, min: 0, max: 1e12 }, (v) => put({ budget: v > 0 ? { amount: v, currency: s.budget?.currency ?? 'CNY' } : null })),
      selectField({ id: 'lab-budget-currency', label: w('currency'), value: s.budget?.currency ?? 'CNY', options: [{ value: 'CNY', label: 'CNY' }, { value: 'USD', label: 'USD' }] },
        (v) => put({ budget: { amount: s.budget?.amount ?? 0, currency: v === 'USD' ? 'USD' : 'CNY' } }))),
    selectField({ id: 'lab-scope', label: w('scope'), value: s.scope, options: [{ value: '', label: w('scope_any') }, { value: 'cn', label: w('scope_cn') }, { value: 'global', label: w('scope_global') }] },
      (v) => put({ scope: v === 'cn' || v === 'global' ? v : '' })),
    checkField({ id: 'lab-electricity', label: w('electricity'), value: s.electricity }, (on) => put({ electricity: on })),
    numberField({ id: 'lab-suggested-value', label: w('time_value'), value: s.time_value_per_hour, min: 0, max: 1e5 }, (v) => put({ time_value_per_hour: v })),
    selectField({ id: 'lab-add-model', label: w('add_model'), value: '', options: modelOptions }, (v) => { if (v) put({ models: [...s.models, v].slice(0, 32) }); }),
    s.models.length || s.configs.length ? h('ul', null, s.models.map((id, i) => h('li', null, ctx.catalog.models.find((m) => m.id === id)?.name ?? id, ' ',
      button(w('remove_row'), () => put({ models: s.models.filter((_, j) => j !== i) })))),
    s.configs.map((c, i) => h('li', null, `${c.name} · ${bigCount(ctx.lang, c.dims.params)} `,
      button(w('remove_row'), () => put({ configs: s.configs.filter((_, j) => j !== i) }))))) : null,
    s.configs.length < MAX_LAB_CONFIGS ? pasteModel(ctx, (c) => put({ configs: [...s.configs, c] })) : null,
    h('div', { class: 'field' }, h('label', { for: notesId }, w('notes_field')), notes));
}

// The custom model's config.json paste (views/inputs.ts), its parser and
// limits, for a model the lab adds to its settings.
function pasteModel(ctx: LabCtx, add: (c: LabSettings['configs'][number]) => void): HTMLElement {
  const w = (k: LabWord, p?: Record<string, string | number>): string => labWord(ctx.lang, k, p);
  const paste = h('textarea', { id: 'lab-config', rows: 3, spellcheck: 'false', 'aria-describedby': 'lab-config-help' });
  const name = h('input', { id: 'lab-config-name', type: 'text', maxlength: 200, autocomplete: 'off' });
  const status = h('p', { class: 'help', id: 'lab-config-help', role: 'status' }, w('paste_help', { n: MAX_LAB_CONFIGS }));
  return h('div', { class: 'field' }, h('label', { for: 'lab-config' }, w('paste')), paste,
    h('label', { for: 'lab-config-name' }, w('paste_name')), name, status,
    button(w('paste_add'), () => {
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
  const w = (k: LabWord, p?: Record<string, string | number>): string => labWord(ctx.lang, k, p);
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
    h('h3', null, w('share')),
    h('p', { id: 'lab-size', class: fits ? 'help' : 'help bad' }, w('size', { n: hash.length, max: MAX_LAB_LINK_CHARS, json: MAX_LAB_JSON_CHARS }), fits ? '' : ` ${w('too_big')}`),
    fits ? h('div', { class: 'actions' },
      button(w('copy_link'), () => void copy(ctx, link), { id: 'lab-copy-link' }),
      button(w('copy_embed'), () => void copy(ctx, snippet), { id: 'lab-copy-embed' }),
      button(w('file'), () => download('gpuplan-lab.json', JSON.stringify(s, null, 2), 'application/json'), { id: 'lab-download' })) : null,
    fits ? h('label', { for: 'lab-embed' }, w('embed')) : null,
    fits ? area : null,
    h('div', { class: 'field' }, h('label', { for: fileId }, w('import')), file));
}

export function labView(ctx: LabCtx): HTMLElement {
  const w = (k: LabWord, p?: Record<string, string | number>): string => labWord(ctx.lang, k, p);
  const s = ctx.lab;
  const body: (HTMLElement | null)[] = [];
  if (!s) {
    body.push(h('p', null, w('none')),
      button(w('write'), () => { ctx.setLab(emptyLab(new Date().toISOString().slice(0, 10))); ctx.setLabEditing(true); }, { id: 'lab-write' }));
    const fileId = uid('lab-file');
    const file = h('input', { type: 'file', id: fileId, accept: 'application/json,.json' });
    on(file, 'change', () => {
      const f = live(file).files?.[0];
      if (f) void f.text().then((text) => ctx.importLab(text));
    });
    body.push(h('div', { class: 'field' }, h('label', { for: fileId }, w('import')), file));
  } else {
    body.push(...summary(ctx, s));
    if (!ctx.embed || ctx.labEditing) {
      body.push(h('div', { class: 'actions' },
        button(w(ctx.labEditing ? 'done' : 'edit'), () => ctx.setLabEditing(!ctx.labEditing), { id: 'lab-edit' }),
        button(w('remove'), () => ctx.setLab(null), { id: 'lab-remove' })));
    }
    if (ctx.labEditing) body.push(editor(ctx, s));
    body.push(sharing(ctx, s));
  }
  const details = h('details', { class: 'card lab', id: 'lab', open: paneOpen || ctx.labEditing || undefined },
    h('summary', null, h('h2', { class: 'inline' }, w('title'))), ...body);
  // Open stays open across the page's re-renders (an edit re-renders the form).
  on(details, 'toggle', () => { paneOpen = live(details).open; });
  return details;
}
