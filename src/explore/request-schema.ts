// Where an operation's request body is described: the OpenAPI operation its method and path
// match (src/contract's matcher), its JSON request body schema with local `$ref`s followed
// (bounded: a recursive schema stops at MAX_DEPTH), and Ajv's validator of that schema, which
// has the last word on whether a generated body is valid.
import { escapePointer, matchOperation, record, type DescribedOperation, type Description, type Schemas, type SchemaValidator } from '../contract/index.js';
import type { Operation } from '../project/index.js';

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
  /** the query parameters it documents whose values are scalars */
  query: QueryParameter[];
}

interface QueryParameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
  validate: SchemaValidator;
}

const MAX_DEPTH = 8;

/** The operation of the description that `op`'s method and path match. */
export function describedOperation(desc: Description, op: Operation): DescribedOperation | undefined {
  // `{{item.id}}` stands for any one path segment
  const pathname = op.path.split('?')[0].replace(/\{\{[^}]*\}\}/g, 'x');
  return matchOperation(desc, op.method, pathname).operation;
}

/** The described operation of `op`, or undefined when the description does not have it. */
export function requestSchema(desc: Description, schemas: Schemas, op: Operation): RequestSchema | undefined {
  const operation = describedOperation(desc, op);
  if (!operation) return undefined;
  const found: RequestSchema = {
    described: `${operation.method} ${operation.template}`,
    pointer: operation.pointer,
    statuses: Object.keys(operation.responses),
    query: queryParameters(desc, schemas, operation.pointer),
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
  found.validate = requestValidator(schemas.validator(pointer), readOnlyNames(found.body));
  return found;
}

/**
 * The schema's validator as a request sees it: a readOnly property is not sent (OpenAPI), so
 * its `required` does not apply. Without this, a schema shared by request and answer (with a
 * required readOnly `id`) would make every body the server rightly accepts look invalid.
 */
function requestValidator(validate: SchemaValidator, readOnly: ReadonlySet<string>): SchemaValidator {
  if (!readOnly.size) return validate;
  const check: SchemaValidator = (data: unknown) => {
    if (validate(data)) return true;
    const left = (validate.errors ?? []).filter(
      (e) => !(e.keyword === 'required' && readOnly.has(String((e.params as { missingProperty?: unknown }).missingProperty))),
    );
    check.errors = left;
    return left.length === 0;
  };
  return check;
}

/** The names of the properties marked readOnly anywhere in `schema`. */
function readOnlyNames(schema: JsonSchema, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > MAX_DEPTH) return into;
  for (const [name, ps] of Object.entries(record(schema.properties))) {
    if (record(ps).readOnly === true) into.add(name);
    readOnlyNames(record(ps), into, depth + 1);
  }
  for (const k of ['items', 'additionalProperties']) if (schema[k] && typeof schema[k] === 'object') readOnlyNames(record(schema[k]), into, depth + 1);
  for (const k of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(schema[k])) for (const s of schema[k] as unknown[]) readOnlyNames(record(s), into, depth + 1);
  return into;
}

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/** The path item's parameters, then the operation's (which win by name), each `$ref` followed. */
function queryParameters(desc: Description, schemas: Schemas, opPointer: string): QueryParameter[] {
  const byName = new Map<string, QueryParameter>();
  const pathPointer = opPointer.slice(0, opPointer.lastIndexOf('/'));
  for (const listPointer of [`${pathPointer}/parameters`, `${opPointer}/parameters`]) {
    const list = at(desc.doc, listPointer);
    if (!Array.isArray(list)) continue;
    list.forEach((_, i) => {
      let pointer = `${listPointer}/${i}`;
      for (let hops = 0; hops < 10; hops++) {
        const ref = record(at(desc.doc, pointer)).$ref;
        if (typeof ref !== 'string' || !ref.startsWith('#/')) break;
        pointer = ref.slice(1);
      }
      const p = record(at(desc.doc, pointer));
      const schema = resolved(desc.doc, record(p.schema), 0);
      if (p.in !== 'query' || typeof p.name !== 'string' || !SCALARS.has(String(schema.type))) return;
      byName.set(p.name, { name: p.name, required: p.required === true, schema, validate: schemas.validator(`${pointer}/schema`) });
    });
  }
  return [...byName.values()];
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
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    n = Array.isArray(n) ? n[Number(key)] : record(n)[key];
  }
  return n;
}
