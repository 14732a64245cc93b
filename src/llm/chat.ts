// A client for OpenAI-compatible chat completions (hosted APIs, Ollama, vLLM, llama.cpp's
// server all speak it): one streamed request, read as server-sent events with a maintained
// parser (events split across chunks are its job), each failure a coded error. The API key is
// sent in one header and appears in no message: the server's words are quoted only through a
// redactor that knows the key in every form (plain, JSON-escaped, URL-encoded, base64), which
// hides before it cuts. An answer is read up to a size cap, never whole whatever its size.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import { FlowError, hasCode } from '../errors.js';
import { createRedactor, type Redactor } from '../redact/index.js';

/** The most an answer may hold (bytes as received): a project's files are a few hundred KB. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** What is read of an error body to quote from it. */
const MAX_ERROR_BYTES = 64 * 1024;
/** How much of the server's words a message quotes. */
const QUOTED_CHARS = 200;

const LLM_CODES = {
  /** the endpoint cannot be reached (refused, no such host, TLS) */
  unreachable: 'E_LLM_UNREACHABLE',
  /** 401/403: the key is missing, wrong or not allowed this model */
  auth: 'E_LLM_AUTH',
  /** 429 after the retries Retry-After allows */
  rateLimit: 'E_LLM_RATE_LIMIT',
  /** no answer within the time limit */
  timeout: 'E_LLM_TIMEOUT',
  /** another status, or a body that is not a chat completion */
  response: 'E_LLM_RESPONSE',
} as const;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  /** the API's base URL, e.g. `https://api.example.com/v1` or `http://127.0.0.1:11434/v1` */
  url: string;
  model: string;
  apiKey?: string;
  /** the whole request, stream included (default 10 minutes: a long answer streams for minutes) */
  timeoutMs?: number;
  /** no byte for this long ends the request (default 60 s) */
  idleMs?: number;
  /** 429: how many times to wait and send again (default 2), each wait at most maxWaitMs (30 s) */
  rateLimitRetries?: number;
  maxWaitMs?: number;
  /** called as the answer streams in, with the characters received so far */
  progress?: (received: number) => void;
  /** the answer's size cap in bytes (default MAX_ANSWER_BYTES) */
  maxBytes?: number;
}

export interface ChatAnswer {
  text: string;
  finishReason?: string;
}

/** Send `messages`, stream the answer back. Rejects with a FlowError of LLM_CODES. */
export async function chat(messages: ChatMessage[], options: ChatOptions): Promise<ChatAnswer> {
  const endpoint = `${options.url.replace(/\/+$/, '')}/chat/completions`;
  const retries = options.rateLimitRetries ?? 2;
  const dispatcher = new Agent({ connectTimeout: 10_000, headersTimeout: options.idleMs ?? 60_000, bodyTimeout: options.idleMs ?? 60_000 });
  try {
    for (let attempt = 0; ; attempt++) {
      const answer = await once(endpoint, messages, options, dispatcher);
      if (answer.kind === 'done') return answer.answer;
      const wait = answer.retryAfterMs;
      if (attempt >= retries || wait > (options.maxWaitMs ?? 30_000)) {
        throw new FlowError(
          LLM_CODES.rateLimit,
          `${shown(endpoint)} answered 429 (rate limit)${wait ? `; it asks to wait ${Math.ceil(wait / 1000)} s` : ''}: try again later`,
        );
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}

type Once = { kind: 'done'; answer: ChatAnswer } | { kind: 'rate-limited'; retryAfterMs: number };

async function once(endpoint: string, messages: ChatMessage[], options: ChatOptions, dispatcher: Dispatcher): Promise<Once> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const redactor = createRedactor(options.apiKey ? [options.apiKey] : []);
  let res: Dispatcher.ResponseData;
  try {
    res = await request(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: options.model, messages, stream: true, temperature: 0 }),
      dispatcher,
      signal: AbortSignal.timeout(options.timeoutMs ?? 600_000),
    });
  } catch (err) {
    throw transportError(err, endpoint);
  }
  if (res.statusCode === 429) {
    await res.body.dump();
    return { kind: 'rate-limited', retryAfterMs: retryAfterMs(res.headers['retry-after']) };
  }
  if (res.statusCode === 401 || res.statusCode === 403) {
    const said = await excerpt(res, redactor);
    throw new FlowError(
      LLM_CODES.auth,
      `${shown(endpoint)} refused the key (${res.statusCode}${said ? `: ${said}` : ''}): set FLOW_LLM_API_KEY or \`flow secret set LLM_API_KEY --global\``,
    );
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const said = await excerpt(res, redactor);
    throw new FlowError(LLM_CODES.response, `${shown(endpoint)} answered ${res.statusCode}${said ? `: ${said}` : ''}`);
  }
  const type = String(res.headers['content-type'] ?? '');
  try {
    const max = options.maxBytes ?? MAX_ANSWER_BYTES;
    return {
      kind: 'done',
      answer: type.includes('text/event-stream') ? await readStream(res, options, redactor, max) : await readWhole(res, redactor, max),
    };
  } catch (err) {
    if (hasCode(err) && String(err.code).startsWith('E_LLM_')) throw err;
    throw transportError(err, endpoint);
  }
}

/** The streamed answer: `data: {choices:[{delta:{content}}]}` events until `data: [DONE]`. */
async function readStream(res: Dispatcher.ResponseData, options: ChatOptions, redactor: Redactor, max: number): Promise<ChatAnswer> {
  let text = '';
  let finishReason: string | undefined;
  let bad: string | undefined;
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (event.data === '[DONE]') return;
      const chunk = parseChunk(event.data);
      if (!chunk) {
        bad ??= event.data.slice(0, MAX_ERROR_BYTES);
        return;
      }
      text += chunk.content;
      finishReason = chunk.finishReason ?? finishReason;
      options.progress?.(text.length);
    },
  });
  // A character split across two chunks is joined by the decoder, an event split across two by the parser.
  const decoder = new TextDecoder();
  let received = 0;
  for await (const piece of res.body) {
    received += (piece as Buffer).length;
    if (received > max) tooLarge(res, max);
    parser.feed(decoder.decode(piece as Buffer, { stream: true }));
  }
  parser.feed(decoder.decode());
  parser.reset({ consume: true });
  if (bad !== undefined && !text)
    throw new FlowError(
      LLM_CODES.response,
      `the answer stream holds no chat completion (first event: ${quoted(bad, redactor, bad.length >= MAX_ERROR_BYTES)})`,
    );
  return { text, finishReason };
}

function tooLarge(res: Dispatcher.ResponseData, max: number): never {
  res.body.destroy();
  throw new FlowError(LLM_CODES.response, `the answer is larger than ${max} bytes: not read further (a project's files are far smaller)`);
}

/** The body as text, read up to `max` bytes; past it, too large (and the rest is not read). */
async function bodyText(res: Dispatcher.ResponseData, max: number, cut = false): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const piece of res.body) {
    const buf = piece as Buffer;
    if (size + buf.length > max) {
      if (!cut) tooLarge(res, max);
      chunks.push(buf.subarray(0, max - size));
      res.body.destroy();
      break;
    }
    chunks.push(buf);
    size += buf.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The server's words in a message: redacted, then cut, then quoted. */
function quoted(text: string, redactor: Redactor, partial = false): string {
  const { text: shown, more } = redactor.excerpt(text.replace(/\s+/g, ' ').trim(), QUOTED_CHARS, partial);
  return JSON.stringify(more ? `${shown}…` : shown);
}

/** A server that ignores `stream: true` and answers with one JSON completion. */
async function readWhole(res: Dispatcher.ResponseData, redactor: Redactor, max: number): Promise<ChatAnswer> {
  const raw = await bodyText(res, max);
  let body: { choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }> };
  try {
    body = JSON.parse(raw) as typeof body;
  } catch {
    throw new FlowError(LLM_CODES.response, `the answer is neither an event stream nor JSON (${quoted(raw, redactor)})`);
  }
  const choice = body.choices?.[0];
  if (typeof choice?.message?.content !== 'string') throw new FlowError(LLM_CODES.response, 'the answer has no choices[0].message.content');
  return { text: choice.message.content, finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined };
}

function parseChunk(data: string): { content: string; finishReason?: string } | undefined {
  try {
    const json = JSON.parse(data) as { choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }> };
    const choice = json.choices?.[0];
    if (!choice) return undefined;
    const content = typeof choice.delta?.content === 'string' ? choice.delta.content : '';
    return { content, finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined };
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds or as an HTTP date; 1 s when absent or unreadable. */
function retryAfterMs(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return 1000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - Date.now());
}

/** What an error body says, redacted before it is cut (the key may come after the cut). */
async function excerpt(res: Dispatcher.ResponseData, redactor: Redactor): Promise<string> {
  const text = await bodyText(res, MAX_ERROR_BYTES, true).catch(() => '');
  let said = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof json.error === 'string' ? json.error : json.error?.message;
    if (typeof message === 'string') said = message;
  } catch {
    // not JSON (or cut): the text itself
  }
  const { text: shown, more } = redactor.excerpt(said.replace(/\s+/g, ' ').trim(), QUOTED_CHARS, said === text && text.length >= MAX_ERROR_BYTES);
  return more ? `${shown}…` : shown;
}

/** The endpoint as messages name it: without what a URL can carry of a credential (user:pass@, a ?key=…). */
function shown(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.href;
  } catch {
    return 'the --llm-url endpoint';
  }
}

function transportError(err: unknown, endpoint: string): FlowError {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new FlowError(LLM_CODES.timeout, `${shown(endpoint)} did not answer in time`, { cause: err });
  }
  if (
    code &&
    /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET|ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED)/.test(code)
  ) {
    return new FlowError(LLM_CODES.unreachable, `cannot reach ${shown(endpoint)} (${code}): check --llm-url or FLOW_LLM_URL`, { cause: err });
  }
  return new FlowError(LLM_CODES.response, `${shown(endpoint)}: ${e.message ?? String(err)}`, { cause: err });
}
