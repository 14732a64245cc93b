// @ts-check
// What a hook gives back, checked in the worker before it crosses to the runner: `{ extract }`
// or nothing, and a changed ctx.request, normalized since it will be sent as it is. Plain
// JavaScript, as hook-worker.js is (loaded by worker threads as it is, from src/ and dist/).

/** @typedef {import('./types.js').HookRequest} HookRequest */

/** A mistake in how the hook was written or what it returned: its message is the whole story. */
export class HookError extends Error {}

const RESULT_KEYS = new Set(['extract']);

/**
 * Only `{ extract: {…} }` (or nothing). Anything else is a mistake worth a clear message.
 * @param {unknown} result
 * @returns {Record<string, unknown> | undefined}
 */
export function readResult(result) {
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
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [name, value] of Object.entries(extract)) {
    if (value === undefined) continue; // produced nothing, as an extraction that found nothing
    checkPlain(value, `extract.${name}`, new Set());
    out[name] = value;
  }
  return out;
}

/**
 * ctx.request after the hook: checked and normalized, since it will be sent as it is.
 * @param {unknown} request
 * @param {readonly string[]} methods the HTTP methods the project knows
 * @returns {{ request: HookRequest, jsonBody: boolean }}
 */
export function readRequest(request, methods) {
  if (!isPlainObject(request)) throw new HookError('ctx.request was replaced by something that is not an object');
  const method = text(request.method).toUpperCase();
  if (!methods.includes(method)) throw new HookError(`ctx.request.method "${text(request.method)}" is not an HTTP method`);
  const url = text(request.url);
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw new HookError(`ctx.request.url "${url}" is not an http(s) URL`);
  if (!isPlainObject(request.headers)) throw new HookError('ctx.request.headers must be an object of name: value');
  /** @type {Record<string, string>} */
  const headers = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || value === null) continue; // deleting a header by setting it to undefined
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new HookError(`ctx.request.headers["${name}"] is ${kindOf(value)}; header values are text`);
    }
    headers[name] = String(value);
  }
  /** @type {HookRequest} */
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

/**
 * JSON data only: it is stored, rendered into later requests and shown in reports.
 * @param {unknown} value
 * @param {string} where
 * @param {Set<unknown>} seen
 */
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

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isPlainObject(v) {
  if (v === null || typeof v !== 'object') return false;
  const proto = /** @type {unknown} */ (Object.getPrototypeOf(v));
  return proto === Object.prototype || proto === null;
}

/** @param {unknown} v */
function text(v) {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
}

/** @param {unknown} v */
function kindOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return `a ${/** @type {{ constructor?: { name?: string } }} */ (v).constructor?.name ?? 'object'}`;
  if (typeof v === 'function') return 'a function';
  return `a ${typeof v}`;
}

/** @param {{ method?: unknown, url?: unknown, headers?: unknown, body?: unknown }} request */
export function snapshot(request) {
  return JSON.stringify([request.method, request.url, request.headers, request.body]);
}
