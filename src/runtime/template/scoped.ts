// `{{order.id}}`, `{{admin.token}}`, `{{order[2].id}}`: asked of the runner's state.
import { FlowError } from '../../errors.js';
import type { ScopedRef } from './context.js';
import type { Resolver } from './frame.js';

// The parsed reference is the question itself (the parsed templates are never changed).
export const scoped: Resolver<{ kind: 'scoped' } & ScopedRef> = (expr, frame, raw) => {
  const got = frame.ctx.lookupScoped(expr);
  if (got.found) return got.value;
  throw unresolved(expr, raw);
};

function unresolved(ref: ScopedRef, raw: string): FlowError {
  const name = `${ref.scope}${ref.index === undefined ? '' : `[${ref.index}]`}.${[ref.field, ...ref.path].join('.')}`;
  // The runner adds which operations could produce it (it knows the graph).
  return new FlowError('E_VAR_UNRESOLVED', `${raw}: nothing has produced ${name} yet`, {
    details: { reference: raw, variable: name, kind: 'scoped', scope: ref.scope, index: ref.index, field: ref.field, path: [...ref.path] },
  });
}
