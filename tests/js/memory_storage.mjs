// A Storage like the browser's, in memory, for the page's storage layer
// (web/src/storage.ts) under node:test.
// A Storage like the browser's, in memory, with a quota in UTF-16 code units
// (what Chromium counts: keys and values together) and switches to make it
// throw like a full, disabled or private-mode store.
export class MemoryStorage {
  constructor(quota = 5 * 1024 * 1024) {
    this.map = new Map();
    this.quota = quota;
    this.failGet = false;
    this.failSet = false;
  }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  used() { let n = 0; for (const [k, v] of this.map) n += k.length + v.length; return n; }
  getItem(k) {
    if (this.failGet) throw new DOMException('The operation is insecure.', 'SecurityError');
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    if (this.failSet) throw new DOMException('quota', 'QuotaExceededError');
    const s = String(v);
    const old = this.map.has(k) ? k.length + this.map.get(k).length : 0;
    if (this.used() - old + k.length + s.length > this.quota) throw new DOMException(`Setting the value of '${k}' exceeded the quota.`, 'QuotaExceededError');
    this.map.set(k, s);
  }
  removeItem(k) { this.map.delete(k); }
  clear() { this.map.clear(); }
}
