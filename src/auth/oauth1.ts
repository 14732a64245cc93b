// `oauth1` (RFC 5849): `Authorization: OAuth …`, signed with a fresh nonce and timestamp for
// every attempt (a retry too: servers refuse a nonce they have seen), through `resign`.
// The signature base string (3.4.1) is written here with node:crypto: the npm signers
// (oauth-1.0a) read a query's `+` as a plus rather than a space, let a body parameter replace
// a query parameter of the same name, and draw nonces from Math.random; 3.4.1 is 40 lines.
import { createHmac, createSign, randomBytes } from 'node:crypto';
import { setCredentialHeader, type PreparedRequest, type SignableRequest } from '../http/index.js';
import { credential, renderCredential, renderSetting } from './credentials.js';
import { authConfigError, guardLogin } from './errors.js';
import type { AuthStrategy } from './types.js';

const METHODS = ['HMAC-SHA1', 'HMAC-SHA256', 'PLAINTEXT', 'RSA-SHA1'] as const;
type Method = (typeof METHODS)[number];

export interface OAuth1Keys {
  consumerKey: string;
  /** the shared secret, or for RSA-SHA1 the PEM private key */
  consumerSecret: string;
  token?: string;
  tokenSecret?: string;
  method: Method;
  realm?: string;
}

export const oauth1: AuthStrategy = {
  kind: 'oauth1',
  login: (config, ctx) =>
    guardLogin(ctx, async () => {
      const written = (await renderSetting(ctx, config.options, 'signature_method')) ?? 'HMAC-SHA1';
      const method = METHODS.find((m) => m === written.toUpperCase());
      if (!method) throw authConfigError(ctx, 'oauth1', `has signature_method "${written}"; use one of ${METHODS.join(', ')}`);
      const keys: OAuth1Keys = {
        consumerKey: await renderCredential(ctx, 'oauth1', config.options, 'consumer_key', { secret: false }),
        consumerSecret: await renderCredential(ctx, 'oauth1', config.options, 'consumer_secret'),
        method,
      };
      // 2-legged (signature only) requests carry no token
      if (config.options.token !== undefined) keys.token = await renderCredential(ctx, 'oauth1', config.options, 'token');
      if (config.options.token_secret !== undefined)
        keys.tokenSecret = await renderCredential(ctx, 'oauth1', config.options, 'token_secret', { allowEmpty: true });
      const realm = await renderSetting(ctx, config.options, 'realm');
      if (realm !== undefined) keys.realm = realm;
      if (method === 'RSA-SHA1' && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(keys.consumerSecret)) {
        throw authConfigError(ctx, 'oauth1', 'with signature_method RSA-SHA1 needs a PEM private key as `consumer_secret`');
      }
      return { values: {}, credentials: { keys } };
    }),
  apply(req, _config, session, ctx) {
    const keys = session.credentials?.keys as OAuth1Keys | undefined;
    if (!keys) credential(session.credentials, 'keys'); // throws: apply before login
    const sign = (attempt: SignableRequest) => {
      const { header, signature } = signed(keys!, attempt);
      ctx.redact(signature); // a server may echo it (an error page): never shown
      return { Authorization: header };
    };
    setCredentialHeader(req, 'Authorization', sign(signable(req)).Authorization);
    req.resign = sign;
  },
};

function signable(req: PreparedRequest): SignableRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
  return { method: req.method, url: req.url, headers, body: req.body };
}

/** The header for one attempt: new nonce, current time. `fixed` replaces them (the RFC's examples, which omit the optional oauth_version). */
export function authorizationHeader(keys: OAuth1Keys, req: SignableRequest, fixed?: { nonce: string; timestamp: string; version?: false }): string {
  return signed(keys, req, fixed).header;
}

function signed(keys: OAuth1Keys, req: SignableRequest, fixed?: { nonce: string; timestamp: string; version?: false }): { header: string; signature: string } {
  const params: Record<string, string> = {
    oauth_consumer_key: keys.consumerKey,
    oauth_nonce: fixed?.nonce ?? randomBytes(16).toString('hex'),
    oauth_signature_method: keys.method,
    oauth_timestamp: fixed?.timestamp ?? String(Math.floor(Date.now() / 1000)),
  };
  if (fixed?.version !== false) params.oauth_version = '1.0';
  if (keys.token !== undefined) params.oauth_token = keys.token;
  params.oauth_signature = signature(keys, baseString(req, params));
  const parts = Object.entries(params).map(([k, v]) => `${encode(k)}="${encode(v)}"`);
  if (keys.realm !== undefined) parts.unshift(`realm="${keys.realm.replace(/["\\]/g, '\\$&')}"`);
  return { header: `OAuth ${parts.join(', ')}`, signature: params.oauth_signature };
}

function signature(keys: OAuth1Keys, base: string): string {
  const key = `${encode(keys.consumerSecret)}&${encode(keys.tokenSecret ?? '')}`;
  switch (keys.method) {
    case 'PLAINTEXT':
      return key; // 3.4.4
    case 'RSA-SHA1':
      return createSign('RSA-SHA1').update(base).sign(keys.consumerSecret, 'base64'); // 3.4.3
    default:
      return createHmac(keys.method === 'HMAC-SHA1' ? 'sha1' : 'sha256', key)
        .update(base)
        .digest('base64'); // 3.4.2
  }
}

/** 3.4.1: METHOD & base URI & normalized parameters (query, form body, oauth_*). */
export function baseString(req: SignableRequest, oauth: Record<string, string>): string {
  const pairs: Array<[string, string]> = [...req.url.searchParams]; // form-decoded: `+` is a space (3.4.1.3.1)
  const type = req.headers['content-type'];
  if (typeof req.body === 'string' && type && /^application\/x-www-form-urlencoded\b/i.test(type)) pairs.push(...new URLSearchParams(req.body));
  for (const [k, v] of Object.entries(oauth)) if (k !== 'oauth_signature') pairs.push([k, v]);
  const normalized = pairs
    .map(([k, v]) => [encode(k), encode(v)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  // URL's origin is already lower case, without a default port (3.4.1.2)
  return [req.method.toUpperCase(), encode(req.url.origin + req.url.pathname), encode(normalized)].join('&');
}

/** 3.6: RFC 3986 unreserved characters stay, everything else is %XX of its UTF-8 bytes. */
function encode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
