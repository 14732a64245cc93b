// The checks on one step's answer, each with its code. A check only says what the answer
// proves: a 5xx, a status or body the description does not allow, a 2xx to a body that breaks
// the request schema (Ajv said so before it was sent), a deleted instance still answered, a
// read that does not show what was just written.
import { checkResponse, violationLine, type Schemas } from '../contract/index.js';
import type { Description } from '../openapi/index.js';
import { isPlainObject, type Operation } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import type { AuthzCode } from './authz.js';

/**
 * What explore finds (README, `flow explore`): a 5xx; an undocumented status or a body that
 * breaks its schema; a 2xx to a body that breaks the request schema; a read after a delete
 * that did not answer 404 or 410 (or 401, 403); a read right after a write that does not show it.
 */
type FindingCode = 'E_SERVER_ERROR' | 'E_CONTRACT' | 'E_ACCEPTS_INVALID' | 'E_USE_AFTER_DELETE' | 'E_NOT_PERSISTED' | AuthzCode;

export interface Problem {
  code: FindingCode;
  message: string;
  /** for E_CONTRACT: the body pointers the description requires and the answer lacks (the replay asserts them) */
  missing?: string[];
  /** for E_CONTRACT: the status itself is not documented */
  undocumentedStatus?: boolean;
  /** for E_NOT_PERSISTED: the fields the read shows otherwise, with what was written */
  differences?: Difference[];
}

interface Difference {
  /** the field's path in the read's body, `$.data.price` */
  path: string;
  expected: unknown;
  actual: unknown;
  /** what was written held a secret: shown as `***`, and no replay asserts it */
  redacted?: boolean;
}

export interface ContractSchemas {
  description: Description;
  schemas: Schemas;
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** What any answer is checked for, in order of weight: 5xx, an invalid body accepted, the contract. */
export function answerProblem(
  op: Operation,
  res: FlowResponse,
  invalid: boolean,
  contract: ContractSchemas,
  redact: (v: unknown) => unknown,
): Problem | undefined {
  if (res.status >= 500) return { code: 'E_SERVER_ERROR', message: `${op.method} ${op.path} answered ${res.status}` };
  if (invalid && is2xx(res.status))
    return { code: 'E_ACCEPTS_INVALID', message: `${op.method} ${op.path} accepted a body that breaks its request schema (${res.status})` };
  const verdict = checkResponse(contract.description, contract.schemas, op.method, res.url, res, redact);
  if (verdict.undocumented || !verdict.violations.length) return undefined;
  const lines = verdict.violations.map((v) => `  ${violationLine(v)}`).join('\n');
  const missing = verdict.violations.filter((v) => v.actual === 'missing' && v.pointer).map((v) => v.pointer!);
  const undocumentedStatus = verdict.violations.some((v) => v.pointer === undefined && v.actual.startsWith('status '));
  return { code: 'E_CONTRACT', message: `the ${res.status} answer of ${verdict.operation} breaks the description:\n${lines}`, missing, undocumentedStatus };
}

/**
 * The body as the server read it: each scalar of `sent` replaced by the scalar its answer shows
 * at the same place, when it shows one. A server that coerces (`"12"` to 12, 0.5 to 0) or
 * trims what it is sent, and says so in its answer, did not accept an invalid body: it stored
 * a valid one. Objects, arrays and fields the answer does not show stay as sent.
 */
export function asEchoed(sent: unknown, answer: FlowResponse): unknown {
  const json = jsonOf(answer);
  // an answer `{data: {…}}` around what was sent bare
  const enveloped = isPlainObject(json) && Object.keys(json).length === 1 && isPlainObject(json.data) && !(isPlainObject(sent) && 'data' in sent);
  return readAs(sent, enveloped ? json.data : json);
}

function readAs(sent: unknown, echoed: unknown): unknown {
  if (isPlainObject(sent)) {
    if (!isPlainObject(echoed)) return sent;
    return Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, k in echoed ? readAs(v, echoed[k]) : v]));
  }
  return isObjectOrArray(sent) || isObjectOrArray(echoed) || echoed === undefined ? sent : echoed;
}

/**
 * The answers that say a deleted instance is gone: 404 and 410, and also 401 and 403, which
 * many servers give for what does not exist rather than say whether it ever did (the
 * permissions went with the instance). None of them shows the instance.
 */
export const GONE = [401, 403, 404, 410];

/** A read after a delete that answered anything but GONE (a 5xx is E_SERVER_ERROR's). */
export function useAfterDelete(read: Operation, res: FlowResponse, deletedBy: string): Problem | undefined {
  if (GONE.includes(res.status) || res.status >= 500) return undefined;
  return { code: 'E_USE_AFTER_DELETE', message: `${read.id} answered ${res.status} for what ${deletedBy} deleted (expected 404, 410, 401 or 403)` };
}

/** What a write left: each top-level scalar field, with the value the read must show. */
export type Written = Map<string, unknown>;

/**
 * The fields written: what was sent, or what the write's own answer says it stored when it
 * echoes the field (a server may normalise: trim, lower-case an email), so that only a read
 * that disagrees with the write itself is a finding.
 */
export function writtenFields(sent: unknown, answer: FlowResponse | undefined): Written {
  const out: Written = new Map();
  if (!isPlainObject(sent)) return out;
  const echoed = answer ? entity(jsonOf(answer))?.value : undefined;
  for (const [k, v] of Object.entries(sent)) {
    if (v !== null && typeof v === 'object') continue;
    if (typeof v === 'string' && v.includes('{{')) continue;
    const value = JSON.parse(JSON.stringify(v)) as unknown;
    out.set(k, echoed && k in echoed && !isObjectOrArray(echoed[k]) ? echoed[k] : value);
  }
  return out;
}

/** `redact`: the run's redactor over parsed JSON; the values shown (message, replay asserts) go through it, by their field's name too */
export function notPersisted(written: Written, writer: string, read: Operation, res: FlowResponse, redact: (v: unknown) => unknown): Problem | undefined {
  if (!is2xx(res.status) || !written.size) return undefined;
  const found = entity(jsonOf(res));
  if (!found) return undefined;
  const differences: Difference[] = [];
  for (const [k, expected] of written) {
    // a field the read does not show (write-only, or another representation) proves nothing
    if (!(k in found.value)) continue;
    const actual = found.value[k];
    if (same(expected, actual)) continue;
    const shown = redact({ [k]: expected, [`${k} `]: actual }) as Record<string, unknown>;
    const hidden = JSON.stringify(shown[k]) !== JSON.stringify(expected);
    differences.push({ path: `${found.path}.${k}`, expected: shown[k], actual: shown[`${k} `], ...(hidden ? { redacted: true } : {}) });
  }
  if (!differences.length) return undefined;
  const shown = differences.map((d) => `${d.path.slice('$.data.'.length)} ${JSON.stringify(d.actual)} (written: ${JSON.stringify(d.expected)})`).join(', ');
  return { code: 'E_NOT_PERSISTED', message: `${read.id} right after ${writer} shows ${shown}`, differences };
}

/** The object a body is about: itself, or the one object under a `data` envelope. */
function entity(body: unknown): { value: Record<string, unknown>; path: string } | undefined {
  if (!isPlainObject(body)) return undefined;
  if (Object.keys(body).length === 1 && isPlainObject(body.data)) return { value: body.data, path: '$.data.data' };
  return { value: body, path: '$.data' };
}

export function jsonOf(res: FlowResponse): unknown {
  try {
    return res.truncated ? undefined : res.json();
  } catch {
    return undefined;
  }
}

function isObjectOrArray(v: unknown): boolean {
  return v !== null && typeof v === 'object';
}

/** Equal as JSON; two date-times are equal when they are the same instant. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string' && /^\d{4}-\d\d-\d\dT/.test(a) && /^\d{4}-\d\d-\d\dT/.test(b)) {
    const [x, y] = [Date.parse(a), Date.parse(b)];
    return !Number.isNaN(x) && x === y;
  }
  return false;
}
