// Per-attempt deadline: connect, headers and the whole body must finish within
// `timeoutMs`, so a server that sends headers and then stalls times out too (undici's own
// headersTimeout/bodyTimeout only bound the gaps between bytes). It sits below retry, so a
// timed-out attempt can be retried like a network error.
import type { Dispatcher } from 'undici';
import { FlowError } from '../../errors.js';
import type { Deadline, DeadlineList, Deadlines } from './deadlines.js';
import { exchangeOf, type ExchangeState } from './exchange.js';

/** @param deadlines shared by the client's compositions */
export function timeoutInterceptor(deadlines: Deadlines): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const state = exchangeOf(opts);
    const ms = state?.timeoutMs;
    if (!state || !ms || ms <= 0 || !Number.isFinite(ms)) return dispatch(opts, handler);
    return dispatch(opts, new TimeoutHandler(deadlines.list(ms), state, handler));
  };
}

export function timeoutError(ms: number, origin: unknown): FlowError {
  return new FlowError('E_TIMEOUT', `no complete response from ${String(origin)} within ${ms} ms`, { details: { timeoutMs: ms } });
}

class TimeoutHandler implements Dispatcher.DispatchHandler {
  #deadline: Deadline;
  #controller?: Dispatcher.DispatchController;
  /** the deadline passed: everything undici still reports for this attempt is dropped */
  #fired = false;

  /** @param state its `url` is this attempt's (this hop's: the hops interceptor runs first), so the message says which request hung */
  constructor(
    private readonly list: DeadlineList,
    private readonly state: ExchangeState,
    private readonly handler: Dispatcher.DispatchHandler,
  ) {
    this.#deadline = list.add(() => this.#fire());
  }

  #error(): FlowError {
    return timeoutError(this.state.timeoutMs, this.state.url);
  }

  #fire(): void {
    this.#fired = true;
    const err = this.#error();
    // Abort the socket if the request got one; a request still connecting or queued is
    // aborted when it gets one (onRequestStart). The error goes up now, either way, and
    // without the aborted controller so that a retry interceptor above may try again.
    this.#controller?.abort(err);
    this.handler.onResponseError?.(null as unknown as Dispatcher.DispatchController, err);
  }

  #done(): boolean {
    this.list.cancel(this.#deadline);
    return this.#fired;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.#controller = controller;
    if (this.#fired) {
      controller.abort(this.#error());
      return;
    }
    this.handler.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>, statusMessage?: string): void {
    if (this.#fired) return;
    this.handler.onResponseStart?.(controller, status, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#fired) return;
    this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[] | undefined>): void {
    if (this.#done()) return;
    this.handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error): void {
    if (this.#done()) return;
    this.handler.onResponseError?.(controller, err);
  }
}
