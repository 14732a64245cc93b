// `chain`: a login in several steps (one-time password, multi-factor). Each step is sent in
// order; what a step extracts is readable by the later ones as {{<actor>.<field>}} because
// the runner's `exchange` merges it into the session it shows while the login runs.
import { authConfigError, guardLogin } from './errors.js';
import type { AuthStrategy } from './types.js';

export const chain: AuthStrategy = {
  kind: 'chain',
  async login(config, ctx) {
    const steps = config.steps ?? [];
    if (!steps.length) throw authConfigError(ctx, 'chain', 'has no `steps`');
    const values: Record<string, unknown> = {};
    for (const [i, step] of steps.entries()) {
      const name = step.id ?? String(i + 1);
      const { extracted } = await guardLogin(ctx, () => ctx.exchange(step, `login step ${name}`), name);
      Object.assign(values, extracted);
    }
    return { values };
  },
  apply() {
    // nothing: inject.headers are rendered and attached by the runner
  },
};
