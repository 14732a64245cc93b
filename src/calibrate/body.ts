// What calibrate may propose for a request's body: only on a method that sends one; the
// fields a 400/422 names read against the fields known (the body's own keys, the schema's
// properties), and, for a 415 to a write sent without a body, a JSON body with the fields
// the description requires.
import { isPlainObject, type Operation, type TemplateValue } from '../project/index.js';
import { namedFields } from './error-fields.js';
import { exampleOf, valueFor } from './values.js';

type Schema = Record<string, unknown>;
type FieldSchema = ((op: Operation, field: string) => Schema | undefined) | undefined;

/** GET, HEAD, DELETE and OPTIONS send no body here: a field they lack is a parameter, never a body. */
export const sendsBody = (op: Pick<Operation, 'method'>) => op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH';

/** Keys read at most from a body or a schema: both are untrusted. */
const MAX_KEYS = 200;

/** `{ issue: { subject } }` -> `issue`, `issue.subject`: every key of a body, dotted, two levels deep. */
function keysOf(value: unknown, prefix = '', depth = 0, out: string[] = []): string[] {
  if (!isPlainObject(value) || depth > 2) return out;
  for (const [k, v] of Object.entries(value)) {
    if (out.length >= MAX_KEYS) break;
    out.push(prefix + k);
    keysOf(v, `${prefix}${k}.`, depth + 1, out);
  }
  return out;
}

/** The body schema's properties, dotted one wrapper deep (`issue.subject`). */
function schemaKeys(schema: Schema | undefined): string[] {
  const props = isPlainObject(schema?.properties) ? schema.properties : {};
  const out: string[] = [];
  for (const [k, v] of Object.entries(props).slice(0, MAX_KEYS)) {
    out.push(k);
    if (isPlainObject(v) && isPlainObject(v.properties)) for (const n of Object.keys(v.properties).slice(0, MAX_KEYS)) out.push(`${k}.${n}`);
  }
  return out;
}

/**
 * The body fields a 400/422 names. A plain name in a body that wraps everything in one object
 * (`{ issue: { … } }`, as Rails takes it) goes inside the wrapper, as its server reads it.
 */
export function bodyFieldsNamed(op: Operation, excerpt: string, fieldSchema: FieldSchema): string[] {
  const known = [...new Set([...schemaKeys(fieldSchema?.(op, '')), ...keysOf(op.body)])];
  const top = isPlainObject(op.body) ? Object.keys(op.body) : [];
  const wrapper = top.length === 1 && isPlainObject((op.body as Record<string, unknown>)[top[0]]) ? top[0] : undefined;
  return namedFields(excerpt, known).map((f) => (wrapper && !f.includes('.') && f !== wrapper && !known.includes(f) ? `${wrapper}.${f}` : f));
}

/**
 * A JSON body with each field the description's body schema requires, a value for each (`{}`
 * without a description); a body the description says is a list (a JSON Patch), its example or `[]`.
 */
export function requiredBody(op: Operation, fieldSchema: FieldSchema): TemplateValue {
  const schema = fieldSchema?.(op, '');
  if (schema?.type === 'array') return valueFor('', { ...schema, minItems: undefined });
  const required = Array.isArray(schema?.required) ? schema.required.filter((r): r is string => typeof r === 'string').slice(0, MAX_KEYS) : [];
  const props = isPlainObject(schema?.properties) ? schema.properties : {};
  return Object.fromEntries(required.map((f) => [f, valueFor(f, isPlainObject(props[f]) ? props[f] : undefined)]));
}

const empty = (v: unknown) => v === undefined || (Array.isArray(v) && !v.length) || (isPlainObject(v) && !Object.keys(v).length);

/**
 * The top-level fields of the description's body schema that have an example the body does
 * not send yet (absent, or an empty map or list): what a 400 naming nothing may be missing. An
 * example date-time that has passed (an expiry written years ago) is sent a day ahead of the
 * request: written into what the run made, the past date would expire it for every operation
 * after (an invitation a signup then cannot use).
 */
export function exampleFields(op: Operation, fieldSchema: FieldSchema, now = Date.now()): Array<{ field: string; value: TemplateValue }> {
  if (op.body !== undefined && !isPlainObject(op.body)) return [];
  const props = fieldSchema?.(op, '')?.properties;
  if (!isPlainObject(props)) return [];
  const body: Record<string, unknown> = isPlainObject(op.body) ? op.body : {};
  return Object.entries(props)
    .slice(0, MAX_KEYS)
    .flatMap(([field, schema]) => {
      const value = isPlainObject(schema) && empty(body[field]) ? exampleOf(schema) : undefined;
      if (value === undefined) return [];
      // a date-time only: `{{$.now + 1d}}` renders one, which a field of plain dates may refuse
      const passed = typeof value === 'string' && ISO_DATE.test(value) && /\d[T ]\d/.test(value) && Date.parse(value) < now;
      return [{ field, value: passed ? A_DAY_AHEAD : value }];
    });
}

/** An ISO 8601 date or date-time (`2023-04-19`, `2023-04-19T08:15:14.000Z`). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
/** `{{$.now}}` or a time before it: past by the time a server reads it. */
const NOW_OR_BEFORE = /^\{\{\s*\$\.now\s*(?:-[^}]*)?\}\}$/;

/** What a stale date becomes: a day ahead of the moment the request is sent. */
export const A_DAY_AHEAD = '{{$.now + 1d}}';

/**
 * The body's fields (two levels deep) holding a date that has passed: a description's example
 * from years ago (`expiresAt: 2023-04-19T08:15:14.000Z`), or `{{$.now}}`, which has passed
 * by the time the server compares it. What a 400 about a date "in the future" asks to move.
 */
export function staleDates(op: Operation, now = Date.now()): string[] {
  return keysOf(op.body).filter((field) => {
    let at: unknown = op.body;
    for (const k of field.split('.')) at = isPlainObject(at) ? at[k] : undefined;
    if (typeof at !== 'string') return false;
    if (NOW_OR_BEFORE.test(at)) return true;
    return ISO_DATE.test(at) && Date.parse(at) < now;
  });
}
