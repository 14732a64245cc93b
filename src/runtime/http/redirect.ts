// Redirects are followed by undici's RedirectHandler, built when a response is a redirect.
// undici's redirect interceptor builds one for every request: two copies of the options and,
// for every response, a URL parsed for its history. Most responses are not redirects, and on
// a server on the same machine that cost ~5% of a 1,000-request run (BENCHMARKS.md). Here a
// request gets a handler that passes everything through until a redirect status arrives; from
// that response on, the RedirectHandler takes the exchange over. Built that late, it differs
// in two ways that reqflow does not use: the first hop's context has no `history`, and a
// streamed body could not be told apart from one already sent (so a request with a body other
// than text, bytes or a form gets its RedirectHandler at once, as undici does).
import type { Dispatcher } from 'undici';
import { formDataClass, RedirectHandler } from './undici.js';

/** The statuses undici's RedirectHandler follows. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 307, 308]);

type Dispatch = Dispatcher.Dispatch;
type Controller = Dispatcher.DispatchController;
type Headers = Record<string, string | string[] | undefined>;

export function redirectInterceptor(maxRedirections: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(opts, replayable(opts.body) ? new UntilRedirect(dispatch, maxRedirections, opts, handler) : (new RedirectHandler(dispatch, maxRedirections, opts, handler) as Dispatcher.DispatchHandler));
}

/** A body that can be sent again as it is, with nothing for the RedirectHandler to watch. */
function replayable(body: Dispatcher.DispatchOptions['body']): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || body instanceof formDataClass();
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
