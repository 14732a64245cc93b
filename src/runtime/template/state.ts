// The lookup order of docs/format.md#references for scoped references, over any state that can answer two
// questions. The runner's `lookupScoped` can be `(ref) => lookupInState(ref, state)`.
import type { ScopedLookup, ScopedRef } from './context.js';

type Values = Readonly<Record<string, unknown>>;

export interface ScopedState {
  /** the values extracted at login by actor `name`; undefined when no such actor or no session yet */
  session(name: string): Values | undefined;
  /** the instances of resource `name`, oldest first; undefined when no such resource */
  instances(name: string): ReadonlyArray<Values> | undefined;
}

const NOT_FOUND: ScopedLookup = { found: false };

/**
 * Actor session, then indexed resource, then resource (newest instance that has the value).
 *
 * A name that is both an actor and a resource: the actor's session answers first when it
 * holds the field; otherwise the resource does. An index (`x[2].f`) only ever means a
 * resource instance (an actor has one session), and an index that misses is not found:
 * it never falls back to another instance.
 */
export function lookupInState(ref: ScopedRef, state: ScopedState): ScopedLookup {
  if (ref.index === undefined) {
    const session = state.session(ref.scope);
    const fromSession = session && read(session, ref);
    if (fromSession?.found) return fromSession;
  }
  const instances = state.instances(ref.scope);
  if (!instances) return NOT_FOUND;
  if (ref.index !== undefined) {
    const at = indexedPlace(instances, ref.index, ref.field);
    return at < 0 ? NOT_FOUND : read(instances[at], ref);
  }
  for (let i = instances.length - 1; i >= 0; i--) {
    const got = read(instances[i], ref);
    if (got.found) return got;
  }
  return NOT_FOUND;
}

/**
 * Where in `instances` (from 0; -1 when none) an index names for `field`: from 1 the n-th
 * instance; from -1 the n-th newest that has the field, so `[-1]` is the one `{{order.id}}`
 * reads and `[-2]` the one before it: another instance than the newest.
 */
export function indexedPlace(instances: ReadonlyArray<Values>, index: number, field: string): number {
  if (index > 0) return index <= instances.length ? index - 1 : -1;
  let left = -index;
  for (let i = instances.length - 1; i >= 0; i--) if (hasField(instances[i], field) && --left === 0) return i;
  return -1;
}

/** How many of `instances` have `field` (what a negative index counts). */
export function withField(instances: ReadonlyArray<Values>, field: string): number {
  let n = 0;
  for (const values of instances) if (hasField(values, field)) n++;
  return n;
}

function hasField(values: Values, field: string): boolean {
  return Object.hasOwn(values, field) && values[field] !== undefined;
}

/** The field, then each path step into objects and arrays. */
function read(values: Values, ref: ScopedRef): ScopedLookup {
  if (!Object.hasOwn(values, ref.field)) return NOT_FOUND;
  let value: unknown = values[ref.field];
  for (const step of ref.path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, step)) return NOT_FOUND;
    value = (value as Record<string, unknown>)[step];
  }
  // An extraction that produced nothing has not produced the value.
  return value === undefined ? NOT_FOUND : { found: true, value };
}
