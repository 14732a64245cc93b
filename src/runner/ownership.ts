// Own your writes (docs/format.md#ownership): a run shares its server with other people's data,
// so a write on an instance goes only to an instance this run created (unless the operation says
// `acts_on: existing`), and a switch (a write whose path names nothing: settings, maintenance)
// goes only when the user named the operation, its prior state read first so the clean-up can
// write it back.
import { FlowError } from '../errors.js';
import { atOwnCollection, writeTarget, type WriteTarget } from '../graph/index.js';
import { type Operation, scalarText } from '../project/index.js';
import type { Binding, RunContext } from './context.js';
import type { Instance, RecordSource } from './state.js';
import type { FlowResponse } from '../http/index.js';
import { bornIn, bornLongBefore } from './born.js';
import { requestPath } from './origin-removal.js';
import { indexedPlace } from '../runtime/index.js';

/** The write target of each operation, computed once per runner. */
const targets = new WeakMap<RunContext, Map<string, WriteTarget>>();

export function targetOf(ctx: RunContext, op: Operation): WriteTarget {
  let byOp = targets.get(ctx);
  if (!byOp) targets.set(ctx, (byOp = new Map()));
  let t = byOp.get(op.id);
  if (!t) byOp.set(op.id, (t = writeTarget(ctx.graph, op)));
  return t;
}

/** How an operation's extraction goes into the state: a create's answer is an instance this run owns. */
export function recordSource(ctx: RunContext, op: Operation, actor: string | undefined, res?: FlowResponse): RecordSource {
  const creates = targetOf(ctx, op).kind === 'create';
  const path = creates && res ? requestPath(res) : undefined;
  const born = creates && res ? bornIn(res) : undefined;
  // away from its resource's own collection (a create known by what it answers), an answer made
  // long before the request handed back what was there (a member added by e-mail answers the
  // user it found): a new instance, not the run's. At its own collection, a create made one,
  // whatever time it says (a mock server answers its examples).
  const handedBack = born !== undefined && bornLongBefore(born) && !atOwnCollection(ctx.graph, op);
  return { operation: op.id, actor, creates, ...(path ? { path } : {}), ...(born !== undefined ? { born } : {}), ...(handedBack ? { handedBack } : {}) };
}

/**
 * The instance a write on an instance acts on: the for_each binding, the indexed one, else the
 * newest that has the field (the order `{{item.id}}` resolves in, docs/format.md#references).
 */
export function targetInstance(ctx: RunContext, op: Operation, binding?: Binding): { instance: Instance; index: number } | undefined {
  const t = targetOf(ctx, op);
  if (t.kind !== 'instance') return undefined;
  const list = ctx.state.instances(t.resource) ?? [];
  if (binding?.resource === t.resource && t.index === undefined) return { instance: binding.instance, index: list.indexOf(binding.instance) + 1 };
  if (t.index !== undefined) {
    const at = indexedPlace(ctx.state.values(t.resource) ?? [], t.index, t.field);
    return at < 0 ? undefined : { instance: list[at], index: at + 1 };
  }
  for (let i = list.length - 1; i >= 0; i--) if (Object.hasOwn(list[i].values, t.field)) return { instance: list[i], index: i + 1 };
  return undefined;
}

/** Throws E_NOT_OWNED (the request is not sent) for a write on an instance this run did not create. */
export function checkOwnership(ctx: RunContext, op: Operation, binding?: Binding): void {
  if (op.actsOnExisting) return;
  const found = targetInstance(ctx, op, binding);
  if (!found || found.instance.owned) return;
  const t = targetOf(ctx, op) as Extract<WriteTarget, { kind: 'instance' }>;
  const value = scalarText(found.instance.values[t.field]);
  const from = found.instance.origin ? ` (it came from ${found.instance.origin.operation})` : '';
  throw new FlowError(
    'E_NOT_OWNED',
    `${op.method} would act on ${t.resource}[${found.index}] (${t.field} ${value}), which this run did not create${from}: not sent. ` +
      `If ${op.id} is meant to change data that exists before the run, give it "acts_on: existing"`,
    { details: { resource: t.resource, index: found.index, field: t.field, ...(found.instance.origin ? { from: found.instance.origin.operation } : {}) } },
  );
}

/** Whether the user named this operation (a switch is sent only then). Without a list, every operation counts as named. */
function named(ctx: RunContext, op: Operation): boolean {
  return ctx.options.named === undefined || ctx.options.named.includes(op.id);
}

/** Throws E_SWITCH_NOT_NAMED (not sent) for a switch the user did not name. */
export function checkSwitch(ctx: RunContext, op: Operation): void {
  if (targetOf(ctx, op).kind !== 'switch' || named(ctx, op)) return;
  throw new FlowError(
    'E_SWITCH_NOT_NAMED',
    `${op.method} ${op.path} names no instance (a setting, a switch, a collection): it is sent only when you name ${op.id} ` +
      '(flow run <operation>, or --only for calibrate and explore), and its prior state is then restored after the run',
    { details: { operation: op.id } },
  );
}
