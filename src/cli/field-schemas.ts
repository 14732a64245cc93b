// `flow calibrate --openapi <file>`: the schema the description gives a request-body field,
// so that the value calibrate proposes for a field a 400/422 names comes from its type,
// format, enum, example or bounds. The description is read by the contract loader (OpenAPI
// 3.0/3.1, or Swagger 2.0 converted); `$ref`s are internal only, the walk is bounded.
import { matchOperation, readDescription, record, type Description } from '../contract/index.js';
import type { Operation } from '../project/index.js';

export type FieldSchema = (op: Pick<Operation, 'method' | 'path'>, field: string) => Record<string, unknown> | undefined;

/** Keys and `$ref`s followed at most: a description is untrusted input. */
const MAX_STEPS = 32;

export async function fieldSchemas(file: string): Promise<FieldSchema> {
  const desc = await readDescription(file);
  return (op, field) => {
    // the path as the request would have it: every {{…}} a value
    const { operation } = matchOperation(desc, op.method, op.path.replace(/\{\{[^{}]*\}\}/g, 'x').split('?')[0]);
    if (!operation) return undefined;
    const body = record(record(record(at(desc, `${operation.pointer}/requestBody`)).content)['application/json']).schema;
    // '' is the body itself (its `required`, for a body a 415 asks for)
    return walk(desc, body, field ? field.split('.') : []);
  };
}

function walk(desc: Description, schema: unknown, keys: string[]): Record<string, unknown> | undefined {
  let s = record(schema);
  let steps = 0;
  for (const key of keys) {
    s = resolved(desc, s);
    const props = record(s.properties);
    // allOf: the first part that has the key
    const part = Object.hasOwn(props, key)
      ? s
      : (Array.isArray(s.allOf) ? s.allOf : []).map((p) => resolved(desc, record(p))).find((p) => Object.hasOwn(record(p.properties), key));
    if (!part || ++steps > MAX_STEPS) return undefined;
    s = record(record(part.properties)[key]);
  }
  s = resolved(desc, s);
  return Object.keys(s).length ? s : undefined;
}

function resolved(desc: Description, s: Record<string, unknown>): Record<string, unknown> {
  for (let i = 0; i < MAX_STEPS && typeof s.$ref === 'string' && s.$ref.startsWith('#/'); i++) s = record(at(desc, s.$ref.slice(1)));
  return s;
}

function at(desc: Description, pointer: string): unknown {
  let n: unknown = desc.doc;
  for (const part of pointer.split('/').slice(1)) n = record(n)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return n;
}
