// The first figure's question, and its answers for a fresh page (the
// first figure within 200 ms from file://). The page shows the memory figure
// before the rest, from the planner's quickest question (figureQuestion). A
// fresh page opens on one form in each language (defaultState), so the build
// asks that question of the very module the page carries and ships the
// answers (vite.config.mts, firstAnswersModule()). Its first figure then waits
// for no planner: not for the planner's first call, in which V8 compiles the
// code that the call runs and the planner reads its catalog (most of the time
// between the planner's start and the figure: docs/performance-log.md), nor
// for decoding and starting the
// planner's code, which follow the figure (app.ts, start(); boot.ts). Every
// other question, and this one for any other form (a remembered one, a
// link's), goes to the planner. An answer is the planner's own (the same wasm
// file, asked the same request text), cut to what the first figure reads
// (figureAnswer): the rest of it is half a kilobyte of the page that no one
// sees before the full plan replaces it.
import type { Lang } from './i18n.ts';
import { toRequest, type Request } from './request.ts';
import { defaultState } from './state.ts';
import type { Catalog, Planner } from './types.ts';

// The memory alone (no stages, budget, preferences or quotes), on the
// catalog's largest card so that the question never depends on the card the
// form names; the answer's memory is per card, the same on every card.
export function figureQuestion(request: Request, gpus: Catalog['gpus'], count: number): string {
  const biggest = [...gpus].sort((a, b) => b.memory_bytes - a.memory_bytes)[0];
  const { stages: _s, budget: _b, prefs: _p, prices: _q, ...rest } = request;
  // count 0: the form leaves the count to the planner; the figure is one card's.
  return JSON.stringify({ ...rest, hardware: { gpu: biggest?.id, count: count > 0 ? count : 1 } });
}

// What the page shows from the first answer, until the full plan comes
// (app.ts renderResults with figureOnly; views/memory.ts): the warnings, the
// memory, and each card's verdict for the chosen card's line.
export function figureAnswer(answer: string): string {
  const r = JSON.parse(answer) as { gpus?: { id: string; count: number; fit: string; fits: boolean }[]; memory?: unknown; warnings?: unknown; error?: unknown };
  if (r.error) return answer;
  return JSON.stringify({ gpus: (r.gpus ?? []).map(({ count, fit, fits, id }) => ({ count, fit, fits, id })), memory: r.memory, warnings: r.warnings });
}

// The languages a fresh page may open in (i18n.ts, detectLang).
const FRESH_LANGS: readonly Lang[] = ['zh-CN', 'en'];

// Question text -> the planner's answer text, for a fresh page's form in each
// language: what the page asks first when nothing is remembered.
export function firstAnswers(planner: Planner, catalog: Catalog): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const lang of FRESH_LANGS) {
    const s = defaultState();
    const question = figureQuestion(toRequest(s, lang, [], catalog.models.find((m) => m.id === s.preset)), catalog.gpus, s.gpus);
    answers[question] = figureAnswer(planner.plan(question));
  }
  return answers;
}
