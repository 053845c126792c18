// Step 3: the per-GPU memory as a stacked bar (components, then the safety
// headroom), with markers at the common card sizes, a table that says the
// same in text, and "what fits" advice when the chosen card is too small.
import { current, h, hold, morph } from '../dom.ts';
import { gib, percent, num } from '../format.ts';
import { label } from '../i18n.ts';
import type { Request } from '../request.ts';
import type { OomDoctor, PlanResponse } from '../types.ts';
import type { Ctx } from './context.ts';
import { button, section, selectField } from './controls.ts';
import { requestPatch } from '../apply.ts';

// The marketing sizes students talk about (16G V100/T4, 24G 4090, 48G A6000/L40S,
// 80G A100/H100, 141G H200), placed at the capacity of the catalog card nearest
// to each, so a marker is exactly where that card's limit is.
const MARKER_GB = [16, 24, 48, 80, 141];

function markers(ctx: Ctx): { label: string; bytes: number; names: string }[] {
  return MARKER_GB.map((gb) => {
    const near = ctx.catalog.gpus.filter((g) => Math.abs(g.memory_bytes / 1e9 - gb) / gb < 0.08);
    const bytes = near.length ? Math.max(...near.map((g) => g.memory_bytes)) : gb * 1e9;
    return { label: `${gb}G`, bytes, names: near.map((g) => g.name).join(', ') };
  });
}

function oomDoctor(ctx: Ctx, request: Request, gpu: string): OomDoctor | null {
  const w = (request.workload ?? {}) as Record<string, unknown>;
  const r: Request = { ...request, hardware: { gpu, count: typeof w.gpus === 'number' ? w.gpus : 1 } };
  delete r.stages;
  try {
    const out = JSON.parse(ctx.planner.plan(JSON.stringify(r))) as PlanResponse | { error: unknown };
    return 'oom_doctor' in out && out.oom_doctor ? out.oom_doctor : null;
  } catch {
    return null;
  }
}

type Component = PlanResponse['memory']['components'][number];

// The stacked bar (components, then the headroom) and its axis of card sizes.
function memoryBar(ctx: Ctx, comps: Component[], total: number, rec: number): { bar: HTMLElement; axis: HTMLElement } {
  const { t, lang } = ctx;
  const marks = markers(ctx);
  const scale = Math.max(rec, total) * 1.05 || 1;
  const bar = h('div', { class: 'bar', role: 'img', 'aria-label': t('memory.bar.label', { total: gib(lang, total), rec: gib(lang, rec) }) });
  comps.forEach((c, i) => {
    const seg = h('span', { class: `seg seg-${i % 8}`, title: `${label(t, 'component', c.id)}: ${gib(lang, c.bytes)}` });
    seg.style.width = `${(100 * c.bytes) / scale}%`;
    bar.appendChild(seg);
  });
  if (rec > total) {
    const seg = h('span', { class: 'seg headroom', title: `${t('memory.headroom')}: ${gib(lang, rec - total)}` });
    seg.style.width = `${(100 * (rec - total)) / scale}%`;
    bar.appendChild(seg);
  }
  const axis = h('div', { class: 'axis', 'aria-hidden': 'true' });
  for (const mk of marks) {
    if (mk.bytes > scale) continue;
    // Near the right edge the label goes on the left of its line.
    const tick = h('span', { class: mk.bytes / scale > 0.9 ? 'marker end' : 'marker', title: mk.names || mk.label }, mk.label);
    tick.style.left = `${(100 * mk.bytes) / scale}%`;
    axis.appendChild(tick);
  }
  return { bar, axis };
}

// The same in text: each component, the total and the recommended capacity.
function memoryLegend(ctx: Ctx, comps: Component[], m: PlanResponse['memory']): HTMLElement {
  const { t, lang } = ctx;
  const total = m.per_gpu.total_bytes;
  const rec = m.recommended_bytes;
  return h('table', { class: 'legend' },
    h('caption', { class: 'sr-only' }, t('memory.table.caption')),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('memory.component')), h('th', { scope: 'col' }, 'GiB'), h('th', { scope: 'col' }, t('memory.share')))),
    h('tbody', null,
      comps.map((c, i) => h('tr', null,
        h('th', { scope: 'row' }, h('span', { class: `swatch seg-${i % 8}`, 'aria-hidden': 'true' }), label(t, 'component', c.id)),
        h('td', null, gib(lang, c.bytes)), h('td', null, percent(lang, total ? c.bytes / total : 0)))),
      h('tr', { class: 'sum' }, h('th', { scope: 'row' }, t('memory.total')), h('td', null, gib(lang, total)), h('td', null, '')),
      h('tr', null, h('th', { scope: 'row' }, h('span', { class: 'swatch headroom', 'aria-hidden': 'true' }), t('memory.recommended', { pct: percent(lang, m.headroom) })), h('td', null, gib(lang, rec)), h('td', null, ''))));

}

// The card to compare against: the planner's verdict for one card of the
// chosen type, and the OOM doctor's advice for it once the first figure shows.
function compareCard(ctx: Ctx, r: PlanResponse, total: number, later: (run: () => void) => void): HTMLElement {
  const { t, lang } = ctx;
  const target = ctx.gpu(ctx.state.target_gpu) ?? ctx.catalog.gpus[0];
  const compare = h('div', { class: 'compare' });
  if (target) {
    // The planner's verdict for one card of this type (gpus[].fit, contract
    // v1.1): the page, the plan and the OOM doctor say the same.
    const row = r.gpus.find((g) => g.id === target.id);
    const fit = !row ? 'unknown' : row.count > 1 ? 'no' : row.fit;
    const fitsRec = fit === 'comfortable';
    const verdict = fit === 'comfortable' ? 'memory.fits' : fit === 'tight' ? 'memory.tight' : fit === 'no' ? 'memory.nofit' : 'memory.unknown';
    compare.append(
      selectField({ id: 'target-gpu', label: t('memory.target'), value: target.id, options: ctx.catalog.gpus.map((g) => ({ value: g.id, label: `${g.name} (${gib(lang, g.memory_bytes)})` })) },
        (v) => ctx.set({ target_gpu: v }, { now: true })),
      h('p', { class: `verdict ${fit === 'comfortable' ? 'good' : fit === 'tight' ? 'warn' : 'bad'}`, id: 'memory-verdict', 'data-fit': fit },
        t(verdict, { gpu: target.name, cap: gib(lang, target.memory_bytes), total: gib(lang, total) })));
    if (!ctx.error && ctx.state.mode !== 'science') {
      // The planner's OOM doctor (docs/oom-doctor.md) answers "what fits" for
      // one named card; ask it after the first figure is on screen. Its speed
      // tips (mixed precision on tensor cores, a starved data loader) hold
      // even when the run fits, so it is asked either way.
      // Held: a re-render leaves the advice on the page until the new advice replaces it (dom.ts).
      const slot = hold(h('div', { class: 'advice-slot', 'aria-busy': 'true' }));
      compare.append(slot);
      const request = ctx.request;
      later(() => {
        const page = current(slot);
        if (!page) return;
        const doctor = oomDoctor(ctx, request, target.id);
        const remedies = (doctor?.remedies ?? []).filter((r) => r.fits !== false);
        const tips = (doctor?.speed_tips ?? []).filter((tip) => tip.message);
        // A tight fit holds without changes (the doctor's `fits`): what would
        // make it fit is not asked, and "it does not fit" is never said under "tight".
        const showFix = !fitsRec && (doctor?.fits !== true || remedies.length > 0);
        if (showFix) slot.append(h('h3', null, t('advice.title', { gpu: target.name })));
        else if (tips.length) slot.append(h('h3', null, t('advice.speed', { gpu: target.name })));
        if (showFix) slot.append(remedies.length
          ? h('ol', { class: 'advice' }, remedies.map((rem) => {
              const text = rem.message ?? '';
              const patch = rem.patch ? requestPatch(ctx.state, rem.patch) : null;
              return h('li', { 'data-remedy': rem.id, 'data-key': rem.id }, text,
                h('span', { class: 'range' }, [
                  rem.total_bytes !== undefined ? `→ ${gib(lang, rem.total_bytes)}` : '',
                  rem.quality_impact ? ` · ${label(t, 'impact', rem.quality_impact)}` : '',
                  typeof rem.gpu_hours_factor === 'number' ? ` · ${t('advice.hours_factor', { x: num(lang, rem.gpu_hours_factor, 2) })}` : '',
                ].join('')),
                patch ? button(t('apply'), () => ctx.apply(patch, text), { class: 'apply', 'data-apply': `remedy/${rem.id}`, 'aria-label': `${t('apply')}: ${text}` }) : null);
            }))
          : h('p', null, t('advice.none')));
        for (const tip of tips) slot.append(h('p', { class: 'help', 'data-tip': tip.code }, tip.message));
        slot.removeAttribute('aria-busy');
        morph(page, slot);
      });
    }
  }
  return compare;
}

export function memoryView(ctx: Ctx, later: (run: () => void) => void): HTMLElement {
  const { t, lang } = ctx;
  const r = ctx.response;
  if (!r) return section('memory', '3', t('section.memory'), h('p', { class: 'muted' }, t('memory.none')));
  const m = r.memory;
  const total = m.per_gpu.total_bytes;
  const rec = m.recommended_bytes;
  const comps = m.components.filter((c) => c.bytes > 0);
  const { bar, axis } = memoryBar(ctx, comps, total, rec);
  const legend = memoryLegend(ctx, comps, m);
  const compare = compareCard(ctx, r, total, later);
  const out = section('memory', '3', t('section.memory'),
    h('p', { class: 'figure' }, h('strong', { class: 'big', id: 'memory-total' }, gib(lang, total)), ' ', t('memory.per_gpu'),
      h('span', { class: 'muted' }, ` · ${t('memory.allocated')} ${gib(lang, m.per_gpu.allocated_bytes)} · ${t('memory.reserved')} ${gib(lang, m.per_gpu.reserved_bytes)}`)),
    h('div', { class: 'chart' }, bar, axis),
    legend,
    h('p', { class: 'help', id: 'headroom-why' }, t('memory.headroom.why', { pct: percent(lang, m.headroom) })),
    compare);
  return out;
}
