// `jwt`: a token we sign ourselves (jose) from `payload` (rendered, so claims such as
// `exp: "{{$.now + 1h}}"` work) with `secret`, `algorithm` HS256 by default, `kid` and any
// other protected `headers`; sent as `Authorization: Bearer <jwt>`. Resource servers refuse a
// token without `exp`: one is added (the actor's session.ttl, else 5 minutes), and the
// session ends a little before it, so a new token is signed before the old one expires.
import type { JWTHeaderParameters, JWTPayload } from 'jose';
import type { AuthConfig } from '../project/index.js';
import { applyAuthorization, renderCredential, renderSetting } from './credentials.js';
import { authConfigError, guardLogin } from './errors.js';
import type { AuthContext, AuthStrategy } from './types.js';

const HMAC = new Set(['HS256', 'HS384', 'HS512']);
/** Signed with a private key in PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`) given as `secret`. */
const ASYMMETRIC = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']);
const DEFAULT_ALGORITHM = 'HS256';
/** The lifetime of a token whose payload gives no `exp`, when the actor has no session.ttl. */
export const DEFAULT_LIFETIME_MS = 5 * 60_000;
/** A new token is signed this long before the old one expires (at most half its life). */
const RESIGN_MARGIN_MS = 30_000;

/** NumericDate claims (RFC 7519 4.1.4–4.1.6): seconds since the epoch. */
const TIME_CLAIMS = ['exp', 'nbf', 'iat'] as const;

export const jwt: AuthStrategy = {
  kind: 'jwt',
  login: (config, ctx) =>
    guardLogin(ctx, async () => {
      const algorithm = (await renderSetting(ctx, config.options, 'algorithm')) ?? DEFAULT_ALGORITHM;
      const alg = [...HMAC, ...ASYMMETRIC].find((a) => a.toLowerCase() === algorithm.toLowerCase());
      if (!alg) throw authConfigError(ctx, 'jwt', `has algorithm "${algorithm}"; use one of ${[...HMAC, ...ASYMMETRIC].join(', ')}`);
      const secret = await renderCredential(ctx, 'jwt', config.options, 'secret');
      const payload = await renderPayload(ctx, config.options.payload);
      const now = ctx.now();
      payload.exp ??= Math.floor((now + (ctx.actor?.session?.ttlMs ?? DEFAULT_LIFETIME_MS)) / 1000);
      const header = await protectedHeader(ctx, config.options, alg);
      // jose is loaded on first use: most runs never sign a token (start-up time)
      const jose = await import('jose');
      const key = HMAC.has(alg) ? new TextEncoder().encode(secret) : await importKey(ctx, jose, secret, alg);
      const token = await new jose.SignJWT(payload).setProtectedHeader(header).sign(key);
      ctx.redact(token);
      const life = payload.exp * 1000 - now;
      return {
        values: { token },
        credentials: { authorization: `Bearer ${token}` },
        expiresAt: Math.floor(payload.exp * 1000 - Math.max(0, Math.min(RESIGN_MARGIN_MS, life / 2))),
      };
    }),
  apply: applyAuthorization,
};

/** `{ alg, typ: JWT }`, with `kid` and the `headers` map (which cannot change `alg`). */
async function protectedHeader(ctx: AuthContext, options: AuthConfig['options'], alg: string): Promise<JWTHeaderParameters> {
  const header: JWTHeaderParameters = { alg, typ: 'JWT' };
  if (options.headers !== undefined) {
    const extra = ctx.render(options.headers);
    if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) throw authConfigError(ctx, 'jwt', 'has `headers` that are not a map');
    Object.assign(header, extra);
  }
  const kid = await renderSetting(ctx, options, 'kid');
  if (kid !== undefined) header.kid = kid;
  header.alg = alg; // the algorithm is the one the key signs with, whatever `headers` says
  return header;
}

async function importKey(ctx: AuthContext, jose: typeof import('jose'), pem: string, alg: string) {
  try {
    return await jose.importPKCS8(pem, alg);
  } catch {
    // never the key or jose's message about it in the error
    throw authConfigError(ctx, 'jwt', `has a \`secret\` that is not a PKCS#8 PEM private key for ${alg}`);
  }
}

async function renderPayload(ctx: AuthContext, written: unknown): Promise<JWTPayload & { exp?: number }> {
  const rendered = written === undefined || written === null ? {} : ctx.render(written as never);
  if (rendered === null || typeof rendered !== 'object' || Array.isArray(rendered))
    throw authConfigError(ctx, 'jwt', 'has a `payload` that is not a map of claims');
  const payload = { ...(rendered as Record<string, unknown>) };
  for (const claim of TIME_CLAIMS) {
    if (payload[claim] === undefined) continue;
    const seconds = numericDate(payload[claim]);
    if (seconds === undefined) throw authConfigError(ctx, 'jwt', `has a \`payload.${claim}\` that is neither seconds nor a date`);
    payload[claim] = seconds;
  }
  payload.iat ??= Math.floor(ctx.now() / 1000);
  return payload;
}

/** Seconds since the epoch, from a number, a numeric string, or a date such as `{{$.now + 1h}}`. */
function numericDate(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.floor(v);
  if (typeof v !== 'string' || !v.trim()) return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.floor(Number(v));
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
