// The worker side of hooks (tinypool runs the default export once per call). Plain
// JavaScript on purpose: it is loaded by worker threads as it is, from src/ and from dist/.
// A hook runs here, away from the runner's memory; whatever it does, this module answers
// with data: { ok: true, request?, jsonBody?, extract?, logs } or { ok: false, message, line?, logs }.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { parse } from 'acorn';

/** The file name inline hooks report in stack traces (for their line numbers). */
const INLINE_NAME = 'reqflow-inline-hook';
/** `new AsyncFunction(params…, body)` puts two lines before the body. */
const INLINE_LINE_OFFSET = 2;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE']);
const RESULT_KEYS = new Set(['extract']);
const MAX_LOG_LINES = 100;
const MAX_LOG_CHARS = 2000;

/** A mistake in how the hook was written or what it returned: its message is the whole story. */
class HookError extends Error {}

const AsyncFunction = (async () => {}).constructor;
const inlineCache = new Map();
const requireCache = new Map();

// A hook that leaves a rejected promise or a throwing timer behind must not take the worker
// (and the calls queued on it) down with it; its own call has already been answered.
process.on('unhandledRejection', () => {});
process.on('uncaughtException', () => {});
// process.exit() would end the thread without an answer (the call would wait out its time
// limit) and process.abort() would end the whole runner: both fail the hook instead.
for (const name of ['exit', 'abort']) {
  process[name] = () => {
    throw new HookError(`a hook cannot call process.${name}(): throw an Error to fail the operation`);
  };
}

/**
 * @param {{ kind: 'pre_request' | 'post_response', source: { kind: 'inline', code: string } | { kind: 'file', file: string, version: number }, input: any, projectDir: string, started?: import('node:worker_threads').MessagePort }} task
 */
export default async function runHook(task) {
  // the runner's clock for this call starts now, not when the call was queued
  task.started?.postMessage(null);
  task.started?.close();
  const logs = [];
  const restoreConsole = captureConsole(logs);
  try {
    const fn = await load(task);
    const ctx = makeContext(task);
    const before = task.kind === 'pre_request' && ctx.request ? snapshot(ctx.request) : undefined;
    const result = await fn(ctx, requireFor(task.projectDir));
    const out = { ok: true, logs };
    const extract = readResult(result);
    if (extract) out.extract = extract;
    if (before !== undefined) {
      const { request, jsonBody } = readRequest(ctx.request);
      // a JSON body is returned even when its text is unchanged: the runner may add its content-type
      if (jsonBody || snapshot(request) !== before) out.request = request;
      if (jsonBody) out.jsonBody = true;
    }
    return out;
  } catch (err) {
    return { ok: false, logs, ...describe(err, task.source) };
  } finally {
    restoreConsole();
  }
}

// ---- loading ----

async function load(task) {
  const { source } = task;
  if (source.kind === 'inline') return compileInline(source.code);
  let mod;
  try {
    mod = await import(`${pathToFileURL(source.file).href}?v=${source.version}`);
  } catch (err) {
    if (err instanceof SyntaxError) throw withLine(err, syntaxLine(await readFileText(source.file), 'module'));
    throw err;
  }
  const fn = typeof mod.default === 'function' ? mod.default : undefined;
  if (!fn) throw new HookError('the file has no default export function: write `export default function (ctx) { … }`');
  return fn;
}

function compileInline(code) {
  let fn = inlineCache.get(code);
  if (fn) return fn;
  try {
    fn = new AsyncFunction('ctx', 'require', `${code}\n//# sourceURL=${INLINE_NAME}`);
  } catch (err) {
    if (err instanceof SyntaxError) throw withLine(err, syntaxLine(code, 'script'));
    throw err;
  }
  if (inlineCache.size > 500) inlineCache.clear();
  inlineCache.set(code, fn);
  return fn;
}

/** V8 does not say where a SyntaxError is for these two forms; acorn does. */
function syntaxLine(code, sourceType) {
  try {
    parse(code, { ecmaVersion: 'latest', sourceType, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true });
  } catch (err) {
    return err?.loc?.line;
  }
  return undefined;
}

async function readFileText(file) {
  const { readFile } = await import('node:fs/promises');
  return readFile(file, 'utf8').catch(() => '');
}

function requireFor(projectDir) {
  let req = requireCache.get(projectDir);
  if (!req) {
    // resolves packages from the project, as the project's own code would
    req = createRequire(`${projectDir}/__reqflow_hook__.js`);
    requireCache.set(projectDir, req);
  }
  return req;
}

// ---- what the hook sees ----

function makeContext(task) {
  const { input, kind } = task;
  const ctx = { kind, operation: input.operation, vars: deepFreeze(input.vars ?? {}) };
  if (input.request) {
    const request = { ...input.request, headers: { ...input.request.headers } };
    // pre_request may change the request; after the response it is history
    ctx.request = kind === 'pre_request' ? request : deepFreeze(request);
  }
  if (input.response) ctx.response = deepFreeze(responseView(input.response));
  return ctx;
}

function responseView(response) {
  const view = { status: response.status, headers: response.headers, body: response.body };
  let json = response.json;
  let parsed = json !== undefined;
  Object.defineProperty(view, 'json', {
    enumerable: true,
    get() {
      if (!parsed) {
        parsed = true;
        try {
          json = JSON.parse(response.body);
        } catch {
          json = undefined; // not JSON: the hook can still read ctx.response.body
        }
        deepFreeze(json);
      }
      return json;
    },
  });
  return view;
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) {
      const d = Object.getOwnPropertyDescriptor(value, key);
      if (d && 'value' in d) deepFreeze(d.value);
    }
  }
  return value;
}

// ---- what the hook gives back ----

/** Only `{ extract: {…} }` (or nothing). Anything else is a mistake worth a clear message. */
function readResult(result) {
  if (result === undefined || result === null) return undefined;
  if (!isPlainObject(result)) throw new HookError(`the hook returned ${kindOf(result)}; return nothing or { extract: { name: value } }`);
  for (const key of Object.keys(result)) {
    if (!RESULT_KEYS.has(key)) {
      const hint = key === 'request' ? ' (change ctx.request instead)' : '';
      throw new HookError(`the hook returned an unknown key "${key}"${hint}; return nothing or { extract: { name: value } }`);
    }
  }
  const { extract } = result;
  if (extract === undefined || extract === null) return undefined;
  if (!isPlainObject(extract)) throw new HookError(`"extract" is ${kindOf(extract)}; it must be an object of name: value`);
  const out = {};
  for (const [name, value] of Object.entries(extract)) {
    if (value === undefined) continue; // produced nothing, as an extraction that found nothing
    checkPlain(value, `extract.${name}`, new Set());
    out[name] = value;
  }
  return out;
}

/** ctx.request after the hook: checked and normalized, since it will be sent as it is. */
function readRequest(request) {
  if (!isPlainObject(request)) throw new HookError('ctx.request was replaced by something that is not an object');
  const method = String(request.method ?? '').toUpperCase();
  if (!METHODS.has(method)) throw new HookError(`ctx.request.method "${request.method}" is not an HTTP method`);
  const url = String(request.url ?? '');
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw new HookError(`ctx.request.url "${url}" is not an http(s) URL`);
  if (!isPlainObject(request.headers)) throw new HookError('ctx.request.headers must be an object of name: value');
  const headers = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || value === null) continue; // deleting a header by setting it to undefined
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new HookError(`ctx.request.headers["${name}"] is ${kindOf(value)}; header values are text`);
    }
    headers[name] = String(value);
  }
  const out = { method, url, headers };
  const { body } = request;
  let jsonBody = false;
  if (typeof body === 'string') out.body = body;
  else if (body !== undefined && body !== null) {
    // an object body is sent as JSON, as the operation's own `body` is
    checkPlain(body, 'ctx.request.body', new Set());
    out.body = JSON.stringify(body);
    jsonBody = true;
  }
  return { request: out, jsonBody };
}

/** JSON data only: it is stored, rendered into later requests and shown in reports. */
function checkPlain(value, where, seen) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new HookError(`${where} is ${value}, which is not a JSON value`);
    return;
  }
  if (Array.isArray(value) || isPlainObject(value)) {
    if (seen.has(value)) throw new HookError(`${where} refers to itself (a cycle) and cannot be stored`);
    seen.add(value);
    for (const [k, v] of Object.entries(value)) checkPlain(v, Array.isArray(value) ? `${where}[${k}]` : `${where}.${k}`, seen);
    seen.delete(value);
    return;
  }
  throw new HookError(`${where} is ${kindOf(value)}, which cannot be stored: use strings, numbers, booleans, null, arrays and plain objects`);
}

function isPlainObject(v) {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function kindOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return `a ${v.constructor?.name ?? 'object'}`;
  if (typeof v === 'function') return 'a function';
  return `a ${typeof v}`;
}

function snapshot(request) {
  return JSON.stringify([request.method, request.url, request.headers, request.body]);
}

// ---- errors and logs ----

function withLine(err, line) {
  if (line !== undefined) err.hookLine = line;
  return err;
}

/** The hook's own message and line, never a stack trace (it would show our internals). */
function describe(err, source) {
  if (err instanceof HookError) return { message: err.message };
  const message = err instanceof Error ? `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}` : `threw ${inspectThrown(err)}`;
  const line = err?.hookLine ?? stackLine(err, source);
  return line === undefined ? { message: clip(message) } : { message: clip(message), line };
}

function stackLine(err, source) {
  const stack = typeof err?.stack === 'string' ? err.stack : '';
  const marker = source.kind === 'inline' ? INLINE_NAME : pathToFileURL(source.file).href;
  for (const frame of stack.split('\n')) {
    const at = frame.indexOf(marker);
    if (at < 0) continue;
    const m = /:(\d+):\d+\)?\s*$/.exec(frame.slice(at + marker.length));
    if (!m) continue;
    const line = Number(m[1]) - (source.kind === 'inline' ? INLINE_LINE_OFFSET : 0);
    return line > 0 ? line : undefined;
  }
  return undefined;
}

function inspectThrown(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    return format('%o', v);
  } catch {
    return String(v);
  }
}

function clip(text) {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** console.* inside a hook goes into the answer (the runner redacts it), not to our stdout. */
function captureConsole(logs) {
  const names = ['log', 'info', 'warn', 'error', 'debug', 'trace'];
  const saved = names.map((n) => console[n]);
  for (const n of names) {
    console[n] = (...args) => {
      if (logs.length >= MAX_LOG_LINES) return;
      const line = format(...args);
      logs.push(line.length > MAX_LOG_CHARS ? `${line.slice(0, MAX_LOG_CHARS)}…` : line);
    };
  }
  return () => names.forEach((n, i) => (console[n] = saved[i]));
}
