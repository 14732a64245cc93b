// Redirects are followed by undici's RedirectHandler, built when a response is a redirect.
// undici's redirect interceptor builds one for every request: two copies of the options and,
// for every response, a URL parsed for its history. Most responses are not redirects, and on
// a server on the same machine that cost ~5% of a 1,000-request run (BENCHMARKS.md). Here a
// request gets a handler that passes everything through until a redirect status arrives; from
// that response on, the RedirectHandler takes the exchange over, as if it had been there from
// the start (it reads nothing before the first response but the options it is given).
import type { Dispatcher } from 'undici';
import { RedirectHandler } from './undici.js';

/** The statuses undici's RedirectHandler follows. */
const REDIRECT_STATUSES = new Set([300, 301, 302, 303, 307, 308]);

type Dispatch = Dispatcher.Dispatch;
type Controller = Dispatcher.DispatchController;
type Headers = Record<string, string | string[] | undefined>;

export function redirectInterceptor(maxRedirections: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => dispatch(opts, new UntilRedirect(dispatch, maxRedirections, opts, handler));
}

class UntilRedirect implements Dispatcher.DispatchHandler {
  private redirect?: Dispatcher.DispatchHandler;

  constructor(
    private readonly dispatch: Dispatch,
    private readonly maxRedirections: number,
    private readonly opts: Dispatcher.DispatchOptions,
    private readonly handler: Dispatcher.DispatchHandler,
  ) {}

  onRequestStart(controller: Controller, context: unknown): void {
    this.handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(controller: Controller, statusCode: number, headers: Headers, socket: never): void {
    this.handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(controller: Controller, statusCode: number, headers: Headers, statusMessage?: string): void {
    if (REDIRECT_STATUSES.has(statusCode) && headers.location !== undefined) {
      this.redirect = new RedirectHandler(this.dispatch, this.maxRedirections, this.opts, this.handler) as Dispatcher.DispatchHandler;
    }
    (this.redirect ?? this.handler).onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    (this.redirect ?? this.handler).onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: Headers): void {
    (this.redirect ?? this.handler).onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    (this.redirect ?? this.handler).onResponseError?.(controller, error);
  }
}
