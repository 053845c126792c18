// "用什么框架跑？" and "先跑一行代码看占用": the framework question (which sets
// workload.stack), the calibration inputs (what the user measured on their
// own card, sent as `baseline`; the core re-anchors every option and returns
// the factors shown here) and the verify script that measures exactly this
// configuration on a rented card (verify_script.ts).
import { calibrationOutOfRange } from '../calibration';
import { current, h, live, uid } from '../dom';
import { limitNumber } from '../limit_text';
import { LIMITS } from '../limits';
import { label } from '../i18n';
import { FRAMEWORKS, stackOf } from '../stack';
import type { State } from '../state';
import { parseResult, verifyScript } from '../verify_script';
import type { Ctx } from './context';
import { button, numberField, selectField } from './controls';

const GIB = 2 ** 30;

// The catalog card whose name the device name contains ("NVIDIA GeForce RTX
// 4090" -> rtx-4090): the longest match wins, so "RTX 4090 D" is not a 4090.
function matchGpu(ctx: Ctx, device: string): string {
  const norm = (x: string): string => x.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  const d = ` ${norm(device)} `;
  let best = '';
  let bestLength = 0;
  for (const g of ctx.catalog.gpus) {
    const n = norm(g.name).replace(/^(nvidia|geforce) /, '').replace(/^(geforce) /, '');
    if (n && d.includes(` ${n} `) && n.length > bestLength) {
      best = g.id;
      bestLength = n.length;
    }
  }
  return best;
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
    if (!r) {
      live(status).textContent = t('calib.paste.invalid');
      live(status).className = 'help bad';
      return;
    }
    const out = calibrationOutOfRange(r, cnn);
    if (out) {
      live(status).textContent = t('calib.paste.range', { field: t(`calib.field.${out.field}` as never), value: limitNumber(out.value), min: limitNumber(out.min), max: limitNumber(out.max) });
      live(status).className = 'help bad';
      return;
    }
    const gpu = matchGpu(ctx, r.gpu) || ctx.state.calib.gpu;
    setC({ gpu, micro_batch: r.micro_batch, memory_gib: r.peak_memory_bytes / GIB, rate: cnn ? r.samples_per_s : r.tokens_per_s }, true);
    ctx.notify(t('calib.read.done'));
  }, { id: 'calib-read' });

  const gpuOptions = [{ value: '', label: t('calib.gpu.none') }, ...catalog.gpus.map((g) => ({ value: g.id, label: g.name }))];
  const script = verifyScript(ctx.request, catalog.models);
  const scriptId = 'verify-script';
  const copy = button(t('verify.copy'), () => {
    navigator.clipboard?.writeText(script).then(() => ctx.notify(t('verify.copied')), () => ctx.notify(t('verify.copy.manual')));
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
