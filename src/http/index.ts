// The HTTP layer of the runtime: undici underneath, our errors and response on top.
export { createHttpClient } from './client.js';
export { CookieJar } from './cookie-jar.js';
export { buildBody, encodeBody, isFileRef } from './body.js';
export { buildUrl, isAbsoluteUrl } from './url.js';
export { MAX_RETRY_WAIT_MS } from './retry.js';
export type { HttpClient, TlsOptions } from './types.js';
