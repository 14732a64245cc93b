// The HTTP client of a run: one undici Agent (one pool per origin, reused by every request)
// composed with interceptors, innermost first:
//   timeout (per attempt: timeout.ts) -> hops (URL, cookies, credentials: exchange.ts)
//   -> undici's retry -> undici's redirect -> decompress (decompress.ts)
// so that each retry and each redirect hop is an attempt with its own deadline and cookies,
// and only the final response is decoded. The collector (collect.ts) caps the body.
import type { Agent, Dispatcher } from 'undici';
import { FlowError } from '../errors.js';
import type { FlowResponse } from './response.js';
import { ResponseCollector, type CollectOptions } from './collect.js';
import { decompressInterceptor } from './decompress.js';
import { EXCHANGE, hopsInterceptor, type ExchangeState, type FlowDispatchOptions } from './exchange.js';
import { createBrake, MAX_WAITS, retryAfterMs, sleep } from './brake.js';
import { MAX_RETRY_WAIT_MS, retryInterceptor, retryOptionsFor } from './retry.js';
import { timeoutInterceptor } from './timeout.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_REDIRECTIONS,
  DEFAULT_TIMEOUT_MS,
  type DispatcherOptions,
  type HttpClient,
  type HttpClientOptions,
  type HttpRequest,
  type TlsOptions,
} from './types.js';
import { undici } from './undici.js';

/**
 * An Agent (or a proxy agent, from the environment) with our interceptors. The client makes
 * one, and one more per client certificate a request carries (`HttpRequest.tls`, mTLS).
 */
function createDispatcher(options: DispatcherOptions = {}): Dispatcher {
  const maxRedirections = options.maxRedirections ?? DEFAULT_MAX_REDIRECTIONS;
  const { interceptors } = undici();
  return createAgent(options).compose(
    timeoutInterceptor(),
    hopsInterceptor(),
    retryInterceptor(),
    interceptors.redirect({ maxRedirections }),
    decompressInterceptor(),
  );
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxRedirections = options.maxRedirections ?? DEFAULT_MAX_REDIRECTIONS;
  const userAgent = options.userAgent ?? 'reqflow';
  const shared = createDispatcher({ ...options, connect: options.tls, maxRedirections });
  // mtls: a request with its own client certificate goes on a dispatcher made for that object
  // (one per actor session); every other request keeps the shared one and its pools.
  const own = new Map<TlsOptions, Dispatcher>();
  const dispatcherFor = (tls: TlsOptions | undefined) => {
    if (!tls) return shared;
    let d = own.get(tls);
    if (!d) own.set(tls, (d = createDispatcher({ ...options, connect: { ...options.tls, ...tls }, maxRedirections })));
    return d;
  };
  let closed = false;
  const brake = options.brake ?? createBrake();

  /**
   * Through the brake (--rate); a 429 or 503 with Retry-After is waited for (at most
   * MAX_RETRY_WAIT_MS, MAX_WAITS times) and sent again, counted in the brake.
   */
  async function send(req: HttpRequest): Promise<FlowResponse> {
    for (let waits = 0; ; waits++) {
      await brake.take(req.signal);
      const res = await sendOnce(req);
      const wait = waits < MAX_WAITS ? retryAfterMs(res.status, res.headers['retry-after']) : undefined;
      if (wait === undefined) return res;
      brake.noteWait();
      await sleep(Math.min(wait, MAX_RETRY_WAIT_MS), req.signal);
    }
  }

  function sendOnce(req: HttpRequest): Promise<FlowResponse> {
    return new Promise<FlowResponse>((resolve, reject) => {
      let target: URL;
      try {
        target = typeof req.url === 'string' ? new URL(req.url) : req.url;
      } catch {
        return reject(new FlowError('E_HTTP', 'the request URL is not a valid absolute URL', { details: { cause: 'ERR_INVALID_URL' } }));
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        return reject(new FlowError('E_HTTP', `unsupported URL scheme ${target.protocol} (http: and https: only)`));
      }
      const origin = target.origin;
      if (closed) return reject(new FlowError('E_HTTP', `the HTTP client is closed; cannot send to ${origin}`));
      const state: ExchangeState = { timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS, origin, jar: req.cookieJar, url: target.href, setCookies: [] };
      if (req.credentialHeaders?.length) state.credentialHeaders = new Set(req.credentialHeaders.map((n) => n.toLowerCase()));
      if (req.resign) state.resign = req.resign;
      if (req.redirectHosts) state.redirectHosts = req.redirectHosts;
      if (hasClientCert(req.tls) || hasClientCert(options.tls)) state.clientCert = true;
      const signal = req.signal;
      // Without a signal the promise's own functions settle it: no listener to remove after.
      let settle: Pick<CollectOptions, 'resolve' | 'reject'> = { resolve, reject };
      let onAbort: (() => void) | undefined;
      if (signal) {
        const listener = (onAbort = () => collector.fail(new FlowError('E_ABORTED', `the request to ${origin} was cancelled`)));
        const done = () => signal.removeEventListener('abort', listener);
        settle = { resolve: (res) => (done(), resolve(res)), reject: (err) => (done(), reject(err)) };
      }
      const collector = new ResponseCollector({ state, maxBodyBytes, maxRedirections, started: performance.now(), ...settle });
      if (signal && onAbort) {
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
      }
      const opts: FlowDispatchOptions & { retryOptions?: unknown } = {
        origin,
        path: target.pathname + target.search,
        method: req.method,
        headers: headerList(req.headers, userAgent),
        body: req.body,
        [EXCHANGE]: state,
      };
      if (req.retry && req.retry.max > 0) opts.retryOptions = retryOptionsFor(req.retry);
      try {
        dispatcherFor(req.tls).dispatch(opts, collector);
      } catch (err) {
        collector.fail(err);
      }
    });
  }

  return {
    send,
    /** Drop every connection now: a request that timed out may still be connecting, and must not delay the end of a run. */
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([shared, ...own.values()].map((d) => d.destroy()));
    },
  };
}

function hasClientCert(tls: TlsOptions | undefined): boolean {
  return tls?.cert !== undefined || tls?.pfx !== undefined;
}

/** Headers as undici's flat list; a User-Agent is added when the request has none. */
function headerList(headers: Record<string, string>, userAgent: string): string[] {
  const out: string[] = [];
  let hasAgent = !userAgent;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || value === null) continue;
    if (!hasAgent && name.length === 10 && name.toLowerCase() === 'user-agent') hasAgent = true;
    out.push(name, String(value));
  }
  if (!hasAgent) out.push('user-agent', userAgent);
  return out;
}

function createAgent(options: DispatcherOptions): Dispatcher {
  const base: Agent.Options = {};
  if (options.connections !== undefined) base.connections = options.connections;
  const connect = definedOnly(options.connect);
  if (connect) base.connect = connect;
  const proxy = options.proxyFromEnv === false ? undefined : proxyFromEnv(options.env ?? process.env);
  if (!proxy) return new (undici().Agent)(base);
  return new (undici().EnvHttpProxyAgent)({ ...base, ...proxy, ...(connect ? { requestTls: connect } : {}) });
}

/** The options that are set, or undefined when none is (undici would take an explicit undefined for a value). */
function definedOnly(tls: TlsOptions | undefined): TlsOptions | undefined {
  if (!tls) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tls)) if (v !== undefined) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

function proxyFromEnv(env: NodeJS.ProcessEnv): { httpProxy?: string; httpsProxy?: string; noProxy: string } | undefined {
  const httpProxy = env.http_proxy || env.HTTP_PROXY || undefined;
  const httpsProxy = env.https_proxy || env.HTTPS_PROXY || undefined;
  if (!httpProxy && !httpsProxy) return undefined;
  // undici's rule: without HTTPS_PROXY, https traffic goes through HTTP_PROXY too.
  return { httpProxy: httpProxy ?? '', httpsProxy: httpsProxy ?? '', noProxy: env.no_proxy ?? env.NO_PROXY ?? '' };
}
