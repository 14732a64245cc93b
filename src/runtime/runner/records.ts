// Turning requests, responses and errors into result records: redacted and bounded, because
// they go to terminals, JUnit files and CI logs.
import { hasCode } from '../../errors.js';
import type { Redactor } from '../redact.js';
import type { FlowResponse } from '../response.js';
import type { HttpMethod } from '../../project/types.js';
import type { ErrorRecord, RequestRecord, ResponseRecord } from '../types.js';
import type { OutgoingRequest } from '../../auth/types.js';
import type { FormData } from 'undici';

/** Bodies in results are cut to this many characters, after redaction. */
export const BODY_EXCERPT_CHARS = 2000;

/** What a record holds of a body (redaction shortens it; `***` stands for 4 characters or more). */
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
  /** characters of a string body not held */
  readonly #bodyCut: number;
  #done?: { url?: string; headers?: Record<string, string>; body?: string; bodyDone?: boolean };

  constructor(req: OutgoingRequest, redactor: Redactor) {
    this.method = req.method;
    this.#redactor = redactor;
    this.#url = req.url.toString();
    this.#headers = req.headers;
    const body = req.body;
    this.#body = typeof body === 'string' ? body.slice(0, HELD_CHARS) : Buffer.isBuffer(body) ? `<${body.length} bytes>` : body;
    this.#bodyCut = typeof body === 'string' ? body.length - (this.#body as string).length : 0;
  }

  get url(): string {
    const done = (this.#done ??= {});
    return (done.url ??= this.#redactor.url(this.#url));
  }

  get headers(): Record<string, string> {
    const done = (this.#done ??= {});
    return (done.headers ??= this.#redactor.headers(this.#headers));
  }

  get body(): string | undefined {
    const done = (this.#done ??= {});
    if (!done.bodyDone) {
      const raw = this.#body;
      done.body = raw === undefined ? undefined : typeof raw === 'string' ? redactedExcerpt(this.#redactor, raw, BODY_EXCERPT_CHARS, this.#bodyCut) : describeForm(raw, this.#redactor);
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
  /** the start of the body as text, not yet redacted (or a description of a binary body) */
  readonly #text: string;
  /** characters of the body not in #text */
  readonly #cut: number;
  /** #text is not the whole body (held, or cut at the size limit) */
  readonly #partial: boolean;
  readonly #suffix: string;
  #done?: { headers?: Record<string, string | string[]>; body?: string };

  constructor(res: FlowResponse, redactor: Redactor) {
    this.status = res.status;
    this.ms = Math.round(res.ms);
    this.#redactor = redactor;
    this.#headers = res.headers;
    const held = heldBody(res);
    this.#text = held.text;
    this.#cut = held.cut;
    this.#partial = held.partial || res.truncated;
    this.#suffix = `${held.suffix}${res.truncated ? ' (body cut at the size limit)' : ''}`;
  }

  get headers(): Record<string, string | string[]> {
    const done = (this.#done ??= {});
    return (done.headers ??= this.#redactor.headers(this.#headers));
  }

  get body(): string {
    const done = (this.#done ??= {});
    return (done.body ??= redactedExcerpt(this.#redactor, this.#text, BODY_EXCERPT_CHARS, this.#cut, this.#partial) + this.#suffix);
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
const EXCERPT_BYTES = HELD_CHARS;

/** The start of a response body that a record holds, and how much of it is left out. */
function heldBody(res: FlowResponse): { text: string; cut: number; suffix: string; partial: boolean } {
  if (!isTextual(res)) return { text: `<${res.body.length} bytes of ${String(res.headers['content-type'] ?? 'binary data')}>`, cut: 0, suffix: '', partial: false };
  if (res.body.length <= EXCERPT_BYTES) {
    const text = res.text();
    if (text.length <= HELD_CHARS) return { text, cut: 0, suffix: '', partial: false };
    return { text: text.slice(0, HELD_CHARS), cut: text.length - HELD_CHARS, suffix: '', partial: true };
  }
  const text = res.body.subarray(0, EXCERPT_BYTES).toString('utf8');
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
