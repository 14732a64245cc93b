// @ts-check
// The worker side of hooks (tinypool runs the default export once per call). Plain
// JavaScript on purpose: it is loaded by worker threads as it is, from src/ and from dist/;
// typed through JSDoc against ./types.ts and checked by `npm run typecheck`.
// A hook runs here, away from the runner's memory; whatever it does, this module answers
// with data: { ok: true, request?, jsonBody?, extract?, logs } or { ok: false, message, line?, logs }.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { parse } from 'acorn';
import { HookError, readRequest, readResult, snapshot } from './hook-answer.js';

/** The file name inline hooks report in stack traces (for their line numbers). */
const INLINE_NAME = 'reqflow-inline-hook';
/** `new AsyncFunction(params…, body)` puts two lines before the body. */
const INLINE_LINE_OFFSET = 2;
const MAX_LOG_LINES = 100;
const MAX_LOG_CHARS = 2000;

/**
 * @typedef {import('./types.js').WorkerTask} WorkerTask
 * @typedef {import('./types.js').WorkerAnswer} WorkerAnswer
 * @typedef {import('./types.js').HookResponse} HookResponse
 * @typedef {import('./locate.js').HookSource} HookSource
 * @typedef {(ctx: HookContext, require: NodeJS.Require) => unknown} HookFunction
 * @typedef {{ kind: WorkerTask['kind'], operation: string, vars: Record<string, unknown>, request?: Record<string, unknown>, response?: Readonly<HookResponse> }} HookContext
 * @typedef {Error & { hookLine?: number }} LocatedError
 */

/** @type {new (...params: string[]) => HookFunction} */
const AsyncFunction = /** @type {any} */ ((async () => {}).constructor);
/** @type {Map<string, HookFunction>} */
const inlineCache = new Map();
/** @type {Map<string, NodeJS.Require>} */
const requireCache = new Map();

// A hook that leaves a rejected promise or a throwing timer behind must not take the worker
// (and the calls queued on it) down with it; its own call has already been answered.
process.on('unhandledRejection', () => {});
process.on('uncaughtException', () => {});
// process.exit() would end the thread without an answer (the call would wait out its time
// limit) and process.abort() would end the whole runner: both fail the hook instead.
for (const name of /** @type {const} */ (['exit', 'abort'])) {
  process[name] = () => {
    throw new HookError(`a hook cannot call process.${name}(): throw an Error to fail the operation`);
  };
}

/**
 * @param {WorkerTask} task
 * @returns {Promise<WorkerAnswer>}
 */
export default async function runHook(task) {
  // the runner's clock for this call starts now, not when the call was queued
  task.started?.postMessage(null);
  task.started?.close();
  /** @type {string[]} */
  const logs = [];
  const restoreConsole = captureConsole(logs);
  try {
    const fn = await load(task);
    const ctx = makeContext(task);
    const before = task.kind === 'pre_request' && ctx.request ? snapshot(ctx.request) : undefined;
    const result = await fn(ctx, requireFor(task.projectDir));
    /** @type {WorkerAnswer & { ok: true }} */
    const out = { ok: true, logs };
    const extract = readResult(result);
    if (extract) out.extract = extract;
    if (before !== undefined) {
      const { request, jsonBody } = readRequest(ctx.request, task.methods);
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

/**
 * @param {WorkerTask} task
 * @returns {Promise<HookFunction>}
 */
async function load(task) {
  const { source } = task;
  if (source.kind === 'inline') return compileInline(source.code);
  /** @type {{ default?: unknown }} */
  let mod;
  try {
    /** @type {unknown} */
    const imported = await import(`${pathToFileURL(source.file).href}?v=${source.version}`);
    mod = /** @type {{ default?: unknown }} */ (imported);
  } catch (err) {
    if (err instanceof SyntaxError) throw withLine(err, syntaxLine(await readFileText(source.file), 'module'));
    throw err;
  }
  const fn = typeof mod.default === 'function' ? /** @type {HookFunction} */ (mod.default) : undefined;
  if (!fn) throw new HookError('the file has no default export function: write `export default function (ctx) { … }`');
  return fn;
}

/** @param {string} code */
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

/**
 * V8 does not say where a SyntaxError is for these two forms; acorn does.
 * @param {string} code
 * @param {'script' | 'module'} sourceType
 * @returns {number | undefined}
 */
function syntaxLine(code, sourceType) {
  try {
    parse(code, { ecmaVersion: 'latest', sourceType, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true });
  } catch (err) {
    return /** @type {{ loc?: { line?: number } }} */ (err)?.loc?.line;
  }
  return undefined;
}

/** @param {string} file */
async function readFileText(file) {
  const { readFile } = await import('node:fs/promises');
  return readFile(file, 'utf8').catch(() => '');
}

/** @param {string} projectDir */
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

/**
 * @param {WorkerTask} task
 * @returns {HookContext}
 */
function makeContext(task) {
  const { input, kind } = task;
  /** @type {HookContext} */
  const ctx = { kind, operation: input.operation, vars: deepFreeze(input.vars ?? {}) };
  if (input.request) {
    const request = { ...input.request, headers: { ...input.request.headers } };
    // pre_request may change the request; after the response it is history
    ctx.request = kind === 'pre_request' ? request : deepFreeze(request);
  }
  if (input.response) ctx.response = deepFreeze(responseView(input.response));
  return ctx;
}

/**
 * @param {HookResponse} response
 * @returns {HookResponse}
 */
function responseView(response) {
  /** @type {HookResponse} */
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

/**
 * @template T
 * @param {T} value
 * @returns {T}
 */
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

// ---- errors and logs ----

/**
 * @param {SyntaxError} err
 * @param {number | undefined} line
 * @returns {LocatedError}
 */
function withLine(err, line) {
  if (line !== undefined) /** @type {LocatedError} */ (err).hookLine = line;
  return err;
}

/**
 * The hook's own message and line, never a stack trace (it would show our internals).
 * @param {unknown} err
 * @param {HookSource} source
 * @returns {{ message: string, line?: number }}
 */
function describe(err, source) {
  if (err instanceof HookError) return { message: err.message };
  const message = err instanceof Error ? `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}` : `threw ${inspectThrown(err)}`;
  const line = /** @type {LocatedError | undefined} */ (err)?.hookLine ?? stackLine(err, source);
  return line === undefined ? { message: clip(message) } : { message: clip(message), line };
}

/**
 * @param {unknown} err
 * @param {HookSource} source
 * @returns {number | undefined}
 */
function stackLine(err, source) {
  const stack = err instanceof Error && typeof err.stack === 'string' ? err.stack : '';
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

/** @param {unknown} v */
function inspectThrown(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    return format('%o', v);
  } catch {
    return String(v);
  }
}

/** @param {string} message */
function clip(message) {
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}

/**
 * console.* inside a hook goes into the answer (the runner redacts it), not to our stdout.
 * @param {string[]} logs
 */
function captureConsole(logs) {
  const names = /** @type {const} */ (['log', 'info', 'warn', 'error', 'debug', 'trace']);
  // console's methods need no `this`: Node binds them to the global console
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const saved = names.map((n) => console[n]);
  for (const n of names) {
    console[n] = (/** @type {unknown[]} */ ...args) => {
      if (logs.length >= MAX_LOG_LINES) return;
      const line = format(...args);
      logs.push(line.length > MAX_LOG_CHARS ? `${line.slice(0, MAX_LOG_CHARS)}…` : line);
    };
  }
  return () => names.forEach((n, i) => (console[n] = saved[i]));
}
