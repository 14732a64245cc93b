// The last handler of a send: gathers status, headers and body into a FlowResponse.
// The body limit lives here: past `maxBodyBytes` the rest is not read (the connection is
// dropped) and the response is marked `truncated`, so a 1 GB answer costs at most the limit.
// Every path settles the promise exactly once; late callbacks from undici are ignored.
import type { Dispatcher } from 'undici';
import { FlowError } from '../errors.js';
import { createResponse, type FlowResponse } from './response.js';
import { toFlowError } from './errors.js';
import type { Controller, ExchangeState, RawHeaders } from './exchange.js';

/** The statuses undici's redirect interceptor follows. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 307, 308]);

/** Above this announced length, copy into one buffer as data comes (no second full copy at the end). */
const PREALLOCATE_BYTES = 1024 * 1024;
/** the reason given to undici when we stop an exchange whose outcome is already settled */
const STOPPED = new Error('reqflow: response no longer needed');

type Headers = Record<string, string | string[]>;

export interface CollectOptions {
  state: ExchangeState;
  maxBodyBytes: number;
  maxRedirections: number;
  started: number;
  resolve: (res: FlowResponse) => void;
  reject: (err: FlowError) => void;
}

export class ResponseCollector implements Dispatcher.DispatchHandler {
  #settled = false;
  #controller?: Controller | null;
  #status = 0;
  #statusText?: string;
  #headers: Headers = {};
  #chunks: Buffer[] = [];
  #size = 0;
  /** the whole body, when its length was announced and is large */
  #buffer?: Buffer;

  constructor(private readonly o: CollectOptions) {}

  onRequestStart(controller: Controller): void {
    this.#controller = controller;
    if (this.#settled) controller.abort(STOPPED);
  }

  onResponseStart(controller: Controller, status: number, headers: RawHeaders, statusMessage?: string): void {
    if (this.#settled) return;
    this.#controller = controller;
    // A redirect reaches us only when the redirect interceptor gave up: the limit was hit.
    if (this.o.maxRedirections > 0 && REDIRECT_STATUSES.has(status) && headers.location !== undefined) {
      const n = this.o.maxRedirections;
      this.fail(
        new FlowError('E_REDIRECT_LOOP', `more than ${n} redirects, the last one from ${this.o.state.url}`, { details: { maxRedirections: n, status } }),
      );
      return;
    }
    this.#status = status;
    this.#statusText = statusMessage || undefined;
    this.#headers = headers as Headers;
    const length = Number(headers['content-length']);
    if (length > PREALLOCATE_BYTES) this.#buffer = Buffer.allocUnsafe(Math.min(length, this.o.maxBodyBytes));
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.#settled) return;
    const room = this.o.maxBodyBytes - this.#size;
    if (chunk.length > room) {
      if (room > 0) this.#push(chunk.subarray(0, room));
      this.#controller = controller;
      this.#finish(true);
      return;
    }
    this.#push(chunk);
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    this.#finish(false);
  }

  onResponseError(_controller: unknown, err: Error): void {
    if (this.#settled) return;
    const { origin, url, clientCert } = this.o.state;
    this.fail(toFlowError(err, origin, url, { clientCert }));
  }

  /** Settle with an error and stop the exchange (also used for cancellation). */
  fail(err: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#abort();
    this.o.reject(toFlowError(err, this.o.state.origin, undefined, { clientCert: this.o.state.clientCert }));
  }

  #push(chunk: Buffer): void {
    const buf = this.#buffer;
    if (buf) {
      if (this.#size + chunk.length <= buf.length) {
        chunk.copy(buf, this.#size);
        this.#size += chunk.length;
        return;
      }
      // more than announced: go on with a list of chunks
      this.#chunks.push(buf.subarray(0, this.#size));
      this.#buffer = undefined;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
  }

  #body(): Buffer {
    if (this.#buffer) return this.#buffer.subarray(0, this.#size);
    return this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks, this.#size);
  }

  #abort(): void {
    const c = this.#controller;
    if (c && !c.aborted) {
      try {
        c.abort(STOPPED);
      } catch {
        // already finished: nothing to stop
      }
    }
  }

  /** The body is already decoded (decompress.ts sits above): its cap is the decoded size. */
  #finish(truncated: boolean): void {
    this.#settled = true;
    if (truncated) this.#abort(); // the rest is not read
    const body = this.#body();
    this.#chunks = [];
    this.#buffer = undefined;
    this.o.resolve(
      createResponse({
        status: this.#status,
        statusText: this.#statusText,
        headers: this.#headers,
        body,
        url: this.o.state.url,
        ms: performance.now() - this.o.started,
        truncated,
        limitBytes: this.o.maxBodyBytes,
        setCookies: this.o.state.setCookies,
      }),
    );
  }
}
