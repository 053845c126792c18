// The only way this page builds DOM. Children are Nodes or text: strings become
// Text nodes, so anything a user, a URL or an imported file supplies is shown
// as text and can never become markup (no innerHTML anywhere).
// Attributes go through setAttribute except `style`, which is refused: the CSP
// forbids inline style attributes, so widths are set through the CSSOM instead.
//
// A view builds a fresh tree with h() on every render; morph() then brings the
// page's tree to it in place, so an element the page already shows (above all
// a form control) stays the same element: the browser's autofill re-reads the
// form whenever a control is added or removed, which cost ~830 forced layouts
// per change, and a replaced control loses focus, typed text and a click in
// progress. Handlers live in a table per element and one listener per event
// type reads it, so the kept element runs the newest render's closures.
// So a view adds handlers with h()'s on* attributes or on() (never
// addEventListener on a fresh element: the morph drops that element), and a
// handler or deferred work reaches an element it built through live() or
// current() (the fresh element itself may be off the page).

export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (ev: Event) => void;
export type Attrs = Record<string, string | number | boolean | null | undefined | Handler>;

const handlers = new WeakMap<Element, Record<string, Handler[]>>();
function dispatch(ev: Event): void {
  for (const fn of handlers.get(ev.currentTarget as Element)?.[ev.type] ?? []) fn(ev);
}

// Adds a handler that a re-render carries over to the element kept on the page
// (addEventListener's would stay with the fresh element the morph discards).
export function on(el: Element, type: string, fn: Handler): void {
  let table = handlers.get(el);
  if (!table) handlers.set(el, (table = {}));
  (table[type] ??= []).push(fn);
  el.addEventListener(type, dispatch);
}

// What a control, or a <details>, showed when it was rendered: a re-render
// changes a value or an open state only when the render's own changed, so
// what the student typed or opened and the page never stored stays.
interface Shown { value?: string; open?: boolean }
const shown = new WeakMap<Element, Shown>();
const shownOf = (el: Element): Shown => shown.get(el) ?? {};
function snapshot(el: Element): Shown | null {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return { value: el.value };
  if (el instanceof HTMLDetailsElement) return { open: el.open };
  return null;
}

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c);
  } else if (child instanceof Node) {
    parent.appendChild(child);
  } else {
    parent.appendChild(document.createTextNode(String(child)));
  }
}

function setAttrs(el: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') {
      on(el, key.startsWith('on') ? key.slice(2) : key, value);
    } else if (key === 'style') {
      throw new Error('inline style attributes are blocked by the CSP; use el.style');
    } else if (key === 'value' && 'value' in el) {
      (el as HTMLInputElement).value = String(value);
    } else if (key === 'checked' && el instanceof HTMLInputElement) {
      el.checked = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

function finish<E extends Element>(el: E, attrs: Attrs | null | undefined, children: Child[]): E {
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  return finish(document.createElement(tag), attrs, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';
export function svg(tag: string, attrs?: Attrs | null, ...children: Child[]): SVGElement {
  return finish(document.createElementNS(SVG_NS, tag) as SVGElement, attrs, children);
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

// --- morph ------------------------------------------------------------------

// fresh element -> the page's element that shows it; page element -> the
// fresh element it shows now (none: itself, as inserted).
const shownBy = new WeakMap<Element, Element>();
const showing = new WeakMap<Element, Element>();

// A fresh subtree goes onto the page as it is: what its controls show is
// what was rendered.
function inserted(n: Node): void {
  if (!(n instanceof Element)) return;
  for (const el of [n, ...n.querySelectorAll('input, textarea, select, details')]) {
    const s = snapshot(el);
    if (s) shown.set(el, s);
  }
}
// Fresh elements that the morph leaves as the page has them (attributes and
// children): their view fills them later (current(el), then morph).
const held = new WeakSet<Element>();

// The element on the page that shows (or last showed) `el`: a view's handlers
// and debounced work reach the kept element through it.
export function live<E extends Element>(el: E): E {
  return (shownBy.get(el) as E | undefined) ?? el;
}

// The same, or null once a later render has replaced `el` or it is off the
// page: deferred rendering for an old render stops there.
export function current<E extends Element>(el: E): E | null {
  const page = live(el);
  return (showing.get(page) ?? page) === el && page.isConnected ? page : null;
}

// The next morph leaves the page's element for this fresh one as it is.
export function hold<E extends Element>(el: E): E {
  held.add(el);
  return el;
}

const TEXT = 3;

// Ids from uid() change with every render: a key only when set by a view.
const GENERATED_ID = /-\d+$/;
function keyOf(n: Node): string {
  if (!(n instanceof Element)) return '';
  const k = n.getAttribute('data-key') ?? n.getAttribute('data-path');
  if (k !== null) return `k${k}`;
  return n.id && !GENERATED_ID.test(n.id) ? `#${n.id}` : '';
}

function sameKind(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType) return false;
  if (!(a instanceof Element)) return true;
  const e = b as Element;
  return a.localName === e.localName && a.namespaceURI === e.namespaceURI &&
    (!(a instanceof HTMLInputElement) || a.type === (e as HTMLInputElement).type);
}

function morphAttrs(page: Element, fresh: Element, keepInvalid: boolean): void {
  // Names and values as strings: iterating `attributes` makes an Attr object each.
  for (const name of page.getAttributeNames()) {
    if (fresh.hasAttribute(name)) continue;
    if (name === 'open' || (keepInvalid && name === 'aria-invalid')) continue;
    page.removeAttribute(name);
  }
  for (const name of fresh.getAttributeNames()) {
    const value = fresh.getAttribute(name)!;
    if (page.getAttribute(name) === value || name === 'open') continue;
    // The CSP blocks style attributes; the CSSOM copy is allowed.
    if (name === 'style') (page as HTMLElement).style.cssText = (fresh as HTMLElement).style.cssText;
    else page.setAttribute(name, value);
  }
}

function morphElement(page: Element, fresh: Element, top = false): void {
  // A held element stays as it is (attributes, children) until its view fills it.
  if (!top && held.has(fresh)) {
    shownBy.set(fresh, page);
    showing.set(page, fresh);
    return;
  }
  const was = shownOf(page);
  const now = snapshot(fresh);
  const input = page instanceof HTMLInputElement || page instanceof HTMLTextAreaElement;
  // The value stays when the render's did not change, or while the student is
  // in the field (typing, a selection made): never under the caret.
  const keepValue = !!now && (now.value === was.value || (input && page === document.activeElement));
  morphAttrs(page, fresh, keepValue);
  if (page instanceof HTMLDetailsElement && now?.open !== was.open) page.open = !!now?.open;
  const table = handlers.get(fresh);
  if (table) {
    handlers.set(page, table);
    for (const type of Object.keys(table)) page.addEventListener(type, dispatch);
  } else handlers.delete(page);
  const before = now ? (page as HTMLInputElement).value : '';
  const only = fresh.firstChild;
  const mine = page.firstChild;
  if (only && !only.nextSibling && only.nodeType === TEXT && mine && !mine.nextSibling && mine.nodeType === TEXT) {
    // The common leaf, one text in a cell or a label: compared as it is.
    if (mine.nodeValue !== only.nodeValue) mine.nodeValue = only.nodeValue;
  } else if (only || mine) {
    const list: Node[] = [];
    for (let c = only; c; c = c.nextSibling) list.push(c);
    morphChildren(page, list);
  }
  if (page instanceof HTMLInputElement) page.checked = (fresh as HTMLInputElement).checked;
  // A file input's value is the browser's (a script may only clear it).
  if (now?.value !== undefined && (page as HTMLInputElement).type !== 'file') {
    const target = keepValue ? before : now.value;
    const v = page as HTMLInputElement;
    if (v.value !== target) v.value = target;
  }
  if (now) shown.set(page, keepValue ? { ...now, value: was.value } : now);
  shownBy.set(fresh, page);
  showing.set(page, fresh);
}

function morphChildren(page: Element, fresh: Node[]): void {
  // The page's keyed children from the first unmatched one on, made when
  // first needed: most children match the one in their place.
  let keyed = null as Map<string, ChildNode> | null;
  let cur = page.firstChild;
  const keyedFrom = (): Map<string, ChildNode> => {
    if (!keyed) {
      keyed = new Map();
      for (let c = cur; c; c = c.nextSibling) {
        const k = keyOf(c);
        if (k) keyed.set(k, c);
      }
    }
    return keyed;
  };
  for (const next of fresh) {
    const k = keyOf(next);
    let match: ChildNode | null = null;
    if (next.parentNode === page) {
      // A view handed back the page's own element (it is unchanged): kept as is.
      keyed?.delete(k);
      if (next === cur) cur = cur.nextSibling;
      else page.insertBefore(next, cur);
      continue;
    }
    if (cur && keyOf(cur) === k && sameKind(cur, next)) {
      match = cur;
    } else if (k) {
      const m = keyedFrom().get(k);
      if (m && sameKind(m, next)) match = m;
    } else {
      // The first unkeyed node of the same kind from here on.
      for (let c = cur; c; c = c.nextSibling) {
        if (!keyOf(c) && sameKind(c, next)) { match = c; break; }
      }
    }
    if (k) keyed?.delete(k);
    if (!match) {
      page.insertBefore(next, cur);
      inserted(next);
      continue;
    }
    if (match === cur) cur = cur.nextSibling;
    else page.insertBefore(match, cur);
    if (match instanceof Element) morphElement(match, next as Element);
    else if (match.nodeValue !== next.nodeValue) match.nodeValue = next.nodeValue;
  }
  while (cur) {
    const n = cur.nextSibling;
    cur.remove();
    cur = n;
  }
}

// Brings `page` (on the page) to what `fresh` (just built) shows: its
// attributes, handlers and children; nodes of the same kind in the same place
// or with the same key are kept and updated, the rest inserted or removed.
// A fresh tree is used up by it: build a new one for the next morph.
export function morph(page: Element, fresh: Element): void {
  if (page !== fresh) morphElement(page, fresh, true);
}

function nodes(child: Child, out: Node[]): Node[] {
  if (child === null || child === undefined || child === false) return out;
  if (Array.isArray(child)) for (const c of child) nodes(c, out);
  else out.push(child instanceof Node ? child : document.createTextNode(String(child)));
  return out;
}

// The children of `page` become `children`, kept where they match.
export function morphInto(page: Element, ...children: Child[]): void {
  morphChildren(page, nodes(children, []));
}

let idCounter = 0;
let idScope = '';
export function uid(prefix: string): string {
  idCounter += 1;
  return `${idScope}${prefix}-${idCounter}`;
}
// Each region's render numbers its ids from the same start, so a re-render of
// an unchanged form gives its controls the ids they have.
export function idsFrom(scope: string): void {
  idScope = scope;
  idCounter = 0;
}

// Saves text as a file. A blob: URL is a navigation, not a fetch: nothing
// leaves the machine, and the CSP's connect-src does not apply.
export function download(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: filename });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
