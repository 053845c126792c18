// "Apply": a change the planner or the OOM doctor proposes, as a change to
// the form. The OOM doctor's remedies carry an RFC 7396 patch of the request
// (docs/oom-doctor.md); the plan's over-budget changes a code (docs/api.md,
// `plan.changes[]`), optionally a patch; a stage's `workload_changes` name
// request fields. Each becomes a patch of the page's State, or null when the
// form has no control for it (then no button is offered).
import type { State, StageState } from './state';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

// Request workload fields the form holds, and the State key each lands in.
const WORKLOAD: Record<string, keyof State> = {
  micro_batch: 'micro_batch', grad_checkpointing: 'grad_checkpointing', flash_attention: 'flash_attention',
  cpu_offload: 'cpu_offload', precision: 'precision', optimizer: 'optimizer', method: 'method', sharding: 'sharding',
  gpus: 'gpus', kv_cache_bits: 'kv_cache_bits', seq_len: 'seq_len', image_size: 'image_size',
};

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// One request field ("workload.grad_checkpointing") and its new value.
export function fieldPatch(s: State, field: string, value: unknown): Partial<State> | null {
  const [head, key, sub] = field.split('.');
  if (head === 'workload' && key === 'lora') {
    if (sub === 'rank' && typeof value === 'number') return { lora_rank: value };
    if (sub === 'targets' && typeof value === 'string') return { lora_targets: value as State['lora_targets'] };
    if (!sub) return requestPatch(s, { workload: { lora: value } });
    return null;
  }
  if (head === 'workload' && key in WORKLOAD && !sub) {
    const k = WORKLOAD[key];
    if (typeof value !== typeof s[k]) return null;
    return { [k]: value } as Partial<State>;
  }
  if (head === 'prefs' && key === 'billing' && typeof value === 'string') return { billing: value as State['billing'] };
  if (head === 'hardware' && key === 'gpu' && typeof value === 'string') return { target_gpu: value };
  if (head === 'hardware' && key === 'count' && typeof value === 'number') return { gpus: value };
  return null;
}

// An RFC 7396 patch of the request, as far as the form can hold it.
export function requestPatch(s: State, patch: unknown): Partial<State> | null {
  const p = obj(patch);
  const out: Partial<State> = {};
  const w = obj(p.workload);
  for (const [k, v] of Object.entries(w)) {
    if (k === 'lora') {
      const l = obj(v);
      if (typeof l.rank === 'number') out.lora_rank = l.rank;
      if (typeof l.targets === 'string') out.lora_targets = l.targets as State['lora_targets'];
      continue;
    }
    const one = fieldPatch(s, `workload.${k}`, v);
    if (one) Object.assign(out, one);
  }
  const hw = obj(p.hardware);
  // The card the remedy is about becomes the card the memory view compares
  // with; the GPU table keeps showing every card unless the form limits it.
  if (typeof hw.gpu === 'string') {
    out.target_gpu = hw.gpu;
    if (s.hardware) out.hardware = hw.gpu;
  }
  // The doctor diagnoses one card when the count is the planner's (views/memory.ts):
  // a remedy on that one card leaves the count to the planner.
  if (typeof hw.count === 'number' && !(s.gpus === 0 && hw.count === 1)) out.gpus = hw.count;
  const prefs = obj(p.prefs);
  if (typeof prefs.billing === 'string') out.billing = prefs.billing as State['billing'];
  // Nothing the form would change: no button.
  const changed = Object.entries(out).filter(([k, v]) => !same((s as unknown as Obj)[k], v));
  return changed.length ? Object.fromEntries(changed) as Partial<State> : null;
}

// Half the runs (the planner's `fewer-runs`): the largest of each stage's
// factors halved, rounded up, in the formal and revision stages.
function halveRuns(stages: StageState[]): StageState[] {
  return stages.map((st) => {
    if (st.stage === 'debug' || !st.on) return st;
    const keys = (['seeds', 'sweep', 'ablations'] as const).filter((k) => st[k] > 1).sort((a, b) => st[b] - st[a]);
    return keys.length ? { ...st, [keys[0]]: Math.ceil(st[keys[0]] / 2) } : st;
  });
}

export function changePatch(s: State, change: { code: string; patch?: unknown }): Partial<State> | null {
  if (change.patch) return requestPatch(s, change.patch);
  switch (change.code) {
    case 'qlora': return s.method === 'qlora' ? null : { method: 'qlora' };
    case 'grad-accumulation': return s.micro_batch === 1 ? null : { micro_batch: 1 };
    case 'spot': return s.billing === 'spot' ? null : { billing: 'spot' };
    case 'fewer-runs': {
      const stages = halveRuns(s.stages);
      return same(stages, s.stages) ? null : { stages };
    }
    default: return null; // campus: the user's own rate is needed first
  }
}
