// A create that answers no id (204, or 201 with no body; docs/format.md#create-no-id): the item it
// made shows only in its parent's read or a list. A read of the resource that lists items
// (`$.data.links[*].id`) finds it as the one item that carries what the create sent, with proof
// that it is the run's: a value sent run-unique (`https://example.com/#{{$.uuid}}`, as names
// are). That item is the create's instance, still the run's own; every other item of the list is
// the server's, not the run's, as a list always gives.
import { isPlainObject, type Operation } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import { isFanOutPath, makesRunUnique } from '../graph/index.js';
import { readPath } from '../runtime/index.js';
import type { RunContext } from './context.js';
import type { Instance } from './state.js';
import { scalar } from './origin-removal.js';

/** A UUID as `{{$.uuid}}` renders it. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** `<list>[*]<rest>`: the last wildcard, on an array. */
const LAST_STAR = /^(.*)\[\s*\*\s*\](.*)$/;

/**
 * What a create sent, when a field of it is run-unique: written with `{{$.uuid}}` in the
 * operation's body and sent with a UUID in it (a probe's body is data: it proves nothing).
 */
export function sentBy(op: Operation, sent: Record<string, unknown> | undefined): Instance['sent'] {
  if (!sent || !isPlainObject(op.body)) return undefined;
  const values: Record<string, string | number> = {};
  const unique: string[] = [];
  for (const [field, raw] of Object.entries(sent)) {
    const v = scalar(raw);
    if (v === undefined) continue;
    values[field] = v;
    const written = op.body[field];
    if (typeof v === 'string' && typeof written === 'string' && UUID.test(v) && makesRunUnique(written)) unique.push(field);
  }
  return unique.length ? { values, unique } : undefined;
}

/**
 * When `op` (a GET of the resource) lists items and one of them carries what a create of this
 * run sent that answered no id, that create's instance takes the item's values (state.claim, after
 * `many` is recorded without it). Returns `many` without the claimed item.
 */
export function claimMade(
  ctx: RunContext,
  op: Operation,
  res: FlowResponse,
  many: Record<string, unknown[]>,
): { many: Record<string, unknown[]>; claim?: () => void } {
  if (op.method !== 'GET') return { many };
  const pending = ctx.state.aside(op.resource).filter((i) => i.sent && i.owned);
  if (!pending.length) return { many };
  const lists = listOf(op, many);
  if (!lists) return { many };
  const items = readPath(lists.prefix, res).values[0];
  if (!Array.isArray(items) || Object.values(many).some((v) => v.length !== items.length)) return { many };
  // newest first: the latest create's item is the one a later write names
  for (const instance of [...pending].reverse()) {
    const at = items.flatMap((item, i) => (carries(item, instance.sent!) ? [i] : []));
    if (at.length !== 1) continue;
    const i = at[0];
    const values = Object.fromEntries(Object.entries(many).map(([name, v]) => [name, v[i]]));
    const rest = Object.fromEntries(Object.entries(many).map(([name, v]) => [name, v.filter((_, j) => j !== i)]));
    return { many: rest, claim: () => ctx.state.claim(op.resource, instance, values, op.id) };
  }
  return { many };
}

/** The one list every fan-out extraction of `op` walks (`$.data.links` of `$.data.links[*].id`), with nothing else fanning out. */
function listOf(op: Operation, many: Record<string, unknown[]>): { prefix: string } | undefined {
  let prefix: string | undefined;
  for (const spec of op.extract) {
    if (!Object.hasOwn(many, spec.name)) continue;
    const m = spec.source === 'jsonpath' ? LAST_STAR.exec(spec.path.trim()) : null;
    if (!m || isFanOutPath(m[1]) || isFanOutPath(`$.data${m[2]}`)) return undefined;
    if (prefix !== undefined && prefix !== m[1]) return undefined;
    prefix = m[1];
  }
  return prefix === undefined ? undefined : { prefix };
}

/** The item has each run-unique value as sent, and every other field it shares with what was sent is as sent too. */
function carries(item: unknown, sent: NonNullable<Instance['sent']>): boolean {
  if (!isPlainObject(item)) return false;
  if (!sent.unique.every((f) => item[f] === sent.values[f])) return false;
  return Object.entries(sent.values).every(([f, v]) => !Object.hasOwn(item, f) || item[f] === v);
}
