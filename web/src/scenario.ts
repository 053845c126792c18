// A scenario (catalog/scenarios.json, docs/scenarios.md) as a starting form:
// its request's fields copied into the page state. Everything else (stages,
// budget, platforms, language) stays as the user set it, and every field
// stays editable afterwards.
import { sanitize, type State } from './state.ts';
import type { CatalogScenario } from './types.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

export function scenarioState(current: State, sc: CatalogScenario): State {
  const r = sc.request;
  const w = obj(r.workload);
  const data = obj(r.data);
  const lora = obj(w.lora);
  const sci = obj(r.science);
  const base = sanitize({}); // the defaults for whatever the scenario leaves out
  const seq = typeof w.seq_len === 'number' ? w.seq_len : base.seq_len;
  // data.tokens (pre-training) becomes whole sequences of one epoch.
  const samples = typeof data.tokens === 'number' && seq > 0 ? Math.round(data.tokens / seq) : data.samples;
  const next = {
    ...current,
    scenario: sc.id,
    source: 'preset',
    preset: obj(r.model).preset ?? current.preset,
    mode: w.mode,
    method: w.method ?? base.method,
    precision: w.precision,
    optimizer: w.optimizer ?? base.optimizer,
    micro_batch: w.micro_batch ?? base.micro_batch,
    seq_len: seq,
    image_size: w.image_size ?? base.image_size,
    grad_checkpointing: w.grad_checkpointing ?? false,
    flash_attention: w.flash_attention ?? base.flash_attention,
    lora_rank: lora.rank ?? base.lora_rank,
    lora_targets: lora.targets ?? base.lora_targets,
    kv_cache_bits: w.kv_cache_bits ?? base.kv_cache_bits,
    // The planner chooses what the scenario does not name.
    gpus: w.gpus ?? 0,
    sharding: w.sharding ?? '',
    cpu_offload: false,
    objective: w.objective ?? base.objective,
    rl_group_size: obj(w.rl).group_size ?? (w.objective === 'ppo' ? 1 : base.rl_group_size),
    rl_completion_len: obj(w.rl).completion_len ?? base.rl_completion_len,
    rl_rollout: obj(w.rl).rollout ?? base.rl_rollout,
    images_per_sample: w.images_per_sample ?? base.images_per_sample,
    cached_text_embeddings: w.cached_text_embeddings ?? false,
    samples: samples ?? base.samples,
    epochs: data.epochs ?? (data.tokens !== undefined ? 1 : base.epochs),
    science: w.mode === 'science'
      ? { ...base.science, ...sci, ...obj(sci.baseline), job: sci.job ?? 0, memory_gb: sci.memory_gb ?? 0 }
      : current.science,
  };
  // Through sanitize: a catalog value outside the page's ranges falls back to
  // the default instead of reaching the form.
  return sanitize(next);
}
