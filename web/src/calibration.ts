// What the user measured on their own card (views/calibrate.ts) as the
// request's `baseline` (docs/api.md "Time fields"): the peak memory re-anchors
// every memory figure, the speed every rate; the core computes both factors
// and the page only shows them.
import { LIMITS } from './limits.ts';
import type { State } from './state.ts';
import type { CatalogGpu } from './types.ts';

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

// A measured line (verify_script.ts parseResult) against the planner's limits
// for the baseline it becomes, in the units the page shows: the peak memory
// in GiB as the field takes it. null when every figure is within them.
export interface OutOfRange { field: 'micro_batch' | 'memory_gib' | 'rate'; value: number; min: number; max: number }

export function calibrationOutOfRange(r: { micro_batch: number; peak_memory_bytes: number; tokens_per_s: number; samples_per_s: number }, isCnn: boolean): OutOfRange | null {
  const batch = LIMITS['baseline.micro_batch'];
  if (!(r.micro_batch >= batch.min && r.micro_batch <= batch.max) || !Number.isInteger(r.micro_batch)) {
    return { field: 'micro_batch', value: r.micro_batch, min: batch.min, max: batch.max };
  }
  const mem = LIMITS['baseline.memory_bytes'];
  if (!(r.peak_memory_bytes >= mem.min && r.peak_memory_bytes <= mem.max)) {
    return { field: 'memory_gib', value: r.peak_memory_bytes / GIB, min: mem.min / GIB, max: mem.max / GIB };
  }
  const rate = LIMITS[isCnn ? 'baseline.samples_per_s' : 'baseline.tokens_per_s'];
  const v = isCnn ? r.samples_per_s : r.tokens_per_s;
  if (v !== undefined && Number.isFinite(v) && !(v >= rate.min && v <= rate.max)) return { field: 'rate', value: v, min: rate.min, max: rate.max };
  return null;
}

// The catalog card a measured device name is (catalog/gpus.json
// device_names, the names nvidia-smi and torch.cuda.get_device_name()
// print): compared without case or runs of spaces, never guessed from a
// part of the name. undefined: a card the catalog does not know.
export function gpuByDeviceName(gpus: readonly CatalogGpu[], device: string): CatalogGpu | undefined {
  const norm = (x: string): string => x.trim().replace(/\s+/g, ' ').toLowerCase();
  const d = norm(device);
  return d ? gpus.find((g) => (g.device_names ?? []).some((n) => norm(n) === d)) : undefined;
}
