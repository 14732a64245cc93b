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
    const instance = instances[ref.index - 1];
    return instance ? read(instance, ref) : NOT_FOUND;
  }
  for (let i = instances.length - 1; i >= 0; i--) {
    const got = read(instances[i], ref);
    if (got.found) return got;
  }
  return NOT_FOUND;
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
