// A create at a key the run draws (docs/format.md#ownership): "create or update at this name"
// endpoints (`PUT /buckets/{{env.bucket_name}}`, `PUT /indexes/{{env.index_name}}`) make the item
// at the key their path ends with. When that key is one the run drew (`bucket-{{$.uuid}}`, drawn
// once per run: graph's isRunDrawn), and not a value the user gave, nothing was there before
// the run: what a PUT or POST answered 2xx there is the run's. It is kept aside for the clean-up,
// which removes it with the resource's own DELETE at that very path (and reads it back with the
// GET there). Before the first write at the key, that GET (when the project has one) must not
// find it: a key that answers 2xx is someone's, and is not written (E_NOT_OWNED). A key the
// user gave (`--var`) may name what exists: it is written only once that GET answered 404 or
// 410. A key a list gave (`{{bucket.name}}`) is no drawn key: ownership as for any instance.
import { FlowError } from '../errors.js';
import { isRunDrawn, pathOnly } from '../graph/index.js';
import type { Operation } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import { renderContext, type RunContext, type Trace } from './context.js';
import { requestOnce } from './request.js';
import { decoded, envSegment, requestPath } from './origin-removal.js';
import { targetOf } from './ownership.js';
import type { Instance } from './state.js';

const MAKES = new Set(['PUT', 'POST']);

/**
 * The key a path ends with when the environment has the run draw it (`bucket_name` for
 * `/buckets/{{env.bucket_name}}` with `bucket_name: bucket-{{$.uuid}}`), and whether the user gave
 * it a value instead (`--var`: then it names what the user chose, maybe something that exists).
 */
function drawnKey(ctx: RunContext, op: Operation): DrawnKey | undefined {
  let byOp = keys.get(ctx);
  if (!byOp) keys.set(ctx, (byOp = new Map()));
  if (!byOp.has(op.id)) {
    const name = envSegment(pathOnly(op.path).split('/').at(-1) ?? '');
    const drawn = name !== undefined && isRunDrawn(ctx.environment?.variables[name]);
    byOp.set(op.id, drawn ? { name, given: Object.hasOwn(ctx.vars, name) } : undefined);
  }
  return byOp.get(op.id);
}

interface DrawnKey {
  name: string;
  given: boolean;
}

/** Each operation's drawn key, once per runner (every write's answer asks: explore sends thousands). */
const keys = new WeakMap<RunContext, Map<string, DrawnKey | undefined>>();

/** A PUT or POST that makes the item at a drawn key: a write whose path names no instance and ends with that key. */
function isKeyedCreate(ctx: RunContext, op: Operation): boolean {
  return MAKES.has(op.method) && targetOf(ctx, op).kind === 'given' && drawnKey(ctx, op) !== undefined;
}

/** The instance kept aside for what was made at `path`, when the run made one there. */
function madeAt(ctx: RunContext, resource: string, path: string): Instance | undefined {
  return ctx.state.owned().find((o) => o.resource === resource && o.instance.keyed && o.instance.origin?.path === path)?.instance;
}

/**
 * Before the first write at a drawn key, the resource's GET at the very path must not find
 * anything there: a 2xx means the key is taken (E_NOT_OWNED, not sent). A key the run drew needs
 * no more proof (any other answer, or no such GET); a key the user gave is written only when
 * that GET answers 404 or 410.
 */
export async function checkKeyFree(ctx: RunContext, op: Operation, trace: Trace): Promise<void> {
  if (!isKeyedCreate(ctx, op)) return;
  const key = drawnKey(ctx, op)!;
  const get = sameResourceAt(ctx, op, 'GET');
  const checked = freeKeys(ctx);
  if (checked.has(`${op.resource}#${key.name}`)) return;
  const res = get && (await requestOnce(ctx, get, renderContext(ctx), trace, undefined, {}));
  const status = res?.status;
  const gone = status === 404 || status === 410;
  if (gone || (!key.given && (status === undefined || status < 200 || status >= 300))) {
    checked.add(`${op.resource}#${key.name}`);
    return;
  }
  const why =
    status !== undefined && status >= 200 && status < 300
      ? `which ${get!.id} already reads (${status}): the key is taken`
      : `a key you gave (--var ${key.name}), which ${get ? `${get.id} did not find free (${status})` : 'no GET of the project can find free'}: it may name an item that exists`;
  throw new FlowError('E_NOT_OWNED', `${op.method} would make ${op.resource} at {{env.${key.name}}}, ${why}; not sent`, {
    details: { resource: op.resource, variable: key.name, ...(get ? { reader: get.id } : {}), ...(status !== undefined ? { status } : {}) },
  });
}

/** The drawn keys proven free before the run's first write there, per runner. */
const free = new WeakMap<RunContext, Set<string>>();

function freeKeys(ctx: RunContext): Set<string> {
  let set = free.get(ctx);
  if (!set) free.set(ctx, (set = new Set()));
  return set;
}

/** After a keyed create's 2xx: what is at the key is the run's, kept aside once per path. True when `op` is one. */
export function keepKeyed(ctx: RunContext, op: Operation, res: FlowResponse, actor: string | undefined): boolean {
  if (!isKeyedCreate(ctx, op)) return false;
  const path = requestPath(res);
  const key = drawnKey(ctx, op)!;
  // a key the user gave is the run's only once its GET found it free (checkKeyFree)
  if (res.status < 200 || res.status >= 300 || !path || (key.given && !freeKeys(ctx).has(`${op.resource}#${key.name}`))) return true;
  const there = madeAt(ctx, op.resource, path);
  if (there) {
    // made again after its removal: there again, for the clean-up
    delete there.removedBy;
    return true;
  }
  // named by its key, the path's last segment (for what the clean-up reports)
  const made = decoded(path.replace(/\/+$/, '').split('/').at(-1) ?? '');
  const values = made ? { [key.name]: made } : {};
  const kept = ctx.state.keepAside(op.resource, values, { operation: op.id, ...(actor ? { actor } : {}), path });
  if (kept) kept.keyed = true;
  return true;
}

/** The resource's own operation of `method` at the very path of `op` (`DELETE /buckets/{{env.bucket_name}}`). */
function sameResourceAt(ctx: RunContext, op: Operation, method: string): Operation | undefined {
  const path = pathOnly(op.path);
  return [...ctx.project.operations.values()].find((o) => o.method === method && o.resource === op.resource && pathOnly(o.path) === path);
}

/** The DELETE (or the GET) at the very path where a keyed instance was made. */
export function keyedOperation(ctx: RunContext, instance: Instance, method: 'DELETE' | 'GET'): Operation | undefined {
  const maker = instance.keyed && instance.origin ? ctx.project.operations.get(instance.origin.operation) : undefined;
  return maker && sameResourceAt(ctx, maker, method);
}

/** A DELETE at a drawn key that removed what the run made there (2xx, or 404/410: gone already): the clean-up does not send it again. */
export function markKeyedGone(ctx: RunContext, op: Operation, res: FlowResponse): Instance | undefined {
  if (op.method !== 'DELETE' || drawnKey(ctx, op) === undefined) return undefined;
  const path = requestPath(res);
  const there = path ? madeAt(ctx, op.resource, path) : undefined;
  if (there) (there.removedBy ??= []).push(op.id);
  return there;
}
