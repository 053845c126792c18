// The page controller: owns the state, calls the planner, renders the views,
// keeps the share link in the URL hash and the user's quotes in storage.
import { download, h, hold, idsFrom, live, morphInto } from './dom.ts';
import { iframeSnippet, isEmbed, isLocalPage, reportHeight } from './embed.ts';
import { toCsv, toJson, toMarkdown } from './export.ts';
import { gib, hours, num } from './format.ts';
import { detectLang, translator, type Lang, type T } from './i18n.ts';
import {
  applyQuoteChange, capQuotes, knownIds, loadQuotes, MAX_QUOTES, mergeQuotes, newerFileVersion, parseImport, PRICES_KEY, saveQuotes, serializeQuotes, setAsideCount,
  type Notice, type Quote, type Reason,
} from './prices.ts';
import { Store, type Failure } from './storage.ts';
import {
  changeProjects, LAST_KEY, loadLast, loadProjects, MAX_PROJECTS, mergeProjects, newId, PROJECTS_KEY, readProjects, saveLast, serializeFile, uniqueName,
  type Project, type StoredStatus,
} from './storage_state.ts';
import { flushPending } from './views/controls.ts';
import firstAnswers from 'virtual:gpuplan-first-answers';
import { figureQuestion } from './first_answer.ts';
import { effectiveScope, formPath, toRequest, type Request } from './request.ts';
import { applyPatch, decodeHash, defaultState, encodeHash, type State, type StatePatch } from './state.ts';
import type { Catalog, CatalogGpu, PlanError, PlanResponse, Planner } from './types.ts';
import { budgetOf, budgetView } from './views/budget.ts';
import type { Ctx } from './views/context.ts';
import { button, checkField, selectField, textField } from './views/controls.ts';
import { gpusView } from './views/gpus.ts';
import { stagesView, workloadView } from './views/inputs.ts';
import { memoryView } from './views/memory.ts';
import { platformsView } from './views/platforms.ts';
import { printView } from './views/print.ts';
import { refreshVerifyScript } from './views/calibrate.ts';
import { scenarioView } from './views/scenario.ts';
import { cash, catalogAge, gpuName, platformName } from './views/words.ts';
import { compareEntries, type CompareEntry } from './views/compare.ts';
import { projectsView, type ProjectsCtx } from './views/projects.ts';
import { decodeLab, labDefaults, loadLab, loadMine, parseLabFile, saveLab, saveMine, withLab, type Known, type LabMine, type LabSettings } from './lab_settings.ts';
import { labLine, labRefusal, labView, type LabCtx } from './views/lab.ts';
import { labTotalView } from './views/lab_total.ts';

declare const __GPUPLAN_VERSION__: string;
export const VERSION = typeof __GPUPLAN_VERSION__ === 'string' ? __GPUPLAN_VERSION__ : 'dev';

// This tab's link after its last edit, when the tab was reloaded before the
// address bar caught up (App.flushTyping).
const RELOAD_KEY = 'gpuplan.reload';

interface Note { id: number; text: string; kind: 'info' | 'error'; action?: { label: string; run: () => void } }

export class App implements Ctx, ProjectsCtx, LabCtx {
  state: State;
  lang: Lang;
  t: T;
  quotes: Quote[];
  request: Request = {};
  response: PlanResponse | null = null;
  error: PlanError['error'] | null = null;
  embed: boolean;
  // Every persisted thing goes through this one guarded store (storage.ts).
  readonly store = Store.open();
  projects: Project[] = [];
  openProjectId = '';
  // The version (saved_at) of the open project this tab opened or last
  // saved: "Save changes" over a version another tab saved since keeps both.
  #openVersion = '';
  compareIds: string[] = [];
  // The lab's settings (lab_settings.ts): their own storage keys, never the form's or the projects'.
  lab: LabSettings | null = null;
  labMine: LabMine = { off: false, time_value_per_hour: null };
  labEditing = false;
  // Said once per session: storage is off, or full.
  #storageSaid = new Set<string>();
  // When a share link replaced the stored last inputs: the first save keeps a backup of them.
  #lastFromLink = false;
  // A change's link and last inputs not yet written (persistSoon).
  #persistPending = false;
  // The link the address bar held before the last such write (#flushTyping).
  #shownBefore: string | null = null;
  #notes: Note[] = [];
  #noteId = 0;
  #figureMarked = false;
  #billingsShown = '';
  // A full render has been on screen: deferred work no longer waits a task.
  #figureShown = false;
  #summaryWatch: ResizeObserver | null = null;
  #gpuIndex: Map<string, CatalogGpu>;
  #els!: { inputs: HTMLElement; results: HTMLElement; notes: HTMLElement; live: HTMLElement; summary: HTMLElement };

  // The planner: set by start() once its wasm is decoded and started, which a
  // fresh page's first figure does not wait for (first_answer.ts).
  planner!: Planner;
  // The planner has come and the whole page has rendered once (start()).
  #ready = false;
  #markStarted!: () => void;
  readonly #started = new Promise<void>((resolve) => { this.#markStarted = resolve; });

  constructor(readonly root: HTMLElement, readonly catalog: Catalog, private readonly pageHtml: string) {
    this.#gpuIndex = new Map(catalog.gpus.map((g) => [g.id, g]));
    this.embed = isEmbed(location.search);
    const fromHash = decodeHash(App.#openingHash());
    const last = loadLast(this.store);
    // A share link always wins over the stored inputs (and never touches a project).
    const restored = !(fromHash && fromHash !== 'invalid') && last.state !== null;
    this.state = fromHash && fromHash !== 'invalid' ? fromHash : last.state ?? defaultState();
    this.#lastFromLink = !!fromHash && fromHash !== 'invalid' && last.state !== null;
    this.lang = this.state.lang || detectLang(navigator.languages ?? [navigator.language]);
    this.t = translator(this.lang);
    const t = this.t;
    if (!this.store.available) this.#storageFailed('unavailable');
    if (fromHash === 'invalid') this.notify(t(restored ? 'notice.bad_link_last' : 'notice.bad_link'), 'error');
    if (restored) {
      this.notify(t('notice.restored'), 'info', { label: t('notice.start_fresh'), run: () => this.#startFresh() });
    } else if (this.#lastFromLink && last.state && JSON.stringify(last.state) !== JSON.stringify(this.state)) {
      const mine = last.state;
      this.notify(t('notice.link_over_last'), 'info', { label: t('notice.back_to_last'), run: () => this.set(mine, { inputs: true }) });
    }
    this.#storedNotice(last.found, 'notice.last');
    const known = knownIds(catalog);
    const loaded = loadQuotes(this.store, known);
    this.quotes = loaded.quotes;
    for (const n of loaded.notices) this.#storageNotice(n);
    const projects = loadProjects(this.store);
    this.projects = projects.projects;
    this.#storedNotice(projects.found, 'notice.projects');
    if (projects.skipped) this.notify(t('projects.skipped', { n: projects.skipped }), 'error', this.#backupAction(projects.backupKey, 'gpuplan-projects-backup.json'));
    if (projects.over) this.notify(t('projects.over_cap', { n: this.projects.length, max: MAX_PROJECTS }), 'info');
    // The address bar holds the state shown, so "Copy link" copies it.
    this.lab = loadLab(this.store, this.#labKnown());
    this.labMine = loadMine(this.store);
    this.#labFromHash();
    if (fromHash === 'invalid' || restored) this.#writeHash();
    window.addEventListener('hashchange', () => this.#hashChanged());
    // Another tab of this page wrote the store: this tab shows what is there now.
    window.addEventListener('storage', (e) => {
      if (e.key === PROJECTS_KEY || e.key === null) this.#projectsFromStore();
      if (e.key === PRICES_KEY || e.key === null) this.#quotesFromStore();
    });
    // Typing still waiting for its pause is applied (and so remembered)
    // before the tab is hidden, closed or reloaded.
    window.addEventListener('pagehide', () => this.#flushTyping());
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') this.#flushTyping(); });
  }

  // The tab is going (closed, reloaded, hidden): the typing still waiting
  // for its pause is applied, and so saved. A reload has already taken the
  // address bar's link, which is now one edit behind: the tab's
  // sessionStorage tells the reloaded page which link it replaces.
  // A reload may also have set off just before a pending write ran
  // (persistSoon): it then reloads the link the write replaced, so that one
  // is handed over too.
  #flushTyping(): void {
    const before = [location.hash, this.#shownBefore];
    flushPending();
    this.#persist();
    const from = before.filter((h) => h !== null && h !== location.hash);
    if (!from.length) return;
    try {
      sessionStorage.setItem(RELOAD_KEY, JSON.stringify({ from, to: location.hash }));
    } catch {
      // No session storage: a reload shows the link the address bar held.
    }
  }

  // The link the page opens on: the address bar's, or, when this tab was
  // reloaded right after an edit (flushTyping), the edit's.
  static #openingHash(): string {
    try {
      const raw = sessionStorage.getItem(RELOAD_KEY);
      sessionStorage.removeItem(RELOAD_KEY);
      const r = raw ? (JSON.parse(raw) as { from?: unknown; to?: unknown }) : null;
      if (r && Array.isArray(r.from) && r.from.includes(location.hash) && typeof r.to === 'string') {
        history.replaceState(null, '', `${location.pathname}${location.search}${r.to}`);
      }
    } catch {
      // Session storage refused or damaged: the address bar's link.
    }
    return location.hash;
  }

  #projectsFromStore(): void {
    const now = readProjects(this.store);
    if (!now.ok) return;
    const open = now.projects.find((p) => p.id === this.openProjectId);
    if (open && this.#openVersion && open.saved_at !== this.#openVersion) this.notify(this.t('projects.changed_elsewhere', { name: open.name }));
    this.projects = now.projects;
    this.compareIds = this.compareIds.filter((id) => id === 'current' || this.projects.some((p) => p.id === id));
    if (this.#ready) this.renderResults();
  }

  // The quotes the store holds now, or null when it cannot say (no storage, a
  // damaged or newer key): then this tab's own list is what it writes.
  #storedQuotes(): Quote[] | null {
    const known = knownIds(this.catalog);
    const loaded = loadQuotes(this.store, known);
    return loaded.notices.some((n) => n.kind !== 'loaded') ? null : loaded.quotes;
  }

  #quotesFromStore(): void {
    const stored = this.#storedQuotes();
    if (!stored) return;
    this.quotes = stored;
    if (this.#ready) this.renderResults();
  }

  #writeHash(): void {
    history.replaceState(null, '', `${location.pathname}${location.search}${encodeHash(this.state)}`);
  }

  // A link opened or edited while the page is open: a
  // broken one is said and replaced by the state's own; a good one is shown.
  #hashChanged(): void {
    if (this.#labFromHash()) {
      this.#writeHash();
      this.renderAll();
      return;
    }
    const s = decodeHash(location.hash);
    if (location.hash === encodeHash(this.state)) return;
    if (s === 'invalid' || s === null) {
      if (s === 'invalid') this.notify(this.t('notice.bad_link_kept'), 'error');
      this.#writeHash();
      return;
    }
    const before = { state: this.state, open: this.openProjectId, version: this.#openVersion };
    this.state = s;
    this.openProjectId = '';
    // Like a link opened: the stored last inputs are backed up before the first edit replaces them.
    this.#lastFromLink = true;
    this.renderAll();
    // The form was replaced: said, with the way back to what was there.
    if (JSON.stringify(before.state) !== JSON.stringify(s)) {
      this.notify(this.t('notice.link_replaced'), 'info', {
        label: this.t('notice.back_to_mine'),
        run: () => {
          this.openProjectId = before.open;
          this.#openVersion = before.version;
          this.set(before.state, { inputs: true });
        },
      });
    }
  }

  // --- the lab's settings (views/lab.ts) ----------------------------------

  #labKnown(): Known {
    return { gpus: new Set(this.catalog.gpus.map((g) => g.id)), platforms: new Set(this.catalog.platforms.map((p) => p.id)),
      models: new Set(this.catalog.models.map((m) => m.id)) };
  }

  // A #lab= link: applied whole, or refused whole with its reason. True when the hash was one.
  #labFromHash(): boolean {
    const read = decodeLab(location.hash, this.#labKnown());
    if (!read) return false;
    if ('ok' in read) {
      this.labMine = { ...this.labMine, off: false };
      this.#saved(saveMine(this.store, this.labMine));
      this.setLab(read.ok, this.t('lab.line', { name: read.ok.name || this.t('lab.unnamed'), date: read.ok.written || '—' }), false);
    } else this.notify(labRefusal(this.t, read, 'link'), 'error');
    return true;
  }

  setLab(s: LabSettings | null, message?: string, render = true): void {
    this.lab = s;
    if (!s) this.labEditing = false;
    this.#saved(saveLab(this.store, s));
    if (message) this.notify(message);
    if (render) this.renderAll();
  }

  setLabMine(m: LabMine, render = true): void {
    this.labMine = m;
    this.#saved(saveMine(this.store, m));
    if (render) this.renderAll();
  }

  setLabEditing(on: boolean): void {
    this.labEditing = on;
    this.renderAll();
  }

  importLab(text: string): void {
    const read = parseLabFile(text, this.#labKnown());
    if ('ok' in read) this.setLab(read.ok, this.t('lab.line', { name: read.ok.name || this.t('lab.unnamed'), date: read.ok.written || '—' }));
    else this.notify(labRefusal(this.t, read, 'file'), 'error');
  }

  #startFresh(): void {
    const before = this.state;
    this.openProjectId = '';
    this.set(defaultState(), { inputs: true });
    this.notify(this.t('notice.started_fresh'), 'info', { label: this.t('undo'), run: () => this.set(before, { inputs: true }) });
  }

  #backupAction(key: string | null, file: string): Note['action'] {
    return key ? { label: this.t('notice.download_backup'), run: () => download(file, this.store.read(key) ?? '', 'application/json') } : undefined;
  }

  // A value that stays in place because not even its backup fits: the user
  // can take it as a file and clear it, and storage works again.
  #keptAction(key: string, file: string): Note['action'] {
    return {
      label: this.t('notice.download_clear'),
      run: () => {
        download(file, this.store.read(key) ?? '', 'application/json');
        this.store.unlock(key);
        this.store.remove(key);
        this.notify(this.t('notice.cleared'));
      },
    };
  }

  #storedNotice(found: StoredStatus, prefix: 'notice.last' | 'notice.projects'): void {
    const t = this.t;
    const key = prefix === 'notice.last' ? LAST_KEY : 'gpuplan.projects';
    const file = prefix === 'notice.last' ? 'gpuplan-last-backup.json' : 'gpuplan-projects-backup.json';
    if (found.status === 'corrupt' || found.status === 'newer') {
      const what = t(`${prefix}.${found.status}` as never, { v: found.version ?? '' });
      const where = t(found.backupKey ? 'notice.backed_up' : 'notice.kept_in_place');
      this.notify(`${what} ${where}`, 'error', found.backupKey ? this.#backupAction(found.backupKey, file) : this.#keptAction(key, file));
    } else if (found.status === 'migrated') this.notify(t(`${prefix}.migrated` as never, { from: found.from }));
  }

  // A write that failed: said once per reason and key, in words, with what to
  // do; nothing is lost (the page keeps it for the session).
  #storageFailed(why: Failure, key = ''): void {
    const once = why === 'full' || why === 'unavailable' ? why : `${why}:${key}`;
    if (this.#storageSaid.has(once)) return;
    this.#storageSaid.add(once);
    const t = this.t;
    const what = t(key === LAST_KEY ? 'storage.what.last' : key === PROJECTS_KEY ? 'storage.what.projects' : 'storage.what.prices');
    const file = key === LAST_KEY ? 'gpuplan-last-backup.json' : key === PROJECTS_KEY ? 'gpuplan-projects-backup.json' : 'gpuplan-prices-backup.json';
    if (why === 'locked') this.notify(t('notice.locked', { what }), 'error', this.#keptAction(key, file));
    else if (why === 'newer') this.notify(t('notice.newer_kept', { what }), 'error');
    else this.notify(t(why === 'full' ? 'notice.full' : 'notice.cannot_remember'), 'error');
  }

  // After a write of `key`: says why it failed, if it did.
  #saved(ok: boolean, key = ''): boolean {
    if (!ok && this.store.failure) this.#storageFailed(this.store.failure, key);
    return ok;
  }

  gpu(id: string): CatalogGpu | undefined {
    return this.#gpuIndex.get(id);
  }

  #storageNotice(n: Notice): void {
    const t = this.t;
    const file = 'gpuplan-prices-backup.json';
    switch (n.kind) {
      case 'loaded': {
        // One notice: the upgrade, then each reason a quote was set aside.
        const parts: string[] = [];
        if (n.from !== undefined) parts.push(t('notice.migrated', { from: n.from, n: n.kept }));
        const aside = setAsideCount(n.setAside);
        if (aside) {
          const reasons = (Object.entries(n.setAside) as [Reason, number][]).map(([r, c]) => t(`reason.${r}` as never, { n: c, max: MAX_QUOTES }));
          parts.push(t('notice.set_aside', { n: aside, reasons: reasons.join(t('list.sep')) }));
        }
        if (n.backupKey || n.inPlace) parts.push(t(n.backupKey ? 'notice.backed_up' : 'notice.kept_in_place'));
        this.notify(parts.join(' '), aside ? 'error' : 'info', n.backupKey ? this.#backupAction(n.backupKey, file) : n.inPlace ? this.#keptAction('gpuplan.prices', file) : undefined);
        break;
      }
      case 'corrupt':
        this.notify(`${t('notice.quotes_corrupt')} ${t(n.backupKey ? 'notice.backed_up' : 'notice.kept_in_place')}`, 'error',
          n.backupKey ? this.#backupAction(n.backupKey, file) : this.#keptAction(n.key, file));
        break;
      case 'newer':
        this.notify(`${t('notice.quotes_newer', { v: n.version })} ${t(n.backupKey ? 'notice.backed_up' : 'notice.kept_in_place')}`, 'error',
          n.backupKey ? this.#backupAction(n.backupKey, file) : this.#keptAction(n.key, file));
        break;
      case 'unavailable': this.#storageFailed('unavailable'); break;
    }
  }

  set(patch: StatePatch, how: { inputs?: boolean; now?: boolean } = {}): void {
    this.state = applyPatch(this.state, patch);
    this.#persistSoon();
    if (how.inputs) this.renderAll();
    else this.renderResults();
  }

  apply(patch: Partial<State>, what: string): void {
    const before = this.state;
    this.set(patch, { inputs: true });
    this.notify(this.t('applied', { what }), 'info', { label: this.t('undo'), run: () => this.set(before, { inputs: true }) });
  }

  // The address bar's link and the stored last inputs follow a change once its
  // figures are painted: replaceState and the storage write (~2 ms a change)
  // wait for the task after the next frame, one write for the changes before
  // it. What reads them sooner writes them first: copying the link, and the
  // tab being hidden, closed or reloaded (flushTyping). A link edited in the
  // address bar replaces the state, and the pending write then writes that.
  #persistSoon(): void {
    if (this.#persistPending) return;
    this.#persistPending = true;
    requestAnimationFrame(() => window.setTimeout(() => this.#persist(), 0));
  }

  #persist(): void {
    if (!this.#persistPending) return;
    this.#persistPending = false;
    this.#shownBefore = location.hash;
    this.#writeHash();
    this.#remember();
  }

  // The last inputs, kept for the next visit. The first save after a share
  // link replaced them keeps a backup of what was there (bounded).
  #remember(): void {
    if (this.#lastFromLink) {
      const raw = this.store.read(LAST_KEY);
      if (raw) this.store.backup(LAST_KEY, raw);
      this.#lastFromLink = false;
    }
    this.#saved(saveLast(this.store, this.state), LAST_KEY);
  }

  setQuotes(quotes: Quote[], message?: string): void {
    // Applied to what the store holds now, quote by quote: a tab that has not
    // yet heard of another tab's save never writes back its older list.
    const now = this.#storedQuotes();
    const capped = capQuotes(now ? applyQuoteChange(now, this.quotes, quotes) : quotes);
    this.quotes = capped.quotes;
    if (capped.over) {
      this.notify(this.t('quotes.capped', { max: MAX_QUOTES, n: capped.over }), 'error',
        { label: this.t('notice.download_left'), run: () => download('gpuplan-quotes-not-kept.json', serializeQuotes(capped.left), 'application/json') });
    }
    if (!this.#saved(saveQuotes(this.store, this.quotes), PRICES_KEY)) {
      // Said once, as every failure to save.
      if (this.store.available && !this.#storageSaid.has('unsaved')) {
        this.#storageSaid.add('unsaved');
        this.notify(this.t('notice.unsaved'), 'error');
      }
    } else if (message) this.notify(message);
    this.renderResults();
  }

  // --- named projects (views/projects.ts) ---------------------------------

  // Every change re-reads the stored list and applies itself there (another
  // tab may have saved since); `change` answers null for "nothing to do".
  // The list shown is then the stored one, or, when it could not be written,
  // this tab's for the session, said.
  #changeProjects(change: (now: Project[]) => Project[] | null, message: () => string, undo?: () => void): boolean {
    let none = false;
    const r = changeProjects(this.store, this.projects, (now) => {
      const next = change(now);
      if (next === null) none = true;
      return next ?? now;
    });
    this.projects = r.projects;
    const action = undo ? { label: this.t('undo'), run: undo } : undefined;
    const text = none ? '' : message();
    if (none) {
      // Nothing written; the list shown is the stored one.
    } else if (r.status === 'ok') {
      if (text) this.notify(text, 'info', action);
    } else {
      this.#saved(false, PROJECTS_KEY);
      this.notify(`${text} ${this.t(r.status === 'newer' ? 'projects.session_only' : 'projects.unsaved')}`.trim(), 'error', action);
    }
    this.renderResults();
    return !none;
  }

  saveProject(name: string): void {
    let p: Project | null = null;
    const done = this.#changeProjects((now) => {
      if (now.length >= MAX_PROJECTS) return null;
      p = { id: newId(), name: uniqueName(name || this.state.title || this.t('projects.default_name'), now), saved_at: new Date().toISOString(), state: this.state };
      return [...now, p];
    }, () => this.t('projects.saved', { name: p?.name ?? '' }));
    if (!done || !p) {
      this.notify(this.t('projects.full', { max: MAX_PROJECTS }), 'error');
      return;
    }
    this.openProjectId = (p as Project).id;
    this.#openVersion = (p as Project).saved_at;
    this.renderResults();
  }

  updateProject(id: string): void {
    const mine = this.projects.find((x) => x.id === id);
    if (!mine) return;
    const savedAt = new Date().toISOString();
    const base = this.#openVersion;
    let before: Project | null = null;
    let copy: Project | null = null;
    let theirs = mine.name;
    this.#changeProjects((now) => {
      const there = now.find((x) => x.id === id);
      const ours: Project = { ...(there ?? mine), state: this.state, saved_at: savedAt };
      if (there && base && there.saved_at !== base) {
        // Another tab saved this project since this one opened it: both kept.
        theirs = there.name;
        copy = { ...ours, id: newId(), name: uniqueName(this.t('projects.conflict_name', { name: there.name }), now) };
        return [...now, copy];
      }
      before = there ?? null;
      return there ? now.map((x) => (x.id === id ? ours : x)) : [...now, ours];
    }, () => (copy ? this.t('projects.conflict', { name: theirs, copy: (copy as Project).name }) : this.t('projects.updated', { name: mine.name })),
    () => {
      // Undo puts back only this project's previous inputs, and only while
      // no later save has replaced the ones saved here.
      const prev = before;
      if (!prev || copy) return;
      this.#changeProjects((now) => (now.some((x) => x.id === id && x.saved_at === savedAt) ? now.map((x) => (x.id === id ? { ...x, state: prev.state, saved_at: prev.saved_at } : x)) : null),
        () => this.t('projects.undone', { name: prev.name }));
      if (this.openProjectId === id) this.#openVersion = prev.saved_at;
    });
    if (copy) this.openProjectId = (copy as Project).id;
    this.#openVersion = savedAt;
    this.renderResults();
  }

  openProject(id: string): void {
    const p = this.projects.find((x) => x.id === id);
    if (!p) return;
    const before = { state: this.state, open: this.openProjectId, version: this.#openVersion };
    this.openProjectId = id;
    this.#openVersion = p.saved_at;
    this.set(p.state, { inputs: true });
    this.notify(this.t('projects.opened', { name: p.name }), 'info', {
      label: this.t('undo'),
      run: () => {
        this.openProjectId = before.open;
        this.#openVersion = before.version;
        this.set(before.state, { inputs: true });
      },
    });
  }

  renameProject(id: string, name: string): void {
    const clean = name.trim();
    if (!clean) return;
    let old = '';
    let next = '';
    this.#changeProjects((now) => {
      const there = now.find((x) => x.id === id);
      if (!there) return null;
      old = there.name;
      next = uniqueName(clean, now, id);
      return next === old ? null : now.map((x) => (x.id === id ? { ...x, name: next } : x));
    }, () => this.t('projects.renamed', { name: next }),
    // Undo gives back the old name only, and only while the new one stands.
    () => this.#changeProjects((now) => (now.some((x) => x.id === id && x.name === next) ? now.map((x) => (x.id === id ? { ...x, name: uniqueName(old, now, id) } : x)) : null),
      () => this.t('projects.undone', { name: old })));
  }

  duplicateProject(id: string): void {
    let copy: Project | null = null;
    const done = this.#changeProjects((now) => {
      const p = now.find((x) => x.id === id) ?? this.projects.find((x) => x.id === id);
      if (!p || now.length >= MAX_PROJECTS) return null;
      copy = { ...p, id: newId(), name: uniqueName(this.t('projects.copy_name', { name: p.name }), now), saved_at: new Date().toISOString() };
      return [...now, copy];
    }, () => this.t('projects.saved', { name: copy?.name ?? '' }));
    if (!done && this.projects.length >= MAX_PROJECTS) this.notify(this.t('projects.full', { max: MAX_PROJECTS }), 'error');
  }

  deleteProject(id: string): void {
    let gone: Project | null = null;
    let index = 0;
    if (this.openProjectId === id) this.openProjectId = '';
    this.compareIds = this.compareIds.filter((x) => x !== id);
    this.#changeProjects((now) => {
      index = now.findIndex((x) => x.id === id);
      if (index < 0) return null;
      gone = now[index];
      return now.filter((x) => x.id !== id);
    }, () => this.t('projects.deleted', { name: gone?.name ?? '' }),
    // Undo puts back this one project where it was; the others stay as they are now.
    () => {
      const p = gone;
      if (!p) return;
      this.#changeProjects((now) => (now.some((x) => x.id === p.id) ? null : [...now.slice(0, index), p, ...now.slice(index)]),
        () => this.t('projects.undone', { name: p.name }));
    });
  }

  exportProjects(): void {
    download('gpuplan-projects.json', serializeFile(this.projects, this.quotes), 'application/json');
  }

  importProjects(text: string): void {
    const known = knownIds(this.catalog);
    const parsed = parseImport(text, known);
    if (!parsed) {
      const newer = newerFileVersion(text);
      this.notify(newer === null ? this.t('projects.import.bad') : this.t('import.newer', { v: newer }), 'error');
      return;
    }
    let merged: ReturnType<typeof mergeProjects> | null = null;
    this.#changeProjects((now) => {
      merged = mergeProjects(now, parsed.doc);
      return merged.added ? merged.projects : null;
    }, () => '');
    const m = merged as ReturnType<typeof mergeProjects> | null;
    const left = m?.left ?? [];
    if (left.length) {
      this.notify(this.t('projects.import_over', { n: left.length, max: MAX_PROJECTS }), 'error',
        { label: this.t('notice.download_left'), run: () => download('gpuplan-projects-not-imported.json', serializeFile(left, []), 'application/json') });
    }
    const message = this.t('projects.imported', { n: m?.added ?? 0, q: parsed.quotes.length, skipped: (m?.skipped ?? 0) + parsed.rejected });
    this.setQuotes(mergeQuotes(this.quotes, parsed.quotes), message);
  }

  setCompare(ids: string[]): void {
    this.compareIds = ids.slice(0, 3);
    this.renderResults();
  }

  // The entries to compare: 'current' is the form as it is now.
  compareList(): CompareEntry[] {
    return compareEntries(this, this.compareIds.map((id) => (id === 'current'
      ? { label: this.t('compare.current'), state: this.state }
      : ((p) => (p ? { label: p.name, state: p.state } : null))(this.projects.find((x) => x.id === id)))).filter((x): x is { label: string; state: State } => x !== null));
  }

  notify(text: string, kind: 'info' | 'error' = 'info', action?: Note['action']): void {
    this.#noteId += 1;
    this.#notes = [...this.#notes.slice(-3), { id: this.#noteId, text, kind, action }];
    if (this.#els) this.#renderNotes();
  }

  #lastRequestJson = '';
  // The request for the state, and the text asked: the request, or the
  // first figure's question (light).
  #question(light: boolean): string {
    this.request = withLab(toRequest(this.state, this.lang, this.quotes, this.catalog.models.find((m) => m.id === this.state.preset)), this.lab, this.labMine, this.state);
    return light ? figureQuestion(this.request, this.catalog.gpus, this.state.gpus) : JSON.stringify(this.request);
  }

  // Who answered the first figure's question: the build or the planner (the
  // first-figure mark's detail, for tests/browser and tools/bench_page.mjs).
  #figureAnswer: 'build' | 'planner' = 'planner';

  // light: only the memory figure is needed (first paint). The memory does
  // not depend on the card or the plan, and one large card with no stages is
  // the planner's quickest question; for a fresh page's form the build has
  // asked it already (first_answer.ts).
  #compute(light = false): void {
    const text = this.#question(light);
    if (text === this.#lastRequestJson) return;
    const known = light && Object.hasOwn(firstAnswers, text) ? firstAnswers[text] : null;
    // Before the planner has come (an edit while it starts) only the build's
    // answers can be given; start() renders everything again once it is here.
    if (known === null && !this.planner) return;
    this.#lastRequestJson = text;
    if (light) this.#figureAnswer = known === null ? 'planner' : 'build';
    let out: unknown;
    try {
      out = JSON.parse(known ?? this.planner.plan(text));
    } catch {
      out = { error: { code: 'internal', path: '', message: this.t('error.internal') } };
    }
    if (out && typeof out === 'object' && 'error' in out) {
      this.error = (out as PlanError).error;
      this.response = null;
    } else {
      this.error = null;
      this.response = out as PlanResponse;
    }
  }

  // After a full re-render (language, mode, model source), keyboard focus
  // returns to the control that had it, found by its stable id or field path.
  #focusKey(): string | null {
    const a = document.activeElement as HTMLElement | null;
    if (!a || a === document.body) return null;
    const path = a.getAttribute('data-path');
    if (path) return `[data-path="${CSS.escape(path)}"]`;
    const key = a.getAttribute('data-key');
    if (key) return `[data-key="${CSS.escape(key)}"]`;
    return a.id && !/-\d+$/.test(a.id) ? `#${CSS.escape(a.id)}` : null;
  }

  renderAll(): void {
    const focus = this.#focusKey();
    this.lang = this.state.lang || detectLang(navigator.languages ?? [navigator.language]);
    this.t = translator(this.lang);
    document.documentElement.lang = this.lang;
    document.title = this.t('app.title');
    const t = this.t;
    // The regions are held: each is brought up to date by its own render below.
    const inputs = hold(h('div', { class: 'inputs' }));
    const results = hold(h('div', { class: 'results' }));
    const notes = hold(h('div', { class: 'notes', role: 'status', 'aria-live': 'polite' }));
    const spoken = h('p', { class: 'sr-only', 'aria-live': 'polite', id: 'live' });
    const summary = hold(h('div', { class: 'summary card', id: 'summary' }));
    idsFrom('h-');
    morphInto(this.root,
      h('a', { class: 'skip', href: '#results' }, t('skip')),
      this.#header(),
      notes,
      // The headline first in the document: on a phone it is above the form;
      // on a wide screen it sits atop the results column.
      h('main', { class: 'layout' }, summary, inputs, h('div', { class: 'side', id: 'results', tabindex: -1 }, results)),
      spoken,
      this.#footer());
    this.#els = { inputs: live(inputs), results: live(results), notes: live(notes), live: live(spoken), summary: live(summary) };
    // Jumping to a section leaves its heading below the sticky summary. Told
    // when its height changes, after a layout the browser does anyway: read
    // after every render it forced one layout per change.
    if (!this.#summaryWatch) {
      this.#summaryWatch = new ResizeObserver(([e]) => {
        const root = document.documentElement.style;
        const padding = `${Math.ceil(e.borderBoxSize?.[0]?.blockSize ?? e.contentRect.height) + 16}px`;
        if (root.scrollPaddingTop !== padding) root.scrollPaddingTop = padding;
      });
      this.#summaryWatch.observe(this.#els.summary);
    }
    this.root.removeAttribute('aria-busy');
    this.#renderNotes();
    // Until start() has the planner, the memory figure alone; start() renders the rest.
    if (this.#ready) this.#renderForm();
    else this.renderResults(true);
    if (focus) this.root.querySelector<HTMLElement>(focus)?.focus();
  }

  #renderForm(): void {
    this.#morphForm();
    this.renderResults();
  }

  #morphForm(): void {
    idsFrom('i-');
    morphInto(this.#els.inputs, labLine(this) ?? '', labView(this), scenarioView(this) ?? '', stagesView(this), workloadView(this));
  }

  #renderNotes(): void {
    morphInto(this.#els.notes, this.#notes.map((n) => h('div', { class: `note-item ${n.kind}`, 'data-key': `note/${n.id}` },
      h('span', null, n.text),
      n.action ? button(n.action.label, n.action.run) : null,
      button(this.t('dismiss'), () => {
        this.#notes = this.#notes.filter((x) => x.id !== n.id);
        this.#renderNotes();
      }, { 'aria-label': `${this.t('dismiss')}: ${n.text}` }))));
  }

  renderResults(figureOnly = false): void {
    // Until start() has the planner, the memory figure alone.
    figureOnly ||= !this.#ready;
    const focus = this.#focusKey();
    this.#compute(figureOnly);
    // The billing menu offers what the core found in scope (plan.billings).
    const billings = String(this.response?.plan?.billings ?? '');
    if (billings !== this.#billingsShown) {
      this.#billingsShown = billings;
      this.#morphForm();
    }
    this.#markInvalid();
    const t = this.t;
    idsFrom('r-');
    const out: HTMLElement[] = [];
    if (this.error) {
      // The core names the field in the student's words; its path only finds the input (markInvalid).
      out.push(h('div', { class: 'error card', role: 'alert' }, h('strong', null, t('error.title')), ' ', this.error.message));
    }
    const warnings = this.response?.warnings ?? [];
    if (warnings.length) out.push(h('ul', { class: 'warnings card' }, warnings.map((w) => h('li', { 'data-code': w.code }, w.message))));
    // The OOM advice asks the planner again: on the first render after the
    // figure is on screen (a later task), after that in this task, so a
    // change lays out and paints once, not twice.
    const deferred: (() => void)[] = [];
    out.push(memoryView(this, (run) => { deferred.push(run); }));
    if (!figureOnly) out.push(printView(this), gpusView(this), platformsView(this), budgetView(this), projectsView(this));
    const labTotal = !figureOnly && this.lab && !this.labMine.off ? labTotalView(this, this.lab, this.labMine, this.projects) : null;
    if (labTotal) out.push(labTotal);
    morphInto(this.#els.results, out);
    if (!figureOnly) this.#renderSummary();
    refreshVerifyScript(this);
    const name = document.getElementById('project-name');
    if (name) {
      name.textContent = this.state.title;
      name.hidden = !this.state.title;
    }
    if (!this.#figureMarked && this.response) {
      this.#figureMarked = true;
      performance.mark('gpuplan:first-figure', { detail: { answer: this.#figureAnswer } });
    }
    if (focus && document.activeElement === document.body) this.root.querySelector<HTMLElement>(focus)?.focus();
    const runDeferred = (): void => { for (const run of deferred) run(); };
    if (this.#figureShown) runDeferred();
    else window.setTimeout(runDeferred, 0);
    if (!figureOnly && this.#figureMarked) this.#figureShown = true;
  }

  #markInvalid(): void {
    for (const el of this.#els.inputs.querySelectorAll('[data-path][aria-invalid="true"]')) {
      if ((el as HTMLInputElement).validity?.valid !== false) el.setAttribute('aria-invalid', 'false');
    }
    if (this.error?.path) {
      const el = this.#els.inputs.querySelector(`[data-path="${CSS.escape(formPath(this.error.path, this.state))}"]`);
      el?.setAttribute('aria-invalid', 'true');
    }
  }

  #renderSummary(): void {
    const { t, lang } = this;
    const r = this.response;
    const b = budgetOf(this);
    let text: string;
    if (this.error) text = `${t('error.title')} ${this.error.message}`;
    else if (!r) text = t('memory.none');
    else if (b && !b.feasible) text = t('summary.infeasible', { mem: gib(lang, r.memory.per_gpu.total_bytes) });
    else if (b && b.stages.length) {
      const s = b.stages.find((x) => x.stage === 'formal') ?? b.stages[0];
      // The stage's card holds the workload as planned, which may not be the
      // one typed (a smaller micro-batch, checkpointing, sharding): say both.
      const typed = gib(lang, r.memory.per_gpu.total_bytes);
      const planned = s.memoryBytes > 0 ? gib(lang, s.memoryBytes) : typed;
      text = t('summary.plan', {
        mem: planned === typed ? typed : planned + t('summary.as_planned', { typed }), gpu: gpuName(this, s.gpu),
        n: num(lang, s.count) + (s.parallel > 1 ? t('summary.parallel', { runs: num(lang, s.parallel), k: num(lang, s.perRun) }) : ''),
        platform: platformName(this, s.platform), total: cash(this, b.total, b.currency), time: hours(lang, b.wallHours),
      });
    } else text = t('summary.memory', { mem: gib(lang, r.memory.per_gpu.total_bytes), rec: gib(lang, r.memory.recommended_bytes) });
    morphInto(this.#els.summary, h('h2', { class: 'sr-only' }, t('summary.title')), h('p', { id: 'summary-text' }, text),
      b && b.feasible && b.within === false ? h('p', { class: 'badge bad' }, t('summary.over')) : null,
      h('p', { class: 'jump' }, h('a', { href: '#budget' }, t('summary.jump'))));
    if (this.#els.live.textContent !== text) this.#els.live.textContent = text;
  }

  #header(): HTMLElement {
    const t = this.t;
    const labScope = labDefaults(this).scope;
    const langButton = button(this.lang === 'zh-CN' ? 'English' : '中文', () => this.set({ lang: this.lang === 'zh-CN' ? 'en' : 'zh-CN' }, { inputs: true }),
      { lang: this.lang === 'zh-CN' ? 'en' : 'zh-CN', id: 'lang-toggle', 'aria-label': t('lang.switch') });
    const actions = h('div', { class: 'actions' },
      button(t('share.copy'), () => this.#copyLink(), { id: 'copy-link' }),
      // The plan is whole only once start() has the planner: a click before
      // (the first figure alone is on screen) waits for it.
      button(t('export.md'), () => void this.#started.then(() => download('gpuplan.md', toMarkdown(this, VERSION), 'text/markdown'))),
      button(t('export.csv'), () => void this.#started.then(() => download('gpuplan-gpus.csv', toCsv(this), 'text/csv'))),
      button(t('export.json'), () => void this.#started.then(() => download('gpuplan.json', toJson(this), 'application/json'))),
      button(t('print'), () => void this.#started.then(() => window.print())),
      this.embed ? null : button(t('embed.open'), () => this.#embedDialog(), { id: 'embed-open' }),
      this.embed ? null : button(t('download.page'), () => download('gpuplan.html', this.pageHtml, 'text/html'), { id: 'download-page' }));
    return h('header', { class: 'top' },
      h('div', { class: 'brand' }, h('h1', null, t('app.title')), h('p', { class: 'tagline' }, t('app.tagline'))),
      h('div', { class: 'controls' },
        textField({ id: 'project-title', label: t('project.title'), value: this.state.title, max: 200, placeholder: t('project.placeholder') }, (title) => this.set({ title })),
        selectField({ id: 'display-currency', label: t('currency.display'), value: this.state.currency, options: [{ value: 'CNY', label: '¥ CNY' }, { value: 'USD', label: '$ USD' }] },
          (v) => this.set({ currency: v === 'USD' ? 'USD' : 'CNY' })),
        // contract v1.1 prefs.scope: checked = global.
        checkField({ id: 'scope-global', label: labScope ? `${t('scope.global')} · ${this.t('lab.lab_default')}` : t('scope.global'), help: t('scope.global.help'), value: effectiveScope(this.state, this.lang, labScope) === 'global', path: 'prefs.scope' },
          (on) => this.set({ scope: on ? 'global' : 'cn' }, { inputs: true })),
        langButton),
      h('p', { class: 'project', id: 'project-name', hidden: !this.state.title }, this.state.title),
      actions);
  }

  #footer(): HTMLElement {
    const t = this.t;
    const fx = this.catalog.fx;
    const age = catalogAge(this);
    return h('footer', { class: 'foot' },
      h('p', null, t('footer.version', { version: VERSION, catalog: this.catalog.version })),
      h('p', { id: 'catalog-age' }, t('footer.age', { date: age.date || '—', days: age.days === null ? '—' : num(this.lang, age.days), stale: num(this.lang, age.stale), total: num(this.lang, age.total) })),
      fx ? h('p', null, t('footer.fx', { rate: num(this.lang, fx.cny_per_usd, 4), as_of: fx.as_of ?? '—' })) : null,
      h('p', null, t('footer.privacy')));
  }

  async #copyLink(): Promise<void> {
    this.#persist();
    const url = location.href;
    const local = isLocalPage(url) ? ` ${this.t('share.local')}` : '';
    try {
      await navigator.clipboard.writeText(url);
      this.notify(this.t('share.copied') + local, local ? 'error' : 'info');
    } catch {
      this.notify(this.t('share.manual', { url }) + local, local ? 'error' : 'info');
    }
  }

  #embedDialog(): void {
    const t = this.t;
    const snippet = iframeSnippet(location.href, encodeHash(this.state));
    const area = h('textarea', { id: 'embed-snippet', rows: 10, readonly: true, spellcheck: 'false' }, snippet);
    const dialog = h('dialog', { class: 'embed-dialog', 'aria-labelledby': 'embed-title' },
      h('h2', { id: 'embed-title' }, t('embed.title')),
      h('p', null, t('embed.help')),
      isLocalPage(location.href) ? h('p', { class: 'bad', id: 'embed-local', role: 'alert' }, t('share.local')) : null,
      h('label', { for: 'embed-snippet' }, t('embed.snippet')),
      area,
      h('div', { class: 'actions' },
        button(t('embed.copy'), async () => {
          area.select();
          try {
            await navigator.clipboard.writeText(snippet);
            this.notify(t('share.copied'));
          } catch {
            this.notify(t('embed.select'));
          }
        }),
        button(t('close'), () => dialog.close())));
    dialog.addEventListener('close', () => dialog.remove());
    document.body.appendChild(dialog);
    dialog.showModal();
  }

  // loadPlanner: decodes and starts the planner's wasm (main.ts). The memory
  // figure first, then the rest in a later task, so the student sees a number
  // as early as possible; the figure waits for the planner only when the
  // build has not answered its question (first_answer.ts).
  async start(loadPlanner: () => Promise<Planner>): Promise<void> {
    if (this.embed) document.body.classList.add('embed');
    if (!Object.hasOwn(firstAnswers, this.#question(true))) this.planner = await loadPlanner();
    this.renderAll();
    // After the first render: a height measured before it is the empty
    // frame's (the wiki would shrink the frame to that first).
    if (this.embed) reportHeight();
    await new Promise((resolve) => window.setTimeout(resolve, 0));
    this.planner ??= await loadPlanner();
    this.#ready = true;
    this.#renderForm();
    this.#markStarted();
  }
}

