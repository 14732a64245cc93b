// The HTTP layer of the runtime: undici underneath, our errors and response on top.
export { createHttpClient } from './client.js';
export { CookieJar } from './cookie-jar.js';
export { buildBody, encodeBody, isFileRef } from './body.js';
export { buildUrl, isAbsoluteUrl } from './url.js';
export { hostAllowed } from './exchange.js';
export { MAX_RETRY_WAIT_MS } from './retry.js';
export { createBrake, type Brake } from './brake.js';
export type { HttpClient, PreparedRequest, SignableRequest, TlsOptions } from './types.js';
export { getHeader, setCredentialHeader, setHeader } from './headers.js';
export { excerpt, header } from './response.js';
export type { FlowResponse } from './response.js';
