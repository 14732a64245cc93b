// Reading and setting a request's headers whatever the case of their names: the runner sets
// the headers written in the project, auth strategies the credentials.
import type { HttpRequest } from './types.js';

/**
 * Set a header, replacing any earlier one whatever its case: the credentials of the auth
 * strategy win over a header of the same name written on the operation or in inject.headers.
 */
export function setHeader(req: HttpRequest, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const k of Object.keys(req.headers)) if (k.toLowerCase() === lower) delete req.headers[k];
  req.headers[name] = value;
}

/** A header that carries the actor's credential: set as setHeader does, and named as one, so a redirect to another origin drops it. */
export function setCredentialHeader(req: HttpRequest, name: string, value: string): void {
  setHeader(req, name, value);
  (req.credentialHeaders ??= []).push(name);
}

/** The value of a header whatever its case, or undefined. */
export function getHeader(req: HttpRequest, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(req.headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}
