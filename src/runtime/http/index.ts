// The HTTP layer of the runtime: undici underneath, our errors and response on top.
export { createDispatcher, createHttpClient } from './client.js';
export { CookieJar } from './cookie-jar.js';
export { buildBody, encodeBody, isFileRef, projectFile, type BodyKind, type BodyParts, type BuiltBody, type EncodedBody } from './body.js';
export { buildUrl, isAbsoluteUrl, type QueryValue } from './url.js';
export { toFlowError } from './errors.js';
export { MAX_RETRY_WAIT_MS } from './retry.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_REDIRECTIONS,
  DEFAULT_TIMEOUT_MS,
  type DispatcherOptions,
  type HttpClient,
  type HttpClientOptions,
  type HttpRequest,
  type RetryOptions,
  type TlsOptions,
} from './types.js';
