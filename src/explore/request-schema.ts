// Where an operation's request body is described: the OpenAPI operation its method and path
// match (src/contract's matcher), its JSON request body schema with local `$ref`s followed
// (bounded: a recursive schema stops at MAX_DEPTH), and Ajv's validator of that schema, which
// has the last word on whether a generated body is valid.
import { escapePointer, matchOperation, record, type Description, type Schemas, type SchemaValidator } from '../contract/index.js';
import type { Operation } from '../project/types.js';

export type JsonSchema = Record<string, unknown>;

export interface RequestSchema {
  /** `POST /items`, as the description writes it */
  described: string;
  /** JSON pointer of the operation object in the description */
  pointer: string;
  /** the body schema, local `$ref`s followed to MAX_DEPTH; undefined when the operation has no JSON body */
  body?: JsonSchema;
  validate?: SchemaValidator;
  /** the statuses the description documents (`200`, `4XX`, `default`) */
  statuses: string[];
}

const MAX_DEPTH = 8;

/** The described operation of `op`, or undefined when the description does not have it. */
export function requestSchema(desc: Description, schemas: Schemas, op: Operation): RequestSchema | undefined {
  // `{{item.id}}` stands for any one path segment
  const pathname = op.path.split('?')[0].replace(/\{\{[^}]*\}\}/g, 'x');
  const { operation } = matchOperation(desc, op.method, pathname);
  if (!operation) return undefined;
  const found: RequestSchema = {
    described: `${operation.method} ${operation.template}`,
    pointer: operation.pointer,
    statuses: Object.keys(operation.responses),
  };
  let bodyPointer = `${operation.pointer}/requestBody`;
  for (let hops = 0; hops < 10; hops++) {
    const ref = record(at(desc.doc, bodyPointer)).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) break;
    bodyPointer = ref.slice(1);
  }
  const content = record(record(at(desc.doc, bodyPointer)).content);
  const key = Object.keys(content).find((k) => /^application\/(.+\+)?json\b/i.test(k.trim()));
  if (!key || !('schema' in record(content[key]))) return found;
  const pointer = `${bodyPointer}/content/${escapePointer(key)}/schema`;
  found.body = resolved(desc.doc, record(at(desc.doc, pointer)), 0);
  found.validate = schemas.validator(pointer);
  return found;
}

/** A copy of `schema` with local `$ref`s replaced by what they point at, to MAX_DEPTH (deeper: `{}`). */
function resolved(doc: unknown, schema: JsonSchema, depth: number): JsonSchema {
  if (depth > MAX_DEPTH) return {};
  let node = schema;
  for (let hops = 0; typeof node.$ref === 'string' && hops < 10; hops++) {
    const ref = node.$ref;
    if (!ref.startsWith('#/')) return {};
    node = { ...record(at(doc, ref.slice(1))), ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref')) };
  }
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' && v && typeof v === 'object') {
      out.properties = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, resolved(doc, record(s), depth + 1)]));
    } else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = resolved(doc, record(v), depth + 1);
    } else if ((k === 'allOf' || k === 'oneOf' || k === 'anyOf') && Array.isArray(v)) {
      out[k] = v.map((s) => resolved(doc, record(s), depth + 1));
    } else out[k] = v;
  }
  return out;
}

function at(doc: unknown, pointer: string): unknown {
  let n = doc;
  for (const part of pointer.split('/').slice(1)) n = record(n)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return n;
}
