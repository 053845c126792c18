// "What fits": when the workload does not fit the card the user compares
// against, ask the planner itself what would (the same wasm plan() the page
// uses), so the advice and the figures can never disagree.
import type { Request } from './request';
import type { Planner, PlanResponse } from './types';

export interface Advice { key: string; value?: number; totalBytes: number }

function clone(req: Request): Request {
  return JSON.parse(JSON.stringify(req)) as Request;
}

function fitsOn(planner: Planner, req: Request, gpu: string): { fits: boolean; total: number } | null {
  const r = clone(req);
  const w = (r.workload ?? {}) as Record<string, unknown>;
  r.hardware = { gpu, count: typeof w.gpus === 'number' ? w.gpus : 1 };
  delete r.stages;
  let res: PlanResponse | { error: unknown };
  try {
    res = JSON.parse(planner.plan(JSON.stringify(r))) as PlanResponse;
  } catch {
    return null;
  }
  if ('error' in res || !Array.isArray(res.gpus)) return null;
  const row = res.gpus.find((g) => g.id === gpu);
  if (!row) return null;
  return { fits: row.fits && row.count <= (typeof w.gpus === 'number' ? w.gpus : 1), total: res.memory.per_gpu.total_bytes };
}

// Largest integer in [lo, hi] for which build(v) fits, by bisection
// (memory grows monotonically with batch and sequence length).
function largest(planner: Planner, gpu: string, lo: number, hi: number, build: (v: number) => Request): Advice | null {
  const first = fitsOn(planner, build(lo), gpu);
  if (!first?.fits) return null;
  let best = lo;
  let bestTotal = first.total;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    const r = fitsOn(planner, build(mid), gpu);
    if (r?.fits) {
      lo = mid;
      best = mid;
      bestTotal = r.total;
    } else hi = mid - 1;
  }
  return { key: '', value: best, totalBytes: bestTotal };
}

export function whatFits(planner: Planner, req: Request, gpu: string): Advice[] {
  const out: Advice[] = [];
  const w = (req.workload ?? {}) as Record<string, unknown>;
  const variant = (patch: Record<string, unknown>): Request => ({ ...clone(req), workload: { ...w, ...patch } });
  const tryOne = (key: string, patch: Record<string, unknown>): void => {
    const r = fitsOn(planner, variant(patch), gpu);
    if (r?.fits) out.push({ key, totalBytes: r.total });
  };
  const batch = typeof w.micro_batch === 'number' ? w.micro_batch : 1;
  if (batch > 1) {
    const a = largest(planner, gpu, 1, batch - 1, (v) => variant({ micro_batch: v }));
    if (a) out.push({ ...a, key: 'advice.batch' });
  }
  const seq = typeof w.seq_len === 'number' ? w.seq_len : 0;
  if (seq > 128) {
    const a = largest(planner, gpu, 1, Math.floor(seq / 128) - 1, (v) => variant({ seq_len: v * 128 }));
    if (a) out.push({ ...a, value: (a.value ?? 0) * 128, key: 'advice.seq' });
  }
  if (w.mode === 'train') {
    if (!w.grad_checkpointing) tryOne('advice.checkpointing', { grad_checkpointing: true });
    if (w.method === 'full') {
      tryOne('advice.adam8bit', { optimizer: 'adamw-8bit' });
      tryOne('advice.lora', { method: 'lora', lora: { rank: 16, targets: 'all-linear' } });
    }
    if (w.method !== 'qlora') tryOne('advice.qlora', { method: 'qlora', precision: 'bf16-mixed', lora: { rank: 16, targets: 'all-linear' } });
    if (w.method === 'full') {
      for (const n of [2, 4, 8]) {
        const r = fitsOn(planner, variant({ gpus: n, sharding: 'zero3' }), gpu);
        if (r?.fits) {
          out.push({ key: 'advice.zero3', value: n, totalBytes: r.total });
          break;
        }
      }
    }
  } else {
    if (w.precision !== 'int8' && w.precision !== 'nf4' && w.precision !== 'int4') {
      tryOne('advice.int8', { precision: 'int8' });
      tryOne('advice.int4', { precision: 'int4' });
    }
    if (w.kv_cache_bits === 16) tryOne('advice.kv8', { kv_cache_bits: 8 });
  }
  return out;
}
