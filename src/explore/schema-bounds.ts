// Request schemas read from an untrusted description, made safe to draw from before anything
// is drawn. Resolution follows local `$ref`s with bounds: a `$ref` met again on its own path
// (a tree, a linked list) is cut there (CUT), a chain of `$ref`s that never reaches a schema is
// refused, and so is a schema past MAX_NODES nodes once resolved (an 8-way recursion would
// otherwise grow to millions). The shape check then refuses what no value satisfies (minimum >
// maximum, no multiple in range, too few distinct values for uniqueItems), what is too large
// to draw (minLength 1e8) and a pattern Ajv cannot run (it matches on RE2: no lookaround). A
// refusal names the JSON pointer in the description; explore skips only that operation, with
// a W_EXPLORE_SCHEMA warning.
import { escapePointer, pointerValue, record } from '../openapi/index.js';

export type JsonSchema = Record<string, unknown>;

/** Why one schema is not drawn from, and where in the description. */
export class SchemaRefusal extends Error {
  readonly code = 'W_EXPLORE_SCHEMA';
  constructor(
    readonly pointer: string,
    readonly why: string,
  ) {
    super(`${pointer}: ${why}`);
  }
}

/** The key of the node that stands where a recursive `$ref` was cut (its value: the `$ref`). */
export const CUT = 'x-explore-cut';
/** Schema nodes one resolved schema may hold. */
const MAX_NODES = 5000;
/** Nesting depth of a resolved schema; deeper is cut. */
const MAX_DEPTH = 12;
/** A string longer than this is not drawn: minLength past it is refused. */
const MAX_MIN_LENGTH = 10_000;
/** Items an array must hold at most, for minItems (nested arrays multiply). */
export const MAX_MIN_ITEMS = 20;
/** `{n}` in a pattern past this would draw strings of that length. */
const MAX_REPEAT = 10_000;
const MAX_HOPS = 16;
/** A `$ref` cut more often than this in one schema recurses too many ways to draw from (8 properties each the schema itself). */
const MAX_CUTS = 4;

/** The resolved schema at `pointer`, and the description pointer of each of its nodes. */
export interface Resolved {
  schema: JsonSchema;
  pointers: WeakMap<object, string>;
}

/** The schema at `pointer` with local `$ref`s followed, recursion cut; throws SchemaRefusal. */
export function resolveSchema(doc: unknown, pointer: string): Resolved {
  const pointers = new WeakMap<object, string>();
  let nodes = 0;
  const cuts = new Map<string, number>();
  const visit = (node: unknown, at: string, path: readonly string[], depth: number): JsonSchema => {
    if (++nodes > MAX_NODES) throw new SchemaRefusal(pointer, `more than ${MAX_NODES} schema nodes once its $refs are followed: too large to draw from`);
    let n = record(node);
    const chain: string[] = [];
    while (typeof n.$ref === 'string') {
      const ref = n.$ref;
      if (!ref.startsWith('#/')) return {};
      if (path.includes(ref)) {
        const n = (cuts.get(ref) ?? 0) + 1;
        cuts.set(ref, n);
        if (n > MAX_CUTS) throw new SchemaRefusal(ref.slice(1), `$ref ${ref} recurses into itself more than ${MAX_CUTS} ways: too many to draw from`);
        return { [CUT]: ref };
      }
      if (chain.includes(ref) || chain.length >= MAX_HOPS) throw new SchemaRefusal(at, `$ref ${ref} leads back to itself and never to a schema`);
      chain.push(ref);
      at = ref.slice(1);
      const rest = Object.fromEntries(Object.entries(n).filter(([k]) => k !== '$ref'));
      n = { ...record(pointerValue(doc, at)), ...rest };
    }
    if (depth > MAX_DEPTH) return { [CUT]: at };
    const inner = [...path, ...chain];
    const out: JsonSchema = {};
    pointers.set(out, at);
    for (const [k, v] of Object.entries(n)) {
      if (k === 'properties' && v && typeof v === 'object') {
        out.properties = Object.fromEntries(
          Object.entries(v).map(([name, s]) => [name, visit(s, `${at}/properties/${escapePointer(name)}`, inner, depth + 1)]),
        );
      } else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && v && typeof v === 'object' && !Array.isArray(v)) {
        out[k] = visit(v, `${at}/${k}`, inner, depth + 1);
      } else if ((k === 'allOf' || k === 'oneOf' || k === 'anyOf') && Array.isArray(v)) {
        out[k] = v.map((s, i) => visit(s, `${at}/${k}/${i}`, inner, depth + 1));
      } else out[k] = v;
    }
    return out;
  };
  return { schema: visit(pointerValue(doc, pointer), pointer, [], 0), pointers };
}

/** The first reason `schema` cannot be drawn from, as a SchemaRefusal; undefined when it can. */
export function schemaProblem(r: Resolved): SchemaRefusal | undefined {
  const stack: JsonSchema[] = [r.schema];
  while (stack.length) {
    const s = stack.pop()!;
    const why = shapeProblem(s);
    if (why) return new SchemaRefusal(r.pointers.get(s) ?? '', why);
    for (const k of ['items', 'additionalProperties', 'not']) if (s[k] && typeof s[k] === 'object') stack.push(record(s[k]));
    for (const v of Object.values(record(s.properties))) stack.push(record(v));
    for (const k of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(s[k])) for (const v of s[k] as unknown[]) stack.push(record(v));
  }
  return undefined;
}

export interface NumberBounds {
  lo?: number;
  hi?: number;
  loOpen: boolean;
  hiOpen: boolean;
}

/** minimum/maximum with both forms of exclusiveMinimum/Maximum (3.1's number, 3.0's boolean). */
export function numberBounds(s: JsonSchema): NumberBounds {
  const b: NumberBounds = { loOpen: false, hiOpen: false };
  if (typeof s.minimum === 'number') b.lo = s.minimum;
  if (typeof s.maximum === 'number') b.hi = s.maximum;
  if (typeof s.exclusiveMinimum === 'number' && (b.lo === undefined || s.exclusiveMinimum >= b.lo)) [b.lo, b.loOpen] = [s.exclusiveMinimum, true];
  else if (s.exclusiveMinimum === true) b.loOpen = true;
  if (typeof s.exclusiveMaximum === 'number' && (b.hi === undefined || s.exclusiveMaximum <= b.hi)) [b.hi, b.hiOpen] = [s.exclusiveMaximum, true];
  else if (s.exclusiveMaximum === true) b.hiOpen = true;
  return b;
}

/** The whole numbers `s` allows, clamped to the safe integers: [lo, hi], empty when lo > hi. */
export function integerRange(s: JsonSchema): { lo: number; hi: number } {
  const b = numberBounds(s);
  const lo = b.lo === undefined ? -(2 ** 31) : b.loOpen ? Math.floor(b.lo) + 1 : Math.ceil(b.lo);
  const hi = b.hi === undefined ? 2 ** 31 : b.hiOpen ? Math.ceil(b.hi) - 1 : Math.floor(b.hi);
  return { lo: Math.max(lo, Number.MIN_SAFE_INTEGER), hi: Math.min(hi, Number.MAX_SAFE_INTEGER) };
}

function typeName(s: JsonSchema): string | undefined {
  const t: unknown = Array.isArray(s.type) ? (s.type as unknown[]).find((x) => x !== 'null') : s.type;
  return typeof t === 'string' ? t : undefined;
}

function shapeProblem(s: JsonSchema): string | undefined {
  if (CUT in s || 'const' in s || Array.isArray(s.enum)) return undefined;
  const type = typeName(s);
  const b = numberBounds(s);
  if (b.lo !== undefined && b.hi !== undefined && (b.lo > b.hi || (b.lo === b.hi && (b.loOpen || b.hiOpen))))
    return `minimum ${b.lo} is past maximum ${b.hi}: no number fits`;
  if (typeof s.multipleOf === 'number' && !(s.multipleOf > 0)) return `multipleOf ${s.multipleOf} is not a positive number`;
  if (type === 'integer' || type === 'number') {
    const { lo, hi } = type === 'integer' ? integerRange(s) : { lo: b.lo, hi: b.hi };
    if (type === 'integer' && lo! > hi!) return `no whole number between minimum ${b.lo} and maximum ${b.hi}`;
    const m = s.multipleOf;
    if (typeof m === 'number' && lo !== undefined && hi !== undefined && Number.isFinite(hi / m) && Math.ceil(lo / m) > Math.floor(hi / m))
      return `no multiple of ${m} between ${lo} and ${hi}`;
  }
  const count = (min: unknown, max: unknown, word: string, cap: number) => {
    if (typeof min === 'number' && typeof max === 'number' && min > max) return `min${word} ${min} is past max${word} ${max}`;
    if (typeof min === 'number' && min > cap) return `min${word} ${min}: explore draws at most ${cap}`;
    return undefined;
  };
  const sized =
    count(s.minLength, s.maxLength, 'Length', MAX_MIN_LENGTH) ??
    count(s.minItems, s.maxItems, 'Items', MAX_MIN_ITEMS) ??
    count(s.minProperties, s.maxProperties, 'Properties', Infinity);
  if (sized) return sized;
  if (s.uniqueItems === true && typeof s.minItems === 'number') {
    const distinct = distinctValues(record(s.items));
    if (s.minItems > distinct) return `uniqueItems with minItems ${s.minItems}, but its items allow only ${distinct} distinct value(s)`;
  }
  if (typeof s.pattern === 'string') return patternProblem(s.pattern);
  return undefined;
}

/** How many distinct values `s` allows, when few (Infinity when many or unknown). */
function distinctValues(s: JsonSchema): number {
  if (CUT in s) return Infinity;
  if ('const' in s) return 1;
  if (Array.isArray(s.enum)) return new Set(s.enum.map((v) => JSON.stringify(v))).size;
  const nullable = s.nullable === true || (Array.isArray(s.type) && s.type.includes('null')) ? 1 : 0;
  const type = typeName(s);
  if (type === 'boolean') return 2 + nullable;
  if (type === undefined && s.type === 'null') return 1;
  if (type === 'integer') {
    const { lo, hi } = integerRange(s);
    const m = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : 1;
    return Math.max(0, Math.floor(hi / m) - Math.ceil(lo / m) + 1) + nullable;
  }
  if (type === 'string' && s.maxLength === 0) return 1 + nullable;
  return Infinity;
}

function patternProblem(pattern: string): string | undefined {
  const shown = JSON.stringify(pattern.slice(0, 80));
  try {
    new RegExp(pattern, 'u');
  } catch (err) {
    return `pattern ${shown} is no regular expression (${(err as Error).message.slice(0, 120)})`;
  }
  // Ajv matches patterns on RE2 (linear time), which has no lookaround or backreference
  if (/\(\?<?[=!]|\\[1-9]|\\k</.test(pattern)) return `pattern ${shown} has a lookaround or a backreference, which the linear-time matcher cannot run`;
  for (const m of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    if (Number(m[1]) > MAX_REPEAT) return `pattern ${shown} repeats ${m[1]} times: explore draws strings of at most ${MAX_REPEAT}`;
  }
  return undefined;
}
