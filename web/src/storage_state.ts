// What the page remembers of the user's work: the last inputs,
// restored when the page opens without a share link, and the named projects.
// Both are versioned documents in localStorage (storage.ts); a state read
// back is untrusted and goes through sanitize() like a share link's.
import type { Quote } from './prices.ts';
import { FILE_SCHEMA, serializeQuotes } from './prices.ts';
import { sanitize, type State } from './state.ts';
import { LAST_KEY } from './opening.ts';
import { asRecord, loadVersioned, migrate, writeVersioned, type Schema, type Store } from './storage.ts';

export { LAST_KEY };
export const PROJECTS_KEY = 'gpuplan.projects';
// Schema 1 is the first of each; a later page adds migrations[1] here.
export const LAST_SCHEMA: Schema = { key: LAST_KEY, version: 1, migrations: {} };
export const PROJECTS_SCHEMA: Schema = { key: PROJECTS_KEY, version: 1, migrations: {} };
// A state is ~2 KB of JSON: 50 projects stay far inside the browser's ~5 MB.
export const MAX_PROJECTS = 50;
export const MAX_NAME = 100;

export interface Project { id: string; name: string; saved_at: string; state: State }

// What a load found, for the one notice the page shows about it.
export type StoredStatus =
  | { status: 'empty' | 'ok' | 'unavailable' }
  | { status: 'migrated'; from: number }
  | { status: 'corrupt' | 'newer'; version?: number; backupKey: string | null };

function statusOf(r: ReturnType<typeof loadVersioned>): StoredStatus {
  if (r.status === 'corrupt') return { status: 'corrupt', backupKey: r.backupKey };
  if (r.status === 'newer') return { status: 'newer', version: r.version, backupKey: r.backupKey };
  if (r.status === 'migrated') return { status: 'migrated', from: r.from };
  return { status: r.status };
}

// --- the last inputs --------------------------------------------------------

export function serializeLast(state: State, now = new Date()): string {
  return JSON.stringify({ schema: LAST_SCHEMA.version, app: 'gpuplan', saved_at: now.toISOString(), state });
}

export function loadLast(store: Store): { state: State | null; found: StoredStatus } {
  const r = loadVersioned(store, LAST_SCHEMA);
  if (r.status !== 'ok' && r.status !== 'migrated') return { state: null, found: statusOf(r) };
  const state = asRecord(r.doc.state);
  if (!state) {
    const backupKey = store.backup(LAST_KEY, r.raw);
    if (backupKey) store.remove(LAST_KEY);
    else store.lock(LAST_KEY);
    return { state: null, found: { status: 'corrupt', backupKey } };
  }
  return { state: sanitize(state), found: statusOf(r) };
}

export function saveLast(store: Store, state: State): boolean {
  return writeVersioned(store, LAST_SCHEMA, serializeLast(state));
}

// --- named projects ---------------------------------------------------------
// One key for every open tab. Each change re-reads the key and applies
// itself to what is there now, so a tab changes only the projects it acts on
// (last writer per project, never per list); a tab's list is only a view.

function projectOf(x: unknown): Project | null {
  const o = asRecord(x);
  if (!o || typeof o.name !== 'string' || !o.name.trim() || !asRecord(o.state)) return null;
  const id = typeof o.id === 'string' && /^[a-z0-9-]{1,40}$/.test(o.id) ? o.id : newId();
  const saved = typeof o.saved_at === 'string' && !Number.isNaN(Date.parse(o.saved_at)) ? o.saved_at : new Date(0).toISOString();
  return { id, name: o.name.trim().slice(0, MAX_NAME), saved_at: saved, state: sanitize(o.state) };
}

// Valid entries kept (each id once), the others counted and returned as they
// were. The cap is not applied here: it limits saving new ones, and a list
// over it (from another page or a hand edit) stays whole.
export function cleanProjects(entries: unknown[]): { projects: Project[]; skipped: number; damaged: unknown[] } {
  const projects: Project[] = [];
  const damaged: unknown[] = [];
  const ids = new Set<string>();
  for (const e of entries) {
    const p = projectOf(e);
    if (!p) { damaged.push(e); continue; }
    if (ids.has(p.id)) p.id = newId();
    ids.add(p.id);
    projects.push(p);
  }
  return { projects, skipped: damaged.length, damaged };
}

export interface LoadedProjects { projects: Project[]; skipped: number; backupKey: string | null; found: StoredStatus; over: number }

export function loadProjects(store: Store): LoadedProjects {
  const r = loadVersioned(store, PROJECTS_SCHEMA);
  if (r.status !== 'ok' && r.status !== 'migrated') return { projects: [], skipped: 0, backupKey: null, found: statusOf(r), over: 0 };
  const list = Array.isArray(r.doc.projects) ? r.doc.projects : null;
  const { projects, skipped } = cleanProjects(list ?? []);
  let backupKey: string | null = null;
  if (skipped || !list) {
    // Damaged entries are reported and skipped, and the original kept.
    backupKey = store.backup(PROJECTS_KEY, r.raw);
    if (backupKey) saveProjects(store, projects);
    else store.lock(PROJECTS_KEY);
  }
  return { projects, skipped: skipped + (list ? 0 : 1), backupKey, found: statusOf(r), over: Math.max(0, projects.length - MAX_PROJECTS) };
}

// What the key holds now, read without side effects (another tab may have
// written it): null when it cannot be read as projects of this schema.
export type StoredProjects =
  | { ok: true; projects: Project[]; damaged: unknown[] }
  | { ok: false; why: 'newer'; version: number }
  | { ok: false; why: 'unavailable' | 'damaged' };

export function readProjects(store: Store): StoredProjects {
  const raw = store.read(PROJECTS_KEY);
  if (raw === undefined) return { ok: false, why: 'unavailable' };
  if (raw === null) return { ok: true, projects: [], damaged: [] };
  const m = migrate(raw, PROJECTS_SCHEMA);
  if (!m) return { ok: false, why: 'damaged' };
  if ('newer' in m) return { ok: false, why: 'newer', version: m.newer };
  const list = Array.isArray(m.doc.projects) ? m.doc.projects : null;
  if (!list) return { ok: false, why: 'damaged' };
  const { projects, damaged } = cleanProjects(list);
  return { ok: true, projects, damaged };
}

// The outcome of a change: 'ok' (stored), 'failed' (not stored: the Store's
// failure says why), 'newer' (the key is a newer page's, never overwritten).
export interface Changed { status: 'ok' | 'failed' | 'newer'; projects: Project[]; version?: number }

// Re-reads the key, applies `change` to the projects there now and writes the
// result. Entries this page cannot read stay in the key as they were. When
// the key cannot be read, `mine` (the tab's list) is changed instead; when the
// result cannot be written, it is returned for the session (status says so).
export function changeProjects(store: Store, mine: Project[], change: (now: Project[]) => Project[]): Changed {
  const now = readProjects(store);
  if (!now.ok && now.why === 'newer') {
    // A newer page's projects are never overwritten by this one.
    store.failure = 'newer';
    return { status: 'newer', projects: change(mine), version: now.version };
  }
  if (!now.ok && now.why === 'damaged') {
    // Written damaged since this tab loaded: kept aside before it is replaced.
    const raw = store.read(PROJECTS_KEY);
    if (typeof raw === 'string' && !store.backup(PROJECTS_KEY, raw)) {
      store.failure = 'locked';
      return { status: 'failed', projects: change(mine) };
    }
  }
  const next = change(now.ok ? now.projects : mine);
  if (now.ok && next === now.projects) return { status: 'ok', projects: next };
  const damaged = now.ok ? now.damaged : [];
  const ok = next.length || damaged.length
    ? store.write(PROJECTS_KEY, JSON.stringify({ schema: PROJECTS_SCHEMA.version, app: 'gpuplan', projects: [...next, ...damaged] }))
    : store.remove(PROJECTS_KEY);
  return { status: ok ? 'ok' : 'failed', projects: next };
}

export function serializeProjects(projects: Project[]): string {
  return JSON.stringify({ schema: PROJECTS_SCHEMA.version, app: 'gpuplan', projects });
}

export function saveProjects(store: Store, projects: Project[]): boolean {
  return writeVersioned(store, PROJECTS_SCHEMA, projects.length ? serializeProjects(projects) : null);
}

let counter = 0;
export function newId(now = Date.now()): string {
  counter += 1;
  return `p${now.toString(36)}-${counter.toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

// "name", or "name 2", "name 3"... when another project has it.
export function uniqueName(name: string, projects: Project[], exceptId = ''): string {
  const base = name.trim().slice(0, MAX_NAME) || 'project';
  const taken = new Set(projects.filter((p) => p.id !== exceptId).map((p) => p.name));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i += 1) {
    const n = `${base.slice(0, MAX_NAME - 4)} ${i}`;
    if (!taken.has(n)) return n;
  }
}

// --- the file: projects and quotes together (quotes file schema 3) -----------

export function serializeFile(projects: Project[], quotes: Quote[], now = new Date()): string {
  const quotesDoc = JSON.parse(serializeQuotes(quotes)) as Record<string, unknown>;
  return JSON.stringify({ ...quotesDoc, schema: FILE_SCHEMA.version, saved_at: now.toISOString(), projects }, null, 2);
}

// The projects of an imported file (parseImport's migrated document), merged
// after the saved ones. A project already saved is not added again: the same
// id, or the same inputs under its name (or the "name 2" it was given when
// imported before). Any other clash gets a new id and, when the name is
// taken, a new name. Past the cap, the rest are returned in `left`.
export function mergeProjects(saved: Project[], doc: Record<string, unknown>): { projects: Project[]; added: number; skipped: number; over: number; left: Project[] } {
  const { projects: incoming, skipped } = cleanProjects(Array.isArray(doc.projects) ? doc.projects : []);
  const out = [...saved];
  const left: Project[] = [];
  let added = 0;
  const escape = (x: string): string => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const p of incoming) {
    const state = JSON.stringify(p.state);
    const sameId = out.find((x) => x.id === p.id);
    if (sameId && sameId.name === p.name && JSON.stringify(sameId.state) === state) continue;
    const named = new RegExp(`^${escape(p.name.slice(0, MAX_NAME - 4))}(?: \\d+)?$`);
    if (out.some((x) => (x.name === p.name || named.test(x.name)) && JSON.stringify(x.state) === state)) continue;
    if (out.length >= MAX_PROJECTS) { left.push(p); continue; }
    out.push({ ...p, id: sameId || out.some((x) => x.id === p.id) ? newId() : p.id, name: uniqueName(p.name, out) });
    added += 1;
  }
  return { projects: out, added, skipped, over: left.length, left };
}
