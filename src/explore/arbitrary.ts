// JSON Schema -> fast-check arbitraries: valid values (typical and boundary: lengths, bounds,
// enum edges, formats, unicode, empty) and invalid ones (wrong type, out of range, missing
// required). fast-check draws and shrinks them; the mapping is ours. Ajv has the last word
// (the caller filters with the schema's validator), so a rough edge here never makes a value
// pass for what it is not.
import fc from 'fast-check';
import { FirstThen, invalidEdges, MAX_STRING, mutate, typeOf, validEdges, WRONG_TYPE, type Mutation } from './boundaries.js';
import { CUT, integerRange, MAX_MIN_ITEMS, numberBounds, type JsonSchema } from './schema-bounds.js';

type Arb = fc.Arbitrary<unknown>;

const MAX_ITEMS = 5;
const MAX_DEPTH = 6;
/** Draws a filter takes before it gives up (fast-check's own filter draws until one passes: forever, when none does). */
const TRIES = 100;

/** Text servers often mishandle: empty, whitespace, accents, combining marks, astral plane, right-to-left, quotes, markup, NUL. */
const TRICKY = ['', ' ', 'é', 'e\u0301', 'Ω≈ç√', '😀', 'مرحبا', '日本語', "'", '"', '<b>', '\\', '\u0000', 'null'];

/** A template is never generated: the runner would render `{{…}}` in a body. */
const noTemplate = (s: string) => !s.includes('{{');

const length = (s: string) => [...s].length;

const PRINTABLE = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));

function record(v: unknown): JsonSchema {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonSchema) : {};
}

/** allOf's members merged into one schema (properties and required joined; the rest: last wins). */
function merged(s: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...s, allOf: undefined };
  for (const part of (s.allOf as unknown[]).map(record)) {
    const flat = part.allOf ? merged(part) : part;
    out.properties = { ...record(out.properties), ...record(flat.properties) };
    out.required = [...new Set([...((out.required as string[]) ?? []), ...((flat.required as string[]) ?? [])])];
    for (const [k, v] of Object.entries(flat)) if (k !== 'properties' && k !== 'required') out[k] = v;
  }
  return out;
}

/**
 * `arb.filter(keep)` that gives up after TRIES draws and then answers `fallback()`, or without
 * one the last draw (a caller further up, with Ajv's last word, then refuses it): a schema no
 * draw satisfies costs TRIES draws, never a hang. A throw from `keep` is a refusal.
 */
export class Sieve<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly arb: fc.Arbitrary<T>,
    private readonly keep: (v: T) => boolean,
    private readonly fallback?: () => T | undefined,
  ) {
    super();
  }
  private ok(v: T): boolean {
    try {
      return this.keep(v);
    } catch {
      return false;
    }
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    let last!: fc.Value<T>;
    for (let i = 0; i < TRIES; i++) {
      last = this.arb.generate(mrng, biasFactor);
      if (this.ok(last.value)) return last;
    }
    const f = this.fallback?.();
    return f === undefined ? last : new fc.Value(f, FALLBACK);
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.arb.canShrinkWithoutContext(value) && this.ok(value);
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return context === FALLBACK ? fc.Stream.nil() : this.arb.shrink(value, context).filter((v) => this.ok(v.value));
  }
}

const FALLBACK = Symbol('fallback');

const sieve = <T>(arb: fc.Arbitrary<T>, keep: (v: T) => boolean): fc.Arbitrary<T> => new Sieve(arb, keep);

/** Valid values of `s`: its valid edges first, one per draw and in order (./boundaries.ts), then random draws. */
export function validWithEdges(s: JsonSchema, keep: ReadonlySet<string> = new Set()): Arb {
  const edges = validEdges(s, keep);
  if (!edges.length) return validArbitrary(s);
  return fc.tuple(validArbitrary(s), new FirstThen<Mutation | undefined>(edges, fc.constant(undefined))).map(([v, m]) => (m ? mutate(v, m) : v));
}

/** Valid values of `s`: mostly typical draws, a quarter to a third boundary ones. */
export function validArbitrary(s: JsonSchema, depth = 0): Arb {
  if (depth > MAX_DEPTH || CUT in s) return fc.constant(null);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.allOf) && s.allOf.length) return validArbitrary(merged(s), depth);
  const branches = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length) {
    const { oneOf: _o, anyOf: _a, ...rest } = s;
    return fc.oneof(...branches.map((b) => validArbitrary({ ...rest, ...record(b) }, depth + 1)));
  }
  const { type, nullable } = typeOf(s);
  const arb = typed(type, s, depth);
  return nullable ? fc.oneof({ arbitrary: arb, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : arb;
}

function typed(type: string | undefined, s: JsonSchema, depth: number): Arb {
  switch (type) {
    case 'string':
      return stringArbitrary(s);
    case 'integer':
      return integerArbitrary(s);
    case 'number':
      return numberArbitrary(s);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayArbitrary(s, depth);
    case 'object':
      return objectArbitrary(s, depth);
    default:
      return fc.oneof(stringArbitrary({}), fc.integer(), fc.boolean());
  }
}

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  'date-time': () => fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: () =>
    fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  email: () => fc.emailAddress(),
  uuid: () => fc.uuid(),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  hostname: () => fc.domain(),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
};

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const min = typeof s.minLength === 'number' ? Math.max(0, s.minLength) : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
  const fits = (x: string) => length(x) >= min && (max === undefined || length(x) <= max);
  const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
  if (format) return sieve(format(), (x) => fits(x) && noTemplate(x));
  if (typeof s.pattern === 'string') {
    try {
      return sieve(fc.stringMatching(new RegExp(s.pattern, 'u')), (x) => fits(x) && noTemplate(x));
    } catch {
      // a pattern JavaScript cannot read: typical strings, which Ajv then sorts
    }
  }
  const typicalMax = Math.min(max ?? min + 24, min + 24);
  // mostly printable ASCII, so that a sequence gets past the first odd value to the steps after it
  const typical = fc.oneof(
    { arbitrary: fc.string({ minLength: min, maxLength: typicalMax, unit: PRINTABLE }), weight: 3 },
    { arbitrary: fc.string({ minLength: min, maxLength: typicalMax, unit: 'grapheme-ascii' }), weight: 1 },
    // a grapheme may be several code points, and JSON Schema counts code points
    { arbitrary: sieve(fc.string({ minLength: min, maxLength: typicalMax, unit: 'grapheme' }), fits), weight: 1 },
  );
  const edges: string[] = TRICKY.filter(fits);
  if (min <= MAX_STRING) edges.push('a'.repeat(min), 'é'.repeat(min));
  if (max !== undefined && max <= MAX_STRING && max >= min) edges.push('a'.repeat(max), 'é'.repeat(max), '😀'.repeat(max));
  const boundary = fc.constantFrom(...new Set(edges.length ? edges : ['a'.repeat(Math.min(min, MAX_STRING))]));
  return sieve(fc.oneof({ arbitrary: typical, weight: 3 }, { arbitrary: boundary, weight: 1 }), noTemplate);
}

/** k × step for whole k, kept within the safe integers. */
function multiples(lo: number, hi: number, step: number): Arb {
  const first = Math.max(Math.ceil(lo / step), Math.ceil(Number.MIN_SAFE_INTEGER / step));
  const last = Math.min(Math.floor(hi / step), Math.floor(Number.MAX_SAFE_INTEGER / step));
  return fc.integer({ min: first, max: Math.max(first, last) }).map((k) => k * step);
}

function integerArbitrary(s: JsonSchema): Arb {
  // clamped to the safe integers: a maximum of 2^63 would make every draw a slow big-integer one
  const { lo, hi } = integerRange(s);
  if (lo > hi) return fc.constant(lo);
  const step = typeof s.multipleOf === 'number' && Number.isInteger(s.multipleOf) && s.multipleOf > 0 ? s.multipleOf : 1;
  const typical = multiples(lo, hi, step);
  const edges = [lo, hi, lo + 1, hi - 1, 0, -1, 1].filter((n) => n >= lo && n <= hi && n % step === 0);
  return edges.length ? fc.oneof({ arbitrary: typical, weight: 2 }, { arbitrary: fc.constantFrom(...new Set(edges)), weight: 1 }) : typical;
}

function numberArbitrary(s: JsonSchema): Arb {
  const b = numberBounds(s);
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
    const lo = b.lo ?? -(2 ** 31);
    const hi = b.hi ?? 2 ** 31;
    // an open bound that is itself a multiple: Ajv refuses that one draw
    return multiples(lo, hi, s.multipleOf);
  }
  const safe = (n: number | undefined) => (n === undefined ? undefined : Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, n)));
  const typical = fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(b.lo !== undefined ? { min: safe(b.lo), minExcluded: b.loOpen } : {}),
    ...(b.hi !== undefined ? { max: safe(b.hi), maxExcluded: b.hiOpen } : {}),
  });
  const inRange = (n: number) => (b.lo === undefined || (b.loOpen ? n > b.lo : n >= b.lo)) && (b.hi === undefined || (b.hiOpen ? n < b.hi : n <= b.hi));
  const edges = [b.lo, b.hi, 0, 0.5, -1, 1, 1e15].filter((n): n is number => n !== undefined && inRange(n));
  return edges.length ? fc.oneof({ arbitrary: typical, weight: 2 }, { arbitrary: fc.constantFrom(...new Set(edges)), weight: 1 }) : typical;
}

function arrayArbitrary(s: JsonSchema, depth: number): Arb {
  const items = record(s.items);
  const minLength = typeof s.minItems === 'number' ? Math.min(s.minItems, MAX_MIN_ITEMS) : 0;
  // a recursion cut here (./schema-bounds.ts): the shortest list
  if (CUT in items) return fc.constant(minLength ? [{}] : []);
  const item = validArbitrary(items, depth + 1);
  const maxLength = Math.max(minLength, Math.min(typeof s.maxItems === 'number' ? s.maxItems : MAX_ITEMS, minLength + MAX_ITEMS));
  return s.uniqueItems === true ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(item, { minLength, maxLength });
}

function objectArbitrary(s: JsonSchema, depth: number): Arb {
  const properties = record(s.properties);
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const arbs: Record<string, Arb> = {};
  const readOnly = (name: string) => record(properties[name]).readOnly === true;
  for (const [name, ps] of Object.entries(properties)) {
    // a request does not send what only the server writes (OpenAPI's readOnly)
    // a recursion cut here (./schema-bounds.ts): left out when it may be, `{}` when required
    if (CUT in record(ps)) {
      if (required.has(name)) arbs[name] = fc.constant({});
    } else if (!readOnly(name)) arbs[name] = validArbitrary(record(ps), depth + 1);
  }
  for (const name of required) if (!readOnly(name)) arbs[name] ??= stringArbitrary({});
  return fc.record(arbs, { requiredKeys: [...required].filter((n) => n in arbs) });
}

/**
 * Values that break `s` (wrong type, out of range, missing required, too long or too short,
 * not in the enum), each made from a valid value by one mutation, at the top or in a property
 * up to two levels down: first each edge of ./boundaries.ts in order, then random ones (out of
 * range mostly near the bound). The caller keeps those the validator refuses. A `format` or
 * `pattern` is left alone: what a correct API checks of a string's content varies too much
 * for a 2xx to prove a bug.
 */
export function invalidArbitrary(s: JsonSchema, keep: ReadonlySet<string> = new Set()): Arb | undefined {
  const mutations = mutationsOf(s, [], 0, keep);
  const edges = invalidEdges(s, keep);
  if (!mutations.length && !edges.length) return undefined;
  const random = mutations.length ? fc.oneof(...mutations) : fc.constantFrom(...edges);
  return fc.tuple(validArbitrary(s), new FirstThen<Mutation>(edges, random)).map(([value, m]) => mutate(value, m));
}

/** Whole numbers from `edge` on, away from the range (`dir` -1: below it): mostly within 100 of it. */
function past(edge: number, dir: 1 | -1): fc.Arbitrary<number> {
  const away = (max: number) => fc.integer({ min: 0, max }).map((d) => edge + dir * d);
  return sieve(fc.oneof({ arbitrary: away(100), weight: 3 }, { arbitrary: away(1e6), weight: 1 }), (n) => Number.isSafeInteger(Math.round(n)));
}

/** `keep`: top-level properties left as they are */
function mutationsOf(s: JsonSchema, path: string[], depth: number, keep: ReadonlySet<string> = new Set(), optional = false): fc.Arbitrary<Mutation>[] {
  if (Array.isArray(s.allOf) && s.allOf.length) return mutationsOf(merged(s), path, depth, keep, optional);
  if (CUT in s) return [];
  const out: fc.Arbitrary<Mutation>[] = [];
  const at = (value: Arb) => out.push(value.map((v) => ({ path, value: v })));
  const { type, nullable } = typeOf(s);
  if (type !== undefined || Array.isArray(s.enum)) {
    const wrong = WRONG_TYPE[type ?? 'string'] ?? ['x'];
    // null for an optional field is, to many correct APIs, "clear it": only a required one gets it
    at(fc.constantFrom(...wrong, ...(nullable || type === 'null' || optional ? [] : [null])));
  }
  if (Array.isArray(s.enum) && s.enum.length) at(fc.constant(`not-${String(s.enum[0]).slice(0, 20)}-x`));
  const b = numberBounds(s);
  if (type === 'integer' || type === 'number') {
    const whole = type === 'integer' ? integerRange(s) : undefined;
    const below = b.lo === undefined ? undefined : whole ? whole.lo - 1 : b.loOpen ? b.lo : b.lo - 1;
    const above = b.hi === undefined ? undefined : whole ? whole.hi + 1 : b.hiOpen ? b.hi : b.hi + 1;
    if (below !== undefined && Number.isFinite(below)) at(past(below, -1));
    if (above !== undefined && Number.isFinite(above)) at(past(above, 1));
    if (type === 'integer') at(fc.constant(0.5));
  }
  if (type === 'string') {
    if (typeof s.maxLength === 'number' && s.maxLength < MAX_STRING) at(fc.constantFrom('a'.repeat(s.maxLength + 1), 'é'.repeat(s.maxLength + 1)));
    if (typeof s.minLength === 'number' && s.minLength > 0) at(fc.constant('a'.repeat(Math.min(s.minLength - 1, MAX_STRING))));
  }
  if (type === 'array') {
    if (typeof s.maxItems === 'number' && s.maxItems < 50 && !(CUT in record(s.items)))
      at(fc.array(validArbitrary(record(s.items)), { minLength: s.maxItems + 1, maxLength: s.maxItems + 1 }));
    if (depth < 2 && s.items) {
      for (const m of mutationsOf(record(s.items), [], depth + 1)) out.push(m.map((inner) => ({ path, value: [mutate(undefined, inner)] })));
    }
  }
  if (type === 'object' && depth < 2) {
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    const properties = record(s.properties);
    // what only the server writes is not the request's to break
    const mine = (name: string) => !keep.has(name) && record(properties[name]).readOnly !== true;
    for (const name of required) if (mine(name)) out.push(fc.constant({ path: [...path, name], remove: true as const }));
    for (const [name, ps] of Object.entries(properties))
      if (mine(name)) out.push(...mutationsOf(record(ps), [...path, name], depth + 1, undefined, !required.includes(name)));
  }
  return out;
}
