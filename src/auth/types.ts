// The strategy interface (docs/format.md#authentication): one module per strategy behind it, gathered in auth/index.ts.
// The runner owns sessions (ttl, refresh, caching); a strategy only knows how to obtain
// credentials and how to put them on a request.
import type { Actor, AuthConfig, AuthStrategyName, RequestSpec, TemplateValue } from '../project/index.js';
import type { FlowResponse, PreparedRequest } from '../http/index.js';

/** What a login produced: values readable as {{actor.field}}, and when they stop being valid. */
export interface Session {
  values: Record<string, unknown>;
  /** epoch ms; undefined = valid until the actor's session.ttl (or forever). oauth2: now + expires_in. */
  expiresAt?: number;
  /**
   * What the strategy keeps for `apply` (a rendered Basic header, an access token, signing
   * keys, a client certificate). Private to the strategy: never readable as {{actor.x}},
   * never shown; every secret string in it has gone through `ctx.redact`.
   */
  credentials?: Readonly<Record<string, unknown>>;
}

export interface AuthContext {
  /** the actor, or undefined for an operation's inline `auth` */
  actor?: Actor;
  projectDir: string;
  render(value: TemplateValue): unknown;
  renderString(text: string): string;
  /**
   * Send one request written in the project (a login, a chain step, an oauth2 token request
   * built by the strategy): rendered, checked against its expect_status (none: any 2xx), its
   * `extract` run. A `path` that is an absolute URL is used as it is (oauth2 `token_url`).
   * During an actor's login, the values extracted so far are readable by later requests as
   * `{{<actor>.<field>}}` (a chain's steps). Throws a coded FlowError on failure.
   */
  exchange(spec: RequestSpec, purpose: string): Promise<{ response: FlowResponse; extracted: Record<string, unknown> }>;
  /** register a credential so that every output shows it as *** */
  redact(value: string): void;
  now(): number;
}

export interface AuthStrategy {
  kind: AuthStrategyName;
  /**
   * Obtain a session. Strategies with nothing to obtain (basic, api_key, bearer) render their
   * credentials here, once per session, into `credentials`, and return `values: {}`.
   * Any failure is a FlowError `E_AUTH` naming the actor, with the cause's code in `details.cause`.
   */
  login(config: AuthConfig, ctx: AuthContext): Promise<Session>;
  /**
   * Put the credentials on a request: the final one, so a signer (aws_sigv4, oauth1) sees
   * everything. Synchronous when nothing is awaited: it runs before every request.
   */
  apply(req: PreparedRequest, config: AuthConfig, session: Session, ctx: AuthContext): void | Promise<void>;
  /**
   * Renew an expired session without a full login (oauth2 `refresh_token`). Optional; the
   * runner prefers the actor's `session.refresh` when written, then this, else `login`.
   */
  refresh?(config: AuthConfig, session: Session, ctx: AuthContext): Promise<Session>;
  /**
   * The session after the actor's own `session.refresh` request (docs/format.md#actors): `session.values`
   * already hold what it extracted, `expiresAt` is cleared. A strategy whose credentials come
   * from a login's answer (oauth2) rebuilds them here, and its expiry if the answer gives one.
   * Optional: without it the credentials stay as they were (basic, api_key, and `simple`,
   * whose inject.headers read the values anew).
   */
  refreshed?(config: AuthConfig, session: Session, refresh: RefreshAnswer, ctx: AuthContext): Session;
}

/** What an actor's `session.refresh` request returned. */
interface RefreshAnswer {
  extracted: Record<string, unknown>;
  response: FlowResponse;
}
