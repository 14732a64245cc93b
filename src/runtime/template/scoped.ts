// `{{order.id}}`, `{{admin.token}}`, `{{order[2].id}}`: asked of the runner's state.
import { FlowError } from '../../errors.js';
import type { ScopedRef } from './context.js';
import type { Resolver } from './frame.js';

export const scoped: Resolver<{ kind: 'scoped' } & ScopedRef> = async (expr, frame, raw) => {
  const ref: ScopedRef = { scope: expr.scope, index: expr.index, field: expr.field, path: expr.path };
  const got = await frame.ctx.lookupScoped(ref);
  if (got.found) return got.value;
  const name = `${expr.scope}${expr.index === undefined ? '' : `[${expr.index}]`}.${[expr.field, ...expr.path].join('.')}`;
  // The runner adds which operations could produce it (it knows the graph).
  throw new FlowError('E_VAR_UNRESOLVED', `${raw}: nothing has produced ${name} yet`, {
    details: { reference: raw, variable: name, kind: 'scoped', ...ref },
  });
};
