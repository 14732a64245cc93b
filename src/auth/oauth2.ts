// `oauth2_client_credentials` and `oauth2_password` (RFC 6749 4.4 and 4.3): a form-encoded
// POST to `token_url` with HTTP Basic client authentication (2.3.1), then
// `Authorization: Bearer <access_token>` until `expires_in` runs out. A `refresh_token`
// in the answer lets the runner renew the session without asking for the password again.
import { type AuthConfig, type AuthStrategyName, type RequestSpec, scalarText, type TemplateValue } from '../project/index.js';
import { applyAuthorization, renderCredential, renderSetting } from './credentials.js';
import { authConfigError, guardLogin, subject } from './errors.js';
import { FlowError } from '../errors.js';
import { OAUTH2_SESSION_FIELDS } from '../graph/index.js';
import type { FlowResponse } from '../http/index.js';
import type { AuthContext, AuthStrategy, Session } from './types.js';

type Grant = 'client_credentials' | 'password';

/** The values of a token answer readable as {{<actor>.<field>}}; the tokens are redacted. */
const TOKEN_FIELDS = OAUTH2_SESSION_FIELDS;
const SECRET_FIELDS = new Set(['access_token', 'refresh_token', 'id_token']);

export const oauth2ClientCredentials = oauth2('oauth2_client_credentials', 'client_credentials');
export const oauth2Password = oauth2('oauth2_password', 'password');

function oauth2(kind: AuthStrategyName, grant: Grant): AuthStrategy {
  const login: AuthStrategy['login'] = (config, ctx) =>
    guardLogin(ctx, async () => {
      const form: Record<string, TemplateValue> = { grant_type: grant };
      const scope = await renderScope(ctx, config.options.scope);
      if (scope) form.scope = scope;
      if (grant === 'password') {
        // Rendered here to check them and redact the password (a literal one too); handed to
        // `exchange` as written, so a password holding "{{" is never read as a template.
        await renderCredential(ctx, kind, config.options, 'username', { secret: false });
        await renderCredential(ctx, kind, config.options, 'password', { allowEmpty: true });
        form.username = config.options.username;
        form.password = config.options.password;
      }
      return tokenRequest(kind, config, ctx, form, 'login (token request)');
    });
  return {
    kind,
    login,
    apply: applyAuthorization,
    async refresh(config, session, ctx) {
      const refreshToken = session.values.refresh_token;
      if (typeof refreshToken !== 'string' || !refreshToken) return login(config, ctx);
      const renewed = await guardLogin(
        ctx,
        () => tokenRequest(kind, config, ctx, { grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh (token request)'),
        undefined,
        'session refresh',
      );
      // a server may keep the refresh token and not send it again
      if (renewed.values.refresh_token === undefined) renewed.values.refresh_token = refreshToken;
      return renewed;
    },
    refreshed(_config, session, { extracted, response }, ctx) {
      // What the refresh extracted wins (`access_token`, or `token` as a simple login names
      // it, docs/format.md#auth-simple); else the answer read as a token answer (RFC 6749 5.1), as at login.
      const answer = jsonObject(response);
      const token = [extracted.access_token, extracted.token, answer.access_token].find((v): v is string => typeof v === 'string' && v !== '');
      if (!token) return session; // nothing new to send: the old token stays
      ctx.redact(token);
      const values = session.values;
      for (const field of TOKEN_FIELDS) if (extracted[field] === undefined && answer[field] !== undefined) values[field] = answer[field];
      values.access_token = token; // {{actor.access_token}} is what is sent
      const renewed: Session = { ...session, credentials: { authorization: `Bearer ${token}` } };
      const expiresAt = expiryFrom(ctx, extracted.expires_in ?? answer.expires_in);
      if (expiresAt !== undefined) renewed.expiresAt = expiresAt;
      return renewed;
    },
  };
}

/** The top-level fields of a JSON object answer, else none. */
function jsonObject(response: FlowResponse): Record<string, unknown> {
  try {
    const body: unknown = response.json();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** now + `expires_in` seconds; undefined without a positive number (the ttl decides). */
function expiryFrom(ctx: AuthContext, expiresIn: unknown): number | undefined {
  const lifetime = Number(expiresIn);
  return Number.isFinite(lifetime) && lifetime > 0 ? ctx.now() + lifetime * 1000 : undefined;
}

async function tokenRequest(
  kind: AuthStrategyName,
  config: AuthConfig,
  ctx: AuthContext,
  form: Record<string, TemplateValue>,
  purpose: string,
): Promise<Session> {
  const tokenUrl = await renderSetting(ctx, config.options, 'token_url');
  if (!tokenUrl) throw authConfigError(ctx, kind, 'has no `token_url`');
  const clientId = await renderCredential(ctx, kind, config.options, 'client_id', { secret: false });
  const headers: Record<string, TemplateValue> = { Accept: 'application/json' };
  if (config.options.client_secret !== undefined) {
    const secret = await renderCredential(ctx, kind, config.options, 'client_secret');
    // RFC 6749 2.3.1: each part form-encoded before the Basic encoding
    const basic = Buffer.from(`${formEncode(clientId)}:${formEncode(secret)}`, 'utf8').toString('base64');
    ctx.redact(basic);
    headers.Authorization = `Basic ${basic}`;
  } else {
    form.client_id = clientId; // a public client names itself in the body (2.3.1, 3.2.1)
  }
  const spec: RequestSpec = {
    file: config.file,
    yamlPath: config.yamlPath,
    loc: config.loc,
    method: 'POST',
    path: tokenUrl,
    headers,
    queryParams: {},
    bodyForm: form,
    expectStatus: [200],
    extract: [],
  };
  const { response } = await ctx.exchange(spec, purpose);
  return sessionFrom(kind, ctx, response.json());
}

function sessionFrom(kind: AuthStrategyName, ctx: AuthContext, answer: unknown): Session {
  const body = (answer ?? {}) as Record<string, unknown>;
  const token = body.access_token;
  if (typeof token !== 'string' || !token) {
    throw new FlowError('E_AUTH', `${kind} token answer for ${subject(ctx)} has no access_token`, { details: { actor: ctx.actor?.id } });
  }
  const values: Record<string, unknown> = {};
  for (const field of TOKEN_FIELDS) {
    const v = body[field];
    if (v === undefined) continue;
    if (SECRET_FIELDS.has(field) && typeof v === 'string') ctx.redact(v);
    values[field] = v;
  }
  const type = typeof body.token_type === 'string' ? body.token_type : 'Bearer';
  if (type.toLowerCase() !== 'bearer') {
    throw new FlowError('E_AUTH', `${kind} token of ${subject(ctx)} has token_type "${type}"; only Bearer tokens are supported`, {
      details: { actor: ctx.actor?.id },
    });
  }
  const session: Session = { values, credentials: { authorization: `Bearer ${token}` } };
  const expiresAt = expiryFrom(ctx, body.expires_in);
  if (expiresAt !== undefined) session.expiresAt = expiresAt;
  return session;
}

/** `scope` as a string, or a list joined with spaces (RFC 6749 3.3). */
async function renderScope(ctx: AuthContext, written: TemplateValue | undefined): Promise<string | undefined> {
  if (written === undefined || written === null) return undefined;
  const rendered = ctx.render(written);
  const scope = Array.isArray(rendered) ? rendered.map(String).join(' ') : scalarText(rendered);
  return scope.trim() || undefined;
}

/** application/x-www-form-urlencoded for one value (space as +), as 2.3.1 asks. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
