// From a request as written (operation, login, chain step, refresh) to an PreparedRequest:
// rendered URL, query, headers and body. Auth is applied afterwards by the caller.
import { FlowError } from '../errors.js';
import type { RequestSpec, TemplateValue } from '../project/index.js';
import { buildBody, buildUrl, getHeader, hostAllowed, isAbsoluteUrl, type PreparedRequest, setHeader } from '../http/index.js';
import { render, renderString, type RenderContext } from '../runtime/index.js';
import type { RunContext } from './context.js';
import { renderPath } from './path.js';

/** What an operation, a login, a chain step and a refresh have in common. */
export type WrittenRequest = Pick<RequestSpec, 'method' | 'path' | 'headers' | 'queryParams' | 'body' | 'bodyForm'>;

export async function prepareRequest(
  ctx: RunContext,
  spec: WrittenRequest,
  rc: RenderContext,
  baseHeaders: Record<string, TemplateValue> = {},
  /** a login's own request (a token_url is often on an identity provider's host) */
  anyOrigin = false,
  /** a probe's query values, over the rendered ones: data, never rendered */
  extraQuery?: Record<string, unknown>,
): Promise<PreparedRequest> {
  const path = renderPath(spec.path, rc);
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(spec.queryParams)) query[name] = render(value, rc);
  if (extraQuery) Object.assign(query, extraQuery);
  const url = parseUrl(buildUrl(isAbsoluteUrl(path) ? '' : baseUrl(ctx, rc), path, query));
  if (isAbsoluteUrl(path) && !anyOrigin) checkOrigin(url, spec.path, baseUrl(ctx, rc));
  if (ctx.options.guardWrites && !anyOrigin) checkWriteHost(ctx, spec.method, url);
  const req: PreparedRequest = { method: spec.method, url, headers: {} };
  // The actor's inject.headers first; the operation's own headers win on a clash.
  for (const [name, value] of [...Object.entries(baseHeaders), ...Object.entries(spec.headers)]) {
    const rendered = render(value, rc);
    if (rendered === null || rendered === undefined) continue;
    setHeader(req, name, typeof rendered === 'string' ? rendered : JSON.stringify(rendered));
  }
  if (spec.bodyForm !== undefined) {
    // buildBody settles the Content-Type: a written one is kept, except for multipart (undici
    // writes it with the boundary it chose; `multipart/form-data` as curl users write it has none).
    const built = await buildBody({ bodyForm: render(spec.bodyForm, rc) as Record<string, unknown>, headers: req.headers }, ctx.project.dir);
    req.body = built.body;
    req.headers = built.headers;
  } else if (spec.body !== undefined) {
    req.body = JSON.stringify(render(spec.body, rc));
    if (getHeader(req, 'content-type') === undefined) req.headers['content-type'] = 'application/json';
  }
  return req;
}

/**
 * A path that renders to an absolute URL (written literally it is E_SCHEMA) is taken as it is
 * when it is on baseUrl's origin (a `next` link of a paged list); on another origin it is
 * refused, E_PATH_ORIGIN: a value from a response or a --var must not send the actor's
 * credentials to another host. A login (`anyOrigin`) may reach another host: its token_url
 * is written by the project.
 */
function checkOrigin(url: URL, pathTemplate: string, base: string): void {
  const origin = parseUrl(base).origin;
  if (url.origin === origin) return;
  throw new FlowError(
    'E_PATH_ORIGIN',
    `path "${pathTemplate}" renders to a URL on ${url.origin}, not on baseUrl's origin ${origin}: refused, so that no request (nor its credentials) goes to another host`,
    {
      details: { path: pathTemplate, origin: url.origin, baseOrigin: origin },
    },
  );
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * calibrate and explore send writes of their own choosing: only to this machine, or to a host
 * the environment declares as one that may take them (`write_hosts`), never to whatever
 * baseUrl a user happened to point them at. A login is not held to it (anyOrigin).
 */
function checkWriteHost(ctx: RunContext, method: string, url: URL): void {
  if (!WRITES.has(method) || isLoopback(url.hostname) || hostAllowed(url, ctx.environment?.writeHosts)) return;
  const env = ctx.environment ? `environments file of "${ctx.environment.id}"` : 'environment';
  throw new FlowError(
    'E_HOST_NOT_WRITABLE',
    `${method} to ${url.host} refused: calibrate and explore write only to loopback or to a host the environment declares for writes. If ${url.host} is a server whose data may be changed, add to the ${env}: write_hosts: [${url.host}]`,
    { details: { method, host: url.host } },
  );
}

function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * env.baseUrl (docs/format.md#baseurl) without a trailing slash, rendered: `<SET_VIA_--var>`
 * and references inside it work. A given value (--var, FLOW_VAR_baseUrl, the origin of a
 * managed server) needs no declaration, as for any other variable.
 */
function baseUrl(ctx: RunContext, rc: RenderContext): string {
  const declared = ctx.environment !== undefined && Object.hasOwn(ctx.environment.variables, 'baseUrl');
  if (!declared && !Object.hasOwn(ctx.vars, 'baseUrl')) {
    const where = ctx.environment ? `environment "${ctx.environment.id}"` : 'the project (it has no environment)';
    throw new FlowError('E_VAR_UNRESOLVED', `baseUrl is not defined in ${where}; requests need env.baseUrl (or --var baseUrl=…)`, {
      details: { variable: 'env.baseUrl' },
    });
  }
  return renderString('{{env.baseUrl}}', rc).replace(/\/+$/, '');
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
