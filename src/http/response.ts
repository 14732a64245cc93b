// The response every later step reads (expect_status, extract, assert, reports). Text and JSON
// are decoded lazily: most responses are only looked at through one or two paths
// (runtime/extract/paths.ts), or not at all.
import type * as Tough from 'tough-cookie';
import { FlowError } from '../errors.js';
import { lazy } from '../project/index.js';
import { CUT_MARK } from '../redact/index.js';

const tough = lazy<typeof Tough>('tough-cookie');

export interface FlowResponse {
  status: number;
  statusText?: string;
  /** lower-case names; a repeated header (e.g. set-cookie) is an array */
  headers: Record<string, string | string[]>;
  /** the body as received (decompressed when the server sent gzip/deflate/br); at most the client's limit */
  body: Buffer;
  /** the body as text (charset from Content-Type, else UTF-8; invalid bytes become U+FFFD) */
  text(): string;
  /** the body as JSON; throws E_NOT_JSON (with an excerpt) or E_BODY_TRUNCATED */
  json(): unknown;
  /** name -> value of every Set-Cookie received in this exchange, redirect hops included */
  cookies: Record<string, string>;
  /** the final URL, after redirects */
  url: string;
  /** from sending the request to the end of the body */
  ms: number;
  /** true when the body was longer than the limit and was cut (the rest was not read) */
  truncated: boolean;
}

export interface FlowResponseInit {
  status: number;
  statusText?: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  url?: string;
  ms?: number;
  truncated?: boolean;
  /** the limit that cut the body, for the E_BODY_TRUNCATED message */
  limitBytes?: number;
  /** raw Set-Cookie values of every hop, oldest first; default: the set-cookie header */
  setCookies?: string[];
}

const EXCERPT_CHARS = 200;
const NOT_PARSED = Symbol('not parsed');

class BufferedResponse implements FlowResponse {
  status: number;
  statusText?: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
  url: string;
  ms: number;
  truncated: boolean;
  #limitBytes?: number;
  #setCookies?: string[];
  #text?: string;
  #json: unknown = NOT_PARSED;
  #jsonError?: FlowError;
  #cookies?: Record<string, string>;

  constructor(init: FlowResponseInit) {
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers ?? {};
    this.body = typeof init.body === 'string' ? Buffer.from(init.body) : (init.body ?? Buffer.alloc(0));
    this.url = init.url ?? '';
    this.ms = init.ms ?? 0;
    this.truncated = init.truncated ?? false;
    this.#limitBytes = init.limitBytes;
    this.#setCookies = init.setCookies;
  }

  text(): string {
    if (this.#text === undefined) this.#text = decodeText(this.body, header(this.headers, 'content-type'));
    return this.#text;
  }

  json(): unknown {
    if (this.#jsonError) throw this.#jsonError;
    if (this.#json !== NOT_PARSED) return this.#json;
    try {
      this.#json = this.#parseJson();
      return this.#json;
    } catch (err) {
      this.#jsonError = err as FlowError;
      throw err;
    }
  }

  #parseJson(): unknown {
    if (this.truncated) {
      const limit = this.#limitBytes ? ` of ${formatBytes(this.#limitBytes)}` : '';
      throw new FlowError('E_BODY_TRUNCATED', `the response body was cut at the size limit${limit}, so it cannot be read as JSON`, {
        details: { limitBytes: this.#limitBytes, excerpt: excerpt(this.text(), EXCERPT_CHARS, true) },
      });
    }
    let text = this.text();
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    try {
      return JSON.parse(text);
    } catch {
      // Said apart from other text: the reason is clearer, and the excerpt would be blank.
      const contentType = header(this.headers, 'content-type');
      if (!text.trim()) throw new FlowError('E_NOT_JSON', 'the response body is empty, not JSON', { details: { contentType, excerpt: '' } });
      const shown = excerpt(text);
      const short = shown.length > 80 ? `${shown.slice(0, 80)}${CUT_MARK}` : shown;
      const type = contentType ? ` (${contentType.split(';')[0]})` : '';
      throw new FlowError('E_NOT_JSON', `the response body${type} is not JSON: ${JSON.stringify(short)}`, {
        details: { contentType, excerpt: shown },
      });
    }
  }

  get cookies(): Record<string, string> {
    if (!this.#cookies) this.#cookies = parseSetCookies(this.#setCookies ?? [this.headers['set-cookie'] ?? []].flat());
    return this.#cookies;
  }
}

export function createResponse(init: FlowResponseInit): FlowResponse {
  return new BufferedResponse(init);
}

/** First value of a header (names are lower-case in FlowResponse). */
export function header(headers: Record<string, string | string[]>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function parseSetCookies(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of list) {
    const c = tough().Cookie.parse(raw, { loose: true });
    if (c?.key) out[c.key] = c.value;
  }
  return out;
}

const UTF8 = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);

/** Decode with the Content-Type charset when it names one other than UTF-8 (and Node knows it). */
function decodeText(body: Buffer, contentType: string | undefined): string {
  const charset = contentType ? /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase() : undefined;
  if (charset && !UTF8.has(charset)) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // an unknown label: read it as UTF-8, as browsers fall back
    }
  }
  return body.toString('utf8');
}

/**
 * At most EXCERPT_CHARS characters of a text, for error details and messages. Cut before
 * the records redact it, so a cut ends with CUT_MARK: the redactor then hides what precedes
 * it if that could be the start of a secret. `cut`: the text is itself cut (at the size limit).
 */
export function excerpt(text: string, max = EXCERPT_CHARS, cut = false): string {
  return text.length > max ? text.slice(0, max - CUT_MARK.length) + CUT_MARK : cut ? text + CUT_MARK : text;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MiB` : n >= 1024 ? `${Math.round(n / 1024)} KiB` : `${n} bytes`;
}
