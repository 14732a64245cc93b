// Actors from security schemes and login requests. The strategy is the one the input grounds
// (docs/format.md#authentication); a scheme with no matching strategy is an open question, and the operations that
// need it are skipped (docs/format.md#r6). Every credential is a {{secret.X}}; nothing seen is copied.
import type { TemplateValue } from '../../project/index.js';
import { quote, type SecurityScheme } from '../observed.js';
import type { Resolver } from './bindings.js';
import type { InferContext } from './context.js';
import type { DraftActor } from './draft.js';
import { endpointId, type Endpoint } from './endpoints.js';
import { jsonPath } from './extractions.js';
import { ident, isCredentialName, snake } from './names.js';
import { renderPath, segmentText } from './paths.js';
import { fieldText } from './traffic.js';
import { templateBody, type ValueScope } from './values.js';

const LOGIN_WORD = /^(login|log_in|signin|sign_in|token|tokens|session|sessions|authenticate|auth)$/i;
const TOKEN_FIELD = /^(token|access_token|accessToken|jwt|id_token|auth_token|authToken)$/;

type AuthBuilder = (s: SecurityScheme, name: string, ctx: InferContext) => Record<string, TemplateValue>;

/** A credential of actor `n`: the collection's own variable when the input names one. */
function cred(s: SecurityScheme, key: string, n: string, ctx: InferContext, secret: boolean, what: string): string {
  const v = s.credentialVars?.[key];
  const name = v ?? `${n}_${key}`;
  const note = v ? `${what} of actor ${n} (the collection's {{${v}}})` : `${what} of actor ${n}`;
  return secret ? ctx.secret(name, note) : ctx.userVar(name, note);
}

/** A token URL as the input states it; a collection variable in it is supplied on each run. */
function tokenUrl(s: SecurityScheme, ctx: InferContext): string {
  return (s.tokenUrl ?? '').replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_m, v: string) => ctx.userVar(v, `part of the token URL ${s.tokenUrl}`));
}

function oauth(s: SecurityScheme, n: string, ctx: InferContext): Record<string, TemplateValue> {
  const out: Record<string, TemplateValue> = {
    token_url: tokenUrl(s, ctx),
    client_id: cred(s, 'client_id', n, ctx, false, 'OAuth2 client id'),
    client_secret: cred(s, 'client_secret', n, ctx, true, 'OAuth2 client secret'),
  };
  if (s.scope) out.scope = s.scope;
  return out;
}

const BUILDERS: Record<Exclude<SecurityScheme['kind'], 'login' | 'unsupported'>, AuthBuilder> = {
  basic: (s, n, ctx) => ({
    strategy: 'basic',
    username: cred(s, 'username', n, ctx, false, 'user name'),
    password: cred(s, 'password', n, ctx, true, 'password'),
  }),
  bearer: (s, n, ctx) => ({ strategy: 'bearer', token: ctx.secret(s.tokenVariable ?? `${n}_token`, `token of actor ${n}, issued in advance`) }),
  api_key: (s, n, ctx) => ({
    strategy: 'api_key',
    key: `${s.prefix ?? ''}${ctx.secret(s.tokenVariable ?? `${n}_key`, `API key of actor ${n}`)}`,
    location: s.location ?? 'header',
    name: s.paramName ?? 'Authorization',
  }),
  oauth2_client_credentials: (s, n, ctx) => ({ strategy: 'oauth2_client_credentials', ...oauth(s, n, ctx) }),
  oauth2_password: (s, n, ctx) => {
    const o = oauth(s, n, ctx);
    const { scope, ...rest } = o;
    return {
      strategy: 'oauth2_password',
      ...rest,
      ...(scope !== undefined ? { scope } : {}),
      username: cred(s, 'username', n, ctx, false, 'user name'),
      password: cred(s, 'password', n, ctx, true, 'password'),
    };
  },
  oauth1: (s, n, ctx) => ({
    strategy: 'oauth1',
    consumer_key: cred(s, 'consumer_key', n, ctx, true, 'OAuth1 consumer key'),
    consumer_secret: cred(s, 'consumer_secret', n, ctx, true, 'OAuth1 consumer secret'),
    token: cred(s, 'token', n, ctx, true, 'OAuth1 token'),
    token_secret: cred(s, 'token_secret', n, ctx, true, 'OAuth1 token secret'),
    ...setting(s, 'realm', n, ctx),
  }),
  aws_sigv4: (s, n, ctx) => ({
    strategy: 'aws_sigv4',
    access_key: cred(s, 'access_key', n, ctx, true, 'AWS access key'),
    secret_key: cred(s, 'secret_key', n, ctx, true, 'AWS secret key'),
    ...setting(s, 'region', n, ctx),
    ...setting(s, 'service', n, ctx),
  }),
};

/** A setting that is no credential: the input's value, its variable, or nothing when it states none. */
function setting(s: SecurityScheme, key: string, n: string, ctx: InferContext): Record<string, TemplateValue> {
  const v = s.credentialVars?.[key];
  if (v) return { [key]: ctx.userVar(v, `${key} of actor ${n} (the collection's {{${v}}})`) };
  const literal = s.settings?.[key];
  return literal ? { [key]: literal } : {};
}

const RETURNS: Record<string, string> = {
  basic: 'no login: HTTP basic credentials on every request',
  bearer: 'no login: a token issued in advance, sent as `Authorization: Bearer`',
  api_key: 'no login: an API key issued in advance',
  oauth2_client_credentials: 'an access token from the token endpoint (client credentials grant)',
  oauth2_password: 'an access token from the token endpoint (password grant)',
  oauth1: 'no login: OAuth1 credentials issued in advance sign every request',
  aws_sigv4: 'no login: AWS keys issued in advance sign every request (SigV4)',
};

// Among alternatives the input states, a credential issued in advance (docs/format.md#auth-issued) comes first:
// it needs no login and is one {{secret.X}}. Basic comes last, since APIs that also offer it
// usually mean a key in the user name (Stripe: `<api_key>:`), which basic would split into a
// plain user name and a password. Equal ranks keep the input's order.
const RANK: Partial<Record<SecurityScheme['kind'], number>> = { bearer: 0, api_key: 0, basic: 2 };

/**
 * The supported scheme to use; undefined if none is supported. Traffic lists what one request
 * sent together (Gitea: basic plus an `X-Gitea-OTP` one-time code), not alternatives, so
 * there the first one sent is kept, as the input's own order.
 */
function preferred(alternatives: Array<SecurityScheme | undefined>, sentTogether = false): SecurityScheme | undefined {
  let best: SecurityScheme | undefined;
  for (const s of alternatives) {
    if (!s || s.kind === 'unsupported') continue;
    if (!best) best = s;
    else if (!sentTogether && (RANK[s.kind] ?? 1) < (RANK[best.kind] ?? 1)) best = s;
  }
  return best;
}

function choiceNote(ids: string[], chosen: string, sentTogether: boolean): string {
  return sentTogether
    ? `Requests that send ${ids.join(' and ')} use ${chosen} (the first one sent)`
    : `Operations that accept ${ids.join(' or ')} use ${chosen} (a credential issued in advance first, basic last)`;
}

export function inferActors(endpoints: Endpoint[], ctx: InferContext, resolver: Resolver, taken: Set<string>): DraftActor[] {
  const actors = new Map<string, DraftActor>();
  const schemes = new Map(ctx.api.schemes.map((s) => [s.id, s]));
  for (const e of endpoints) {
    if (e.blocked) continue;
    const uses = e.ops[0].security;
    if (!uses?.length) continue; // public: actor omitted (docs/format.md#r3)
    const sentTogether = e.ops[0].concrete;
    const supported = preferred(
      uses.map((u) => schemes.get(u.scheme)),
      sentTogether,
    );
    if (supported) {
      const actor = actors.get(supported.id) ?? buildActor(supported, endpoints, ctx, resolver, taken);
      actors.set(supported.id, actor);
      e.actor = actor.name;
      if (uses.length > 1)
        ctx.count(
          'actors',
          choiceNote(
            uses.map((u) => u.scheme),
            supported.id,
            sentTogether,
          ),
          endpointId(e),
        );
      continue;
    }
    const s = schemes.get(uses[0].scheme);
    const text = s
      ? `Security scheme "${s.id}" (${s.detail ?? s.kind}) is not one of the supported strategies. How does a test obtain its credential (for example a token issued in advance, sent as bearer {{secret.X}})?`
      : `Security scheme "${uses[0].scheme}" is required but not defined in the input. Which strategy and credential does it use?`;
    const q = ctx.ask(text, [endpointId(e)], s?.evidence ?? uses[0].evidence);
    e.blocked = { reason: `needs security scheme ${uses[0].scheme}`, question: q };
  }
  const all = [...actors.values()];
  const session = sessionActor(endpoints, all, ctx, resolver, taken);
  return session ? [...all, session] : all;
}

function buildActor(s: SecurityScheme, endpoints: Endpoint[], ctx: InferContext, resolver: Resolver, taken: Set<string>): DraftActor {
  let name = ident(snake(s.id) || 'user');
  if (taken.has(name)) name = `${name}_actor`;
  taken.add(name);
  const login = s.kind === 'login' ? loginOf(s, endpoints) : upgradable(s) ? findLogin(endpoints) : undefined;
  if (login) return loginActor(s, name, login, ctx, resolver);
  const kind = s.kind === 'login' ? 'bearer' : s.kind;
  const builder = BUILDERS[kind as keyof typeof BUILDERS];
  const auth = builder(s, name, ctx);
  if (s.kind === 'login') ctx.note('actors', `Actor ${name}: the request that returns its token was not found; it uses a token issued in advance.`);
  return {
    name,
    description: describe(s),
    auth,
    loginReturns: RETURNS[kind] ?? kind,
    evidence: [s.evidence],
  };
}

function describe(s: SecurityScheme): string {
  const text = quote(s.description ?? '', 160);
  return `Security scheme ${s.id} (${s.kind})${text ? `: ${text}` : ''}`;
}

function upgradable(s: SecurityScheme): boolean {
  return (s.kind === 'bearer' || (s.kind === 'api_key' && s.location === 'header')) && !s.tokenUrl;
}

interface Login {
  endpoint: Endpoint;
  tokenField: Array<string | number>;
  why: string;
}

function loginOf(s: SecurityScheme, endpoints: Endpoint[]): Login | undefined {
  const endpoint = endpoints.find((e) => !e.blocked && e.ops.some((o) => o.key === s.loginOperation));
  if (!endpoint || !s.tokenField) return undefined;
  return {
    endpoint,
    tokenField: s.tokenField,
    why: `${endpoint.ops[0].key} returns ${fieldText(s.tokenField)} and the input stores it as the credential (${s.evidence.at})`,
  };
}

/** A POST to a login word whose body carries a password and whose response has a token. */
function findLogin(endpoints: Endpoint[]): Login | undefined {
  for (const e of loginRequests(endpoints)) {
    const op = e.ops[0];
    const token = tokenOf(e);
    if (!token) continue;
    return {
      endpoint: e,
      tokenField: token.path,
      why: `${op.key} takes a password and returns ${fieldText(token.path)} (${token.evidence.file} ${token.evidence.at})`,
    };
  }
  return undefined;
}

/** The POSTs to a login word whose body carries a password. */
export function loginRequests(endpoints: Endpoint[]): Endpoint[] {
  return endpoints.filter((e) => {
    if (e.blocked || e.method !== 'POST') return false;
    const lastWord = [...e.segments]
      .reverse()
      .map(segmentText)
      .find((t) => t);
    if (!lastWord || !LOGIN_WORD.test(lastWord)) return false;
    return e.ops[0].requestBody?.fields.some((f) => isCredentialName(f.path[f.path.length - 1])) ?? false;
  });
}

const PASSWORD_FIELD = /^(password|passwd|pass|pwd)$/i;

/**
 * A user's login whose described answer holds no token: it sends a password (not another
 * credential: a key, a client secret) and its success answer is described, field by field,
 * without one. An answer not described (or described elsewhere) says nothing about a token.
 */
function isSessionLogin(e: Endpoint): boolean {
  const op = e.ops[0];
  if (!op.requestBody?.fields.some((f) => f.path.length <= 2 && PASSWORD_FIELD.test(String(f.path[f.path.length - 1])))) return false;
  const described = op.responses.filter((r) => r.status !== undefined && r.status >= 200 && r.status < 300).some((r) => r.fields.length > 0);
  return described && !tokenOf(e);
}

/** The token field of the login's success answer, if it has one. */
function tokenOf(e: Endpoint) {
  return e.ops[0].responses
    .filter((r) => r.status === undefined || (r.status >= 200 && r.status < 300))
    .flatMap((r) => r.fields)
    .find((f) => !f.listPath && f.path.length <= 3 && TOKEN_FIELD.test(f.path[f.path.length - 1]));
}

function loginActor(s: SecurityScheme, name: string, login: Login, ctx: InferContext, resolver: Resolver): DraftActor {
  const op = login.endpoint.ops[0];
  const auth = loginRequest(login.endpoint, name, ctx, resolver);
  auth.extract = { token: jsonPath(login.tokenField) };
  const header = s.paramName ?? 'Authorization';
  const prefix = s.prefix ?? (s.kind === 'bearer' ? 'Bearer ' : '');
  return {
    name,
    description: `Logs in with ${op.key}; ${describe(s)}`,
    auth,
    injectHeaders: { [header]: `${prefix}{{${name}.token}}` },
    loginReturns: `${fieldText(login.tokenField)} from ${op.key}, sent as \`${header}: ${prefix}<token>\``,
    evidence: [s.evidence, { file: op.evidence.file, at: op.evidence.at, quote: login.why.slice(0, 120) }],
  };
}

/** The `simple` login of an actor: the request as the input describes it; `owner` names its variables and secrets. */
function loginRequest(e: Endpoint, owner: string, ctx: InferContext, resolver: Resolver): Record<string, TemplateValue> {
  const op = e.ops[0];
  const scope: ValueScope = { ctx, resolver, endpoint: e, owner, evidence: {} };
  const auth: Record<string, TemplateValue> = {
    strategy: 'simple',
    method: e.method,
    path: renderPath(e.segments, (p, i) => resolver.pathParam(e, p, i).ref),
  };
  const body = templateBody(op.requestBody, scope);
  if (body !== undefined) auth[op.requestBody?.kind === 'form' ? 'body_form' : 'body'] = body;
  const ok = [...new Set(e.ops.flatMap((o) => o.responses.map((r) => r.status)).filter((c): c is number => c !== undefined && c >= 200 && c < 300))];
  if (ok.length) auth.expect_status = ok.length === 1 ? ok[0] : ok;
  return auth;
}

/**
 * A login whose answer has no token (a POST to a login word that takes a password): a user's
 * session, assumed to be the cookie(s) the login sets, which the runner keeps per actor and
 * sends back on the actor's requests. It is an actor of its own that no operation uses: each
 * stays on the scheme the input states, and `flow calibrate` proposes this actor for an
 * operation that fails as its own and passes as this one. Its user and password are those of
 * the login operation (the same variable and secret: one user to give).
 */
function sessionActor(endpoints: Endpoint[], actors: readonly DraftActor[], ctx: InferContext, resolver: Resolver, taken: Set<string>): DraftActor | undefined {
  const e = loginRequests(endpoints).find(isSessionLogin);
  if (!e) return undefined;
  const auth = loginRequest(e, e.resource, ctx, resolver);
  // already an actor's login (the input stores a token from it)
  if (actors.some((a) => a.auth.strategy === 'simple' && a.auth.path === auth.path)) return undefined;
  let name = 'session';
  if (taken.has(name)) name = ident(`${e.resource}_session`);
  if (taken.has(name)) name = `${name}_actor`;
  taken.add(name);
  const op = e.ops[0];
  const assumed = `${op.key} takes a password and its answer has no token: the session is assumed to be the cookie(s) it sets`;
  ctx.note(
    'actors',
    `Actor ${name}: ${assumed}, sent back on ${name}'s requests. No operation uses it (each keeps the actor of the scheme the input states); \`flow calibrate\` proposes \`actor: ${name}\` for an operation that fails as its actor and passes as ${name}. If the session is a token in the answer or a header, give ${name} an \`extract\` and \`inject.headers\`.`,
  );
  return {
    name,
    description: `Logs in with ${op.key}; its session is assumed to be the cookie(s) the login sets`,
    auth,
    loginReturns: `no token: the session cookie(s) ${op.key} sets (assumed), sent back on ${name}'s requests`,
    evidence: [{ file: op.evidence.file, at: op.evidence.at, quote: assumed.slice(0, 120) }],
  };
}
