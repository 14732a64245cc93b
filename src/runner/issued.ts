// Credentials a server issues in its answers: an API token's `secret`, a new user's
// `password`, a `refresh_token` no extraction names. Each is registered with the redactor
// before the answer is recorded, so that no output shows it: not the answer's excerpt, not a
// later URL that carries it (`/api-tokens/{{api_token.secret}}`).
import type { FlowResponse } from '../http/index.js';
import { namesIssuedCredential } from '../project/index.js';
import type { Redactor } from '../redact/index.js';

/** Bounds on what is read of an answer (it is untrusted): its size, and the nodes walked. */
const MAX_BODY_BYTES = 1 << 20;
const MAX_NODES = 5_000;
const MAX_DEPTH = 32;
/** A shorter value is a flag or a placeholder (`""`, `"no"`), not a credential. */
const MIN_LENGTH = 4;

/** Registers with `redactor` each string a JSON answer holds under a credential name. */
export function hideIssuedCredentials(res: FlowResponse, redactor: Redactor): void {
  if (res.body.length === 0 || res.body.length > MAX_BODY_BYTES || !/json/i.test(String(res.headers['content-type'] ?? ''))) return;
  let json: unknown;
  try {
    json = res.json();
  } catch {
    return;
  }
  let budget = MAX_NODES;
  const walk = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return;
    for (const [k, child] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      if (--budget < 0) return;
      if (typeof child === 'string') {
        if (typeof k === 'string' && child.length >= MIN_LENGTH && namesIssuedCredential(k)) redactor.add(child, 'token');
      } else walk(child, depth + 1);
    }
  };
  walk(json, 0);
}

/** The one top-level string of a JSON object answer (parsed) held under a credential name (`secret`), or undefined. */
export function issuedCredential(answer: Record<string, unknown> | undefined): string | undefined {
  const found = Object.entries(answer ?? {}).filter(([k, v]) => typeof v === 'string' && v.length >= MIN_LENGTH && namesIssuedCredential(k));
  return found.length === 1 ? (found[0][1] as string) : undefined;
}
