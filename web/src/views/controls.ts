// Labelled form controls. Each control has a <label>, a one-line help text
// tied to it with aria-describedby, and data-path naming the request field,
// so an error from the planner can point at the control it is about.
import { h, uid, type Child } from '../dom';

export interface Option { value: string; label: string }

interface Common { label: string; help?: string; path?: string; id?: string }

function wrap(id: string, c: Common, control: HTMLElement, after = false): HTMLElement {
  const helpId = c.help ? `${id}-help` : undefined;
  if (helpId) control.setAttribute('aria-describedby', helpId);
  if (c.path) control.setAttribute('data-path', c.path);
  const lab = h('label', { for: id }, c.label);
  const help = c.help ? h('p', { class: 'help', id: helpId }, c.help) : null;
  return h('div', { class: after ? 'field check' : 'field' }, after ? [control, lab] : [lab, control], help);
}

let timer: number | undefined;
function debounced(run: () => void): void {
  window.clearTimeout(timer);
  timer = window.setTimeout(run, 150);
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
    if (c.unset && input.value.trim() === '' && input.validity.valid) {
      input.setAttribute('aria-invalid', 'false');
      onChange(c.unset.value);
      return;
    }
    const v = input.valueAsNumber;
    const ok = Number.isFinite(v) && (!c.int || Number.isInteger(v)) &&
      (c.min === undefined || v >= c.min) && (c.max === undefined || v <= c.max);
    input.setAttribute('aria-invalid', ok ? 'false' : 'true');
    if (ok) onChange(v);
  };
  input.addEventListener('input', () => debounced(apply));
  input.addEventListener('change', apply);
  return wrap(id, c, input);
}

export function textField(c: Common & { value: string; max?: number; placeholder?: string }, onChange: (v: string) => void): HTMLElement {
  const id = c.id ?? uid('t');
  const input = h('input', { id, type: 'text', value: c.value, maxlength: c.max ?? 200, placeholder: c.placeholder, autocomplete: 'off' });
  input.addEventListener('input', () => debounced(() => onChange(input.value)));
  input.addEventListener('change', () => onChange(input.value));
  return wrap(id, c, input);
}

export function selectField(c: Common & { value: string; options: Option[] }, onChange: (v: string) => void): HTMLElement {
  const id = c.id ?? uid('s');
  const select = h('select', { id }, c.options.map((o) => h('option', { value: o.value, selected: o.value === c.value }, o.label)));
  select.value = c.value;
  select.addEventListener('change', () => onChange(select.value));
  return wrap(id, c, select);
}

export function checkField(c: Common & { value: boolean }, onChange: (v: boolean) => void): HTMLElement {
  const id = c.id ?? uid('c');
  const input = h('input', { id, type: 'checkbox', checked: c.value });
  input.addEventListener('change', () => onChange(input.checked));
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
