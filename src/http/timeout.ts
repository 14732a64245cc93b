// Per-attempt deadline: connect, headers and the whole body must finish within `timeoutMs`,
// so a server that sends headers and then trickles or stalls times out too (undici's own
// headersTimeout/bodyTimeout bound the gaps between bytes, not the attempt). One timer per
// attempt. It sits below retry, so a timed-out attempt can be retried like a network error.
import type { Dispatcher } from 'undici';
import { FlowError } from '../errors.js';
import { exchangeOf, type Controller, type ExchangeState, type RawHeaders } from './exchange.js';

export function timeoutInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const state = exchangeOf(opts);
    const ms = state?.timeoutMs;
    if (!state || !ms || ms <= 0 || !Number.isFinite(ms)) return dispatch(opts, handler);
    return dispatch(opts, new TimeoutHandler(state, handler));
  };
}

class TimeoutHandler implements Dispatcher.DispatchHandler {
  readonly #timer: NodeJS.Timeout;
  #controller?: Controller;
  /** the deadline passed: everything undici still reports for this attempt is dropped */
  #fired = false;

  /** @param state its `url` is this attempt's (this hop's: the hops interceptor runs first), so the message says which request hung */
  constructor(
    private readonly state: ExchangeState,
    private readonly handler: Dispatcher.DispatchHandler,
  ) {
    this.#timer = setTimeout(() => this.#fire(), state.timeoutMs);
  }

  #error(): FlowError {
    const ms = this.state.timeoutMs;
    return new FlowError('E_TIMEOUT', `no complete response from ${this.state.url} within ${ms} ms`, { details: { timeoutMs: ms } });
  }

  #fire(): void {
    this.#fired = true;
    const err = this.#error();
    // Abort the socket if the request got one; a request still connecting or queued is
    // aborted when it gets one (onRequestStart). The error goes up now, either way, and
    // without the aborted controller so that a retry interceptor above may try again.
    this.#controller?.abort(err);
    this.handler.onResponseError?.(null as unknown as Controller, err);
  }

  #done(): boolean {
    clearTimeout(this.#timer);
    return this.#fired;
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.#controller = controller;
    if (this.#fired) return controller.abort(this.#error());
    this.handler.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Controller, status: number, headers: RawHeaders, statusMessage?: string): void {
    if (!this.#fired) this.handler.onResponseStart?.(controller, status, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (!this.#fired) this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: RawHeaders): void {
    if (!this.#done()) this.handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, err: Error): void {
    if (!this.#done()) this.handler.onResponseError?.(controller, err);
  }
}
