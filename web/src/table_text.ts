// A cell of an exported table, written so that user text (a project's or a
// lab's name, a note) cannot break it: the Markdown exports (export.ts, the
// comparison, the lab's total) and the CSV exports (export.ts, the lab's total).

// Markdown: user text must not break the table or become links.
export function mdCell(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
}

// RFC 4180 quoting; a leading = + - @ is prefixed so spreadsheets do not run it as a formula.
export function csvCell(v: string | number): string {
  let s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  if (/^[=+\-@\t\r]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
