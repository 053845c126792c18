// Step 7: named projects and the comparison. Save the form under
// a name; reopen, rename, duplicate, delete; export and import them with the
// quotes as one file; tick two or three (the form as it is may be one) to
// see them side by side. Only buttons change a project: a share link or an
// edit to the form never does.
import { download, h, live, on, uid } from '../dom.ts';
import type { Project } from '../storage_state.ts';
import { MAX_NAME } from '../storage_state.ts';
import { compareMarkdown, compareTable, type CompareEntry } from './compare.ts';
import type { Ctx } from './context.ts';
import { button, section } from './controls.ts';

export interface ProjectsCtx extends Ctx {
  projects: Project[];
  openProjectId: string;
  compareIds: string[];
  saveProject(name: string): void;
  updateProject(id: string): void;
  openProject(id: string): void;
  renameProject(id: string, name: string): void;
  duplicateProject(id: string): void;
  deleteProject(id: string): void;
  exportProjects(): void;
  importProjects(text: string): void;
  setCompare(ids: string[]): void;
  compareList(): CompareEntry[];
}

function savedAt(ctx: Ctx, iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) || d.getTime() === 0 ? '—'
    : new Intl.DateTimeFormat(ctx.lang, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

function compareBox(ctx: ProjectsCtx, id: string, name: string, inTable = true): HTMLElement {
  const boxId = uid('cmp');
  const box = h('input', { type: 'checkbox', id: boxId, checked: ctx.compareIds.includes(id), 'data-compare': id });
  on(box, 'change', () => {
    const rest = ctx.compareIds.filter((x) => x !== id);
    if (live(box).checked && rest.length >= 3) {
      live(box).checked = false;
      ctx.notify(ctx.t('compare.too_many'), 'error');
      return;
    }
    ctx.setCompare(live(box).checked ? [...rest, id] : rest);
  });
  // In the list the visible word is short (a phone's column is narrow); the label still names the plan.
  const text = inTable ? [ctx.t('compare.pick_short'), h('span', { class: 'sr-only' }, ` ${name}`)] : ctx.t('compare.pick', { name });
  return h('span', { class: 'check' }, box, h('label', { for: boxId }, text));
}

function projectRow(ctx: ProjectsCtx, p: Project): HTMLElement {
  const { t } = ctx;
  const name = h('th', { scope: 'row' }, p.name, ctx.openProjectId === p.id ? h('span', { class: 'badge' }, t('projects.is_open')) : null,
    h('span', { class: 'saved-at' }, t('projects.saved_on', { date: savedAt(ctx, p.saved_at) })));
  const rename = (): void => {
    const inputId = uid('rn');
    const input = h('input', { id: inputId, type: 'text', value: p.name, maxlength: MAX_NAME, autocomplete: 'off' });
    const done = (): void => ctx.renameProject(p.id, input.value);
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') done(); });
    live(name).replaceChildren(h('label', { for: inputId, class: 'sr-only' }, t('projects.name')), input, button(t('projects.rename_ok'), done));
    input.focus();
    input.select();
  };
  return h('tr', { 'data-project': p.id },
    name,
    h('td', { class: 'actions' },
      button(t('projects.open'), () => ctx.openProject(p.id), { 'aria-label': `${t('projects.open')}: ${p.name}` }),
      ctx.openProjectId === p.id ? button(t('projects.update'), () => ctx.updateProject(p.id), { 'aria-label': `${t('projects.update')}: ${p.name}` }) : null,
      button(t('projects.rename'), rename, { 'aria-label': `${t('projects.rename')}: ${p.name}` }),
      button(t('projects.duplicate'), () => ctx.duplicateProject(p.id), { 'aria-label': `${t('projects.duplicate')}: ${p.name}` }),
      button(t('projects.delete'), () => ctx.deleteProject(p.id), { 'aria-label': `${t('projects.delete')}: ${p.name}` })),
    h('td', null, compareBox(ctx, p.id, p.name)));
}

function printCompare(): void {
  // Only the comparison is printed (styles.css, body.print-compare).
  document.body.classList.add('print-compare');
  const done = (): void => document.body.classList.remove('print-compare');
  window.addEventListener('afterprint', done, { once: true });
  window.print();
  window.setTimeout(done, 1000);
}

export function projectsView(ctx: ProjectsCtx): HTMLElement {
  const { t } = ctx;
  const nameId = 'project-save-name';
  const nameInput = h('input', { id: nameId, type: 'text', maxlength: MAX_NAME, autocomplete: 'off', value: ctx.state.title, placeholder: t('projects.default_name') });
  const fileId = uid('pimport');
  const file = h('input', { id: fileId, type: 'file', accept: 'application/json,.json', class: 'sr-only', tabindex: -1 });
  on(file, 'change', async () => {
    const f = live(file).files?.[0];
    if (!f) return;
    const text = await f.text();
    live(file).value = '';
    ctx.importProjects(text);
  });
  const entries = ctx.compareIds.length ? ctx.compareList() : [];
  const compare = entries.length >= 2
    ? h('div', { id: 'compare', class: 'compare' },
        h('h3', null, t('compare.title')),
        compareTable(ctx, entries),
        h('div', { class: 'actions' },
          button(t('compare.print'), printCompare, { id: 'compare-print' }),
          button(t('compare.export'), () => download('gpuplan-compare.md', compareMarkdown(ctx, entries), 'text/markdown'), { id: 'compare-export' })))
    : h('p', { class: 'muted', id: 'compare-need' }, t('compare.need'));
  return section('projects', '7', t('section.projects'),
    h('p', { class: 'lead' }, t('projects.lead')),
    h('div', { class: 'field save-project' },
      h('label', { for: nameId }, t('projects.name')),
      nameInput,
      button(t('projects.save'), () => ctx.saveProject(live(nameInput).value), { id: 'project-save' })),
    ctx.projects.length
      ? h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': t('projects.list') },
          h('table', { class: 'projects' },
            h('thead', null, h('tr', null, ['projects.name', 'projects.actions', 'compare.title'].map((k) => h('th', { scope: 'col' }, t(k as never))))),
            h('tbody', null, ctx.projects.map((p) => projectRow(ctx, p)))))
      : h('p', { class: 'muted' }, t('projects.empty')),
    h('p', null, compareBox(ctx, 'current', t('compare.current'), false)),
    compare,
    h('div', { class: 'actions' },
      button(t('projects.export'), () => ctx.exportProjects(), { id: 'projects-export' }),
      button(t('projects.import'), () => live(file).click(), { id: 'projects-import' }),
      h('label', { for: fileId, class: 'sr-only' }, t('projects.import')),
      file));
}
