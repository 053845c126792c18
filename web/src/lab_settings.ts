// The lab's settings (docs/api.md, "Lab settings"): what an admin records
// once and a lab's wiki hands every student, as a link fragment (#lab=…), an
// embed code or a file. They are kept apart from the student's own inputs
// and projects (their own storage keys, never the form's), read strictly
// (a settings text with anything wrong in it is refused whole: nothing is
// applied half), and sent to the planner as the request's `lab`.
import { checkDims, type Dimensions } from './hfconfig.ts';
import { defaultState, type State } from './state.ts';
import type { Store } from './storage.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';

// 2: pasted models (`configs`). A version-1 text reads as one without them.
export const LAB_VERSION = 2;
export const LAB_PREFIX = '#lab=';
// The settings the page keeps, and the student's own choices about them.
export const LAB_KEY = 'gpuplan.lab';
export const LAB_MINE_KEY = 'gpuplan.lab.mine';
// A link fragment this long still passes chat apps and wiki editors; the
// settings text behind it is bounded so (base64 grows it by a third).
export const MAX_LAB_LINK_CHARS = 8000;
export const MAX_LAB_JSON_CHARS = 5900;
// Models pasted as a config.json, each its parsed dimensions (hfconfig.ts): about 300 characters apiece.
export const MAX_LAB_CONFIGS = 8;

export interface LabGpus { gpu: string; count: number; machines: number; wait_hours: number; hours_per_week: number }
export interface LabConfig { name: string; dims: Dimensions }
export interface LabQuote { platform: string; gpu: string; per_gpu_hour: number; currency: 'CNY' | 'USD' }
export interface LabSettings {
  v: number;
  name: string;
  written: string; // ISO date
  notes: string;
  models: string[];
  configs: LabConfig[];
  gpus: LabGpus[];
  campus: { wait_hours: number; max_gpus: number; max_hours: number; prices: { gpu: string; per_gpu_hour: number }[] } | null;
  prices: LabQuote[];
  budget: { amount: number; currency: 'CNY' | 'USD' } | null;
  scope: '' | 'cn' | 'global';
  electricity: boolean;
  time_value_per_hour: number; // the lab's suggestion; the student's own wins
}

// What the student chose about them: plan without them, the value of an hour
// of their waiting, and whether they set their own budget while the lab's showed.
export interface LabMine { off: boolean; time_value_per_hour: number | null; budget?: boolean }

export interface Known { gpus: Set<string>; platforms: Set<string>; models: Set<string> }

export function emptyLab(today: string): LabSettings {
  return { v: LAB_VERSION, name: '', written: today, notes: '', models: [], configs: [], gpus: [], campus: null, prices: [],
    budget: null, scope: '', electricity: false, time_value_per_hour: 0 };
}

export type LabRead = { ok: LabSettings } | { newer: number } | { damaged: string };

// Strict: every field known, of its type and range, every id in the catalog.
// The first problem names the field; nothing is returned but whole settings.
export function readLab(doc: unknown, known: Known): LabRead {
  const bad = (field: string): LabRead => ({ damaged: field });
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return bad('');
  const o = doc as Record<string, unknown>;
  if (typeof o.v !== 'number' || !Number.isInteger(o.v) || o.v < 1) return bad('v');
  if (o.v > LAB_VERSION) return { newer: o.v };
  const fields = ['v', 'name', 'written', 'notes', 'models', 'configs', 'gpus', 'campus', 'prices', 'budget', 'scope', 'electricity', 'time_value_per_hour'];
  for (const k of Object.keys(o)) if (!fields.includes(k)) return bad(k);
  const text = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
  const n = (v: unknown, min: number, max: number, int = false): v is number =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max && (!int || Number.isInteger(v));
  const only = (v: unknown, names: string[]): v is Record<string, unknown> =>
    !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).every((k) => names.includes(k));
  const cur = (v: unknown): v is 'CNY' | 'USD' => v === 'CNY' || v === 'USD';
  if (!text(o.name, 200)) return bad('name');
  if (!text(o.written, 200)) return bad('written');
  if (!text(o.notes, 4000)) return bad('notes');
  if (!Array.isArray(o.models) || o.models.length > 32 || !o.models.every((m) => typeof m === 'string' && known.models.has(m))) return bad('models');
  const configs = o.configs ?? [];
  if (!Array.isArray(configs) || configs.length > MAX_LAB_CONFIGS) return bad('configs');
  for (const [i, c] of configs.entries())
    if (!only(c, ['name', 'dims']) || !text(c.name, 200) || !c.name || !checkDims(c.dims)) return bad(`configs[${i}]`);
  if (!Array.isArray(o.gpus) || o.gpus.length > 16) return bad('gpus');
  for (const [i, g] of o.gpus.entries()) {
    if (!only(g, ['gpu', 'count', 'machines', 'wait_hours', 'hours_per_week'])) return bad(`gpus[${i}]`);
    if (typeof g.gpu !== 'string' || !known.gpus.has(g.gpu)) return bad(`gpus[${i}].gpu`);
    if (!n(g.count, 1, 4096, true)) return bad(`gpus[${i}].count`);
    if (!n(g.machines, 1, g.count, true) || g.count % g.machines !== 0) return bad(`gpus[${i}].machines`);
    if (!n(g.wait_hours, 0, 87600)) return bad(`gpus[${i}].wait_hours`);
    if (!n(g.hours_per_week, 1, 168)) return bad(`gpus[${i}].hours_per_week`);
  }
  if (o.campus !== null) {
    const c = o.campus;
    if (!only(c, ['wait_hours', 'max_gpus', 'max_hours', 'prices'])) return bad('campus');
    if (!n(c.wait_hours, 0, 87600) || !n(c.max_gpus, 0, 4096, true) || !n(c.max_hours, 0, 87600)) return bad('campus');
    if (!Array.isArray(c.prices) || c.prices.length > 100) return bad('campus.prices');
    for (const [i, p] of c.prices.entries())
      if (!only(p, ['gpu', 'per_gpu_hour']) || typeof p.gpu !== 'string' || !known.gpus.has(p.gpu) || !n(p.per_gpu_hour, 0, 1e6))
        return bad(`campus.prices[${i}]`);
  }
  if (!Array.isArray(o.prices) || o.prices.length > 200) return bad('prices');
  for (const [i, p] of o.prices.entries())
    if (!only(p, ['platform', 'gpu', 'per_gpu_hour', 'currency']) || typeof p.platform !== 'string' || !known.platforms.has(p.platform) ||
        typeof p.gpu !== 'string' || !known.gpus.has(p.gpu) || !n(p.per_gpu_hour, 0, 1e6) || !cur(p.currency))
      return bad(`prices[${i}]`);
  if (o.budget !== null && !(only(o.budget, ['amount', 'currency']) && n(o.budget.amount, 0, 1e12) && cur(o.budget.currency))) return bad('budget');
  if (o.scope !== '' && o.scope !== 'cn' && o.scope !== 'global') return bad('scope');
  if (typeof o.electricity !== 'boolean') return bad('electricity');
  if (!n(o.time_value_per_hour, 0, 1e5)) return bad('time_value_per_hour');
  return { ok: { ...o, configs } as unknown as LabSettings };
}

// The same base64url of UTF-8 JSON as the share link (base64url.ts).
export function encodeLab(s: LabSettings): string {
  return `${LAB_PREFIX}${toBase64Url(JSON.stringify(s))}`;
}

export function labJsonSize(s: LabSettings): number {
  return JSON.stringify(s).length;
}

// null: the hash carries no lab settings.
export function decodeLab(hash: string, known: Known): LabRead | null {
  if (!hash.startsWith(LAB_PREFIX)) return null;
  const body = hash.slice(LAB_PREFIX.length);
  if (body.length > MAX_LAB_LINK_CHARS) return { damaged: 'size' };
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return { damaged: '' };
  try {
    return readLab(JSON.parse(fromBase64Url(body)), known);
  } catch {
    return { damaged: '' };
  }
}

// A settings file (the admin's "download"): the same JSON, bounded the same.
export function parseLabFile(text: string, known: Known): LabRead {
  if (text.length > MAX_LAB_JSON_CHARS * 4) return { damaged: 'size' };
  try {
    return readLab(JSON.parse(text), known);
  } catch {
    return { damaged: '' };
  }
}

export function loadLab(store: Store, known: Known): LabSettings | null {
  const raw = store.read(LAB_KEY);
  if (!raw) return null;
  const r = parseLabFile(raw, known);
  return 'ok' in r ? r.ok : null;
}

export function saveLab(store: Store, s: LabSettings | null): boolean {
  return s ? store.write(LAB_KEY, JSON.stringify(s)) : store.remove(LAB_KEY);
}

export function loadMine(store: Store): LabMine {
  try {
    const o = JSON.parse(store.read(LAB_MINE_KEY) ?? '{}') as Record<string, unknown>;
    const tv = o.time_value_per_hour;
    return { off: o.off === true, time_value_per_hour: typeof tv === 'number' && Number.isFinite(tv) && tv >= 0 && tv <= 1e5 ? tv : null,
      ...(o.budget === true ? { budget: true } : {}) };
  } catch {
    return { off: false, time_value_per_hour: null };
  }
}

export function saveMine(store: Store, m: LabMine): boolean {
  return store.write(LAB_MINE_KEY, JSON.stringify(m));
}

export interface LabView { lab?: LabSettings | null; labMine?: LabMine; state: State }

// The settings the page plans with: none when the student plans without them.
export function activeLab(c: Omit<LabView, 'state'>): LabSettings | null {
  return c.lab && !c.labMine?.off ? c.lab : null;
}

// The lab's defaults that stand where the student has set nothing of their
// own (their own always wins, and opening a lab link never changes it): the
// budget while the form's is the page's default and the student has not set
// one with the lab's showing, the scope while the student has chosen none.
export function labDefaults(c: LabView): { budget: LabSettings['budget']; scope: LabSettings['scope'] } {
  const s = activeLab(c);
  const d = defaultState();
  const mine = !!c.labMine?.budget || c.state.budget !== d.budget || c.state.budget_currency !== d.budget_currency;
  return { budget: s?.budget && s.budget.amount > 0 && !mine ? s.budget : null, scope: s && !c.state.scope ? s.scope : '' };
}

// The request's `lab`, `prefs.time_value_per_hour` and the lab's budget where
// it stands (labDefaults) (docs/api.md). The pasted models stay on the page:
// the student's choice of one is the request's `model`.
export function withLab(req: Record<string, unknown>, s: LabSettings | null, mine: LabMine, state?: State): Record<string, unknown> {
  if (!s || mine.off) return req;
  // The request's `lab.version`: its format, not the settings text's.
  const lab: Record<string, unknown> = { version: 1 };
  if (s.name) lab.name = s.name;
  if (s.written) lab.written = s.written;
  if (s.notes) lab.notes = s.notes;
  if (s.models.length) lab.models = s.models;
  if (s.gpus.length) lab.gpus = s.gpus;
  if (s.campus) {
    const c = s.campus;
    lab.campus = { wait_hours: c.wait_hours, prices: c.prices, ...(c.max_gpus > 0 ? { max_gpus: c.max_gpus } : {}),
      ...(c.max_hours > 0 ? { max_hours: c.max_hours } : {}) };
  }
  if (s.prices.length) lab.prices = s.prices;
  if (s.budget && s.budget.amount > 0) lab.budget = s.budget;
  if (s.scope) lab.scope = s.scope;
  if (s.electricity) lab.electricity = true;
  const out: Record<string, unknown> = { ...req, lab };
  const budget = state && labDefaults({ lab: s, labMine: mine, state }).budget;
  if (budget) out.budget = budget;
  const value = mine.time_value_per_hour ?? s.time_value_per_hour;
  if (value > 0) out.prefs = { ...((req.prefs as Record<string, unknown>) ?? {}), time_value_per_hour: value };
  return out;
}
