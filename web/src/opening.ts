// What the page opens on (app.ts, the constructor): a share link's form in
// the address, else the form the student left (storage_state.ts), else the
// default. The boot script asks only whether one of the first two is there
// (boot.ts): such a page asks the planner before its first figure, so the
// planner's code is decoded at once, not after the figure.
export const LINK_PREFIX = '#s=';
export const LAST_KEY = 'gpuplan.last';
// A share link's payload is at most this many characters (docs/api.md,
// "Limits"): a form is ~2 KB of JSON. A longer one is damaged.
export const MAX_LINK_CHARS = 20000;

// Called first of all (boot.ts): a link over the cap leaves the address bar
// before any script is made, since the browser gives every script the
// document's address as its own and a 1.5 MB one slows each of them; what
// stays ("#s=!") still reads as a damaged link, so the page says so.
export function dropOversizedLink(): void {
  if (location.hash.startsWith(LINK_PREFIX) && location.hash.length > LINK_PREFIX.length + MAX_LINK_CHARS) {
    history.replaceState(null, '', `${location.pathname}${location.search}${LINK_PREFIX}!`);
  }
}

export function opensOnOwnForm(): boolean {
  if (location.hash.startsWith(LINK_PREFIX)) return true;
  try {
    return window.localStorage.getItem(LAST_KEY) !== null;
  } catch {
    // Storage refused (a sandboxed frame, a browser setting): nothing remembered.
    return false;
  }
}
