// One response against its documented operation: the status is documented (or `default`),
// the content type is documented, a JSON body validates against the schema. Each problem is
// a violation with the JSON pointer in the body, what the description expects, and the value
// found (redacted by the caller's function before it is shown).
import type { ErrorObject } from 'ajv';
import { excerpt, header, type FlowResponse } from '../http/index.js';
import {
  escapePointer,
  isJsonMediaType,
  matchOperation,
  mediaKey,
  pointerValue,
  record,
  responseKey,
  responsePointer,
  type Description,
} from '../openapi/index.js';
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
  const status = responseKey(op, res.status);
  if (!status) {
    verdict.violations.push({ expected: `a documented status (${Object.keys(op.responses).join(', ') || 'none'})`, actual: `status ${res.status}` });
    return verdict;
  }
  const pointer = responsePointer(desc, op, status);
  const response = record(pointerValue(desc.doc, pointer));
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
  if (!hasBody || !('schema' in media) || !isJsonMediaType(mediaType) || res.truncated) return verdict;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    verdict.violations.push({ pointer: '', expected: `JSON (${mediaType})`, actual: String(redact(excerpt(res.text(), VALUE_CHARS))) });
    return verdict;
  }
  const validate = schemas.validator(`${pointer}/content/${escapePointer(key)}/schema`);
  if (!validate(body)) verdict.violations.push(...violations(validate.errors ?? [], body, redact));
  return verdict;
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
  const shown = (pointer: string) => show(pointerValue(body, pointer), redact);
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
