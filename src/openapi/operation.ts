// What one described operation says, read one way for every stage: the operation a project's
// request is for (each `{{…}}` of its path one value, read by the graph's template parser),
// its JSON request body schema (a `$ref`'d requestBody followed; application/json or any
// `+json` type), a field inside that body (through `$ref`s and `allOf`), and the response
// documented for a status. Each answer is a JSON pointer into the description, so that a
// caller compiles or resolves the schema there; every walk is bounded.
import { mapRefs } from '../graph/index.js';
import { matchOperation, type DescribedOperation, type Description } from './description.js';
import { escapePointer, followRefs, pointerValue, record } from './pointer.js';

/** Keys and `allOf` parts read at most for one field: a description is untrusted input. */
const MAX_STEPS = 32;

/** The pathname a request would have: each `{{…}}` one value (`x`), the query left out. */
export function requestPathname(path: string): string {
  return mapRefs(path, () => 'x').split('?')[0];
}

/** The described operation `op`'s method and path match (`{{item.id}}` stands for any one segment). */
export function describedOperation(desc: Description, op: { method: string; path: string }): DescribedOperation | undefined {
  return matchOperation(desc, op.method, requestPathname(op.path)).operation;
}

/** application/json or a `+json` type (`application/merge-patch+json`), parameters left out. */
export function isJsonMediaType(type: string): boolean {
  const bare = type.split(';')[0].trim().toLowerCase();
  return bare === 'application/json' || bare.endsWith('+json');
}

/** The documented media type that covers `mediaType`: itself, then `application/*`, then `*\/*`; parameters left out. */
export function mediaKey(documented: string[], mediaType: string): string | undefined {
  const bare = (k: string) => k.split(';')[0].trim().toLowerCase();
  const family = `${mediaType.split('/')[0]}/*`;
  return documented.find((k) => bare(k) === mediaType) ?? documented.find((k) => bare(k) === family) ?? documented.find((k) => bare(k) === '*/*');
}

export interface BodySchema {
  /** JSON pointer of the schema (under the requestBody its `$ref` leads to) */
  pointer: string;
  /** the media type as the description writes it */
  mediaType: string;
}

/** The operation's JSON request body schema; undefined when it documents none. */
export function requestBodySchema(desc: Description, operation: DescribedOperation): BodySchema | undefined {
  const bodyPointer = followRefs(desc.doc, `${operation.pointer}/requestBody`);
  const content = record(record(pointerValue(desc.doc, bodyPointer)).content);
  const mediaType = Object.keys(content).find(isJsonMediaType);
  if (mediaType === undefined || !('schema' in record(content[mediaType]))) return undefined;
  return { pointer: `${bodyPointer}/content/${escapePointer(mediaType)}/schema`, mediaType };
}

/** The status key documented for `status`: exact, then `2XX`, then `default`. */
export function responseKey(operation: DescribedOperation, status: number): string | undefined {
  const keys = Object.keys(operation.responses);
  const exact = String(status);
  if (keys.includes(exact)) return exact;
  const range = `${exact[0]}XX`;
  return keys.find((k) => k.toUpperCase() === range) ?? (keys.includes('default') ? 'default' : undefined);
}

/** The response object documented for `key` (`200`, `4XX`, `default`): its pointer, a `$ref` to `#/components/responses/…` followed. */
export function responsePointer(desc: Description, operation: DescribedOperation, key: string): string {
  return followRefs(desc.doc, `${operation.pointer}/responses/${escapePointer(key)}`);
}

/**
 * The schema of one field of the request body of the operation `op` is for: '' is the body
 * itself, `issue.subject` a field inside `issue`. Each level's `$ref` is followed, and a
 * property found in an `allOf` (`oneOf`, `anyOf`) part is found; a body of several shapes is
 * its first; undefined when the description does not say.
 */
export function bodyFieldSchema(desc: Description, op: { method: string; path: string }, field: string): Record<string, unknown> | undefined {
  const operation = describedOperation(desc, op);
  const body = operation && requestBodySchema(desc, operation);
  if (!body) return undefined;
  const keys = field ? field.split('.') : [];
  if (keys.length > MAX_STEPS) return undefined;
  let pointer = body.pointer;
  for (const key of keys) {
    pointer = followRefs(desc.doc, pointer);
    const s = record(pointerValue(desc.doc, pointer));
    // the schema itself, then the first allOf (oneOf, anyOf) part that has the key
    const parts = PARTS.flatMap((k) => {
      const list: unknown = s[k];
      return Array.isArray(list) ? list.slice(0, MAX_STEPS).map((_, i) => followRefs(desc.doc, `${pointer}/${k}/${i}`)) : [];
    });
    const owner = [pointer, ...parts].find((p) => Object.hasOwn(record(record(pointerValue(desc.doc, p)).properties), key));
    if (owner === undefined) return undefined;
    pointer = `${owner}/properties/${escapePointer(key)}`;
  }
  pointer = followRefs(desc.doc, pointer);
  const s = record(pointerValue(desc.doc, pointer));
  // a schema that is one of several shapes (`oneOf`, `anyOf`): the first, for the fields it requires
  const shape = s.properties === undefined && s.required === undefined ? (['oneOf', 'anyOf'] as const).find((k) => Array.isArray(s[k])) : undefined;
  if (shape) return { ...s, ...record(pointerValue(desc.doc, followRefs(desc.doc, `${pointer}/${shape}/0`))) };
  return Object.keys(s).length ? s : undefined;
}

const PARTS = ['allOf', 'oneOf', 'anyOf'] as const;

/** Parameters read at most for one operation: a description is untrusted input. */
const MAX_PARAMETERS = 64;

export interface QueryParameter {
  name: string;
  required: boolean;
  /** JSON pointer of its schema (its `$ref` followed) */
  pointer: string;
  /** its schema (`$ref` followed), with the parameter's own `example` when the schema has none; `{}` when it gives none */
  schema: Record<string, unknown>;
}

/**
 * The query parameters the described operation `op` is for declares: the path item's and its
 * own (its own win, by name), each `$ref` followed; [] when the description does not say.
 */
export function queryParameters(desc: Description, op: { method: string; path: string }): QueryParameter[] {
  const operation = describedOperation(desc, op);
  return operation ? queryParametersAt(desc, operation.pointer) : [];
}

/** The same for the operation at `opPointer` (`#/paths/~1items/get`). */
export function queryParametersAt(desc: Description, opPointer: string): QueryParameter[] {
  const byName = new Map<string, QueryParameter>();
  // the path item's first, then the operation's over them
  for (const owner of [opPointer.slice(0, opPointer.lastIndexOf('/')), opPointer]) {
    const list = pointerValue(desc.doc, `${owner}/parameters`);
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < Math.min(list.length, MAX_PARAMETERS); i++) {
      const at = followRefs(desc.doc, `${owner}/parameters/${i}`);
      const p = record(pointerValue(desc.doc, at));
      if (p.in !== 'query' || typeof p.name !== 'string' || !p.name) continue;
      const pointer = followRefs(desc.doc, `${at}/schema`);
      const schema = { ...record(pointerValue(desc.doc, pointer)) };
      if (schema.example === undefined && p.example !== undefined) schema.example = p.example;
      byName.set(p.name, { name: p.name, required: p.required === true, pointer, schema });
    }
  }
  return [...byName.values()];
}
