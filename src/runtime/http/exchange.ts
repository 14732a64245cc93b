// State of one `send()`, shared by our interceptors through the dispatch options (undici
// copies options shallowly at each redirect hop and retry, so every hop sees this object).
// The hop interceptor sits below redirect and retry: it sees every attempt and every hop,
// which is where the cookie jar and the final URL must be handled.
import type { Dispatcher } from 'undici';
import type { CookieJar } from './cookie-jar.js';

export interface ExchangeState {
  timeoutMs: number;
  jar?: CookieJar;
  /** URL of the latest hop: the final URL once the response has ended */
  url: string;
  /** Set-Cookie values of every hop, oldest first */
  setCookies: string[];
}

/** The options key our interceptors read. */
export const EXCHANGE = 'flowExchange';

export type FlowDispatchOptions = Dispatcher.DispatchOptions & { [EXCHANGE]?: ExchangeState };

export function exchangeOf(opts: Dispatcher.DispatchOptions): ExchangeState | undefined {
  return (opts as FlowDispatchOptions)[EXCHANGE];
}

/** Tracks the hop URL and Set-Cookie headers; sends and stores the actor's cookies. */
export function hopsInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const state = exchangeOf(opts);
    if (!state) return dispatch(opts, handler);
    const url = `${opts.origin}${opts.path}`;
    state.url = url;
    if (state.jar) {
      const cookie = state.jar.headerFor(url);
      if (cookie) opts = { ...opts, headers: withCookie(opts.headers, cookie) };
    }
    return dispatch(opts, new HopHandler(state, url, handler));
  };
}

class HopHandler implements Dispatcher.DispatchHandler {
  constructor(
    private readonly state: ExchangeState,
    private readonly url: string,
    private readonly handler: Dispatcher.DispatchHandler,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.handler.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>, statusMessage?: string): void {
    const setCookie = headers['set-cookie'];
    if (setCookie !== undefined) {
      if (Array.isArray(setCookie)) this.state.setCookies.push(...setCookie);
      else this.state.setCookies.push(setCookie);
      this.state.jar?.store(setCookie, this.url);
    }
    this.handler.onResponseStart?.(controller, status, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[] | undefined>): void {
    this.handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error): void {
    this.handler.onResponseError?.(controller, err);
  }
}

/** Add the jar's cookies to the request's own Cookie header (both are sent). */
function withCookie(headers: Dispatcher.DispatchOptions['headers'], cookie: string): Record<string, string> {
  const out: Record<string, string> = {};
  let own: string | undefined;
  if (Array.isArray(headers)) {
    // undici's flat [name, value, name, value…] form (what redirect hops carry)
    for (let i = 0; i < headers.length; i += 2) {
      const name = String(headers[i]);
      const value = String(headers[i + 1]);
      if (name.toLowerCase() === 'cookie') own = value;
      else out[name] = value;
    }
  } else if (headers) {
    for (const [name, value] of Object.entries(headers as Record<string, string>)) {
      if (value === undefined) continue;
      if (name.toLowerCase() === 'cookie') own = String(value);
      else out[name] = String(value);
    }
  }
  out.cookie = own ? `${own}; ${cookie}` : cookie;
  return out;
}
