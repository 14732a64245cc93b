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

export function requestRecord(req: OutgoingRequest, redactor: Redactor): RequestRecord {
  let body: string | undefined;
  if (typeof req.body === 'string') body = excerpt(redactor.text(req.body));
  else if (Buffer.isBuffer(req.body)) body = `<${req.body.length} bytes>`;
  else if (req.body) body = describeForm(req.body, redactor);
  return { method: req.method, url: redactor.text(req.url.toString()), headers: redactor.headers(req.headers), body };
}

function describeForm(form: FormData, redactor: Redactor): string {
  const parts: string[] = [];
  for (const [name, value] of form.entries()) {
    parts.push(typeof value === 'string' ? `${name}=${redactor.text(value)}` : `${name}=<file ${(value as { name?: string }).name ?? ''} ${(value as { size: number }).size} bytes>`);
  }
  return `multipart: ${parts.join('; ')}`;
}

export function responseRecord(res: FlowResponse, redactor: Redactor): ResponseRecord {
  const text = isTextual(res) ? res.text() : `<${res.body.length} bytes of ${String(res.headers['content-type'] ?? 'binary data')}>`;
  return {
    status: res.status,
    headers: redactor.headers(res.headers),
    body: excerpt(redactor.text(text)) + (res.truncated ? ' (body cut at the size limit)' : ''),
    ms: Math.round(res.ms),
  };
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
