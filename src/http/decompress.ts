// We never ask for compression, but some servers compress anyway (or the user sends
// Accept-Encoding): gzip, deflate and br bodies are decoded as they arrive, so that text(),
// json() and extraction work. The decoded bytes meet the collector's size cap (collect.ts),
// which stops the exchange there and marks the body `truncated`: a small bomb never fills
// memory. The response headers stay as received (Content-Encoding included).
//
// Ours, in the form of undici's interceptors, because undici 7's `interceptors.decompress`
// prints an ExperimentalWarning in the user's process on first use, fails an over-limit body
// instead of truncating it, and fails a body not valid for its encoding (we keep it as received).
import type { Dispatcher } from 'undici';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Controller, RawHeaders } from './exchange.js';

// A Map, not an object: the name comes from the server, and `__proto__` or `constructor`
// must not be taken for a decoder.
const DECODERS = new Map<string, () => Transform>([
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

export function decompressInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => dispatch(opts, new DecompressHandler(handler));
}

class DecompressHandler implements Dispatcher.DispatchHandler {
  #decoder?: Transform;
  /** the bytes as received, until the decoder has produced some: a body it refuses at once is kept as it came */
  #raw?: Buffer[] = [];
  #trailers: RawHeaders = {};

  constructor(private readonly handler: Dispatcher.DispatchHandler) {}

  onRequestStart(controller: Controller, context: unknown): void {
    this.handler.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Controller, status: number, headers: RawHeaders, statusMessage?: string): void {
    const encoding = headers['content-encoding'];
    const make = typeof encoding === 'string' && status >= 200 && status !== 204 && status !== 304 ? DECODERS.get(encoding.trim().toLowerCase()) : undefined;
    if (make) this.#decode(make(), controller);
    this.handler.onResponseStart?.(controller, status, headers, statusMessage);
  }

  #decode(decoder: Transform, upstream: Controller): void {
    this.#decoder = decoder;
    // The handler below stops the exchange at its size cap: the decoder must stop too, even
    // once every compressed byte has arrived (then aborting upstream no longer does anything).
    const controller = {
      abort: (reason: Error) => (decoder.destroy(), upstream.abort(reason)),
      pause: () => upstream.pause(),
      resume: () => upstream.resume(),
      get aborted() {
        return upstream.aborted;
      },
      get paused() {
        return upstream.paused;
      },
      get reason() {
        return upstream.reason;
      },
    } as Controller;
    decoder.on('data', (chunk: Buffer) => {
      this.#raw = undefined;
      this.handler.onResponseData?.(controller, chunk);
    });
    decoder.on('end', () => this.handler.onResponseEnd?.(controller, this.#trailers));
    decoder.on('error', (err) => {
      const raw = this.#raw;
      if (!raw) return this.handler.onResponseError?.(controller, err);
      for (const chunk of raw) this.handler.onResponseData?.(controller, chunk);
      this.handler.onResponseEnd?.(controller, this.#trailers);
    });
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (!this.#decoder) return void this.handler.onResponseData?.(controller, chunk);
    if (this.#decoder.destroyed) return; // stopped below: what undici still delivers is dropped
    this.#raw?.push(chunk);
    this.#decoder.write(chunk);
  }

  onResponseEnd(controller: Controller, trailers: RawHeaders): void {
    if (!this.#decoder) return this.handler.onResponseEnd?.(controller, trailers);
    this.#trailers = trailers;
    this.#decoder.end();
  }

  onResponseError(controller: Controller, err: Error): void {
    this.#decoder?.destroy();
    this.handler.onResponseError?.(controller, err);
  }
}
