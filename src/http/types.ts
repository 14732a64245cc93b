// The shapes of the HTTP layer: what the runner hands in, what it gets back.
import type { FormData } from 'undici';
import type { HttpMethod } from '../project/index.js';
import type { FlowResponse } from './response.js';
import type { CookieJar } from './cookie-jar.js';

export interface TlsOptions {
  /** PEM text or Buffer: trusted CA certificate(s), instead of the system ones */
  ca?: string | Buffer | Array<string | Buffer>;
  /** client certificate (mTLS) */
  cert?: string | Buffer;
  key?: string | Buffer;
  passphrase?: string;
  /** PKCS#12 bundle instead of cert + key */
  pfx?: string | Buffer;
  /** default true; false accepts any server certificate */
  rejectUnauthorized?: boolean;
}

/** What `createDispatcher` builds an Agent from. */
export interface DispatcherOptions {
  /** honour HTTP_PROXY / HTTPS_PROXY / NO_PROXY (and lower-case forms); default true */
  proxyFromEnv?: boolean;
  /** the environment to read proxy variables from (default process.env) */
  env?: NodeJS.ProcessEnv;
  /** connections per origin (default: unlimited, as undici) */
  connections?: number;
  /** TLS options of every connection (undici's `connect`): CA, client certificate (mTLS) */
  connect?: TlsOptions;
  /** default 10; 0 returns 3xx responses as they are */
  maxRedirections?: number;
}

export interface HttpClientOptions extends Omit<DispatcherOptions, 'connect'> {
  tls?: TlsOptions;
  /** bodies longer than this are cut and marked `truncated`; default 10 MiB */
  maxBodyBytes?: number;
  /** sent when the request has no User-Agent; default `reqflow`; '' sends none */
  userAgent?: string;
  /** the run's brake (--rate, Retry-After waits counted), shared by its clients; default: one of its own, without a cap */
  brake?: import('./brake.js').Brake;
}

export interface RetryOptions {
  /** retries after the first attempt */
  max: number;
  /** wait before the first retry; doubles each time (a Retry-After header wins) */
  backoffMs: number;
}

/**
 * The one request type, from the runner to the wire: the runner prepares it (rendered URL,
 * headers, body), an auth strategy completes it (credentials, a client certificate, a signer),
 * the runner says how to send it (timeout, retry, cookie jar) and the client sends it.
 */
export interface HttpRequest {
  method: HttpMethod;
  /** absolute URL, query included (see `buildUrl`); a URL object is used as it is, not parsed again */
  url: string | URL;
  headers: Record<string, string>;
  body?: string | Buffer | FormData;
  /** headers not sent on a redirect to another origin (besides every header named like a credential) */
  credentialHeaders?: string[];
  /** hosts a redirect may lead to on another origin (`hostAllowed`); any other such redirect is E_REDIRECT_ORIGIN */
  redirectHosts?: readonly string[];
  /** per attempt (each retry and each redirect hop): connect, headers and the whole body; default 30000 */
  timeoutMs?: number;
  retry?: RetryOptions;
  cookieJar?: CookieJar;
  signal?: AbortSignal;
  /** a client certificate for this request (mtls): sent on a dispatcher kept for this object (`createDispatcher`), not the shared one */
  tls?: TlsOptions;
  /** sign each attempt anew (oauth1 nonce): headers to set, for every attempt and same-origin hop */
  resign?: Resign;
}

/** A request the runner has prepared: its URL is parsed, so a strategy can read and change it. */
export type PreparedRequest = HttpRequest & { url: URL };

/** What a per-attempt signer (`HttpRequest.resign`) sees of one attempt; header names in lower case. */
export interface SignableRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * Sign one attempt anew (oauth1: a fresh nonce and timestamp), called by the HTTP layer for
 * every attempt and every redirect hop to the same origin; returns the headers to set.
 * Synchronous: it runs inside the dispatch of each attempt.
 */
export type Resign = (attempt: SignableRequest) => Record<string, string>;

export interface HttpClient {
  send(req: HttpRequest): Promise<FlowResponse>;
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTIONS = 10;
