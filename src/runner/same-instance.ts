// A create that names one of the run's own instances again (docs/format.md#ownership):
// `POST /segments/strategies` with `{"strategyId": "{{strategy.id}}", …}` answers the
// `strategyId` it was sent, and its extraction records a strategy named by `strategyId` alone, which
// no removal reads. What its create sent in that field is the `id` of a strategy this run made:
// it is that instance, and the removals that read its `id` name it by that value. Only a field
// sent from the resource's own `{{…}}` alone, answered back as sent, and equal to that field of an
// instance the run owns.
import { isPlainObject, type Operation } from '../project/index.js';
import type { RunContext } from './context.js';
import { fieldsRead, removalsOf } from './removals.js';
import { scalar } from './origin-removal.js';
import { ownField } from './named-removal.js';
import type { Instance } from './state.js';

/**
 * What names `made` (values `have`, `sent` the body its create sent) as the run's own instance its
 * create's body referred to: the other's fields, and the removals that read only those and its own.
 */
export function sameInstance(
  ctx: RunContext,
  op: Operation,
  made: Instance | undefined,
  have: Record<string, unknown>,
  sent: Record<string, unknown> | undefined,
): Instance['names'] {
  if (!isPlainObject(op.body) || !sent) return undefined;
  const values: Record<string, unknown> = {};
  for (const [key, template] of Object.entries(op.body)) {
    const field = typeof template === 'string' ? ownField(template, op.resource) : undefined;
    const v = scalar(have[key]);
    if (field === undefined || v === undefined || have[field] !== undefined || sent[key] !== v) continue;
    const own = ctx.state.owned().some(({ resource, instance }) => resource === op.resource && instance !== made && instance.values[field] === v);
    if (own) values[field] = v;
  }
  if (!Object.keys(values).length) return undefined;
  const by = removalsOf(ctx, op.resource)
    .filter((r) => {
      const read = fieldsRead(ctx, r, op.resource);
      return read.some((f) => values[f] !== undefined) && read.every((f) => values[f] !== undefined || have[f] !== undefined);
    })
    .map((r) => r.id);
  return by.length ? { values, by } : undefined;
}
