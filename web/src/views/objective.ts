// The training objective (docs/objectives.md): SFT, DPO, GRPO, PPO, and for
// the RL objectives the rollout settings. The core prices every phase; the
// page only edits the request.
import { h } from '../dom.ts';
import { OBJECTIVES, ROLLOUTS, type State } from '../state.ts';
import type { Ctx } from './context.ts';
import { numberField, selectField } from './controls.ts';
import { opts } from './inputs.ts';

export function objectiveFields(ctx: Ctx): HTMLElement | null {
  const { t, state } = ctx;
  if (state.mode !== 'train') return null;
  const rl = state.objective === 'grpo' || state.objective === 'ppo';
  return h('div', { class: 'objective' },
    h('div', { class: 'row3' },
      selectField({ label: t('objective'), help: t('objective.help'), value: state.objective, options: opts(ctx, 'objective', OBJECTIVES), path: 'workload.objective' },
        (v) => ctx.set({ objective: v as State['objective'] }, { inputs: true, now: true })),
      rl ? numberField({ label: t('rl.group_size'), help: t('rl.group_size.help'), value: state.rl_group_size, min: 1, max: 4096, int: true, path: 'workload.rl.group_size' }, (rl_group_size) => ctx.set({ rl_group_size })) : null,
      rl ? numberField({ label: t('rl.completion_len'), help: t('rl.completion_len.help'), value: state.rl_completion_len, min: 1, max: 1 << 20, int: true, path: 'workload.rl.completion_len' }, (rl_completion_len) => ctx.set({ rl_completion_len })) : null,
      rl ? selectField({ label: t('rl.rollout'), help: t('rl.rollout.help'), value: state.rl_rollout, options: opts(ctx, 'rl.rollout', ROLLOUTS), path: 'workload.rl.rollout' }, (v) => ctx.set({ rl_rollout: v as State['rl_rollout'] })) : null));
}
