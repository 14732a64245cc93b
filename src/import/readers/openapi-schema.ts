// Fields of a (dereferenced, possibly circular) JSON Schema: the property paths it states, with
// `required` and a value the schema gives (example, default, first enum value). Bounded in
// depth and cached per schema object, so a 4 MB description with shared schemas stays fast.
import type { Evidence, ObservedField } from '../observed.js';

type Schema = Record<string, unknown>;

interface RelField {
  path: string[];
  listPath?: string[];
  type?: 'object' | 'array' | 'scalar';
  required: boolean;
  example?: unknown;
  format?: string;
}

const cache = new WeakMap<object, Map<number, RelField[]>>();

export function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The value a schema states for itself: `example`, `default`, `const`, or the first `enum`
 * value; else the first such value one of its `oneOf`/`anyOf`/`allOf` schemas states (a role
 * given "either as its id or its name" has the id's example).
 */
export function schemaValue(s: unknown, depth = 0): unknown {
  if (!isSchema(s) || depth > 4) return undefined;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum.find((e) => e !== null && e !== '') ?? s.enum[0];
  for (const alternatives of [s.oneOf, s.anyOf, s.allOf]) {
    if (!Array.isArray(alternatives)) continue;
    for (const alt of alternatives) {
      const v = schemaValue(alt, depth + 1);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

/** A string schema's `format`, when it states one. */
export function formatOf(s: unknown): string | undefined {
  return isSchema(s) && typeof s.format === 'string' ? s.format : undefined;
}

/** Properties and required names of a schema, with allOf merged and anyOf/oneOf variants unioned. */
function propertiesOf(s: Schema): { props: Record<string, unknown>; required: Set<string> } {
  const props: Record<string, unknown> = {};
  const required = new Set<string>();
  const visit = (x: unknown, inAlternative: boolean, depth: number): void => {
    if (!isSchema(x) || depth > 4) return;
    if (isSchema(x.properties)) for (const [k, v] of Object.entries(x.properties)) if (!(k in props)) props[k] = v;
    if (!inAlternative && Array.isArray(x.required)) for (const r of x.required) if (typeof r === 'string') required.add(r);
    if (Array.isArray(x.allOf)) for (const p of x.allOf) visit(p, inAlternative, depth + 1);
    for (const alt of [x.anyOf, x.oneOf]) if (Array.isArray(alt)) for (const p of alt) visit(p, true, depth + 1);
  };
  visit(s, false, 0);
  return { props, required };
}

function typeOf(s: unknown): RelField['type'] {
  if (!isSchema(s)) return undefined;
  if (s.type === 'array' || itemsOf(s)) return 'array';
  if (s.type === 'object' || isSchema(s.properties) || s.additionalProperties !== undefined) return 'object';
  if (typeof s.type === 'string') return 'scalar';
  const alts = [s.anyOf, s.oneOf, s.allOf].find(Array.isArray) as unknown[] | undefined;
  if (alts) {
    const kinds = new Set(alts.map(typeOf));
    if (kinds.size === 1) return [...kinds][0];
    if (kinds.has('scalar')) return 'scalar'; // e.g. an expandable id-or-object: an id will do
  }
  return undefined;
}

/** The item schema when `s` is an array schema (directly or through allOf/anyOf). */
function itemsOf(s: Schema): Schema | undefined {
  if (isSchema(s.items)) return s.items;
  for (const alt of [s.allOf, s.anyOf, s.oneOf]) {
    if (!Array.isArray(alt)) continue;
    for (const p of alt) if (isSchema(p) && isSchema(p.items)) return p.items;
  }
  return undefined;
}

function relFields(s: Schema, depth: number, stack: Set<object>): RelField[] {
  const hit = cache.get(s)?.get(depth);
  if (hit) return hit;
  if (stack.has(s)) return []; // a cycle: cut here, and do not cache the cut result
  stack.add(s);
  const out: RelField[] = [];
  const items = itemsOf(s);
  if (items) {
    // A list: its item fields, relative to each item (lists of lists are not addressed).
    for (const f of relFields(items, depth, stack)) if (!f.listPath) out.push({ ...f, listPath: [] });
  } else {
    const { props, required } = propertiesOf(s);
    for (const [name, sub] of Object.entries(props)) {
      out.push({ path: [name], required: required.has(name), example: schemaValue(sub), type: typeOf(sub), format: formatOf(sub) });
      if (depth <= 1 || !isSchema(sub)) continue;
      for (const f of relFields(sub, depth - 1, stack)) {
        out.push({
          path: f.listPath ? f.path : [name, ...f.path],
          listPath: f.listPath ? [name, ...f.listPath] : undefined,
          required: f.required && required.has(name),
          example: f.example,
          type: f.type,
          format: f.format,
        });
      }
    }
  }
  stack.delete(s);
  let byDepth = cache.get(s);
  if (!byDepth) cache.set(s, (byDepth = new Map()));
  byDepth.set(depth, out);
  return out;
}

/** Every field a schema states, down to `depth` levels of nesting (lists count as no level). */
export function schemaFields(schema: unknown, evidence: Evidence, depth = 3): ObservedField[] {
  if (!isSchema(schema)) return [];
  return relFields(schema, depth, new Set()).map((f) => ({ ...f, evidence }));
}

/** Fields of a JSON value seen in traffic or in a documentation example. */
export function valueFields(value: unknown, evidence: Evidence, depth = 4): ObservedField[] {
  const out: ObservedField[] = [];
  const walk = (v: unknown, path: string[], listPath: string[] | undefined, d: number): void => {
    if (d < 0) return;
    if (Array.isArray(v)) {
      if (listPath) return; // lists of lists: not addressed
      const first = v.find((x) => typeof x === 'object' && x !== null);
      if (first !== undefined) walk(first, [], path, d);
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    for (const [k, sub] of Object.entries(v as Record<string, unknown>)) {
      const p = [...path, k];
      const type = Array.isArray(sub) ? 'array' : typeof sub === 'object' && sub !== null ? 'object' : 'scalar';
      out.push({ path: p, listPath, required: false, type, example: typeof sub === 'object' ? undefined : sub, evidence });
      walk(sub, p, listPath, d - 1);
    }
  };
  walk(value, [], undefined, depth);
  return out;
}
