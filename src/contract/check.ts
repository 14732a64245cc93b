// One response against its documented operation: the status is documented (or `default`),
// the content type is documented, a JSON body validates against the schema. Each problem is
// a violation with the JSON pointer in the body, what the description expects, and the value
// found (redacted by the caller's function before it is shown).
import type { ErrorObject } from 'ajv';
import { excerpt, header, type FlowResponse } from '../http/index.js';
import { escapePointer, matchOperation, record, type DescribedOperation, type Description } from './description.js';
import type { Schemas } from './schemas.js';

export interface Violation {
  /** JSON pointer in the body (`/items/0/price`, '' for the whole body); absent for the status and the content type */
  pointer?: string;
  /** what the description expects */
  expected: string;
  /** what the response has, redacted and shortened */
  actual: string;
}

export interface ResponseVerdict {
  /** the documented operation, `GET /pets/{petId}`; undefined when the request is not in the description */
  operation?: string;
  /** why the request is not in the description */
  undocumented?: string;
  violations: Violation[];
}

const MAX_VIOLATIONS = 8;
const VALUE_CHARS = 80;

export function checkResponse(
  desc: Description,
  schemas: Schemas,
  method: string,
  url: string,
  res: FlowResponse,
  redact: (v: unknown) => unknown,
): ResponseVerdict {
  const pathname = pathOf(url);
  const { operation: op, pathKnown } = matchOperation(desc, method, pathname);
  if (!op) {
    return { violations: [], undocumented: pathKnown ? `${method} is not documented for ${pathname}` : `${method} ${pathname} is not in the description` };
  }
  const verdict: ResponseVerdict = { operation: `${op.method} ${op.template}`, violations: [] };
  const status = statusKey(op, res.status);
  if (!status) {
    verdict.violations.push({ expected: `a documented status (${Object.keys(op.responses).join(', ') || 'none'})`, actual: `status ${res.status}` });
    return verdict;
  }
  const responsePointer = followRefs(desc, `${op.pointer}/responses/${escapePointer(status)}`);
  const response = record(at(desc.doc, responsePointer));
  const content = record(response.content);
  const documented = Object.keys(content);
  const contentType = header(res.headers, 'content-type');
  const mediaType = contentType?.split(';')[0].trim().toLowerCase();
  const hasBody = res.body.length > 0 && method !== 'HEAD';
  if (!hasBody && !mediaType) return verdict;
  if (!documented.length) {
    if (hasBody)
      verdict.violations.push({ expected: `no body for ${status}`, actual: `${mediaType ?? 'a body without content-type'} (${res.body.length} bytes)` });
    return verdict;
  }
  const key = mediaType && mediaKey(documented, mediaType);
  if (!key) {
    verdict.violations.push({ expected: `content-type ${documented.join(' or ')}`, actual: mediaType ? `content-type ${mediaType}` : 'no content-type' });
    return verdict;
  }
  const media = record(content[key]);
  if (!hasBody || !('schema' in media) || !isJson(mediaType) || res.truncated) return verdict;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    verdict.violations.push({ pointer: '', expected: `JSON (${mediaType})`, actual: String(redact(excerpt(res.text(), VALUE_CHARS))) });
    return verdict;
  }
  const validate = schemas.validator(`${responsePointer}/content/${escapePointer(key)}/schema`);
  if (!validate(body)) verdict.violations.push(...violations(validate.errors ?? [], body, redact));
  return verdict;
}

/** The status key that covers `status`: exact, then `2XX`, then `default`. */
function statusKey(op: DescribedOperation, status: number): string | undefined {
  const keys = Object.keys(op.responses);
  const exact = String(status);
  if (keys.includes(exact)) return exact;
  const range = `${exact[0]}XX`;
  return keys.find((k) => k.toUpperCase() === range) ?? (keys.includes('default') ? 'default' : undefined);
}

/** `application/json`, then `application/*`, then `*\/*`; parameters ignored. */
function mediaKey(documented: string[], mediaType: string): string | undefined {
  const bare = (k: string) => k.split(';')[0].trim().toLowerCase();
  const family = `${mediaType.split('/')[0]}/*`;
  return documented.find((k) => bare(k) === mediaType) ?? documented.find((k) => bare(k) === family) ?? documented.find((k) => bare(k) === '*/*');
}

function isJson(mediaType: string | undefined): boolean {
  return !!mediaType && (mediaType === 'application/json' || mediaType.endsWith('+json'));
}

/** Where a response really is: through `$ref: '#/components/responses/X'` (a schema's own refs are Ajv's). */
function followRefs(desc: Description, pointer: string): string {
  for (let hops = 0; hops < 10; hops++) {
    const ref = record(at(desc.doc, pointer)).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) break;
    pointer = ref.slice(1);
  }
  return pointer;
}

function at(doc: unknown, pointer: string): unknown {
  let n = doc;
  for (const part of pointer.split('/').slice(1)) n = record(n)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return n;
}

function violations(errors: ErrorObject[], body: unknown, redact: (v: unknown) => unknown): Violation[] {
  const out: Violation[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const v = violation(e, body, redact);
    const key = `${v.pointer}\0${v.expected}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
    if (out.length === MAX_VIOLATIONS) break;
  }
  return out;
}

function violation(e: ErrorObject, body: unknown, redact: (v: unknown) => unknown): Violation {
  const p = e.params as Record<string, unknown>;
  const shown = (pointer: string) => show(valueAt(body, pointer), redact);
  switch (e.keyword) {
    case 'required': {
      const pointer = `${e.instancePath}/${escapePointer(String(p.missingProperty))}`;
      return { pointer, expected: 'a required property', actual: 'missing' };
    }
    case 'additionalProperties': {
      const pointer = `${e.instancePath}/${escapePointer(String(p.additionalProperty))}`;
      return { pointer, expected: 'no such property (additionalProperties: false)', actual: shown(pointer) };
    }
    case 'type':
      return { pointer: e.instancePath, expected: `type ${String(p.type).split(',').join(' or ')}`, actual: shown(e.instancePath) };
    case 'enum':
      return { pointer: e.instancePath, expected: `one of ${JSON.stringify(p.allowedValues)}`, actual: shown(e.instancePath) };
    case 'const':
      return { pointer: e.instancePath, expected: JSON.stringify(p.allowedValue), actual: shown(e.instancePath) };
    case 'format':
      return { pointer: e.instancePath, expected: `format "${String(p.format)}"`, actual: shown(e.instancePath) };
    default:
      // Ajv's own words ("must be >= 0", "must match exactly one schema in oneOf"), with the keyword
      return { pointer: e.instancePath, expected: `${(e.message ?? e.keyword).replace(/^must (be )?/, '')} (${e.keyword})`, actual: shown(e.instancePath) };
  }
}

function valueAt(body: unknown, pointer: string): unknown {
  let n = body;
  for (const part of pointer.split('/').slice(1)) {
    if (n === null || typeof n !== 'object') return undefined;
    n = (n as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return n;
}

function show(value: unknown, redact: (v: unknown) => unknown): string {
  if (value === undefined) return 'missing';
  return excerpt(JSON.stringify(redact(value)) ?? String(value), VALUE_CHARS);
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0];
  }
}
