// The page's whole state: what the form holds, what the share link carries
// (URL hash), and how it becomes a planner request (contract v1).
// Anything read back from a URL is untrusted: sanitize() keeps only known
// fields of the right type and range, and falls back to the default.
import { LIMITS } from './limits.ts';
import { LINK_PREFIX, MAX_LINK_CHARS } from './opening.ts';
import { FRAMEWORK_IDS, type Framework } from './stack.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import {
  BILLING, LORA_TARGETS, METHOD, MODE, MODEL_KIND, OPTIMIZER, PRECISION_INFER, PRECISION_TRAIN, RATE_UNIT,
  SCIENCE_BOUND, SCIENCE_KIND, SCIENCE_PRECISION, SHARDING, STAGE,
} from './spellings.ts';

// The contract's spellings come from the C++ tables (web/src/spellings.ts, generated).
export const MODES = MODE;
// Science mode (docs/science.md): the workload is a measured baseline rate.
export const SCI_KINDS = SCIENCE_KIND;
export const SCI_PRECISIONS = SCIENCE_PRECISION;
export const SCI_BOUNDS = SCIENCE_BOUND;
export const SCI_UNITS = RATE_UNIT;
export const METHODS = METHOD;
export const TRAIN_PRECISIONS = PRECISION_TRAIN;
export const INFER_PRECISIONS = PRECISION_INFER;
export const OPTIMIZERS = OPTIMIZER;
export const SHARDINGS = SHARDING;
// '' (and gpus 0): the student has not chosen, so the request leaves the field
// out and the planner chooses (contract v1.2).
export const SHARDING_CHOICES = ['', ...SHARDING] as const;
// The form's version inside the state. Forms of version 1 (every link and
// saved form before the planner chose the card count) carried gpus 1 and
// sharding none whether or not the student set them: migrate() below.
export const FORM_VERSION = 2;
export { LORA_TARGETS };
// A vision-language model needs its tower's dimensions, which the custom form does not ask for.
export const KINDS = MODEL_KIND.filter((k) => k !== 'vlm') as readonly Exclude<(typeof MODEL_KIND)[number], 'vlm'>[];
export const STAGES = STAGE;
export const BILLINGS = ['', ...BILLING] as const;
// docs/objectives.md: what the training step optimises, and where RL rollouts run.
export const OBJECTIVES = ['sft', 'dpo', 'grpo', 'ppo'] as const;
export const ROLLOUTS = ['trainer', 'vllm'] as const;
export const CURRENCIES = ['CNY', 'USD'] as const;
export const KV_BITS = [16, 8, 4, 32] as const;
export const SCOPES = ['', 'cn', 'global'] as const;

export interface StageState {
  stage: (typeof STAGES)[number];
  on: boolean;
  seeds: number;
  sweep: number;
  ablations: number;
  fraction: number; // share of the full data set each run sees, 0..1
}

export interface State {
  form: number; // FORM_VERSION of the page that wrote it
  title: string;
  lang: '' | 'zh-CN' | 'en';
  source: 'preset' | 'custom';
  preset: string;
  custom: {
    kind: (typeof KINDS)[number];
    params: number; layers: number; hidden: number; heads: number; kv_heads: number; ffn: number; vocab: number;
    gated_mlp: boolean; tied_embeddings: boolean; experts: number; experts_per_token: number;
    head_dim: number; // 0: hidden / heads
  };
  scenario: string; // catalog().scenarios[].id the form started from; '' = custom
  mode: (typeof MODES)[number];
  science: {
    kind: (typeof SCI_KINDS)[number]; precision: (typeof SCI_PRECISIONS)[number]; bound: (typeof SCI_BOUNDS)[number];
    gpu: string; count: number; rate: number; unit: (typeof SCI_UNITS)[number]; job: number; memory_gb: number;
  };
  method: (typeof METHODS)[number];
  precision: string;
  optimizer: (typeof OPTIMIZERS)[number];
  micro_batch: number;
  seq_len: number; // 0: the planner's default for the model kind
  image_size: number;
  steps: number; // diffusion sampling steps; 0: the pipeline's default (the core's)
  grad_checkpointing: boolean;
  flash_attention: boolean;
  lora_rank: number;
  lora_targets: (typeof LORA_TARGETS)[number];
  kv_cache_bits: number;
  gpus: number; // 0: the planner chooses (workload.gpus left out)
  sharding: (typeof SHARDING_CHOICES)[number]; // '': the planner chooses
  cpu_offload: boolean;
  hardware: string; // '' evaluates every GPU
  samples: number;
  epochs: number;
  stages: StageState[];
  budget: number;
  budget_currency: (typeof CURRENCIES)[number];
  deadline_days: number;
  billing: (typeof BILLINGS)[number];
  platforms: string[]; // empty: every platform
  currency: (typeof CURRENCIES)[number]; // display currency
  scope: (typeof SCOPES)[number]; // prefs.scope; '' = the locale's default (cn under zh-CN)
  target_gpu: string; // the card the memory section compares against
  objective: (typeof OBJECTIVES)[number];
  rl_group_size: number;
  rl_completion_len: number;
  rl_rollout: (typeof ROLLOUTS)[number];
  images_per_sample: number; // vision-language models
  cached_text_embeddings: boolean; // diffusion pipelines
  // A paper's reported run (baseline.wall_hours): "8 x A100 for 3 days".
  paper: { on: boolean; gpu: string; count: number; hours: number };
  sort: string; // GPU table column, '-' prefix for descending
  // views/calibrate.ts: the framework the job runs on (-> workload.stack) and
  // what the user measured on their own card (-> baseline; 0: not given).
  framework: Framework;
  calib: { gpu: string; micro_batch: number; memory_gib: number; rate: number };
}

export function defaultState(): State {
  return {
    form: FORM_VERSION,
    title: '',
    lang: '',
    source: 'preset',
    preset: 'llama-3.1-8b',
    custom: {
      kind: 'decoder', params: 7.0e9, layers: 32, hidden: 4096, heads: 32, kv_heads: 32, ffn: 11008, vocab: 32000,
      gated_mlp: true, tied_embeddings: false, experts: 1, experts_per_token: 1, head_dim: 0,
    },
    scenario: '',
    mode: 'train',
    science: { kind: 'md', precision: 'mixed', bound: 'compute', gpu: 'rtx-3090', count: 1, rate: 100, unit: 'ns/day', job: 1000, memory_gb: 2 },
    method: 'lora',
    precision: 'bf16-mixed',
    optimizer: 'adamw',
    micro_batch: 4,
    seq_len: 2048,
    image_size: 224,
    steps: 0,
    grad_checkpointing: true,
    flash_attention: true,
    lora_rank: 16,
    lora_targets: 'all-linear',
    kv_cache_bits: 16,
    gpus: 0,
    sharding: '',
    cpu_offload: false,
    hardware: '',
    samples: 20000,
    epochs: 3,
    stages: [
      { stage: 'debug', on: true, seeds: 1, sweep: 4, ablations: 1, fraction: 0.1 },
      { stage: 'formal', on: true, seeds: 3, sweep: 2, ablations: 2, fraction: 1 },
      { stage: 'revision', on: true, seeds: 3, sweep: 1, ablations: 1, fraction: 1 },
    ],
    budget: 3000,
    budget_currency: 'CNY',
    deadline_days: 30,
    billing: '',
    platforms: [],
    currency: 'CNY',
    scope: '',
    target_gpu: 'rtx-4090',
    sort: 'cost',
    framework: 'hf',
    calib: { gpu: '', micro_batch: 0, memory_gib: 0, rate: 0 },
    objective: 'sft',
    rl_group_size: 8,
    rl_completion_len: 256,
    rl_rollout: 'trainer',
    images_per_sample: 1,
    cached_text_embeddings: false,
    paper: { on: false, gpu: 'a100-sxm4-80g', count: 8, hours: 72 },
  };
}

export function stageRuns(s: StageState): number {
  return s.seeds * s.sweep * s.ablations;
}

// One stage changed, the others as they are in `s`. Always applied to the
// state as it is when the edit happens (App.set's updater form), never to a
// copy a view kept from its last render: the stage fields are not re-rendered
// on every edit, and a kept copy silently undid the earlier edits
// (3 -> 5 seeds, then 4 ablations, planned 24 runs instead of 40).
export function withStage(s: State, stage: StageState['stage'], patch: Partial<StageState>): State['stages'] {
  return s.stages.map((x) => (x.stage === stage ? { ...x, ...patch, stage: x.stage } : x));
}

// A change to the state: a patch, or a function of the current state that
// returns one (for edits that depend on other fields' current values).
export type StatePatch = Partial<State> | ((current: State) => Partial<State>);

export function applyPatch(s: State, patch: StatePatch): State {
  return { ...s, ...(typeof patch === 'function' ? patch(s) : patch) };
}

// --- sanitizing untrusted input (URL hash) ---------------------------------

type Spec = { min: number; max: number; int?: boolean };
const NUMBERS: Record<string, Spec> = {
  micro_batch: LIMITS['workload.micro_batch'],
  seq_len: { min: 0, max: 1 << 24, int: true },
  image_size: LIMITS['workload.image_size'],
  // 0: the pipeline's own default (the request leaves it out).
  steps: { ...LIMITS['workload.steps'], min: 0 },
  lora_rank: LIMITS['workload.lora.rank'],
  kv_cache_bits: { min: 4, max: 32, int: true },
  // 0: not set, the planner chooses (the request leaves it out).
  gpus: { ...LIMITS['workload.gpus'], min: 0 },
  samples: LIMITS['data.samples'],
  epochs: LIMITS['data.epochs'],
  budget: LIMITS['budget.amount'],
  deadline_days: LIMITS['prefs.deadline_days'],
  rl_group_size: { min: 1, max: 4096, int: true },
  rl_completion_len: { min: 1, max: 1 << 20, int: true },
  images_per_sample: { min: 0, max: 4096, int: true },
};
// The core's limits (web/src/limits.ts, generated from core/include/gpuplan/limits.h);
// head_dim 0: not given, hidden / heads.
const CUSTOM_NUMBERS: Record<string, Spec> = {
  ...Object.fromEntries(['params', 'layers', 'hidden', 'heads', 'kv_heads', 'ffn', 'vocab', 'experts', 'experts_per_token']
    .map((k) => [k, LIMITS[`model.${k}` as keyof typeof LIMITS]])),
  head_dim: { ...LIMITS['model.head_dim'], min: 0 },
};
const SCIENCE_NUMBERS: Record<string, Spec> = {
  count: LIMITS['science.baseline.count'],
  rate: LIMITS['science.baseline.rate'],
  job: LIMITS['science.job'],
  memory_gb: LIMITS['science.memory_gb'],
};
const STAGE_NUMBERS: Record<string, Spec> = {
  seeds: { min: 0, max: 1000, int: true },
  sweep: { min: 0, max: 1000, int: true },
  ablations: { min: 0, max: 1000, int: true },
  fraction: { min: 0, max: 1 },
};
// The fields that hold one of a list, and the yes-or-no ones.
const CHOICES: Record<string, readonly unknown[]> = {
  method: METHODS, optimizer: OPTIMIZERS, lora_targets: LORA_TARGETS, sharding: SHARDING_CHOICES,
  budget_currency: CURRENCIES, currency: CURRENCIES, scope: SCOPES, billing: BILLINGS,
  objective: OBJECTIVES, rl_rollout: ROLLOUTS, framework: FRAMEWORK_IDS,
};
const FLAGS = ['grad_checkpointing', 'flash_attention', 'cpu_offload', 'cached_text_embeddings'] as const;
const ID = /^[a-z0-9][a-z0-9.\-_]{0,63}$/;

function num(v: unknown, spec: Spec, fallback: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) return fallback;
  if (spec.int && !Number.isInteger(v)) return fallback;
  return v < spec.min || v > spec.max ? fallback : v;
}
function oneOf<T>(v: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(v as T) ? (v as T) : fallback;
}
function bool(v: unknown, fallback: boolean): boolean {
  return typeof v === 'boolean' ? v : fallback;
}
function id(v: unknown, fallback: string, allowEmpty = false): string {
  if (typeof v !== 'string') return fallback;
  if (allowEmpty && v === '') return v;
  return ID.test(v) ? v : fallback;
}
function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function sanitize(input: unknown): State {
  const d = defaultState();
  const o = record(input);
  const s: State = { ...d };
  // Free text stays text: it is rendered with textContent only, and capped.
  s.title = typeof o.title === 'string' ? o.title.slice(0, 200) : d.title;
  s.lang = oneOf(o.lang, ['', 'zh-CN', 'en'] as const, d.lang);
  s.source = oneOf(o.source, ['preset', 'custom'] as const, d.source);
  s.preset = id(o.preset, d.preset);
  const c = record(o.custom);
  s.custom = { ...d.custom, kind: oneOf(c.kind, KINDS, d.custom.kind),
    gated_mlp: bool(c.gated_mlp, d.custom.gated_mlp), tied_embeddings: bool(c.tied_embeddings, d.custom.tied_embeddings) };
  for (const [k, spec] of Object.entries(CUSTOM_NUMBERS)) {
    (s.custom as unknown as Record<string, number>)[k] = num(c[k], spec, (d.custom as unknown as Record<string, number>)[k]);
  }
  s.scenario = id(o.scenario, d.scenario, true);
  s.mode = oneOf(o.mode, MODES, d.mode);
  const sc = record(o.science);
  s.science = { ...d.science, kind: oneOf(sc.kind, SCI_KINDS, d.science.kind), precision: oneOf(sc.precision, SCI_PRECISIONS, d.science.precision),
    bound: oneOf(sc.bound, SCI_BOUNDS, d.science.bound), unit: oneOf(sc.unit, SCI_UNITS, d.science.unit), gpu: id(sc.gpu, d.science.gpu) };
  for (const [k, spec] of Object.entries(SCIENCE_NUMBERS)) {
    (s.science as unknown as Record<string, number>)[k] = num(sc[k], spec, (d.science as unknown as Record<string, number>)[k]);
  }
  const precisions: readonly string[] = s.mode === 'train' ? TRAIN_PRECISIONS : INFER_PRECISIONS;
  s.precision = oneOf(o.precision, precisions, precisions[0]);
  for (const [k, spec] of Object.entries(NUMBERS)) {
    (s as unknown as Record<string, number>)[k] = num(o[k], spec, (d as unknown as Record<string, number>)[k]);
  }
  s.kv_cache_bits = oneOf(s.kv_cache_bits, KV_BITS as readonly number[], d.kv_cache_bits);
  for (const [k, allowed] of Object.entries(CHOICES)) {
    (s as unknown as Record<string, unknown>)[k] = oneOf(o[k], allowed, (d as unknown as Record<string, unknown>)[k]);
  }
  for (const k of FLAGS) s[k] = bool(o[k], d[k]);
  migrate(o, s);
  s.form = FORM_VERSION;
  s.hardware = id(o.hardware, d.hardware, true);
  s.platforms = Array.isArray(o.platforms)
    ? o.platforms.filter((p): p is string => typeof p === 'string' && ID.test(p)).slice(0, 64)
    : d.platforms;
  s.target_gpu = id(o.target_gpu, d.target_gpu);
  const pr = record(o.paper);
  s.paper = { on: bool(pr.on, d.paper.on), gpu: id(pr.gpu, d.paper.gpu),
    count: num(pr.count, { min: 1, max: 4096, int: true }, d.paper.count), hours: num(pr.hours, { min: 0.0001, max: 1e6 }, d.paper.hours) };
  s.sort = typeof o.sort === 'string' && /^-?[a-z_]{1,20}$/.test(o.sort) ? o.sort : d.sort;
  const cb = record(o.calib);
  s.calib = { gpu: id(cb.gpu, d.calib.gpu, true), micro_batch: num(cb.micro_batch, { min: 0, max: 65536, int: true }, 0),
    memory_gib: num(cb.memory_gib, { min: 0, max: 1e5 }, 0), rate: num(cb.rate, { min: 0, max: 1e15 }, 0) };
  const stages = Array.isArray(o.stages) ? o.stages : [];
  s.stages = d.stages.map((def) => {
    const found = record(stages.find((x) => record(x).stage === def.stage));
    const st: StageState = { ...def, on: bool(found.on, def.on) };
    for (const [k, spec] of Object.entries(STAGE_NUMBERS)) {
      (st as unknown as Record<string, number>)[k] = num(found[k], spec, (def as unknown as Record<string, number>)[k]);
    }
    return st;
  });
  return s;
}

// A form of version 1 (no `form` field) always held gpus 1 and sharding none
// unless the student changed them: the old page's defaults, which it sent as
// if the student had pinned one card and no sharding. Each of the two is
// read as "not chosen" when it holds the old default, so an old link plans as
// the student asked; any other count or sharding was set by hand and is kept.
// (A student who set exactly 1 or none by hand cannot be told from one who
// did not: the planner then chooses, and tries one card among the others.)
function migrate(o: Record<string, unknown>, s: State): void {
  const version = typeof o.form === 'number' ? o.form : 1;
  if (version >= 2) return;
  if (s.gpus === 1) s.gpus = 0;
  if (s.sharding === 'none') s.sharding = '';
}

// --- share link: the state in the URL hash ---------------------------------
// base64url of the UTF-8 JSON keeps Chinese titles intact and the link short
// enough for chat apps; "#s=" lets later versions add other keys.

export function encodeHash(s: State): string {
  return `${LINK_PREFIX}${toBase64Url(JSON.stringify(s))}`;
}

// null when the hash carries no state; 'invalid' when it carries a broken one.
export function decodeHash(hash: string): State | null | 'invalid' {
  if (!hash.startsWith(LINK_PREFIX)) return null;
  if (hash.length > LINK_PREFIX.length + MAX_LINK_CHARS) return 'invalid';
  const m = /^[A-Za-z0-9_-]+$/.exec(hash.slice(LINK_PREFIX.length));
  if (!m) return 'invalid';
  try {
    const v: unknown = JSON.parse(fromBase64Url(m[0]));
    // A link whose JSON is an array, a number, a string or null is no form.
    if (!v || typeof v !== 'object' || Array.isArray(v)) return 'invalid';
    return sanitize(v);
  } catch {
    return 'invalid';
  }
}
