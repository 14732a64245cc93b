// The response every later step reads (expect_status, extract, assert, reports), and reading
// the path roots of docs/format.md#extraction that extract and assert share. Text and JSON are decoded lazily:
// most responses are only looked at through one or two paths, or not at all.
import type * as JsonPathPlus from 'jsonpath-plus';
import type * as Tough from 'tough-cookie';
import { lazy } from '../project/lazy.js';
import { CUT_MARK } from '../redact/cut.js';

const tough = lazy<typeof Tough>('tough-cookie');
// Plain paths (`$.data.id`) are walked without it: most runs never load it.
const jsonPathPlus = lazy<typeof JsonPathPlus>('jsonpath-plus');
import { FlowError } from '../errors.js';
import { parsePath, type PathRef } from '../graph/extract-syntax.js';

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

export const EXCERPT_CHARS = 200;
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

// ---------------------------------------------------------------------------------------
// Paths (docs/format.md#extraction): parsed in src/graph (lint checks them too); read here.

export { checkPath, isFanOutPath, parsePath } from '../graph/extract-syntax.js';

export interface PathResult {
  found: boolean;
  values: unknown[];
}

type Reader = (ref: PathRef, res: FlowResponse) => PathResult;

const NOT_FOUND: PathResult = Object.freeze({ found: false, values: [] });

const READERS: Record<PathRef['root'], Reader> = {
  status_code: (_ref, res) => ({ found: true, values: [res.status] }),
  body: (_ref, res) => ({ found: true, values: [res.text()] }),
  headers: (ref, res) => {
    const v = res.headers[(ref as { name: string }).name];
    return v === undefined ? NOT_FOUND : { found: true, values: Array.isArray(v) ? v : [v] };
  },
  cookies: (ref, res) => {
    const name = (ref as { name: string }).name;
    return Object.hasOwn(res.cookies, name) ? { found: true, values: [res.cookies[name]] } : NOT_FOUND;
  },
  data: (ref, res) => readJson(ref as Extract<PathRef, { root: 'data' }>, res.json()),
};

/**
 * Read a path from a response. Throws FlowError: E_PATH_INVALID for a bad path,
 * E_NOT_JSON / E_BODY_TRUNCATED when a `$.data` path meets a body that is not JSON.
 */
export function readPath(path: string, res: FlowResponse): PathResult {
  const ref = parsePath(path);
  if (typeof ref === 'string') throw new FlowError('E_PATH_INVALID', ref, { details: { path } });
  return READERS[ref.root](ref, res);
}

function readJson(ref: Extract<PathRef, { root: 'data' }>, json: unknown): PathResult {
  if (ref.simple) return walk(json, ref.simple);
  let values: unknown[] | undefined;
  try {
    // eval 'safe': filters like [?(@.status=='active')] work, without running arbitrary code
    values = jsonPathPlus().JSONPath<unknown[] | undefined>({ path: ref.jsonPath, json: json as object, wrap: true, eval: 'safe' });
  } catch (err) {
    throw new FlowError('E_PATH_INVALID', `"${ref.path}" is not a valid JSONPath: ${(err as Error).message}`, { details: { path: ref.path }, cause: err });
  }
  return values && values.length ? { found: true, values } : NOT_FOUND;
}

function walk(json: unknown, segments: Array<string | number>): PathResult {
  let cur: unknown = json;
  for (const seg of segments) {
    if (cur === null || typeof cur !== 'object') return NOT_FOUND;
    if (Array.isArray(cur)) {
      if (seg === 'length') {
        cur = cur.length; // as JSONPath does: `$.data.items.length > 0`
        continue;
      }
      const i = typeof seg === 'number' ? seg : /^\d+$/.test(seg) ? Number(seg) : -1;
      if (i < 0 || i >= cur.length) return NOT_FOUND;
      cur = cur[i];
    } else {
      const key = String(seg);
      if (!Object.hasOwn(cur, key)) return NOT_FOUND;
      cur = (cur as Record<string, unknown>)[key];
    }
  }
  return { found: true, values: [cur] };
}
