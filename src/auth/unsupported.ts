// Strategies of the format that are not implemented yet: a clear E_AUTH at login, never a
// silent unauthenticated request.
import type { AuthStrategyName } from '../project/types.js';
import { FlowError } from '../errors.js';
import { subject } from './errors.js';
import type { AuthContext, AuthStrategy } from './types.js';

export function unsupported(kind: AuthStrategyName): AuthStrategy {
  const fail = (ctx: AuthContext) =>
    new FlowError('E_AUTH', `strategy ${kind} is not supported yet (${subject(ctx)})`, { details: { actor: ctx.actor?.id, strategy: kind } });
  return {
    kind,
    async login(_config, ctx) {
      throw fail(ctx);
    },
    async apply(_req, _config, _session, ctx) {
      throw fail(ctx);
    },
  };
}
