// Actor sessions (docs/format.md#run-sessions): an actor logs in lazily, on its first request; one
// login is shared by concurrent operations; `session.ttl` expiry uses `session.refresh` when
// given, else logs in again; a strategy may set its own expiry (oauth2 `expires_in`).
import { type AuthContext, type Session, strategyFor } from '../auth/index.js';
import { FlowError, hasCode, withLoc } from '../errors.js';
import { type Actor, type AuthConfig, isCredentialName, type Loc, locate, type Project, type RequestSpec, type TemplateValue } from '../project/index.js';
import { extractAll, type ExtractResult, render, renderString } from '../runtime/index.js';
import type { FlowResponse, PreparedRequest } from '../http/index.js';
import { renderContext, type RunContext, type Trace } from './context.js';
import { prepareRequest } from './prepare.js';
import { send } from './send.js';
import { checkStatus } from './verify.js';

interface Held {
  session: Session;
  obtainedAt: number;
}

/** The logged-in sessions of a run: one set, shared by a runner and its forks. */
class SessionStore {
  readonly held = new Map<string, Held>();
  readonly pending = new Map<string, Promise<Held>>();
  readonly failed = new Map<string, FlowError>();
}

export class Sessions {
  private readonly held: Map<string, Held>;
  private readonly pending: Map<string, Promise<Held>>;
  private readonly failed: Map<string, FlowError>;

  constructor(
    private readonly ctx: RunContext,
    private readonly store = new SessionStore(),
  ) {
    ({ held: this.held, pending: this.pending, failed: this.failed } = store);
  }

  /** The same sessions, for a fork: its logins and their requests are traced and emitted in the fork. */
  forFork(ctx: RunContext): Sessions {
    return new Sessions(ctx, this.store);
  }

  /**
   * A valid session for the actor, logging in or refreshing as needed; a failed login rejects.
   */
  async ensure(actor: Actor, trace: Trace): Promise<Session> {
    const failure = this.failed.get(actor.id);
    if (failure) throw failure;
    const current = this.held.get(actor.id);
    if (current && !this.expired(actor, current)) return current.session;
    let pending = this.pending.get(actor.id);
    if (!pending) {
      pending = (current ? this.renew(actor, current, trace) : this.login(actor, trace)).finally(() => this.pending.delete(actor.id));
      this.pending.set(actor.id, pending);
    }
    return pending.then((held) => held.session);
  }

  /**
   * Put the actor's credentials on a request (after inject.headers, which the caller rendered),
   * from the session `ensure` gave.
   */
  async apply(actor: Actor, session: Session, req: PreparedRequest, trace: Trace): Promise<void> {
    if (actor.auth) await strategyFor(actor.auth.strategy).apply(req, actor.auth, session, this.authContext(actor, trace));
  }

  /** An operation's inline `auth` (docs/format.md#auth-public): its own credentials, no shared session. */
  async applyInline(auth: AuthConfig, req: PreparedRequest, trace: Trace): Promise<void> {
    const ctx = this.authContext(undefined, trace);
    const strategy = strategyFor(auth.strategy);
    const session = await strategy.login(auth, ctx);
    await strategy.apply(req, auth, session, ctx);
  }

  private expired(actor: Actor, held: Held): boolean {
    const now = this.ctx.now();
    if (held.session.expiresAt !== undefined && now >= held.session.expiresAt) return true;
    const ttl = actor.session?.ttlMs;
    return ttl !== undefined && now >= held.obtainedAt + ttl;
  }

  private async login(actor: Actor, trace: Trace): Promise<Held> {
    // The session object is visible while it fills up, so a later chain step can read
    // `{{actor.field}}` that an earlier step extracted.
    const values: Record<string, unknown> = {};
    this.ctx.state.setSession(actor.id, values);
    try {
      const session = actor.auth ? await strategyFor(actor.auth.strategy).login(actor.auth, this.authContext(actor, trace, values)) : { values };
      Object.assign(values, session.values);
      const held = { session: { ...session, values }, obtainedAt: this.ctx.now() };
      this.held.set(actor.id, held);
      return held;
    } catch (err) {
      this.ctx.state.setSession(actor.id, undefined);
      const wrapped = withLoc(authError(actor.id, 'login', err), authLoc(this.ctx.project, actor));
      this.failed.set(actor.id, wrapped);
      throw wrapped;
    }
  }

  /**
   * An expired session: the actor's `session.refresh` request when written, else the
   * strategy's own refresh (oauth2 refresh_token), else a new login.
   */
  private async renew(actor: Actor, held: Held, trace: Trace): Promise<Held> {
    const strategy = actor.auth ? strategyFor(actor.auth.strategy) : undefined;
    let session: Session | undefined;
    try {
      if (actor.session?.refresh) {
        const answer = await this.exchange(actor, actor.session.refresh, `refresh of ${actor.id}`, trace, held.session.values);
        // The strategy's old expiry no longer applies: the ttl decides, unless the strategy
        // reads a new one from the answer; it also rebuilds credentials kept from the login
        // (oauth2's token), which would otherwise go on being sent expired.
        session = { ...held.session, values: held.session.values, expiresAt: undefined };
        if (strategy?.refreshed && actor.auth) session = strategy.refreshed(actor.auth, session, answer, this.authContext(actor, trace, held.session.values));
      } else if (strategy?.refresh && actor.auth) {
        const refreshed = await strategy.refresh(actor.auth, held.session, this.authContext(actor, trace, held.session.values));
        session = { ...refreshed, values: Object.assign(held.session.values, refreshed.values) };
      }
    } catch {
      // A refresh that fails (the refresh token expired too) falls back to a full login,
      // as a person would; only a failed login fails the actor.
      session = undefined;
    }
    if (!session) {
      this.held.delete(actor.id);
      return this.login(actor, trace);
    }
    const renewed = { session, obtainedAt: this.ctx.now() };
    this.held.set(actor.id, renewed);
    return renewed;
  }

  private authContext(actor: Actor | undefined, trace: Trace, values?: Record<string, unknown>): AuthContext {
    return new SessionAuthContext(this, this.ctx, actor, trace, values);
  }

  /** One login-side request: rendered, sent without credentials, checked, extracted. */
  async exchange(actor: Actor | undefined, spec: RequestSpec, purpose: string, trace: Trace, into?: Record<string, unknown>) {
    const rc = renderContext(this.ctx);
    const req = await prepareRequest(this.ctx, spec, rc, {}, true);
    // Extracted once, as the response arrives; its errors count only after the status check.
    let extracted: ExtractResult = { values: {}, many: {}, errors: [] };
    const response = await send(this.ctx, req, {
      trace,
      purpose: actor ? `${purpose} (actor ${actor.id})` : purpose,
      actor: actor?.id,
      // Tokens a login returns are credentials from the moment they arrive: the login's own
      // response (shown by --verbose as it comes) must not show them either.
      inspect: (res) => {
        extracted = extractAll(spec.extract, res);
        this.hideCredentials(spec, res, extracted.values);
      },
    });
    checkStatus(response, spec.expectStatus, this.ctx.redactor);
    if (extracted.errors.length) throw extracted.errors[0];
    if (into) Object.assign(into, extracted.values);
    return { response, extracted: extracted.values };
  }

  /**
   * Before a login-side response is recorded: register what it extracted under a credential
   * name, and every credential field of a JSON answer (an oauth2 token answer, which its
   * strategy reads only after the exchange). Never throws: the real checks come after.
   */
  private hideCredentials(spec: RequestSpec, res: FlowResponse, extracted: Record<string, unknown>): void {
    const hide = (v: unknown) => typeof v === 'string' && this.ctx.redactor.add(v, 'token');
    for (const e of spec.extract) if (isCredentialName(e.name)) hide(extracted[e.name]);
    try {
      hideCredentialFields(res.json(), hide);
    } catch {
      // not JSON: no fields to hide
    }
  }
}

/**
 * Every value under a credential-named key of a login's JSON answer, nested ones too
 * (`{"data": {"token": …}}`): even when the login's own extraction misses it, --verbose
 * must not show the token. Bounded, as the answer comes from the server.
 */
function hideCredentialFields(value: unknown, hide: (v: unknown) => void, depth = 0): void {
  if (!value || typeof value !== 'object' || depth > 8) return;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (isCredentialName(key)) hide(v);
    else hideCredentialFields(v, hide, depth + 1);
  }
}

/** What a strategy may do (src/auth/types.ts). One is made for every request that applies credentials: methods, not closures. */
class SessionAuthContext implements AuthContext {
  constructor(
    private readonly sessions: Sessions,
    private readonly ctx: RunContext,
    readonly actor: Actor | undefined,
    private readonly trace: Trace,
    private readonly values?: Record<string, unknown>,
  ) {}

  get projectDir(): string {
    return this.ctx.project.dir;
  }

  render(value: TemplateValue): unknown {
    return render(value, renderContext(this.ctx));
  }

  renderString(text: string): string {
    return renderString(text, renderContext(this.ctx));
  }

  exchange(spec: RequestSpec, purpose: string): ReturnType<AuthContext['exchange']> {
    return this.sessions.exchange(this.actor, spec, purpose, this.trace, this.values);
  }

  redact(value: string): void {
    this.ctx.redactor.add(value);
  }

  now(): number {
    return this.ctx.now();
  }
}

/** A failed login points at the actor's `auth:` key: the operation that needed it is not where to fix it. */
function authLoc(project: Project, actor: Actor): Loc {
  return actor.auth ? locate(project, actor.auth.file, actor.auth.yamlPath, true) : actor.loc;
}

function authError(actor: string, what: string, err: unknown): FlowError {
  if (hasCode(err) && err.code === 'E_AUTH') return err as FlowError;
  const code = hasCode(err) ? err.code : 'E_INTERNAL';
  const message = err instanceof Error ? err.message : String(err);
  return new FlowError('E_AUTH', `${what} of actor ${actor} failed: ${code} ${message}`, { cause: err, details: { cause: code } });
}
