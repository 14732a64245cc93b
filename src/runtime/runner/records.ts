// Turning requests, responses and errors into result records: redacted and bounded, because
// they go to terminals, JUnit files and CI logs.
import { hasCode } from '../../errors.js';
import type { Redactor } from '../redact.js';
import type { FlowResponse } from '../response.js';
import type { ErrorRecord, RequestRecord, ResponseRecord } from '../types.js';
import type { OutgoingRequest } from '../../auth/types.js';
import type { FormData } from 'undici';

/** Bodies in results are cut to this many characters. */
export const BODY_EXCERPT_CHARS = 2000;

export function excerpt(text: string, max = BODY_EXCERPT_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/**
 * Records are redacted when read, not when made: a run prints a URL per request, and shows
 * headers and bodies only with --verbose or for a failure. What a record keeps is bounded
 * (an excerpt of the body), so a large response is not held for the whole run.
 */
export function requestRecord(req: OutgoingRequest, redactor: Redactor): RequestRecord {
  const url = req.url.toString();
  const headers = req.headers;
  const rawBody = typeof req.body === 'string' ? excerpt(req.body) : undefined;
  const described = Buffer.isBuffer(req.body) ? `<${req.body.length} bytes>` : req.body && typeof req.body !== 'string' ? req.body : undefined;
  return lazyRecord({ method: req.method }, {
    url: () => redactor.text(url),
    headers: () => redactor.headers(headers),
    body: () => (rawBody !== undefined ? redactor.text(rawBody) : typeof described === 'string' ? described : described ? describeForm(described, redactor) : undefined),
  }) as RequestRecord;
}

function describeForm(form: FormData, redactor: Redactor): string {
  const parts: string[] = [];
  for (const [name, value] of form.entries()) {
    parts.push(typeof value === 'string' ? `${name}=${redactor.text(value)}` : `${name}=<file ${(value as { name?: string }).name ?? ''} ${(value as { size: number }).size} bytes>`);
  }
  return `multipart: ${parts.join('; ')}`;
}

export function responseRecord(res: FlowResponse, redactor: Redactor): ResponseRecord {
  const headers = res.headers;
  const text = isTextual(res) ? bodyExcerpt(res) : `<${res.body.length} bytes of ${String(res.headers['content-type'] ?? 'binary data')}>`;
  const suffix = res.truncated ? ' (body cut at the size limit)' : '';
  return lazyRecord({ status: res.status, ms: Math.round(res.ms) }, {
    headers: () => redactor.headers(headers),
    body: () => redactor.text(text) + suffix,
  }) as ResponseRecord;
}

/** At most this many bytes of a response body are decoded for its record. */
const EXCERPT_BYTES = BODY_EXCERPT_CHARS * 4;

function bodyExcerpt(res: FlowResponse): string {
  if (res.body.length <= EXCERPT_BYTES) return excerpt(res.text());
  return `${excerpt(res.body.subarray(0, EXCERPT_BYTES).toString('utf8'))} (${res.body.length} bytes in all)`;
}

/** Plain fields plus computed-once, enumerable getters (so JSON.stringify and spreads see them). */
function lazyRecord<T extends object>(plain: T, computed: Record<string, () => unknown>): T {
  for (const [key, compute] of Object.entries(computed)) {
    let done = false;
    let value: unknown;
    Object.defineProperty(plain, key, {
      enumerable: true,
      get: () => {
        if (!done) {
          value = compute();
          done = true;
        }
        return value;
      },
    });
  }
  return plain;
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
