// Per-attempt signing (HttpRequest.resign): the hop interceptor, which sits below undici's
// retry interceptor, calls the request's signer for each attempt, so a retry carries a new
// nonce and timestamp rather than a copy of a signature the server has already seen.
import type { Dispatcher } from 'undici';
import type { Resign } from './types.js';

/** The attempt's headers with the signer's replacing those of the same name (any case). */
export function resigned(opts: Dispatcher.DispatchOptions, url: string, pairs: Array<[string, string]>, resign: Resign): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of pairs) headers[name.toLowerCase()] = value;
  const signed = resign({ method: opts.method, url: new URL(url), headers, body: opts.body });
  for (const [name, value] of Object.entries(signed)) headers[name.toLowerCase()] = value;
  return headers;
}
