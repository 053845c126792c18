// Step 0, the page's first question: "what are you doing?" One toggle button
// per catalog scenario (aria-pressed), each with its first sentence; choosing
// one fills the form from the scenario's request (scenario.ts). The chosen
// scenario's whole explanation and its sources sit under the buttons.
import { h } from '../dom.ts';
import { scenarioState } from '../scenario.ts';
import type { CatalogScenario } from '../types.ts';
import type { Ctx } from './context.ts';
import { sourceText } from './words.ts';

function pick(ctx: Ctx, v: { zh?: string; en?: string } | undefined): string {
  return (ctx.lang === 'zh-CN' ? v?.zh ?? v?.en : v?.en ?? v?.zh) ?? '';
}

// The first sentence: the rest is shown once the scenario is chosen.
function firstSentence(text: string): string {
  // A Chinese full stop ends a sentence as it stands; a Latin one only before
  // a space or the end ("3.1" and "e.g." do not).
  const m = /^.*?(?:[。！？]|[.!?](?=\s|$))/.exec(text);
  return m ? m[0] : text;
}

export function scenarioView(ctx: Ctx): HTMLElement | null {
  const { t, state } = ctx;
  const list = ctx.catalog.scenarios ?? [];
  if (!list.length) return null;
  const choose = (sc: CatalogScenario | null): void => {
    ctx.set(sc ? scenarioState(ctx.state, sc) : { scenario: '' }, { inputs: true, now: true });
  };
  const chosen = list.find((s) => s.id === state.scenario);
  const item = (key: string, pressed: boolean, name: string, line: string, run: () => void): HTMLElement =>
    h('button', { type: 'button', class: 'scenario', 'aria-pressed': pressed ? 'true' : 'false', 'data-key': `scenario/${key}`, onclick: run },
      h('strong', null, name), line ? h('span', { class: 'help' }, line) : null);
  return h('section', { id: 'scenario', class: 'card', 'aria-labelledby': 'scenario-h' },
    h('h2', { id: 'scenario-h' }, t('scenario.title')),
    h('p', { class: 'lead' }, t('scenario.lead')),
    h('div', { class: 'scenarios', role: 'group', 'aria-labelledby': 'scenario-h' },
      list.map((sc) => item(sc.id, sc.id === state.scenario, pick(ctx, sc.name), firstSentence(pick(ctx, sc.explain)), () => choose(sc))),
      item('custom', !chosen, t('scenario.custom'), t('scenario.custom.help'), () => choose(null))),
    chosen
      ? h('div', { class: 'scenario-about', id: 'scenario-about' },
          h('p', null, pick(ctx, chosen.explain)),
          chosen.sources?.length
            ? h('details', null, h('summary', null, t('scenario.sources')),
                h('ul', null, [...new Set(chosen.sources.map((s) => sourceText(ctx, s)))].map((s) => h('li', null, s))))
            : null)
      : null);
}
