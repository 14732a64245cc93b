// The values at a schema's edges, tried in order before any random draw: where servers get
// their checks wrong (`<` for `<=`, a length counted in bytes, an enum not checked at all).
// Valid edges: each bound, each length limit, each enum value. Invalid ones: one past each
// bound (exclusive bounds: the bound itself), one past each length limit, a value outside the
// enum, then each required property left out (one at a time), then the wrong type for each
// property. A random draw of those finds 0 and 6 around `minimum: 1, maximum: 5` about never.
import fc from 'fast-check';
import { record } from '../openapi/index.js';
import { CUT, integerRange, numberBounds, type JsonSchema } from './schema-bounds.js';

/** One way to change a valid value: a property removed, or a value put at a path. */
export type Mutation = { path: string[]; remove: true } | { path: string[]; value: unknown };

/** Strings longer than this are not put at an edge (a 1 MB maxLength is still tested by its typical values). */
export const MAX_STRING = 4096;
/** Edges are looked for this many object levels down. */
const MAX_EDGE_DEPTH = 2;
const MAX_ENUM = 20;

/**
 * Values of another type that no lenient reading takes for a valid one. Many correct servers
 * coerce what converts without loss (`"12"` to 12, `true` to 1, 12345 to `"12345"`, `"true"`
 * to true, documented in their frameworks) and read an empty value (`{}`, `[]`, `""`) as "not
 * given": sending those would report the framework, not a bug.
 */
export const WRONG_TYPE: Record<string, unknown[]> = {
  string: [{ x: 1 }, [1]],
  integer: ['x', { x: 1 }, [1]],
  number: ['x', { x: 1 }, [1]],
  boolean: [{ x: 1 }, [1]],
  array: ['x', 1, { x: 1 }],
  object: ['x', 1, [1]],
};

export function typeOf(s: JsonSchema): { type?: string; nullable: boolean } {
  const t = s.type;
  if (Array.isArray(t)) {
    const real = t.filter((x) => x !== 'null');
    return { type: typeof real[0] === 'string' ? real[0] : undefined, nullable: t.includes('null') };
  }
  if (typeof t === 'string') return { type: t, nullable: s.nullable === true };
  if (s.properties || s.required) return { type: 'object', nullable: s.nullable === true };
  if (s.items) return { type: 'array', nullable: s.nullable === true };
  return { type: undefined, nullable: s.nullable === true };
}

/** The properties explore may set: not readOnly (the server writes those), not in `keep`. */
function ownProperties(s: JsonSchema, keep: ReadonlySet<string>): Array<[string, JsonSchema]> {
  return Object.entries(record(s.properties))
    .map(([name, ps]): [string, JsonSchema] => [name, record(ps)])
    .filter(([name, ps]) => !keep.has(name) && ps.readOnly !== true && !(CUT in ps));
}

/** Valid values at the edges of `s` and of its properties, each as a mutation of a valid value. */
export function validEdges(s: JsonSchema, keep: ReadonlySet<string> = new Set(), path: string[] = [], depth = 0): Mutation[] {
  const out: Mutation[] = [];
  const put = (value: unknown) => out.push({ path, value });
  if (Array.isArray(s.enum)) for (const v of s.enum.slice(0, MAX_ENUM)) put(v);
  const { type } = typeOf(s);
  if (type === 'integer' && (s.minimum !== undefined || s.exclusiveMinimum !== undefined || s.maximum !== undefined || s.exclusiveMaximum !== undefined)) {
    const { lo, hi } = integerRange(s);
    const m = typeof s.multipleOf === 'number' && Number.isInteger(s.multipleOf) && s.multipleOf > 0 ? s.multipleOf : 1;
    const [first, last] = [Math.ceil(lo / m) * m, Math.floor(hi / m) * m];
    if (s.minimum !== undefined || s.exclusiveMinimum !== undefined) put(first);
    if (last !== first && (s.maximum !== undefined || s.exclusiveMaximum !== undefined)) put(last);
  }
  if (type === 'number' && s.multipleOf === undefined) {
    const b = numberBounds(s);
    if (b.lo !== undefined && !b.loOpen) put(b.lo);
    if (b.hi !== undefined && !b.hiOpen && b.hi !== b.lo) put(b.hi);
  }
  if (type === 'string' && s.format === undefined && s.pattern === undefined) {
    if (typeof s.minLength === 'number' && s.minLength > 0 && s.minLength <= MAX_STRING) put('a'.repeat(s.minLength));
    if (typeof s.maxLength === 'number' && s.maxLength <= MAX_STRING && s.maxLength !== s.minLength) {
      put('a'.repeat(s.maxLength));
      put('é'.repeat(s.maxLength));
    }
  }
  if (type === 'object' && depth < MAX_EDGE_DEPTH) {
    for (const [name, ps] of ownProperties(s, depth ? new Set() : keep)) out.push(...validEdges(ps, undefined, [...path, name], depth + 1));
  }
  return out;
}

/**
 * Values one step past the edges of `s` and of its properties, in the order above: first the
 * ranges, lengths and enums of every property, then each required one left out, then the
 * wrong types. `keep`: top-level properties left as they are.
 */
export function invalidEdges(s: JsonSchema, keep: ReadonlySet<string> = new Set()): Mutation[] {
  const buckets = { range: [] as Mutation[], missing: [] as Mutation[], wrong: [] as Mutation[] };
  collect(s, [], 0, keep, false, buckets);
  return [...buckets.range, ...buckets.missing, ...buckets.wrong];
}

function collect(
  s: JsonSchema,
  path: string[],
  depth: number,
  keep: ReadonlySet<string>,
  optional: boolean,
  out: { range: Mutation[]; missing: Mutation[]; wrong: Mutation[] },
): void {
  const range = (value: unknown) => out.range.push({ path, value });
  const { type, nullable } = typeOf(s);
  if (Array.isArray(s.enum) && s.enum.length) {
    const numbers = s.enum.filter((v): v is number => typeof v === 'number');
    range(numbers.length === s.enum.length ? Math.max(...numbers) + 1 : `not-${String(s.enum[0]).slice(0, 20)}-x`);
  } else if (type === 'integer' || type === 'number') {
    const b = numberBounds(s);
    const past = (bound: number | undefined, open: boolean, step: number) => {
      if (bound === undefined) return;
      const v = open ? bound : bound + step;
      if (Number.isSafeInteger(Math.round(v))) range(type === 'integer' && !open ? Math.round(v) : v);
    };
    if (type === 'integer') {
      // the bounds of a whole number are its first and last whole numbers
      const { lo, hi } = integerRange(s);
      if (b.lo !== undefined) past(lo, false, -1);
      if (b.hi !== undefined) past(hi, false, 1);
    } else {
      past(b.lo, b.loOpen, -1);
      past(b.hi, b.hiOpen, 1);
    }
  } else if (type === 'string') {
    if (typeof s.maxLength === 'number' && s.maxLength < MAX_STRING) range('a'.repeat(s.maxLength + 1));
    if (typeof s.minLength === 'number' && s.minLength > 0 && s.minLength <= MAX_STRING) range('a'.repeat(s.minLength - 1));
  }
  if (type !== undefined && path.length) {
    const wrong = WRONG_TYPE[type]?.[0] ?? 'x';
    out.wrong.push({ path, value: wrong });
    // null for an optional field is, to many correct APIs, "clear it": only a required one gets it
    if (!nullable && !optional) out.wrong.push({ path, value: null });
  }
  if (type === 'object' && depth < MAX_EDGE_DEPTH) {
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    const own = ownProperties(s, depth ? new Set() : keep);
    for (const [name] of own) if (required.includes(name)) out.missing.push({ path: [...path, name], remove: true });
    for (const [name, ps] of own) collect(ps, [...path, name], depth + 1, new Set(), !required.includes(name), out);
  }
}

/** A copy of `value` with `m` applied; a path through a non-object makes the objects it needs. */
export function mutate(value: unknown, m: Mutation): unknown {
  if (!m.path.length) return 'remove' in m ? undefined : m.value;
  const root = value && typeof value === 'object' && !Array.isArray(value) ? structuredClone(value as Record<string, unknown>) : {};
  let node = root;
  for (const key of m.path.slice(0, -1)) {
    const next = node[key];
    node = node[key] = next && typeof next === 'object' && !Array.isArray(next) ? { ...(next as Record<string, unknown>) } : {};
  }
  const last = m.path[m.path.length - 1];
  if ('remove' in m) delete node[last];
  else node[last] = m.value;
  return root;
}

const FIRST = Symbol('first');

/**
 * `firsts`, each once and in order, then draws of `then`. Stateful on purpose: one instance
 * per explore run (a run is one sequence of draws, so the same seed still draws the same). A
 * first value does not shrink: it is the edge that showed the problem; what it is put into
 * (the valid value it mutates) does.
 */
export class FirstThen<T> extends fc.Arbitrary<T> {
  private next = 0;
  constructor(
    private readonly firsts: readonly T[],
    private readonly then: fc.Arbitrary<T>,
  ) {
    super();
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    if (this.next < this.firsts.length) return new fc.Value(this.firsts[this.next++], FIRST);
    return this.then.generate(mrng, biasFactor);
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.then.canShrinkWithoutContext(value);
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return context === FIRST ? fc.Stream.nil() : this.then.shrink(value, context);
  }
}
