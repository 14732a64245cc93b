// From a request as written (operation, login, chain step, refresh) to an OutgoingRequest:
// rendered URL, query, headers and body. Auth is applied afterwards by the caller.
import { FlowError } from '../../errors.js';
import { hasTemplate } from '../../graph/template.js';
import type { RequestSpec, TemplateValue } from '../../project/types.js';
import { getHeader, setHeader } from '../../auth/credentials.js';
import type { OutgoingRequest } from '../../auth/types.js';
import { buildBody } from '../http/index.js';
import type { RenderContext } from '../template/index.js';
import { isPromise, whenReady, type MaybePromise } from '../maybe.js';
import { render, renderNow, renderStringNow } from '../template/index.js';
import type { RunContext } from './context.js';

/** What an operation, a login, a chain step and a refresh have in common. */
export type WrittenRequest = Pick<RequestSpec, 'method' | 'path' | 'headers' | 'queryParams' | 'body' | 'bodyForm'>;

export async function prepareRequest(
  ctx: RunContext,
  spec: WrittenRequest,
  rc: RenderContext,
  baseHeaders: Record<string, TemplateValue> = {},
  /** a login's own request (a token_url is often on an identity provider's host) */
  anyOrigin = false,
): Promise<OutgoingRequest> {
  // Awaited only when not ready (src/runtime/maybe.ts): most requests render synchronously.
  let url = buildUrl(ctx, spec.path, rc, anyOrigin);
  if (isPromise(url)) url = await url;
  for (const [name, value] of Object.entries(spec.queryParams)) {
    const rendered = renderNow(value, rc);
    appendQuery(url, name, isPromise(rendered) ? await rendered : rendered);
  }
  const req: OutgoingRequest = { method: spec.method, url, headers: {} };
  // The actor's inject.headers first; the operation's own headers win on a clash.
  for (const [name, value] of [...Object.entries(baseHeaders), ...Object.entries(spec.headers)]) {
    let rendered = renderNow(value, rc);
    if (isPromise(rendered)) rendered = await rendered;
    if (rendered === null || rendered === undefined) continue;
    setHeader(req, name, typeof rendered === 'string' ? rendered : JSON.stringify(rendered));
  }
  if (spec.bodyForm !== undefined) {
    const form = (await render(spec.bodyForm, rc)) as Record<string, unknown>;
    // buildBody settles the Content-Type: a written one is kept, except for multipart (undici
    // writes it with the boundary it chose; `multipart/form-data` as curl users write it has none).
    const built = await buildBody({ bodyForm: form, headers: req.headers }, ctx.project.dir);
    req.body = built.body;
    req.headers = built.headers;
  } else if (spec.body !== undefined) {
    const value = renderNow(spec.body, rc);
    req.body = JSON.stringify(isPromise(value) ? await value : value);
    if (getHeader(req, 'content-type') === undefined) req.headers['content-type'] = 'application/json';
  }
  return req;
}

/**
 * baseUrl followed by the path (spec 2.3.1). A path that renders to an absolute URL (written
 * literally it is E_SCHEMA) is taken as it is when it is on baseUrl's origin (a `next` link
 * of a paged list); on another origin it is refused, E_PATH_ORIGIN: a value from a response
 * or a --var must not send the actor's credentials to another host. A login (`anyOrigin`)
 * may reach another host: its token_url is written by the project.
 */
function buildUrl(ctx: RunContext, pathTemplate: string, rc: RenderContext, anyOrigin: boolean): MaybePromise<URL> {
  return whenReady(renderStringNow(pathTemplate, rc), (path) => {
    if (/^https?:\/\//i.test(path)) {
      const url = parseUrl(path);
      if (anyOrigin) return url;
      return whenReady(baseUrl(ctx, rc), (base) => {
        const origin = parseUrl(base).origin;
        if (url.origin === origin) return url;
        throw new FlowError('E_PATH_ORIGIN', `path "${pathTemplate}" renders to a URL on ${url.origin}, not on baseUrl's origin ${origin}: refused, so that no request (nor its credentials) goes to another host`, {
          details: { path: pathTemplate, origin: url.origin, baseOrigin: origin },
        });
      });
    }
    return whenReady(baseUrl(ctx, rc), (base) => parseUrl(base + (path.startsWith('/') || path === '' ? path : `/${path}`)));
  });
}

// A run's env.baseUrl given with --var, or written without references, is the same for
// every request: rendered once.
const fixedBaseUrls = new WeakMap<RunContext, string>();

function baseUrl(ctx: RunContext, rc: RenderContext): MaybePromise<string> {
  const fixed = fixedBaseUrls.get(ctx);
  if (fixed !== undefined) return fixed;
  if (!ctx.environment || !Object.hasOwn(ctx.environment.variables, 'baseUrl')) {
    const where = ctx.environment ? `environment "${ctx.environment.id}"` : 'the project (it has no environment)';
    throw new FlowError('E_VAR_UNRESOLVED', `baseUrl is not defined in ${where}; requests need env.baseUrl`, {
      details: { variable: 'env.baseUrl' },
    });
  }
  // Through env resolution, so `<SET_VIA_--var>` and references inside baseUrl work.
  return whenReady(renderStringNow('{{env.baseUrl}}', rc), (rendered) => {
    const base = rendered.replace(/\/+$/, '');
    const written = ctx.environment!.variables.baseUrl;
    if (Object.hasOwn(ctx.vars, 'baseUrl') || (typeof written === 'string' && !hasTemplate(written))) fixedBaseUrls.set(ctx, base);
    return base;
  });
}

function parseUrl(text: string): URL {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url;
  } catch {
    throw new FlowError('E_URL_INVALID', `"${text}" is not a valid http(s) URL`);
  }
}

function appendQuery(url: URL, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  const values = Array.isArray(value) ? value : [value];
  for (const v of values) url.searchParams.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
}
