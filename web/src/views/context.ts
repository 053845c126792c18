// What every view gets: the state, the language, the catalog, the planner
// and the ways to change them. Views only read it and call its methods.
import type { Lang, T } from '../i18n.ts';
import type { Quote } from '../prices.ts';
import type { State, StatePatch } from '../state.ts';
import type { Catalog, CatalogGpu, PlanError, PlanResponse, Planner } from '../types.ts';
import type { Request } from '../request.ts';
import type { LabMine, LabSettings } from '../lab_settings.ts';

export interface Ctx {
  state: State;
  lang: Lang;
  t: T;
  catalog: Catalog;
  planner: Planner;
  quotes: Quote[];
  request: Request;
  response: PlanResponse | null;
  error: PlanError['error'] | null;
  embed: boolean;
  // The lab's settings and the student's choices about them (lab_settings.ts), where the page has them.
  lab?: LabSettings | null;
  labMine?: LabMine;
  setLabMine?(m: LabMine, render?: boolean): void;
  gpu(id: string): CatalogGpu | undefined;
  // A patch, or a function of the state as it is when called (never a copy a view kept).
  set(patch: StatePatch, how?: { inputs?: boolean; now?: boolean }): void;
  setQuotes(quotes: Quote[], message?: string): void;
  // A proposed change taken into the form, with an undo.
  apply(patch: Partial<State>, what: string): void;
  notify(message: string, kind?: 'info' | 'error', action?: { label: string; run: () => void }): void;
}
