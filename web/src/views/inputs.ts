// Steps 1 and 2: the experiment stages and the workload. Advanced options are
// folded into <details> with defaults that suit a first fine-tuning run.
import { h, live, on, uid } from '../dom.ts';
import { customOf, hfRefusal, parseHfConfig } from '../hfconfig.ts';
import { label } from '../i18n.ts';
import { activeLab, labDefaults } from '../lab_settings.ts';
import { bigCount } from '../format.ts';
import { sizedByImage } from '../request.ts';
import {
  BILLINGS, CURRENCIES, INFER_PRECISIONS, KINDS, KV_BITS, LORA_TARGETS, METHODS, MODES, OPTIMIZERS, SHARDINGS,
  TRAIN_PRECISIONS, stageRuns, withStage, type State, type StageState,
} from '../state.ts';
import type { Ctx } from './context.ts';
import { LIMITS } from '../limits.ts';
import { button, checkField, numberField, section, selectField, type Option } from './controls.ts';
import { objectiveFields } from './objective.ts';
import { paperRunFields } from './paper_run.ts';
import { scienceFields } from './science.ts';
import { calibrateView } from './calibrate.ts';

export function opts(ctx: Ctx, prefix: string, values: readonly (string | number)[]): Option[] {
  return values.map((v) => ({ value: String(v), label: label(ctx.t, prefix, String(v)) }));
}

export function stagesView(ctx: Ctx): HTMLElement {
  const { t, state } = ctx;
  const rows = state.stages.map((st, i) => {
    const runs = h('output', { class: 'runs', 'aria-live': 'off' }, t('stages.runs', { n: stageRuns(st) }));
    // Applied to the state as it is now, not `state` of this render (withStage).
    const upd = (patch: Partial<StageState>): void => {
      ctx.set((now) => ({ stages: withStage(now, st.stage, patch) }));
      live(runs).textContent = t('stages.runs', { n: stageRuns(ctx.state.stages.find((x) => x.stage === st.stage) ?? st) });
    };
    return h('fieldset', { class: 'stage', 'data-stage': st.stage },
      h('legend', null, label(t, 'stage', st.stage)),
      h('p', { class: 'help' }, label(t, 'stage.help', st.stage)),
      checkField({ label: t('stages.on'), value: st.on }, (on) => upd({ on })),
      h('div', { class: 'row4' },
        // The one-line explanations under the first stage's fields hold for all three.
        numberField({ label: t('stages.seeds'), help: i === 0 ? t('stages.seeds.help') : undefined, value: st.seeds, min: 0, max: 1000, int: true, path: `stages[${i}].runs` }, (seeds) => upd({ seeds })),
        numberField({ label: t('stages.sweep'), help: i === 0 ? t('stages.sweep.help') : undefined, value: st.sweep, min: 0, max: 1000, int: true }, (sweep) => upd({ sweep })),
        numberField({ label: t('stages.ablations'), help: i === 0 ? t('stages.ablations.help') : undefined, value: st.ablations, min: 0, max: 1000, int: true }, (ablations) => upd({ ablations })),
        numberField({ label: t('stages.fraction'), help: i === 0 ? t('stages.fraction.help') : undefined, value: Math.round(st.fraction * 100), min: LIMITS['stages[].data_fraction'].min * 100, max: LIMITS['stages[].data_fraction'].max * 100, int: true, path: `stages[${i}].data_fraction` }, (pct) => upd({ fraction: pct / 100 })),
      ),
      runs);
  });
  // The lab's budget stands while the student has none of their own; their
  // first edit makes it theirs, starting from the lab's.
  const labBudget = labDefaults(ctx).budget;
  const setBudget = (patch: Partial<State>): void => {
    if (labBudget && ctx.labMine) ctx.setLabMine?.({ ...ctx.labMine, budget: true }, false);
    ctx.set(labBudget ? { budget: labBudget.amount, budget_currency: labBudget.currency, ...patch } : patch);
  };
  return section('stages', '1', t('section.stages'),
    h('p', { class: 'lead' }, t('stages.lead')),
    rows,
    h('div', { class: 'row3' },
      numberField({ label: labBudget ? `${t('budget.amount')} · ${ctx.t('lab.lab_default')}` : t('budget.amount'), help: t('budget.amount.help'), value: labBudget?.amount ?? state.budget, ...LIMITS['budget.amount'], path: 'budget.amount' }, (budget) => setBudget({ budget })),
      selectField({ label: t('budget.currency'), value: labBudget?.currency ?? state.budget_currency, options: opts(ctx, 'currency', CURRENCIES) }, (v) => setBudget({ budget_currency: v as State['budget_currency'] })),
      numberField({ label: t('deadline'), help: t('deadline.help'), value: state.deadline_days, ...LIMITS['prefs.deadline_days'], path: 'prefs.deadline_days' }, (deadline_days) => ctx.set({ deadline_days })),
    ),
    selectField({ label: t('billing'), help: t('billing.help'), value: state.billing, options: billings(ctx), path: 'prefs.billing' }, (v) => ctx.set({ billing: v as State['billing'] })));
}

// The billings the core found in the in-scope offers (plan.billings); one
// without offers is shown disabled, saying why.
function billings(ctx: Ctx): Option[] {
  const found = ctx.response?.plan?.billings;
  return opts(ctx, 'billing', BILLINGS).map((o) => (!found || !o.value || found.includes(o.value) ? o
    : { ...o, label: `${o.label} — ${ctx.t('billing.none_in_scope')}`, disabled: true }));
}

function modelPicker(ctx: Ctx): HTMLElement {
  const { t, state, catalog } = ctx;
  const models = [...catalog.models].sort((a, b) => a.params - b.params);
  const listId = uid('models');
  const search = h('input', { id: 'model-search', type: 'search', placeholder: t('model.search.placeholder'), 'aria-controls': listId, autocomplete: 'off' });
  const select = h('select', { id: listId, size: 6, 'data-path': 'model.preset' });
  // A model sized by its image (a CNN, a vision transformer) shows the image size, not the sequence.
  const byImage = (id: string): boolean => sizedByImage(models.find((x) => x.id === id));
  // The lab's models first (its presets, then the configs it pasted), then the rest.
  const lab = activeLab(ctx);
  const ours = lab ? lab.models.map((id) => models.find((m) => m.id === id)).filter((m) => m !== undefined) : [];
  const pasted = lab?.configs ?? [];
  const fill = (): void => {
    const q = live(search).value.trim().toLowerCase();
    const match = (id: string, name = ''): boolean => !q || id.includes(q) || name.toLowerCase().includes(q);
    const opt = (m: (typeof models)[number]): HTMLElement => h('option', { value: m.id, selected: m.id === state.preset }, `${m.name ?? m.id} · ${bigCount(ctx.lang, m.params)}`);
    const rest = models.filter((m) => !ours.includes(m) && match(m.id, m.name)).map(opt);
    live(select).replaceChildren(...(ours.length || pasted.length ? [
      h('optgroup', { label: ctx.t('lab.models_first') }, ours.filter((m) => match(m.id, m.name)).map(opt),
        pasted.map((c, i) => match('', c.name) ? h('option', { value: `lab:${i}` }, `${c.name} · ${bigCount(ctx.lang, c.dims.params)}`) : null)),
      h('optgroup', { label: ctx.t('lab.models_rest') }, rest)] : rest));
  };
  fill();
  on(search, 'input', fill);
  on(select, 'change', () => {
    const v = live(select).value;
    const c = v.startsWith('lab:') ? pasted[Number(v.slice(4))] : undefined;
    if (c) ctx.set({ source: 'custom', custom: customOf(c.dims) }, { inputs: true, now: true });
    else ctx.set({ source: 'preset', preset: v }, { now: true, inputs: byImage(v) !== byImage(ctx.state.preset) });
  });
  return h('div', { class: 'field' },
    h('label', { for: search.id }, t('model.search')),
    search,
    h('label', { for: listId, class: 'sr-only' }, t('model.preset')),
    select,
    h('p', { class: 'help' }, t('model.preset.help')),
    // The page's catalog leaves the presets' sources out (CatalogProfile::page): say where they are.
    h('p', { class: 'source' }, t('catalog.sources')));
}

// The custom dimensions, each bounded by the core's limit of the same field.
// A convolutional network is sized by its own layers (activation bytes and
// FLOPs per sample, or its architecture), which these fields do not ask for:
// the catalog's CNN presets are the way to plan one, so the kind is not
// offered here (a link that already says it still shows it).
const CUSTOM_KINDS: readonly State['custom']['kind'][] = KINDS.filter((k) => k !== 'cnn');

type Dim = 'params' | 'layers' | 'hidden' | 'heads' | 'kv_heads' | 'ffn' | 'vocab' | 'experts' | 'experts_per_token';

function customModel(ctx: Ctx): HTMLElement {
  const { t, state } = ctx;
  const c = state.custom;
  const setC = (patch: Partial<State['custom']>): void => ctx.set({ source: 'custom', custom: { ...ctx.state.custom, ...patch } });
  const n = (key: keyof State['custom'] & Dim, label: string, help?: string): HTMLElement =>
    numberField({ label, help, value: c[key] as number, ...LIMITS[`model.${key}`], path: `model.${key}` }, (v) => setC({ [key]: v }));
  const pasteId = 'hf-config';
  const paste = h('textarea', { id: pasteId, rows: 4, spellcheck: 'false', placeholder: '{"model_type": "llama", "hidden_size": 4096, ...}', 'aria-describedby': `${pasteId}-help` });
  const status = h('p', { class: 'help', id: `${pasteId}-help`, role: 'status' }, t('hf.help'));
  const parse = button(t('hf.parse'), () => {
    const r = parseHfConfig(live(paste).value);
    if (!r.ok) {
      live(status).textContent = hfRefusal(t, r);
      live(status).className = 'help bad';
      return;
    }
    const d = r.dims;
    ctx.set({ source: 'custom', custom: customOf(d) }, { inputs: true, now: true });
    ctx.notify(t('hf.parsed', { params: bigCount(ctx.lang, d.params), type: d.model_type || '?' }));
  }, { id: 'hf-parse' });
  return h('div', { class: 'custom' },
    h('div', { class: 'field' }, h('label', { for: pasteId }, t('hf.paste')), paste, status, parse),
    selectField({ label: t('dim.kind'), value: c.kind, options: opts(ctx, 'kind', CUSTOM_KINDS.includes(c.kind) ? CUSTOM_KINDS : [...CUSTOM_KINDS, c.kind]), path: 'model.kind' }, (v) => setC({ kind: v as State['custom']['kind'] })),
    h('div', { class: 'row3' },
      n('params', t('dim.params'), t('dim.params.help')), n('layers', t('dim.layers')), n('hidden', t('dim.hidden')),
      n('heads', t('dim.heads')), n('kv_heads', t('dim.kv_heads'), t('dim.kv_heads.help')), n('ffn', t('dim.ffn')),
      n('vocab', t('dim.vocab')), n('experts', t('dim.experts'), t('dim.experts.help')), n('experts_per_token', t('dim.experts_per_token')),
      numberField({ label: t('dim.head_dim'), help: t('dim.head_dim.help'), value: c.head_dim, ...LIMITS['model.head_dim'], path: 'model.head_dim',
        unset: { value: 0, label: t('dim.head_dim.unset') } }, (head_dim) => setC({ head_dim }))),
    checkField({ label: t('dim.gated_mlp'), help: t('dim.gated_mlp.help'), value: c.gated_mlp }, (v) => setC({ gated_mlp: v })),
    checkField({ label: t('dim.tied_embeddings'), value: c.tied_embeddings }, (v) => setC({ tied_embeddings: v })));
}

export function workloadView(ctx: Ctx): HTMLElement {
  const { t, state, catalog } = ctx;
  const train = state.mode === 'train';
  const sourceName = `src-${uid('r')}`;
  const radio = (value: State['source'], text: string): HTMLElement => {
    const id = uid('src');
    const input = h('input', { type: 'radio', name: sourceName, id, value, checked: state.source === value });
    on(input, 'change', () => ctx.set({ source: value }, { inputs: true, now: true }));
    return h('span', { class: 'radio' }, input, h('label', { for: id }, text));
  };
  const precisions = train ? TRAIN_PRECISIONS : INFER_PRECISIONS;
  // A number the state holds as the request's field at `path`, bounded by the core's limit there.
  type Num = 'micro_batch' | 'image_size' | 'seq_len' | 'samples' | 'epochs' | 'lora_rank';
  const stateNumber = (key: Num, path: keyof typeof LIMITS, label: string, help?: string): HTMLElement =>
    numberField({ label, help, value: state[key], ...LIMITS[path], path }, (v) => ctx.set({ [key]: v }));
  const gpuOptions: Option[] = [{ value: '', label: t('hardware.all') }, ...catalog.gpus.map((g) => ({ value: g.id, label: g.name }))];
  const cnn = state.source === 'custom' ? state.custom.kind === 'cnn' : sizedByImage(catalog.models.find((m) => m.id === state.preset));
  const modeField = selectField({ label: t('mode'), help: t('mode.help'), value: state.mode, options: opts(ctx, 'mode', MODES), path: 'workload.mode' }, (v) => {
    const mode = v as State['mode'];
    ctx.set({ mode, precision: mode === 'train' ? 'bf16-mixed' : 'bf16' }, { inputs: true, now: true });
  });
  if (state.mode === 'science') return section('workload', '2', t('section.workload'), h('div', { class: 'row3' }, modeField), scienceFields(ctx));
  return section('workload', '2', t('section.workload'),
    h('fieldset', { class: 'plain' }, h('legend', null, t('model.source')),
      h('div', { class: 'radios' }, radio('preset', t('model.source.preset')), radio('custom', t('model.source.custom')))),
    state.source === 'preset' ? modelPicker(ctx) : customModel(ctx),
    h('div', { class: 'row3' },
      modeField,
      train ? selectField({ label: t('method'), help: t('method.help'), value: state.method, options: opts(ctx, 'method', METHODS), path: 'workload.method' }, (v) => ctx.set({ method: v as State['method'] }, { inputs: true, now: true })) : null,
      selectField({ label: t('precision'), help: t(train ? 'precision.help.train' : 'precision.help.infer'), value: state.precision, options: opts(ctx, 'precision', precisions), path: 'workload.precision' }, (v) => ctx.set({ precision: v })),
    ),
    h('div', { class: 'row3' },
      stateNumber('micro_batch', 'workload.micro_batch', t('micro_batch'), t('micro_batch.help')),
      cnn
        ? stateNumber('image_size', 'workload.image_size', t('image_size'), t('image_size.help'))
        : stateNumber('seq_len', 'workload.seq_len', t('seq_len'), t(train ? 'seq_len.help.train' : 'seq_len.help.infer')),
      cnn && !train ? numberField({ label: t('steps'), help: t('steps.help'), value: state.steps, ...LIMITS['workload.steps'], min: 0, path: 'workload.steps' }, (steps) => ctx.set({ steps })) : null,
      stateNumber('samples', 'data.samples', t('samples'), t('samples.help')),
      train ? stateNumber('epochs', 'data.epochs', t('epochs')) : null,
    ),
    objectiveFields(ctx),
    paperRunFields(ctx),
    h('details', { class: 'advanced' },
      h('summary', null, t('advanced')),
      h('div', { class: 'row3' },
        train ? selectField({ label: t('optimizer'), help: t('optimizer.help'), value: state.optimizer, options: opts(ctx, 'optimizer', OPTIMIZERS), path: 'workload.optimizer' }, (v) => ctx.set({ optimizer: v as State['optimizer'] })) : null,
        train && state.method !== 'full' ? stateNumber('lora_rank', 'workload.lora.rank', t('lora.rank'), t('lora.rank.help')) : null,
        train && state.method !== 'full' ? selectField({ label: t('lora.targets'), value: state.lora_targets, options: opts(ctx, 'lora_targets', LORA_TARGETS), path: 'workload.lora.targets' }, (v) => ctx.set({ lora_targets: v as State['lora_targets'] })) : null,
        !train ? selectField({ label: t('kv_cache_bits'), help: t('kv_cache_bits.help'), value: String(state.kv_cache_bits), options: KV_BITS.map((b) => ({ value: String(b), label: `${b} bit` })), path: 'workload.kv_cache_bits' }, (v) => ctx.set({ kv_cache_bits: Number(v) })) : null,
        // Left empty / "planner chooses" unless the student sets them: then the request leaves them out.
        numberField({ label: t('gpus'), help: t('gpus.help'), value: state.gpus, ...LIMITS['workload.gpus'], path: 'workload.gpus',
          unset: { value: 0, label: t('planner_chooses') } }, (gpus) => ctx.set({ gpus })),
        selectField({ label: t('sharding'), help: t('sharding.help'), value: state.sharding, path: 'workload.sharding',
          options: [{ value: '', label: t('planner_chooses') }, ...opts(ctx, 'sharding', SHARDINGS)] }, (v) => ctx.set({ sharding: v as State['sharding'] })),
        selectField({ label: t('hardware'), help: t('hardware.help'), value: state.hardware, options: gpuOptions, path: 'hardware.gpu' }, (v) => ctx.set({ hardware: v })),
      ),
      train ? checkField({ label: t('grad_checkpointing'), help: t('grad_checkpointing.help'), value: state.grad_checkpointing, path: 'workload.grad_checkpointing' }, (v) => ctx.set({ grad_checkpointing: v })) : null,
      checkField({ label: t('flash_attention'), help: t('flash_attention.help'), value: state.flash_attention }, (v) => ctx.set({ flash_attention: v })),
      train ? checkField({ label: t('cpu_offload'), help: t('cpu_offload.help'), value: state.cpu_offload }, (v) => ctx.set({ cpu_offload: v })) : null,
    ),
    calibrateView(ctx));
}
