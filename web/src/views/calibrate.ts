// "用什么框架跑？" and "先跑一行代码看占用": the framework question (which sets
// workload.stack), the calibration inputs (what the user measured on their
// own card, sent as `baseline`; the core re-anchors every option and returns
// the factors shown here) and the verify script that measures exactly this
// configuration on a rented card (verify_script.ts).
import { calibrationOutOfRange } from '../calibration.ts';
import { current, h, live, uid } from '../dom.ts';
import { limitNumber } from '../limit_text.ts';
import { LIMITS } from '../limits.ts';
import { label } from '../i18n.ts';
import { FRAMEWORKS, stackOf } from '../stack.ts';
import type { State } from '../state.ts';
import { gpuByDeviceName } from '../calibration.ts';
import { gib, num } from '../format.ts';
import { toRequest } from '../request.ts';
import { parseResult, verifyScript, type Rented } from '../verify_script.ts';
import type { Ctx } from './context.ts';
import { gpuName, platformName } from './words.ts';
import { button, numberField, selectField } from './controls.ts';

const GIB = 2 ** 30;

// The verify script for the form as it is now: the current request, with the
// workload changes the plan makes on the card it rents (the formal stage's,
// else the first planned stage's), naming that card. `response` is the
// planner's answer to this very request, or null before it has come.
export function currentScript(ctx: Ctx, response = ctx.response): string {
  const request = toRequest(ctx.state, ctx.lang, ctx.quotes, ctx.catalog.models.find((m) => m.id === ctx.state.preset));
  const stages = (response?.plan?.stages ?? []).filter((st) => st.gpu && st.feasible !== false);
  const stage = stages.find((st) => st.stage === 'formal') ?? stages[0];
  let rented: Rented | undefined;
  if (stage) {
    const workload = { ...(request.workload as Record<string, unknown>) };
    for (const c of stage.workload_changes ?? []) {
      const [head, key] = c.field.split('.');
      if (head === 'workload' && key) workload[key] = c.value;
    }
    request.workload = workload;
    rented = { gpu: gpuName(ctx, stage.gpu), count: stage.gpus_per_run ?? stage.count ?? 1, platform: platformName(ctx, stage.platform) };
  }
  return verifyScript(request, ctx.catalog.models, rented);
}

// After every plan (app.ts, renderResults): the script shown follows the form.
export function refreshVerifyScript(ctx: Ctx): void {
  const pre = document.getElementById('verify-script');
  if (!pre) return;
  const script = currentScript(ctx);
  if (pre.textContent !== script) pre.textContent = script;
}

// The core's correction factors, from the response. The inputs render before
// the request they describe is planned, so the element is filled once the
// response is in (the next task), and stays empty without a baseline.
function factors(ctx: Ctx): HTMLElement {
  const el = h('p', { class: 'figure', id: 'calib-factors', role: 'status' });
  window.setTimeout(() => {
    const page = current(el);
    if (!page) return;
    const { t, response } = ctx;
    const memory = (response?.memory as { baseline_scale?: number } | undefined)?.baseline_scale;
    const speed = (response?.gpus?.[0]?.throughput as { baseline_scale?: number } | undefined)?.baseline_scale;
    const x = (v: number): string => v.toLocaleString(ctx.lang, { maximumFractionDigits: 2 });
    const parts = [memory !== undefined ? t('calib.factor.memory', { x: x(memory) }) : '',
      speed !== undefined ? t('calib.factor.speed', { x: x(speed) }) : ''].filter(Boolean);
    page.textContent = parts.join(t('list.sep'));
  }, 0);
  return el;
}

export function calibrateView(ctx: Ctx): HTMLElement {
  const { t, state, catalog } = ctx;
  const c = state.calib;
  const setC = (patch: Partial<State['calib']>, now = false): void => ctx.set({ calib: { ...ctx.state.calib, ...patch } }, { now, inputs: true });
  const cnn = (state.source === 'custom' ? state.custom.kind : catalog.models.find((m) => m.id === state.preset)?.kind) === 'cnn';
  const framework = selectField({
    id: 'framework', label: t('framework'), help: t(`framework.class.${stackOf(state.framework)}` as never),
    value: state.framework, options: FRAMEWORKS.map((f) => ({ value: f.id, label: label(t, 'framework', f.id) })), path: 'workload.stack',
  }, (v) => ctx.set({ framework: v as State['framework'] }, { inputs: true, now: true }));

  const pasteId = uid('calib-paste');
  const paste = h('textarea', { id: pasteId, rows: 2, spellcheck: 'false', placeholder: 'GPUPLAN_RESULT {...}', 'aria-describedby': `${pasteId}-help` });
  const status = h('p', { class: 'help', id: `${pasteId}-help`, role: 'status' }, t('calib.paste.help'));
  const read = button(t('calib.read'), () => {
    const r = parseResult(live(paste).value);
    const refuse = (text: string): void => {
      live(status).textContent = text;
      live(status).className = 'help bad';
    };
    if (!r) return refuse(t('calib.paste.invalid'));
    const out = calibrationOutOfRange(r, cnn);
    if (out) return refuse(t('calib.paste.range', { field: t(`calib.field.${out.field}` as never), value: limitNumber(out.value), min: limitNumber(out.min), max: limitNumber(out.max) }));
    // The card is read from the line, never guessed: an unknown name, or a
    // card other than the one chosen above, is refused (its speed is not the chosen card's).
    const gpu = gpuByDeviceName(catalog.gpus, r.gpu);
    if (!gpu) return refuse(t('calib.paste.unknown', { name: r.gpu || '—' }));
    const chosen = ctx.state.calib.gpu;
    if (chosen && chosen !== gpu.id) return refuse(t('calib.paste.other', { name: r.gpu, read: gpu.name, chosen: ctx.gpu(chosen)?.name ?? chosen }));
    const rate = cnn ? r.samples_per_s : r.tokens_per_s;
    setC({ gpu: gpu.id, micro_batch: r.micro_batch, memory_gib: r.peak_memory_bytes / GIB, rate }, true);
    ctx.notify(t('calib.read.done', { name: r.gpu, gpu: gpu.name, batch: num(ctx.lang, r.micro_batch),
      mem: gib(ctx.lang, r.peak_memory_bytes), rate: num(ctx.lang, rate, 1), unit: cnn ? t('calib.unit.samples') : 'tokens/s' }));
  }, { id: 'calib-read' });

  const gpuOptions = [{ value: '', label: t('calib.gpu.none') }, ...catalog.gpus.map((g) => ({ value: g.id, label: g.name }))];
  // The form renders before its request is planned: the plan's card comes with refreshVerifyScript.
  const script = currentScript(ctx, null);
  const scriptId = 'verify-script';
  const copy = button(t('verify.copy'), () => {
    const text = document.getElementById(scriptId)?.textContent ?? script;
    navigator.clipboard?.writeText(text).then(() => ctx.notify(t('verify.copied')), () => ctx.notify(t('verify.copy.manual')));
  }, { id: 'verify-copy', 'aria-controls': scriptId });

  return h('div', { class: 'calibrate', id: 'calibrate' },
    framework,
    h('details', { class: 'advanced', id: 'calib', open: c.gpu !== '' || c.memory_gib > 0 || c.rate > 0 || c.micro_batch > 0 ? true : undefined },
      h('summary', null, t('calib.title')),
      h('p', { class: 'help' }, t('calib.lead')),
      h('div', { class: 'row3' },
        selectField({ id: 'calib-gpu', label: t('calib.gpu'), value: c.gpu, options: gpuOptions, path: 'baseline.gpu' }, (gpu) => setC({ gpu }, true)),
        numberField({ id: 'calib-batch', label: t('calib.micro_batch'), help: t('calib.micro_batch.help'), value: c.micro_batch, min: 0, max: LIMITS['baseline.micro_batch'].max, int: true, path: 'baseline.micro_batch' }, (micro_batch) => setC({ micro_batch })),
        numberField({ id: 'calib-memory', label: t('calib.memory'), help: t('calib.memory.help'), value: c.memory_gib, min: 0, max: LIMITS['baseline.memory_bytes'].max / GIB, path: 'baseline.memory_bytes' }, (memory_gib) => setC({ memory_gib })),
        numberField({ id: 'calib-rate', label: t(cnn ? 'calib.rate.samples' : 'calib.rate.tokens'), value: c.rate, min: 0, max: LIMITS[cnn ? 'baseline.samples_per_s' : 'baseline.tokens_per_s'].max, path: cnn ? 'baseline.samples_per_s' : 'baseline.tokens_per_s' }, (rate) => setC({ rate })),
      ),
      h('div', { class: 'field' }, h('label', { for: pasteId }, t('calib.paste')), paste, status, read),
      factors(ctx)),
    h('details', { class: 'advanced', id: 'verify' },
      h('summary', null, t('verify.title')),
      h('p', { class: 'help' }, t('verify.lead')),
      h('pre', { id: scriptId, class: 'script', tabindex: 0, 'aria-label': t('verify.title') }, script),
      copy));
}
