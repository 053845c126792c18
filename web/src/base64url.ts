// base64url of UTF-8 text, the encoding of the page's links (the share link's
// state, state.ts; the lab's settings, lab_settings.ts): Chinese text survives,
// no character needs escaping in a URL fragment, and a fragment never reaches
// a server. Decoding refuses bytes that are not UTF-8 (it throws).
export function toBase64Url(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): string {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
}
