// What the page opens on (app.ts, the constructor): a share link's form in
// the address, else the form the student left (storage_state.ts), else the
// default. The boot script asks only whether one of the first two is there
// (boot.ts): such a page asks the planner before its first figure, so the
// planner's code is decoded at once, not after the figure.
export const LINK_PREFIX = '#s=';
export const LAST_KEY = 'gpuplan.last';

export function opensOnOwnForm(): boolean {
  if (location.hash.startsWith(LINK_PREFIX)) return true;
  try {
    return window.localStorage.getItem(LAST_KEY) !== null;
  } catch {
    // Storage refused (a sandboxed frame, a browser setting): nothing remembered.
    return false;
  }
}
