// State of one `send()`, shared by our interceptors through the dispatch options (undici
// copies options shallowly at each redirect hop and retry, so every hop sees this object).
// The hop interceptor sits below redirect and retry: it sees every attempt and every hop,
// which is where the cookie jar and the final URL must be handled.
import type { Dispatcher } from 'undici';
import { FlowError } from '../errors.js';
import { isCredentialHeader } from '../redact/index.js';
import type { CookieJar } from './cookie-jar.js';
import { resigned } from './resign.js';
import type { Resign } from './types.js';

export interface ExchangeState {
  timeoutMs: number;
  /** the origin the request was sent to: a hop elsewhere loses the credentials */
  origin: string;
  /** lower-case names of the request's own credential headers */
  credentialHeaders?: Set<string>;
  jar?: CookieJar;
  /** URL of the latest hop: the final URL once the response has ended */
  url: string;
  /** Set-Cookie values of every hop, oldest first */
  setCookies: string[];
  /** per-attempt signer of the request (oauth1) */
  resign?: Resign;
  /** the request carries a client certificate (mTLS): a connection closed at once is its refusal */
  clientCert?: boolean;
  /** hosts a redirect may lead to from `origin` (the environment's `redirect_hosts`) */
  redirectHosts?: readonly string[];
}

/** The options key our interceptors read. */
export const EXCHANGE = 'flowExchange';

export type FlowDispatchOptions = Dispatcher.DispatchOptions & { [EXCHANGE]?: ExchangeState };
/** The shapes of undici's handler callbacks, for our interceptors' handlers. */
export type Controller = Dispatcher.DispatchController;
export type RawHeaders = Record<string, string | string[] | undefined>;

export function exchangeOf(opts: Dispatcher.DispatchOptions): ExchangeState | undefined {
  return (opts as FlowDispatchOptions)[EXCHANGE];
}

/** Tracks the hop URL and Set-Cookie headers; sends and stores the actor's cookies. */
export function hopsInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const state = exchangeOf(opts);
    if (!state) return dispatch(opts, handler);
    const url = `${opts.origin}${opts.path}`;
    // a hop to another origin: refused unless the environment allows its host (nothing is sent there)
    if (String(opts.origin) !== state.origin && !hostAllowed(new URL(url), state.redirectHosts)) {
      const err = redirectRefused(state.url, url);
      queueMicrotask(() => handler.onResponseError?.(null as unknown as Controller, err));
      return true;
    }
    state.url = url;
    // undici drops Authorization and Cookie on such a hop; an API key or a token header of
    // any other name must not follow a redirect to another host either.
    if (String(opts.origin) !== state.origin) opts = { ...opts, headers: withoutCredentials(opts.headers, state.credentialHeaders) };
    // below retry: every attempt is signed anew (a fresh nonce); never for another origin
    else if (state.resign) opts = { ...opts, headers: resigned(opts, url, headerPairs(opts.headers), state.resign) };
    if (state.jar) {
      const cookie = state.jar.headerFor(url);
      if (cookie) opts = { ...opts, headers: withCookie(opts.headers, cookie) };
    }
    return dispatch(opts, new HopHandler(state, url, handler));
  };
}

/**
 * A host in a list (`redirect_hosts`, `write_hosts`): `host` or `host:port` as written in a URL,
 * or `*.example.com` for every host below example.com. Case does not matter.
 */
export function hostAllowed(url: URL, hosts: readonly string[] | undefined): boolean {
  if (!hosts?.length) return false;
  const host = url.host.toLowerCase();
  const name = url.hostname.toLowerCase();
  return hosts.some((entry) => {
    const h = entry.trim().toLowerCase();
    if (h.startsWith('*.')) return name.endsWith(h.slice(1)) || host.endsWith(h.slice(1));
    return h === host || h === name;
  });
}

function redirectRefused(from: string, to: string): FlowError {
  const target = new URL(to);
  return new FlowError(
    'E_REDIRECT_ORIGIN',
    `${new URL(from).origin} redirected to another origin, ${target.origin}: not followed, so that neither the request's body nor its credentials go there. If that host is yours, allow it in the environment: redirect_hosts: [${target.host}]`,
    { details: { from: new URL(from).origin, to: target.origin } },
  );
}

class HopHandler implements Dispatcher.DispatchHandler {
  constructor(
    private readonly state: ExchangeState,
    private readonly url: string,
    private readonly handler: Dispatcher.DispatchHandler,
  ) {}

  onRequestStart(controller: Controller, context: unknown): void {
    this.handler.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Controller, status: number, headers: RawHeaders, statusMessage?: string): void {
    const setCookie = headers['set-cookie'];
    if (setCookie !== undefined) {
      if (Array.isArray(setCookie)) this.state.setCookies.push(...setCookie);
      else this.state.setCookies.push(setCookie);
      this.state.jar?.store(setCookie, this.url);
    }
    this.handler.onResponseStart?.(controller, status, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: RawHeaders): void {
    this.handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, err: Error): void {
    this.handler.onResponseError?.(controller, err);
  }
}

/** The headers without credentials: named like one, or named by the request as one. */
function withoutCredentials(headers: Dispatcher.DispatchOptions['headers'], own: Set<string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const keep = (name: string) => !isCredentialHeader(name) && !own?.has(name.toLowerCase());
  for (const [name, value] of headerPairs(headers)) if (keep(name)) out[name] = value;
  return out;
}

/** [name, value] pairs of either header form undici passes (a flat list on redirect hops). */
function headerPairs(headers: Dispatcher.DispatchOptions['headers']): Array<[string, string]> {
  if (!headers) return [];
  if (Array.isArray(headers)) {
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < headers.length; i += 2) pairs.push([String(headers[i]), String(headers[i + 1])]);
    return pairs;
  }
  return Object.entries(headers as Record<string, string | undefined>).flatMap(([n, v]) => (v === undefined ? [] : [[n, String(v)] as [string, string]]));
}

/** Add the jar's cookies to the request's own Cookie header (both are sent). */
function withCookie(headers: Dispatcher.DispatchOptions['headers'], cookie: string): Record<string, string> {
  const out: Record<string, string> = {};
  let own: string | undefined;
  for (const [name, value] of headerPairs(headers)) {
    if (name.toLowerCase() === 'cookie') own = value;
    else out[name] = value;
  }
  out.cookie = own ? `${own}; ${cookie}` : cookie;
  return out;
}
