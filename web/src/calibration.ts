// What the user measured on their own card (views/calibrate.ts) as the
// request's `baseline` (docs/api.md "Time fields"): the peak memory re-anchors
// every memory figure, the speed every rate; the core computes both factors
// and the page only shows them.
import type { State } from './state';

const GIB = 2 ** 30;

// null when nothing usable was measured (a card and a figure are both needed).
export function calibration(s: State, isCnn: boolean): Record<string, unknown> | null {
  const c = s.calib;
  if (!c.gpu || (!(c.memory_gib > 0) && !(c.rate > 0))) return null;
  const b: Record<string, unknown> = { gpu: c.gpu, count: 1 };
  if (c.micro_batch > 0) b.micro_batch = c.micro_batch;
  // nvidia-smi shows MiB; the field takes GiB (MiB / 1024), the request bytes.
  if (c.memory_gib > 0) b.memory_bytes = Math.round(c.memory_gib * GIB);
  if (c.rate > 0) b[isCnn ? 'samples_per_s' : 'tokens_per_s'] = c.rate;
  return b;
}
