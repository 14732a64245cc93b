// Turning requests, responses and errors into result records: redacted and bounded, because
// they go to terminals, JUnit files and CI logs.
import { hasCode } from '../../errors.js';
import type { Redactor } from '../redact.js';
import type { FlowResponse } from '../response.js';
import type { HttpMethod } from '../../project/types.js';
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
 * (an excerpt of the body), so a large response is not held for the whole run. The raw
 * values sit in private fields: neither a spread nor JSON.stringify (toJSON) can see them.
 */
class LazyRequestRecord implements RequestRecord {
  readonly method: HttpMethod;
  readonly #redactor: Redactor;
  readonly #url: string;
  readonly #headers: Record<string, string>;
  readonly #body: string | FormData | undefined;
  #done?: { url?: string; headers?: Record<string, string>; body?: string; bodyDone?: boolean };

  constructor(req: OutgoingRequest, redactor: Redactor) {
    this.method = req.method;
    this.#redactor = redactor;
    this.#url = req.url.toString();
    this.#headers = req.headers;
    this.#body = typeof req.body === 'string' ? excerpt(req.body) : Buffer.isBuffer(req.body) ? `<${req.body.length} bytes>` : req.body;
  }

  get url(): string {
    const done = (this.#done ??= {});
    return (done.url ??= this.#redactor.text(this.#url));
  }

  get headers(): Record<string, string> {
    const done = (this.#done ??= {});
    return (done.headers ??= this.#redactor.headers(this.#headers));
  }

  get body(): string | undefined {
    const done = (this.#done ??= {});
    if (!done.bodyDone) {
      const raw = this.#body;
      done.body = raw === undefined ? undefined : typeof raw === 'string' ? this.#redactor.text(raw) : describeForm(raw, this.#redactor);
      done.bodyDone = true;
    }
    return done.body;
  }

  toJSON(): RequestRecord {
    return { method: this.method, url: this.url, headers: this.headers, body: this.body };
  }
}

class LazyResponseRecord implements ResponseRecord {
  readonly status: number;
  readonly ms: number;
  readonly #redactor: Redactor;
  readonly #headers: Record<string, string | string[]>;
  readonly #text: string;
  #done?: { headers?: Record<string, string | string[]>; body?: string };

  constructor(res: FlowResponse, redactor: Redactor) {
    this.status = res.status;
    this.ms = Math.round(res.ms);
    this.#redactor = redactor;
    this.#headers = res.headers;
    const text = isTextual(res) ? bodyExcerpt(res) : `<${res.body.length} bytes of ${String(res.headers['content-type'] ?? 'binary data')}>`;
    this.#text = res.truncated ? `${text} (body cut at the size limit)` : text;
  }

  get headers(): Record<string, string | string[]> {
    const done = (this.#done ??= {});
    return (done.headers ??= this.#redactor.headers(this.#headers));
  }

  get body(): string {
    const done = (this.#done ??= {});
    return (done.body ??= this.#redactor.text(this.#text));
  }

  toJSON(): ResponseRecord {
    return { status: this.status, headers: this.headers, body: this.body, ms: this.ms };
  }
}

export function requestRecord(req: OutgoingRequest, redactor: Redactor): RequestRecord {
  return new LazyRequestRecord(req, redactor);
}

export function responseRecord(res: FlowResponse, redactor: Redactor): ResponseRecord {
  return new LazyResponseRecord(res, redactor);
}

function describeForm(form: FormData, redactor: Redactor): string {
  const parts: string[] = [];
  for (const [name, value] of form.entries()) {
    parts.push(typeof value === 'string' ? `${name}=${redactor.text(value)}` : `${name}=<file ${(value as { name?: string }).name ?? ''} ${(value as { size: number }).size} bytes>`);
  }
  return `multipart: ${parts.join('; ')}`;
}

/** At most this many bytes of a response body are decoded for its record. */
const EXCERPT_BYTES = BODY_EXCERPT_CHARS * 4;

function bodyExcerpt(res: FlowResponse): string {
  if (res.body.length <= EXCERPT_BYTES) return excerpt(res.text());
  return `${excerpt(res.body.subarray(0, EXCERPT_BYTES).toString('utf8'))} (${res.body.length} bytes in all)`;
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
