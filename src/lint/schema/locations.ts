// Where each schema object is written, carried inside the object itself. Ajv's `schemaPath` is
// relative to what it inlined, and its precompiled (standalone) code hands out copies of the
// schema objects, so neither the path nor object identity says where a failing keyword
// lives; a keyword written into every schema object survives both.

/** Annotation keyword: `common.schema.json#/definitions/method` (Ajv generates no code for it). */
export const LOCATION_KEYWORD = 'x-location';

/** Draft-07 keywords whose value is one schema, a map of schemas, or a list of schemas. */
const ONE_SCHEMA = new Set(['additionalItems', 'additionalProperties', 'contains', 'else', 'if', 'items', 'not', 'propertyNames', 'then']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'items']);

/** A copy of `schema` (from `file`) in which every schema object names its location. */
export function withLocations(schema: Record<string, unknown>, file: string): Record<string, unknown> {
  return annotate(schema, `${file}#`) as Record<string, unknown>;
}

/** Where a schema object (an Ajv error's `parentSchema`) is written; undefined for a boolean schema. */
export function schemaLocation(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const at = (schema as Record<string, unknown>)[LOCATION_KEYWORD];
  return typeof at === 'string' ? at : undefined;
}

function annotate(node: unknown, at: string): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const here = `${at}/${pointerSegment(key)}`;
    if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map((v, i) => annotate(v, `${here}/${i}`));
    else if (ONE_SCHEMA.has(key)) out[key] = annotate(value, here);
    else if (SCHEMA_MAPS.has(key) && isPlainObject(value)) out[key] = mapValues(value, (v, k) => annotate(v, `${here}/${pointerSegment(k)}`));
    else out[key] = value;
  }
  out[LOCATION_KEYWORD] = at;
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues(map: Record<string, unknown>, f: (value: unknown, key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(map)) out[k] = f(v, k);
  return out;
}

function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
