// Where an operation's request body is described: the OpenAPI operation its method and path
// match (src/openapi's matcher), its JSON request body schema with local `$ref`s followed
// (bounded, recursion cut: ./schema-bounds.ts), and Ajv's validator of that schema, which
// has the last word on whether a generated body is valid. A schema that cannot be drawn from
// (or compiled) is `refused`: the operation is skipped, the rest explored.
import type { Schemas, SchemaValidator } from '../contract/index.js';
import { describedOperation, pointerValue, queryParametersAt, record, requestBodySchema, type Description } from '../openapi/index.js';
import type { Operation } from '../project/index.js';
import { resolveSchema, SchemaRefusal, schemaProblem, type JsonSchema } from './schema-bounds.js';

export type { JsonSchema } from './schema-bounds.js';

export interface RequestSchema {
  /** `POST /items`, as the description writes it */
  described: string;
  /** JSON pointer of the operation object in the description */
  pointer: string;
  /** the body schema, local `$ref`s followed (./schema-bounds.ts); undefined when the operation has no JSON body */
  body?: JsonSchema;
  validate?: SchemaValidator;
  /** JSON pointer of the body schema */
  bodyPointer?: string;
  /** the statuses the description documents (`200`, `4XX`, `default`) */
  statuses: string[];
  /** the query parameters it documents whose values are scalars */
  query: QueryParameter[];
  /** why its body or a query parameter is not drawn from: the operation is not explored */
  refused?: SchemaRefusal;
}

interface QueryParameter {
  name: string;
  /** JSON pointer of its schema */
  pointer: string;
  required: boolean;
  schema: JsonSchema;
  validate: SchemaValidator;
}

const MAX_DEPTH = 8;

/** The described operation of `op`, or undefined when the description does not have it. */
export function requestSchema(desc: Description, schemas: Schemas, op: Operation): RequestSchema | undefined {
  try {
    return describedRequest(desc, schemas, op);
  } catch (err) {
    if (!(err instanceof SchemaRefusal)) throw err;
    return { described: `${op.method} ${op.path}`, pointer: describedOperation(desc, op)?.pointer ?? '', statuses: [], query: [], refused: err };
  }
}

/** The schema at `pointer`, resolved and shape-checked, and its compiled validator; throws SchemaRefusal. */
function drawable(desc: Description, schemas: Schemas, pointer: string): { schema: JsonSchema; validate: SchemaValidator } {
  const resolved = resolveSchema(desc.doc, pointer);
  const problem = schemaProblem(resolved);
  if (problem) throw problem;
  try {
    return { schema: resolved.schema, validate: schemas.validator(pointer) };
  } catch (err) {
    // Ajv could not compile it (a `pattern` that is no regular expression, a `$ref` to nothing)
    throw new SchemaRefusal(pointer, (err as Error).message);
  }
}

function describedRequest(desc: Description, schemas: Schemas, op: Operation): RequestSchema | undefined {
  const operation = describedOperation(desc, op);
  if (!operation) return undefined;
  const found: RequestSchema = {
    described: `${operation.method} ${operation.template}`,
    pointer: operation.pointer,
    statuses: Object.keys(operation.responses),
    query: queryParameters(desc, schemas, operation.pointer),
  };
  const pointer = requestBodySchema(desc, operation)?.pointer;
  if (pointer === undefined) return found;
  const { schema, validate } = drawable(desc, schemas, pointer);
  found.body = schema;
  found.bodyPointer = pointer;
  found.validate = requestValidator(validate, readOnlyNames(schema));
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

/** The declared query parameters (openapi's queryParametersAt) whose values are scalars, each with its validator. */
function queryParameters(desc: Description, schemas: Schemas, opPointer: string): QueryParameter[] {
  return queryParametersAt(desc, opPointer).flatMap((p) => {
    if (pointerValue(desc.doc, p.pointer) === undefined) return [];
    const { schema, validate } = drawable(desc, schemas, p.pointer);
    return SCALARS.has(String(schema.type)) ? [{ name: p.name, pointer: p.pointer, required: p.required, schema, validate }] : [];
  });
}
