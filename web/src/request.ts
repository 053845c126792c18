// State -> planner request (contract v1.2, docs/api.md). The request is the
// student's: a field the form leaves at "the planner chooses" (card count,
// sharding, scope) is left out, so the planner's defaults and choices apply;
// the page's language is `locale` and nothing else.
import type { CatalogModel } from './types.ts';
import type { Lang } from './i18n.ts';
import type { Quote } from './prices.ts';
import { stageRuns, type State } from './state.ts';
import { calibration } from './calibration.ts';
import { stackOf } from './stack.ts';

export type Request = Record<string, unknown>;

// prefs.scope when the student has not set it: the lab's (lab_settings.ts
// labDefaults), else `cn` in every locale (contract v1.2).
export const DEFAULT_SCOPE = 'cn';
export function effectiveScope(s: State, _lang?: Lang, lab: '' | 'cn' | 'global' = ''): 'cn' | 'global' {
  return s.scope || lab || DEFAULT_SCOPE;
}

// Whether a preset is sized by its image rather than a sequence: a CNN, or a
// vision transformer, whose tokens the planner counts from the image size
// (docs/api.md, model.patch_size).
export function sizedByImage(m: Pick<CatalogModel, 'kind' | 'patch_size'> | undefined): boolean {
  return m?.kind === 'cnn' || (m?.patch_size ?? 0) > 0;
}

// preset: the catalog's entry for the state's preset model.
export function toRequest(s: State, lang: Lang, quotes: Quote[], preset?: Pick<CatalogModel, 'kind' | 'patch_size'>): Request {
  const model: Record<string, unknown> =
    s.source === 'preset'
      ? { preset: s.preset }
      : {
          kind: s.custom.kind, params: s.custom.params, layers: s.custom.layers, hidden: s.custom.hidden,
          heads: s.custom.heads, kv_heads: s.custom.kv_heads, ffn: s.custom.ffn, vocab: s.custom.vocab,
          gated_mlp: s.custom.gated_mlp, tied_embeddings: s.custom.tied_embeddings,
          ...(s.custom.experts > 1 ? { experts: s.custom.experts, experts_per_token: s.custom.experts_per_token } : {}),
          ...(s.custom.head_dim > 0 ? { head_dim: s.custom.head_dim } : {}),
        };
  const isCnn = s.source === 'custom' ? s.custom.kind === 'cnn' : sizedByImage(preset);
  const workload: Record<string, unknown> = {
    mode: s.mode,
    precision: s.precision,
    micro_batch: s.micro_batch,
    flash_attention: s.flash_attention,
  };
  // Left out unless the student set them: the planner chooses (and applies
  // its own rules, such as several cards with no sharding named running DDP).
  if (s.gpus > 0) workload.gpus = s.gpus;
  if (s.sharding) workload.sharding = s.sharding;
  if (s.seq_len > 0 && !isCnn) workload.seq_len = s.seq_len;
  if (stackOf(s.framework) !== 'eager') workload.stack = stackOf(s.framework);
  if (isCnn || s.image_size !== 224) workload.image_size = s.image_size;
  if (s.mode === 'train') {
    workload.method = s.method;
    workload.optimizer = s.optimizer;
    workload.grad_checkpointing = s.grad_checkpointing;
    workload.cpu_offload = s.cpu_offload;
    if (s.method !== 'full') workload.lora = { rank: s.lora_rank, targets: s.lora_targets };
    // docs/objectives.md; only what differs from the planner's defaults is sent.
    if (s.objective !== 'sft') workload.objective = s.objective;
    if (s.objective === 'grpo' || s.objective === 'ppo') {
      workload.rl = { group_size: s.rl_group_size, completion_len: s.rl_completion_len, rollout: s.rl_rollout };
    }
    if (s.cached_text_embeddings) workload.cached_text_embeddings = true;
  } else {
    workload.kv_cache_bits = s.kv_cache_bits;
    // Diffusion sampling steps: 0 leaves the pipeline's default to the core.
    if (isCnn && s.steps > 0) workload.steps = s.steps;
  }
  const sc = s.science;
  // Science (docs/science.md): no model, the measured baseline instead; job
  // is meaningless when the baseline is the job's own wall time.
  const req: Request = s.mode === 'science'
    ? { locale: lang, workload: { mode: 'science' }, science: {
        kind: sc.kind, precision: sc.precision, bound: sc.bound, memory_gb: sc.memory_gb,
        baseline: { gpu: sc.gpu, count: sc.count, rate: sc.rate, unit: sc.unit },
        ...(sc.unit === 'hours' ? {} : { job: sc.job }) } }
    : { locale: lang, model, workload };
  // A vision-language model's requests always say how many images a sample carries (a scenario's
  // 1 included), so that an exported request reads as the one the student chose.
  const isVlm = (s.source === 'custom' ? s.custom.kind : preset?.kind) === 'vlm';
  if ((isVlm || s.images_per_sample !== 1) && s.mode !== 'science') workload.images_per_sample = s.images_per_sample;
  if (s.hardware && s.mode !== 'science') req.hardware = s.gpus > 0 ? { gpu: s.hardware, count: s.gpus } : { gpu: s.hardware };
  // A paper's run (docs/api.md, baseline.wall_hours): the core prices every option from it.
  if (s.paper.on && s.mode === 'train') req.baseline = { gpu: s.paper.gpu, count: s.paper.count, wall_hours: s.paper.hours };
  if (s.samples > 0 && s.mode !== 'science') req.data = { samples: s.samples, epochs: s.mode === 'train' ? s.epochs : 1 };
  const stages = s.stages
    .filter((st) => st.on && stageRuns(st) > 0)
    .map((st) => ({ stage: st.stage, runs: stageRuns(st), data_fraction: st.fraction }));
  if (stages.length) req.stages = stages;
  if (s.budget > 0) req.budget = { amount: s.budget, currency: s.budget_currency };
  const baseline = s.mode !== 'science' ? calibration(s, isCnn) : null;
  if (baseline) req.baseline = baseline;
  const prefs: Record<string, unknown> = {};
  if (s.billing) prefs.billing = s.billing;
  if (s.platforms.length) prefs.platforms = s.platforms;
  if (s.deadline_days > 0) prefs.deadline_days = s.deadline_days;
  // Sent once the student has used the switch, whatever the page's language.
  if (s.scope) prefs.scope = s.scope;
  // The display currency once the student picks another than the core's default (CNY).
  if (s.currency !== 'CNY') prefs.display_currency = s.currency;
  if (Object.keys(prefs).length) req.prefs = prefs;
  if (quotes.length) {
    req.prices = quotes.map((q) => ({
      platform: q.platform, gpu: q.gpu, per_gpu_hour: q.per_gpu_hour, currency: q.currency, billing: q.billing,
      ...(q.as_of ? { as_of: q.as_of } : {}),
    }));
  }
  return req;
}

// An error's request path as a form path: the request lists only the stages that are on and have
// runs, so its `stages[k]` is the k-th of those, while the form's fields name every stage by its
// place in the form (views/inputs.ts). Other paths are the same in both.
export function formPath(path: string, s: State): string {
  const m = /^stages\[(\d+)\](.*)$/.exec(path);
  if (!m) return path;
  const sent = s.stages.filter((st) => st.on && stageRuns(st) > 0);
  const stage = sent[Number(m[1])];
  const i = stage ? s.stages.indexOf(stage) : -1;
  return i >= 0 ? `stages[${i}]${m[2]}` : path;
}
