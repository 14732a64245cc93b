// What an actor's login puts in its session, i.e. which `{{<actor>.<field>}}` its session can
// answer. Needed where a name is both an actor and a resource: docs/format.md#references reads the session
// first, and the runtime falls back to the resource when the session lacks the field, so
// only the fields a login provides are the actor's.
import type { Actor, AuthStrategyName } from '../project/index.js';

/** The fields of an OAuth2 token answer that oauth2 logins keep in the session (src/auth/oauth2.ts reads them from here). */
export const OAUTH2_SESSION_FIELDS = ['access_token', 'token_type', 'expires_in', 'scope', 'refresh_token', 'id_token'] as const;
const OAUTH2_FIELDS: readonly string[] = OAUTH2_SESSION_FIELDS;

/**
 * Session values a strategy sets itself, whatever the project extracts: jwt returns `token`,
 * oauth2 keeps the token answer's fields; the other strategies set none.
 */
const STRATEGY_SESSION_FIELDS: Readonly<Partial<Record<AuthStrategyName, readonly string[]>>> = {
  jwt: ['token'],
  oauth2_client_credentials: OAUTH2_FIELDS,
  oauth2_password: OAUTH2_FIELDS,
};

const NONE: ReadonlySet<string> = new Set();

/**
 * The fields an actor's login provides: its `extract` (simple), every chain step's `extract`,
 * and the strategy's own fields. Not `session.refresh`: it runs only after the first
 * session expires, so before then the session lacks what it alone extracts.
 */
export function loginFields(actor: Actor | undefined): ReadonlySet<string> {
  const auth = actor?.auth;
  if (!auth) return NONE;
  const fields = new Set<string>(STRATEGY_SESSION_FIELDS[auth.strategy]);
  for (const request of [auth.login, ...(auth.steps ?? [])]) for (const ex of request?.extract ?? []) fields.add(ex.name);
  return fields;
}
