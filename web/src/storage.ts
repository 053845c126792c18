// The one door to the browser's localStorage. Everything the page keeps (the
// quotes, the last inputs, the named projects) is read and written through a
// Store, and no Storage error leaves it: storage disabled, private mode, a
// full quota or a value this version cannot read never stops the page.
//
// Nothing is silently lost. A stored value that cannot be read (damaged, or
// written by a newer version) is copied to a backup key before anything may
// overwrite it; when even that copy does not fit, the value stays where it is
// and the key is locked for the session, so no write replaces it.
//
// Backups are bounded: an identical value is backed up
// once, at most BACKUPS_PER_KEY are kept per key (oldest dropped first), and a
// value over BACKUP_MAX_CHARS is not copied (it stays in place, locked).

export const BACKUPS_PER_KEY = 3;
// Chromium and Firefox give a page about 5 M UTF-16 code units in all; a
// backup may take a fifth of that. The page's own values are far smaller
// (500 quotes ~ 75 k, 50 projects ~ 200 k).
export const BACKUP_MAX_CHARS = 1 << 20;

// Why the last write failed: storage is off (disabled, private mode, a
// security error), full (QuotaExceededError), the key holds a value that
// cannot be backed up and is kept in place (locked), or the key holds a newer
// page's document, which an older page never overwrites (newer).
export type Failure = 'unavailable' | 'full' | 'locked' | 'newer';

function isQuota(e: unknown): boolean {
  const name = (e as { name?: string } | null)?.name ?? '';
  // Firefox before 2020 said NS_ERROR_DOM_QUOTA_REACHED.
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}

export class Store {
  failure: Failure | null = null;
  private readonly locked = new Set<string>();

  constructor(private readonly storage: Storage | null) {
    if (!storage) this.failure = 'unavailable';
  }

  // The page's localStorage; reading window.localStorage itself throws when
  // storage is disabled (Chromium's "block third-party data", sandboxes).
  static open(): Store {
    try {
      return new Store(window.localStorage);
    } catch {
      return new Store(null);
    }
  }

  get available(): boolean {
    return this.storage !== null;
  }

  // undefined: storage cannot be read at all (the caller says so); null: no value.
  read(key: string): string | null | undefined {
    if (!this.storage) return undefined;
    try {
      const v: unknown = this.storage.getItem(key);
      // A Storage stand-in may answer something else than a string or null.
      return typeof v === 'string' ? v : null;
    } catch {
      this.failure = 'unavailable';
      return undefined;
    }
  }

  // false when the value was not stored: failure says why (or the key is locked).
  write(key: string, value: string): boolean {
    if (!this.storage) return false;
    if (this.locked.has(key)) {
      this.failure = 'locked';
      return false;
    }
    try {
      this.storage.setItem(key, value);
      this.failure = null;
      return true;
    } catch (e) {
      this.failure = isQuota(e) ? 'full' : 'unavailable';
      return false;
    }
  }

  remove(key: string): boolean {
    if (!this.storage) return false;
    if (this.locked.has(key)) {
      this.failure = 'locked';
      return false;
    }
    try {
      this.storage.removeItem(key);
      return true;
    } catch {
      this.failure = 'unavailable';
      return false;
    }
  }

  keys(prefix: string): string[] {
    if (!this.storage) return [];
    try {
      const out: string[] = [];
      for (let i = 0; i < this.storage.length; i += 1) {
        const k = this.storage.key(i);
        if (k !== null && k.startsWith(prefix)) out.push(k);
      }
      return out.sort();
    } catch {
      return [];
    }
  }

  isLocked(key: string): boolean {
    return this.locked.has(key);
  }
  lock(key: string): void {
    this.locked.add(key);
  }
  unlock(key: string): void {
    this.locked.delete(key);
  }

  backupsOf(key: string): string[] {
    return this.keys(`${key}.backup.`);
  }

  // Copies raw to `${key}.backup.<time>`; returns the backup's key, or null
  // when it could not be kept (too large, storage full or off).
  backup(key: string, raw: string, now: Date = new Date()): string | null {
    const existing = this.backupsOf(key);
    const same = existing.find((k) => this.read(k) === raw);
    if (same) return same;
    if (raw.length > BACKUP_MAX_CHARS) return null;
    let name = `${key}.backup.${now.toISOString()}`;
    // Bounded: a store that claims every name is taken gives no backup, not a hang.
    for (let i = 2; this.read(name) !== null; i += 1) {
      if (i > 1000) return null;
      name = `${key}.backup.${now.toISOString()}-${i}`;
    }
    if (!this.write(name, raw)) return null;
    // Only once the new copy is kept do the oldest go (keys sort by time).
    for (const old of existing.slice(0, Math.max(0, existing.length - (BACKUPS_PER_KEY - 1)))) this.remove(old);
    return name;
  }
}

// --- versioned documents ---------------------------------------------------
// A stored document is a JSON object with a `schema` number (the first quote
// store said `version`). migrations[v] turns a version-v document into a
// version v+1 one; a version above `version` is a newer page's and is kept.

export interface Schema {
  key: string;
  version: number;
  migrations: Record<number, (doc: Record<string, unknown>) => Record<string, unknown> | null>;
}

export type Loaded =
  | { status: 'empty' }
  | { status: 'unavailable' }
  | { status: 'ok'; doc: Record<string, unknown>; raw: string }
  | { status: 'migrated'; from: number; doc: Record<string, unknown>; raw: string }
  // backupKey null: the value could not be copied and stays where it is, locked.
  | { status: 'corrupt'; backupKey: string | null }
  | { status: 'newer'; version: number; backupKey: string | null };

// The version of the document stored at `key`, when it is one (else null).
export function storedVersion(store: Store, key: string): number | null {
  const raw = store.read(key);
  if (typeof raw !== 'string') return null;
  try {
    const doc = asRecord(JSON.parse(raw));
    const v = doc ? versionOf(doc) : null;
    return typeof v === 'number' && Number.isInteger(v) ? v : null;
  } catch {
    return null;
  }
}

// Writes a version-`schema.version` document, unless the key holds a newer
// page's: that one is never overwritten by an older page (failure 'newer').
export function writeVersioned(store: Store, schema: Schema, value: string | null): boolean {
  const v = storedVersion(store, schema.key);
  if (v !== null && v > schema.version) {
    store.failure = 'newer';
    return false;
  }
  return value === null ? store.remove(schema.key) : store.write(schema.key, value);
}

export function versionOf(doc: Record<string, unknown>): unknown {
  return doc.schema ?? doc.version;
}

export function asRecord(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

// Parses and migrates a document's text; null when it is not one.
export function migrate(text: string, schema: Schema): { doc: Record<string, unknown>; from: number } | { newer: number } | null {
  let doc: Record<string, unknown> | null;
  try {
    doc = asRecord(JSON.parse(text));
  } catch {
    return null;
  }
  if (!doc) return null;
  const from = versionOf(doc);
  if (typeof from !== 'number' || !Number.isInteger(from) || from < 1) return null;
  if (from > schema.version) return { newer: from };
  for (let v = from; v < schema.version; v += 1) {
    const step = schema.migrations[v];
    doc = step ? step(doc) : null;
    if (!doc) return null;
  }
  return { doc: { ...doc, schema: schema.version }, from };
}

// Reads one key. A damaged value is backed up and removed (or, when it
// cannot be backed up, left in place and locked); a newer one is backed up
// and left in place for the caller to overwrite only once it is safe.
export function loadVersioned(store: Store, schema: Schema): Loaded {
  const raw = store.read(schema.key);
  if (raw === undefined) return { status: 'unavailable' };
  if (raw === null) return { status: 'empty' };
  const m = migrate(raw, schema);
  if (m && 'newer' in m) {
    const backupKey = store.backup(schema.key, raw);
    if (!backupKey) store.lock(schema.key);
    return { status: 'newer', version: m.newer, backupKey };
  }
  if (!m) {
    const backupKey = store.backup(schema.key, raw);
    if (backupKey) store.remove(schema.key);
    else store.lock(schema.key);
    return { status: 'corrupt', backupKey };
  }
  return m.from === schema.version ? { status: 'ok', doc: m.doc, raw } : { status: 'migrated', from: m.from, doc: m.doc, raw };
}
