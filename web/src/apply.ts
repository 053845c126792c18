// "Apply": a change the planner or the OOM doctor proposes, as a change to
// the form. Both carry an RFC 7396 patch of the request (docs/oom-doctor.md;
// docs/api.md, `plan.changes[].patch`); a stage's `workload_changes` name
// request fields. Each becomes a patch of the page's State, or null when the
// form has no control for it (then no button is offered). The page decides
// no change of its own: what it applies is what the planner priced.
import type { State, StageState } from './state.ts';

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

// The runs the patch gives a stage, in the form's terms (seeds × sweep ×
// ablations): the student's own factors where one of them alone can carry
// the new count, else the count as seeds. A change of representation only:
// the count is the planner's.
function withRuns(st: StageState, runs: number): StageState {
  const keys = ['seeds', 'sweep', 'ablations'] as const;
  if (st.seeds * st.sweep * st.ablations === runs) return st;
  for (const k of [...keys].reverse()) {
    const rest = keys.filter((x) => x !== k).reduce((p, x) => p * st[x], 1);
    if (rest > 0 && runs % rest === 0) return { ...st, [k]: runs / rest };
  }
  return { ...st, seeds: runs, sweep: 1, ablations: 1 };
}

// A change the planner proposes (plan.changes[]): its merge patch on the
// request, as far as the form holds it; the request's stages (what runs
// each sent stage has) become the form's stages. No patch (a campus centre
// whose rate is not given): no button.
export function changePatch(s: State, change: { code: string; patch?: unknown }): Partial<State> | null {
  const p = obj(change.patch);
  if (!change.patch) return null;
  const out: Partial<State> = requestPatch(s, p) ?? {};
  const prefs = obj(p.prefs);
  if (Array.isArray(prefs.platforms) && prefs.platforms.every((x) => typeof x === 'string')) out.platforms = prefs.platforms as string[];
  if (Array.isArray(p.stages)) {
    const sent = p.stages.map(obj);
    const stages = s.stages.map((st) => {
      const found = sent.find((x) => x.stage === st.stage);
      return found && typeof found.runs === 'number' && st.on ? withRuns(st, found.runs) : st;
    });
    if (!same(stages, s.stages)) out.stages = stages;
  }
  const changed = Object.entries(out).filter(([k, v]) => !same((s as unknown as Obj)[k], v));
  return changed.length ? Object.fromEntries(changed) as Partial<State> : null;
}
