// Options for undici's retry interceptor (lib/handler/retry-handler.js), which does the
// work: backoff doubling from `minTimeout`, Retry-After honoured (seconds or a date),
// capped by `maxTimeout`. Without `methods` it would never retry a POST; here retry is
// opt-in per operation, so every method is retried once the operation asks for it.
import type { Dispatcher, RetryHandler } from 'undici';
import { HTTP_METHODS } from '../project/index.js';
import type { RetryOptions } from './types.js';
import { undici } from './undici.js';

/** 5xx and 429 (docs/format.md#run-loops: retry on a network error, 5xx or 429). */
const STATUS_CODES = [429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];
const METHODS = [...HTTP_METHODS];

/** undici's defaults, plus timeouts (ours and undici's) and a transient DNS failure. */
const ERROR_CODES = [
  'ECONNRESET',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'E_TIMEOUT',
];

/** The base under each request's own options: never retry unless asked, hand every outcome through as it came. */
const NO_RETRY: RetryHandler.RetryOptions = { maxRetries: 0, throwOnError: false };

/**
 * undici's retry interceptor, for the requests that ask for retries (the client sets their
 * `retryOptions`). The others go past it: undici wraps every request it sees in a
 * RetryHandler, which for a request that never retries only costs time.
 */
export function retryInterceptor(): Dispatcher.DispatcherComposeInterceptor {
  const retry = undici().interceptors.retry(NO_RETRY);
  return (dispatch) => {
    const retrying = retry(dispatch);
    return (opts, handler) => ('retryOptions' in opts ? retrying : dispatch)(opts, handler);
  };
}

/** Longest wait between attempts (a Retry-After of an hour is cut to this). */
export const MAX_RETRY_WAIT_MS = 60_000;

export function retryOptionsFor(retry: RetryOptions): RetryHandler.RetryOptions {
  const max = Math.max(0, Math.floor(retry.max));
  const backoff = Math.max(0, retry.backoffMs);
  return {
    maxRetries: max,
    minTimeout: backoff,
    timeoutFactor: 2,
    maxTimeout: Math.max(MAX_RETRY_WAIT_MS, backoff),
    methods: METHODS,
    statusCodes: STATUS_CODES,
    errorCodes: ERROR_CODES,
    retryAfter: true,
    // after the last attempt, hand over the last response (a 503 stays a 503 for
    // expect_status) instead of turning it into an error
    throwOnError: false,
  };
}
