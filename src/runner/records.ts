// Turning requests, responses and errors into result records: redacted and bounded, because
// they go to terminals, JUnit files and CI logs.
import { hasCode } from '../errors.js';
import type { Redactor } from '../redact/index.js';
import type { FlowResponse, PreparedRequest } from '../http/index.js';
import type { ErrorRecord, RequestRecord, ResponseRecord } from './types.js';
import type { FormData } from 'undici';

/** Bodies in results are cut to this many characters, after redaction. */
const BODY_EXCERPT_CHARS = 2000;

/** What a record holds of a body, in characters and in bytes decoded (redaction shortens it; `***` stands for 4 characters or more). */
const HELD_CHARS = BODY_EXCERPT_CHARS * 4;

/**
 * `text` redacted, then cut to `max` characters (never inside a `***`). `cutOff`: how many
 * characters of the original are not in `text` at all; `partial`: some are (its end may hold
 * the start of a secret), even when how many is not known (a body cut at the size limit).
 */
export function redactedExcerpt(redactor: Redactor, text: string, max = BODY_EXCERPT_CHARS, cutOff = 0, partial = cutOff > 0): string {
  const shown = redactor.excerpt(text, max, partial);
  return shown.more + cutOff ? `${shown.text}… (${shown.more + cutOff} more characters)` : shown.text;
}

// Records are plain data, redacted and frozen when made: a library user may spread, clone
// (structuredClone), serialize and compare them, and nothing can change one afterwards. What a
// record keeps is bounded (an excerpt of the body), so a large response is not held for the
// whole run. The request record is made while the server works on the request (send.ts), the
// response record once, when the response has arrived.

export function requestRecord(req: PreparedRequest, redactor: Redactor): RequestRecord {
  const record = { method: req.method, url: redactor.url(req.url.toString()), headers: Object.freeze(redactor.headers(req.headers)) };
  const body = requestBody(req.body, redactor);
  // no `body` key for a request without one, so that a record equals its JSON round trip
  return Object.freeze(body === undefined ? record : { ...record, body });
}

function requestBody(body: PreparedRequest['body'], redactor: Redactor): string | undefined {
  if (body === undefined) return undefined;
  if (Buffer.isBuffer(body)) return `<${body.length} bytes>`;
  if (typeof body !== 'string') return describeForm(body, redactor);
  const held = body.slice(0, HELD_CHARS);
  return redactedExcerpt(redactor, held, BODY_EXCERPT_CHARS, body.length - held.length);
}

export function responseRecord(res: FlowResponse, redactor: Redactor): ResponseRecord {
  const held = heldBody(res);
  const suffix = `${held.suffix}${res.truncated ? ' (body cut at the size limit)' : ''}`;
  const headers = redactor.headers(res.headers);
  for (const value of Object.values(headers)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze({
    status: res.status,
    headers: Object.freeze(headers),
    body: redactedExcerpt(redactor, held.text, BODY_EXCERPT_CHARS, held.cut, held.partial || res.truncated) + suffix,
    ms: Math.round(res.ms),
  });
}

function describeForm(form: FormData, redactor: Redactor): string {
  const parts = Array.from(form.entries(), ([name, value]) =>
    typeof value === 'string' ? `${name}=${redactor.text(value)}` : `${name}=<file ${value.name} ${value.size} bytes>`,
  );
  return `multipart: ${parts.join('; ')}`;
}

/** The start of a response body that a record holds, and how much of it is left out. */
function heldBody(res: FlowResponse): { text: string; cut: number; suffix: string; partial: boolean } {
  if (!isTextual(res))
    return { text: `<${res.body.length} bytes of ${String(res.headers['content-type'] ?? 'binary data')}>`, cut: 0, suffix: '', partial: false };
  if (res.body.length <= HELD_CHARS) {
    const text = res.text();
    if (text.length <= HELD_CHARS) return { text, cut: 0, suffix: '', partial: false };
    return { text: text.slice(0, HELD_CHARS), cut: text.length - HELD_CHARS, suffix: '', partial: true };
  }
  const text = res.body.subarray(0, HELD_CHARS).toString('utf8');
  // The rest counted in bytes (the suffix says how many in all); a held text is partial.
  return { text, cut: 0, suffix: ` (${res.body.length} bytes in all)`, partial: true };
}

function isTextual(res: FlowResponse): boolean {
  const type = String(res.headers['content-type'] ?? '');
  if (!type) return !res.body.subarray(0, 512).includes(0);
  return /json|text|xml|html|javascript|x-www-form-urlencoded/i.test(type);
}

export function errorRecord(err: unknown, redactor: Redactor): ErrorRecord {
  const code = hasCode(err) ? err.code : 'E_INTERNAL';
  const message = redactor.text(err instanceof Error ? err.message : String(err));
  const e = err as { loc?: ErrorRecord['loc']; details?: Record<string, unknown> };
  return { code, message, loc: e.loc, details: e.details ? redactor.value(e.details) : undefined };
}
