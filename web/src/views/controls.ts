// Labelled form controls. Each control has a <label>, a one-line help text
// tied to it with aria-describedby, and data-path naming the request field,
// so an error from the planner can point at the control it is about.
import { h, live, on, uid, type Child } from '../dom.ts';

export interface Option { value: string; label: string; disabled?: boolean }

interface Common { label: string; help?: string; path?: string; id?: string }

function wrap(id: string, c: Common, control: HTMLElement, after = false): HTMLElement {
  const helpId = c.help ? `${id}-help` : undefined;
  if (helpId) control.setAttribute('aria-describedby', helpId);
  if (c.path) control.setAttribute('data-path', c.path);
  const lab = h('label', { for: id }, c.label);
  const help = c.help ? h('p', { class: 'help', id: helpId }, c.help) : null;
  // Keyed, so a field that appears before it does not make a re-render rebuild it (dom.ts, morph).
  const key = c.path ?? c.id;
  return h('div', { class: after ? 'field check' : 'field', 'data-key': key ? `field/${key}` : null }, after ? [control, lab] : [lab, control], help);
}

let timer: number | undefined;
let pending: (() => void) | null = null;
function debounced(run: () => void): void {
  window.clearTimeout(timer);
  pending = run;
  timer = window.setTimeout(() => {
    pending = null;
    run();
  }, 150);
}

// Applies the edit still waiting for the typing pause now: the page is being
// hidden, closed or reloaded, and what was typed must be kept.
export function flushPending(): void {
  const run = pending;
  if (!run) return;
  window.clearTimeout(timer);
  pending = null;
  run();
}

// unset: a field the student may leave to the planner. Its value `unset.value`
// shows as an empty box saying so (`unset.label`), and emptying the box
// hands the field back to the planner.
export function numberField(
  c: Common & { value: number; min?: number; max?: number; step?: number | 'any'; int?: boolean; unset?: { value: number; label: string } },
  onChange: (v: number) => void,
): HTMLElement {
  const id = c.id ?? uid('n');
  const unset = c.unset && c.value === c.unset.value;
  const input = h('input', {
    id, type: 'number', inputmode: c.int ? 'numeric' : 'decimal', value: unset ? '' : String(c.value),
    min: c.min, max: c.max, step: c.step ?? (c.int ? 1 : 'any'), placeholder: c.unset?.label,
  });
  const apply = (): void => {
    const el = live(input);
    if (c.unset && el.value.trim() === '' && el.validity.valid) {
      el.setAttribute('aria-invalid', 'false');
      onChange(c.unset.value);
      return;
    }
    const v = el.valueAsNumber;
    const ok = Number.isFinite(v) && (!c.int || Number.isInteger(v)) &&
      (c.min === undefined || v >= c.min) && (c.max === undefined || v <= c.max);
    el.setAttribute('aria-invalid', ok ? 'false' : 'true');
    if (ok) onChange(v);
  };
  on(input, 'input', () => debounced(apply));
  on(input, 'change', apply);
  return wrap(id, c, input);
}

export function textField(c: Common & { value: string; max?: number; placeholder?: string }, onChange: (v: string) => void): HTMLElement {
  const id = c.id ?? uid('t');
  const input = h('input', { id, type: 'text', value: c.value, maxlength: c.max ?? 200, placeholder: c.placeholder, autocomplete: 'off' });
  on(input, 'input', () => debounced(() => onChange(live(input).value)));
  on(input, 'change', () => onChange(live(input).value));
  return wrap(id, c, input);
}

export function selectField(c: Common & { value: string; options: Option[] }, onChange: (v: string) => void): HTMLElement {
  const id = c.id ?? uid('s');
  const select = h('select', { id }, c.options.map((o) => h('option', { value: o.value, selected: o.value === c.value, disabled: o.disabled }, o.label)));
  select.value = c.value;
  on(select, 'change', () => onChange(live(select).value));
  return wrap(id, c, select);
}

export function checkField(c: Common & { value: boolean }, onChange: (v: boolean) => void): HTMLElement {
  const id = c.id ?? uid('c');
  const input = h('input', { id, type: 'checkbox', checked: c.value });
  on(input, 'change', () => onChange(live(input).checked));
  return wrap(id, c, input, true);
}

export function section(id: string, step: string, title: string, ...children: Child[]): HTMLElement {
  const headingId = `${id}-h`;
  return h('section', { id, class: 'card', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, h('span', { class: 'step', 'aria-hidden': 'true' }, step), title), children);
}

export function button(text: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  return h('button', { type: 'button', ...attrs, onclick: onClick }, text);
}
