// `simple`: one login request; its `extract` becomes the session ({{actor.token}} …).
// The actor's inject.headers carry the values onto requests; the runner applies those.
import { authConfigError, guardLogin } from './errors.js';
import type { AuthStrategy } from './types.js';

export const simple: AuthStrategy = {
  kind: 'simple',
  async login(config, ctx) {
    const spec = config.login;
    // An unknown strategy becomes `simple` (docs/format.md#silent-strategy); without a path it has nothing to send.
    if (!spec?.path) throw authConfigError(ctx, 'simple', 'has no login request: `path` is missing');
    const { extracted } = await guardLogin(ctx, () => ctx.exchange(spec, 'login'));
    return { values: { ...extracted } };
  },
  apply() {
    // nothing: inject.headers are rendered and attached by the runner
  },
};
