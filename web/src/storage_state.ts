// What the page remembers of the user's work (issue #19): the last inputs,
// restored when the page opens without a share link, and the named projects.
// Both are versioned documents in localStorage (storage.ts); a state read
// back is untrusted and goes through sanitize() like a share link's.
import type { Quote } from './prices';
import { FILE_SCHEMA, serializeQuotes } from './prices';
import { sanitize, type State } from './state';
import { LAST_KEY } from './opening';
import { asRecord, loadVersioned, type Schema, type Store } from './storage';

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
  return store.write(LAST_KEY, serializeLast(state));
}

// --- named projects ---------------------------------------------------------

function projectOf(x: unknown): Project | null {
  const o = asRecord(x);
  if (!o || typeof o.name !== 'string' || !o.name.trim() || !asRecord(o.state)) return null;
  const id = typeof o.id === 'string' && /^[a-z0-9-]{1,40}$/.test(o.id) ? o.id : newId();
  const saved = typeof o.saved_at === 'string' && !Number.isNaN(Date.parse(o.saved_at)) ? o.saved_at : new Date(0).toISOString();
  return { id, name: o.name.trim().slice(0, MAX_NAME), saved_at: saved, state: sanitize(o.state) };
}

// Valid entries kept (each id once, at most MAX_PROJECTS), the others counted.
export function cleanProjects(entries: unknown[]): { projects: Project[]; skipped: number } {
  const projects: Project[] = [];
  const ids = new Set<string>();
  let skipped = 0;
  for (const e of entries) {
    const p = projectOf(e);
    if (!p || projects.length >= MAX_PROJECTS) { skipped += 1; continue; }
    if (ids.has(p.id)) p.id = newId();
    ids.add(p.id);
    projects.push(p);
  }
  return { projects, skipped };
}

export function loadProjects(store: Store): { projects: Project[]; skipped: number; backupKey: string | null; found: StoredStatus } {
  const r = loadVersioned(store, PROJECTS_SCHEMA);
  if (r.status !== 'ok' && r.status !== 'migrated') return { projects: [], skipped: 0, backupKey: null, found: statusOf(r) };
  const { projects, skipped } = cleanProjects(Array.isArray(r.doc.projects) ? r.doc.projects : []);
  let backupKey: string | null = null;
  if (skipped || !Array.isArray(r.doc.projects)) {
    // Damaged entries are reported and skipped, and the original kept.
    backupKey = store.backup(PROJECTS_KEY, r.raw);
    if (backupKey) saveProjects(store, projects);
    else store.lock(PROJECTS_KEY);
  }
  return { projects, skipped: skipped + (Array.isArray(r.doc.projects) ? 0 : 1), backupKey, found: statusOf(r) };
}

export function serializeProjects(projects: Project[]): string {
  return JSON.stringify({ schema: PROJECTS_SCHEMA.version, app: 'gpuplan', projects });
}

export function saveProjects(store: Store, projects: Project[]): boolean {
  return projects.length ? store.write(PROJECTS_KEY, serializeProjects(projects)) : store.remove(PROJECTS_KEY);
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
// after the saved ones: a project with the same id and content is the same
// one; any other clash gets a new id and, when the name is taken, a new name.
export function mergeProjects(saved: Project[], doc: Record<string, unknown>): { projects: Project[]; added: number; skipped: number; over: number } {
  const { projects: incoming, skipped } = cleanProjects(Array.isArray(doc.projects) ? doc.projects : []);
  const out = [...saved];
  let added = 0;
  let over = 0;
  for (const p of incoming) {
    const same = out.find((x) => x.id === p.id);
    if (same && JSON.stringify(same.state) === JSON.stringify(p.state) && same.name === p.name) continue;
    if (out.length >= MAX_PROJECTS) { over += 1; continue; }
    out.push({ ...p, id: same ? newId() : p.id, name: uniqueName(p.name, out) });
    added += 1;
  }
  return { projects: out, added, skipped, over };
}
