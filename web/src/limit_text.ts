// A bound or a refused value in a message: whole thousands grouped, a tiny or
// huge one in exponent form (a pasted 1e200 is "1e200", not 201 digits).
export function limitNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e9 || a < 1e-3)) return Number(v.toPrecision(6)).toExponential().replace('e+', 'e');
  return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumSignificantDigits: 6 });
}
