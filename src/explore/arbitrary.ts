// JSON Schema -> fast-check arbitraries: valid values (typical and boundary: lengths, bounds,
// enum edges, formats, unicode, empty) and invalid ones (wrong type, out of range, missing
// required). fast-check draws and shrinks them; the mapping is ours. Ajv has the last word
// (the caller filters with the schema's validator), so a rough edge here never makes a value
// pass for what it is not.
import fc from 'fast-check';
import type { JsonSchema } from './request-schema.js';

type Arb = fc.Arbitrary<unknown>;

/** Boundary strings longer than this are not generated (a 1 MB maxLength is still tested by its typical values). */
const MAX_STRING = 4096;
const MAX_ITEMS = 5;
const MAX_DEPTH = 6;

/** Text servers often mishandle: empty, whitespace, accents, combining marks, astral plane, right-to-left, quotes, markup, NUL. */
const TRICKY = ['', ' ', 'é', 'e\u0301', 'Ω≈ç√', '😀', 'مرحبا', '日本語', "'", '"', '<b>', '\\', '\u0000', 'null'];

/** A template is never generated: the runner would render `{{…}}` in a body. */
const noTemplate = (s: string) => !s.includes('{{');

const length = (s: string) => [...s].length;

const PRINTABLE = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));

function record(v: unknown): JsonSchema {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonSchema) : {};
}

function typeOf(s: JsonSchema): { type?: string; nullable: boolean } {
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

/** Valid values of `s`: mostly typical draws, a quarter to a third boundary ones. */
export function validArbitrary(s: JsonSchema, depth = 0): Arb {
  if (depth > MAX_DEPTH) return fc.constant(null);
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
  if (format) return format().filter((x) => fits(x) && noTemplate(x));
  if (typeof s.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(s.pattern, 'u')).filter((x) => fits(x) && noTemplate(x));
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
    { arbitrary: fc.string({ minLength: min, maxLength: typicalMax, unit: 'grapheme' }).filter(fits), weight: 1 },
  );
  const edges: string[] = TRICKY.filter(fits);
  if (min <= MAX_STRING) edges.push('a'.repeat(min), 'é'.repeat(min));
  if (max !== undefined && max <= MAX_STRING && max >= min) edges.push('a'.repeat(max), 'é'.repeat(max), '😀'.repeat(max));
  const boundary = fc.constantFrom(...new Set(edges.length ? edges : ['a'.repeat(Math.min(min, MAX_STRING))]));
  return fc.oneof({ arbitrary: typical, weight: 3 }, { arbitrary: boundary, weight: 1 }).filter(noTemplate);
}

interface Bounds {
  lo?: number;
  hi?: number;
  loOpen: boolean;
  hiOpen: boolean;
}

/** minimum/maximum with both forms of exclusiveMinimum/Maximum (3.1's number, 3.0's boolean). */
function bounds(s: JsonSchema): Bounds {
  const b: Bounds = { loOpen: false, hiOpen: false };
  if (typeof s.minimum === 'number') b.lo = s.minimum;
  if (typeof s.maximum === 'number') b.hi = s.maximum;
  if (typeof s.exclusiveMinimum === 'number') [b.lo, b.loOpen] = [s.exclusiveMinimum, true];
  else if (s.exclusiveMinimum === true) b.loOpen = true;
  if (typeof s.exclusiveMaximum === 'number') [b.hi, b.hiOpen] = [s.exclusiveMaximum, true];
  else if (s.exclusiveMaximum === true) b.hiOpen = true;
  return b;
}

function integerArbitrary(s: JsonSchema): Arb {
  const b = bounds(s);
  const lo = b.lo === undefined ? -(2 ** 31) : Math.ceil(b.loOpen ? b.lo + 1e-9 : b.lo);
  const hi = b.hi === undefined ? 2 ** 31 : Math.floor(b.hiOpen ? b.hi - 1e-9 : b.hi);
  if (lo > hi) return fc.constant(lo);
  const step = typeof s.multipleOf === 'number' && Number.isInteger(s.multipleOf) && s.multipleOf > 0 ? s.multipleOf : 1;
  const k = (n: number) => n * step;
  const typical = fc.integer({ min: Math.ceil(lo / step), max: Math.floor(hi / step) }).map(k);
  const edges = [lo, hi, lo + 1, hi - 1, 0, -1, 1].filter((n) => n >= lo && n <= hi && n % step === 0);
  return edges.length ? fc.oneof({ arbitrary: typical, weight: 2 }, { arbitrary: fc.constantFrom(...new Set(edges)), weight: 1 }) : typical;
}

function numberArbitrary(s: JsonSchema): Arb {
  if (typeof s.multipleOf === 'number') return integerArbitrary(s);
  const b = bounds(s);
  const typical = fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(b.lo !== undefined ? { min: b.lo, minExcluded: b.loOpen } : {}),
    ...(b.hi !== undefined ? { max: b.hi, maxExcluded: b.hiOpen } : {}),
  });
  const inRange = (n: number) => (b.lo === undefined || (b.loOpen ? n > b.lo : n >= b.lo)) && (b.hi === undefined || (b.hiOpen ? n < b.hi : n <= b.hi));
  const edges = [b.lo, b.hi, 0, 0.5, -1, 1, 1e15].filter((n): n is number => n !== undefined && inRange(n));
  return edges.length ? fc.oneof({ arbitrary: typical, weight: 2 }, { arbitrary: fc.constantFrom(...new Set(edges)), weight: 1 }) : typical;
}

function arrayArbitrary(s: JsonSchema, depth: number): Arb {
  const item = validArbitrary(record(s.items), depth + 1);
  const minLength = typeof s.minItems === 'number' ? Math.min(s.minItems, 20) : 0;
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
    if (!readOnly(name)) arbs[name] = validArbitrary(record(ps), depth + 1);
  }
  for (const name of required) if (!readOnly(name)) arbs[name] ??= stringArbitrary({});
  return fc.record(arbs, { requiredKeys: [...required].filter((n) => n in arbs) });
}

/** One way to break a valid value: a property removed, or a value put at a path. */
type Mutation = { path: string[]; remove: true } | { path: string[]; value: unknown };

/**
 * Values that break `s` (wrong type, out of range, missing required, too long or too short,
 * not in the enum), each made from a valid value by one mutation, at the top or in a property
 * up to two levels down. The caller keeps those the validator refuses. A `format` or
 * `pattern` is left alone: what a correct API checks of a string's content varies too much
 * for a 2xx to prove a bug.
 */
export function invalidArbitrary(s: JsonSchema, keep: ReadonlySet<string> = new Set()): Arb | undefined {
  const mutations = mutationsOf(s, [], 0, keep);
  if (!mutations.length) return undefined;
  return fc.tuple(validArbitrary(s), fc.oneof(...mutations)).map(([value, m]) => mutate(value, m));
}

/** `keep`: top-level properties left as they are */
function mutationsOf(s: JsonSchema, path: string[], depth: number, keep: ReadonlySet<string> = new Set(), optional = false): fc.Arbitrary<Mutation>[] {
  if (Array.isArray(s.allOf) && s.allOf.length) return mutationsOf(merged(s), path, depth, keep, optional);
  const out: fc.Arbitrary<Mutation>[] = [];
  const at = (value: Arb) => out.push(value.map((v) => ({ path, value: v })));
  const { type, nullable } = typeOf(s);
  if (type !== undefined || Array.isArray(s.enum)) {
    const wrong = WRONG_TYPE[type ?? 'string'] ?? ['x'];
    // null for an optional field is, to many correct APIs, "clear it": only a required one gets it
    at(fc.constantFrom(...wrong, ...(nullable || type === 'null' || optional ? [] : [null])));
  }
  if (Array.isArray(s.enum) && s.enum.length) at(fc.constant(`not-${String(s.enum[0]).slice(0, 20)}-x`));
  const b = bounds(s);
  if (type === 'integer' || type === 'number') {
    const below = b.lo === undefined ? undefined : b.loOpen ? b.lo : b.lo - 1;
    const above = b.hi === undefined ? undefined : b.hiOpen ? b.hi : b.hi + 1;
    if (below !== undefined) at(fc.integer({ min: -1e6, max: Math.floor(below) }).map((n) => Math.min(n, below)));
    if (above !== undefined) at(fc.integer({ min: Math.ceil(above), max: Math.ceil(above) + 1e6 }).map((n) => Math.max(n, above)));
    if (type === 'integer') at(fc.constant(0.5));
  }
  if (type === 'string') {
    if (typeof s.maxLength === 'number' && s.maxLength < MAX_STRING) at(fc.constantFrom('a'.repeat(s.maxLength + 1), 'é'.repeat(s.maxLength + 1)));
    if (typeof s.minLength === 'number' && s.minLength > 0) at(fc.constant('a'.repeat(Math.min(s.minLength - 1, MAX_STRING))));
  }
  if (type === 'array') {
    if (typeof s.maxItems === 'number' && s.maxItems < 50)
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

const WRONG_TYPE: Record<string, unknown[]> = {
  string: [12345, true, {}, []],
  integer: ['12', 1.5, true, {}],
  number: ['1.5', true, {}, []],
  boolean: ['true', 1, {}],
  array: ['x', 1, {}],
  object: ['x', 1, []],
};

/** A copy of `value` with `m` applied; a path through a non-object makes the objects it needs. */
function mutate(value: unknown, m: Mutation): unknown {
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
