// The brake of a run: at most `rate` requests a second (--rate), shared by every request of
// the run (calibrate and explore make many runners; they share one brake), and the count of
// answers that asked the client to wait (429 or 503 with Retry-After). The client waits for
// those always, at most MAX_RETRY_WAIT_MS each and MAX_WAITS times per request.
import { FlowError } from '../errors.js';

export interface Brake {
  /** requests a second at most; undefined: no cap */
  readonly rate?: number;
  /** answers 429 or 503 with Retry-After that were waited for */
  readonly waited: number;
  /** resolves when the next request may go */
  take(signal?: AbortSignal): Promise<void>;
  noteWait(): void;
}

/** How many Retry-After answers one request waits for before its last answer is taken as it is. */
export const MAX_WAITS = 3;

export function createBrake(rate?: number): Brake {
  const gap = rate && rate > 0 ? 1000 / rate : 0;
  let next = 0;
  let waited = 0;
  return {
    rate,
    get waited() {
      return waited;
    },
    async take(signal) {
      if (!gap) return;
      const now = performance.now();
      // the slot is claimed before the wait: concurrent requests queue in order
      const at = Math.max(now, next);
      next = at + gap;
      if (at > now) await sleep(at - now, signal);
    },
    noteWait() {
      waited++;
    },
  };
}

/** Wait `ms`; a cancelled run stops waiting at once (E_ABORTED). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new FlowError('E_ABORTED', 'the request was cancelled while it waited'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new FlowError('E_ABORTED', 'the request was cancelled while it waited'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wait a 429 or 503 asks for with Retry-After (seconds or an HTTP date), in ms; undefined for any other answer. */
export function retryAfterMs(status: number, value: string | string[] | undefined): number | undefined {
  if ((status !== 429 && status !== 503) || value === undefined) return undefined;
  const text = (Array.isArray(value) ? value[0] : value).trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
