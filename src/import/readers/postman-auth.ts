// Postman authentication: `auth` objects (collection, folder, request; inherited downwards) and
// Authorization headers become security schemes. A token stored by a request's test script
// makes that request the actor's login; a token request with `grant_type` makes it OAuth2.
// Literal credential values are recorded only so that the leak check can look for them.
import { isCredentialName } from '../infer/names.js';
import { obj, quote, type Evidence, type Obj, type SecurityScheme } from '../observed.js';
import { scalarText } from '../../project/index.js';

/** `[{key, value}]` (v2.1) or `{key: value}` (v2.0) -> map. */
export function kv(list: unknown): Record<string, string> {
  if (Array.isArray(list)) {
    const out: Record<string, string> = {};
    for (const e of list) if (typeof obj(e).key === 'string') out[String(obj(e).key)] = scalarText(obj(e).value);
    return out;
  }
  return Object.fromEntries(Object.entries(obj(list)).map(([k, v]) => [k, String(v)]));
}

export const VAR_ONLY = /^\{\{\s*([^{}]+?)\s*\}\}$/;
const PREFIXED = /^(\S+\s+)?\{\{\s*([^{}]+?)\s*\}\}$/;

/** A request that stores a variable from its response: the login of whatever uses it. */
export interface TokenSetter {
  opKey: string;
  field: Array<string | number>;
  /** grant_type sent by the setter (urlencoded/formdata body or header), when any */
  grantType?: string;
  url: string;
  /** auth key -> collection variable, for the OAuth2 form fields the setter sends */
  credentialVars: Record<string, string>;
  scope?: string;
  evidence: Evidence;
}

export interface AuthContext {
  setters: Map<string, TokenSetter>;
  schemes: Map<string, SecurityScheme>;
  credentials: Set<string>;
}

const GRANTS: Record<string, SecurityScheme['kind']> = {
  password: 'oauth2_password',
  client_credentials: 'oauth2_client_credentials',
};

const OAUTH1_KEYS = { consumer_key: 'consumerKey', consumer_secret: 'consumerSecret', token: 'token', token_secret: 'tokenSecret', realm: 'realm' };
const AWS_KEYS = { access_key: 'accessKey', secret_key: 'secretKey', region: 'region', service: 'service' };
const OAUTH2_KEYS = { client_id: 'clientId', client_secret: 'clientSecret', username: 'username', password: 'password' };
const OAUTH2_GRANTS: Record<string, SecurityScheme['kind']> = { client_credentials: 'oauth2_client_credentials', password_credentials: 'oauth2_password' };

/** Strategy key -> the collection variable a Postman auth parameter holds (`{{consumer_key}}`). */
function varsOf(params: Record<string, string>, keys: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, param] of Object.entries(keys)) {
    const m = VAR_ONLY.exec((params[param] ?? '').trim());
    if (m) out[key] = m[1];
  }
  return out;
}

/** Settings stated as literal text (a region, a realm); credentials never go here. */
function settingsOf(params: Record<string, string>, keys: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, param] of Object.entries(keys)) if (params[param] && !params[param].includes('{{')) out[key] = params[param];
  return out;
}

/** A scheme for a credential held in `{{variable}}`, sent as `<header>: <prefix>{{variable}}`. */
function variableScheme(variable: string, header: string, prefix: string, ctx: AuthContext, evidence: Evidence): string {
  const id = variable;
  if (ctx.schemes.has(id)) return id;
  const setter = ctx.setters.get(variable);
  let scheme: SecurityScheme;
  if (setter && setter.grantType && GRANTS[setter.grantType]) {
    scheme = {
      id,
      kind: GRANTS[setter.grantType],
      tokenUrl: setter.url,
      loginOperation: setter.opKey,
      tokenField: setter.field,
      tokenVariable: variable,
      credentialVars: setter.credentialVars,
      scope: setter.scope,
      evidence: setter.evidence,
    };
  } else if (setter && setter.grantType) {
    scheme = {
      id,
      kind: 'unsupported',
      detail: `OAuth2 grant_type=${setter.grantType} (the request "${setter.opKey}" obtains {{${variable}}})`,
      evidence: setter.evidence,
    };
  } else if (setter) {
    scheme = {
      id,
      kind: 'login',
      loginOperation: setter.opKey,
      tokenField: setter.field,
      tokenVariable: variable,
      paramName: header,
      prefix,
      location: 'header',
      evidence: setter.evidence,
    };
  } else if (/^bearer\s+$/i.test(prefix) && header.toLowerCase() === 'authorization') {
    scheme = { id, kind: 'bearer', paramName: header, prefix, location: 'header', tokenVariable: variable, evidence };
  } else {
    scheme = { id, kind: 'api_key', paramName: header, prefix: prefix || undefined, location: 'header', tokenVariable: variable, evidence };
  }
  ctx.schemes.set(id, scheme);
  return id;
}

function literalScheme(id: string, scheme: Omit<SecurityScheme, 'id'>, ctx: AuthContext): string {
  if (!ctx.schemes.has(id)) ctx.schemes.set(id, { id, ...scheme });
  return id;
}

function noteLiteral(value: string, ctx: AuthContext): void {
  if (!value || VAR_ONLY.test(value.trim())) return;
  ctx.credentials.add(value);
  const token = /^\S+\s+(\S{4,})$/.exec(value.trim());
  if (token && !token[1].includes('{{')) ctx.credentials.add(token[1]);
}

/**
 * The scheme ids a request's effective `auth` object stands for: [] for `noauth`, undefined
 * when there is none. Unknown types become `unsupported` schemes (an open question).
 */
export function schemesOfAuth(auth: Obj | undefined, ctx: AuthContext, evidence: Evidence): string[] | undefined {
  if (!auth || typeof auth.type !== 'string') return undefined;
  const type = auth.type;
  const params = kv(auth[type]);
  switch (type) {
    case 'noauth':
      return [];
    case 'bearer': {
      const token = params.token ?? '';
      const v = VAR_ONLY.exec(token.trim());
      if (v) return [variableScheme(v[1], 'Authorization', 'Bearer ', ctx, evidence)];
      noteLiteral(token, ctx);
      return [literalScheme('bearer', { kind: 'bearer', paramName: 'Authorization', prefix: 'Bearer ', location: 'header', evidence }, ctx)];
    }
    case 'basic':
      noteLiteral(params.password ?? '', ctx);
      return [literalScheme('basic', { kind: 'basic', credentialVars: varsOf(params, { username: 'username', password: 'password' }), evidence }, ctx)];
    case 'oauth1':
      for (const k of ['consumerSecret', 'tokenSecret', 'consumerKey', 'token']) noteLiteral(params[k] ?? '', ctx);
      return [
        literalScheme(
          'oauth1',
          { kind: 'oauth1', credentialVars: varsOf(params, OAUTH1_KEYS), settings: settingsOf(params, { realm: 'realm' }), evidence },
          ctx,
        ),
      ];
    case 'awsv4':
      for (const k of ['accessKey', 'secretKey', 'sessionToken']) noteLiteral(params[k] ?? '', ctx);
      return [
        literalScheme(
          'aws_sigv4',
          { kind: 'aws_sigv4', credentialVars: varsOf(params, AWS_KEYS), settings: settingsOf(params, { region: 'region', service: 'service' }), evidence },
          ctx,
        ),
      ];
    case 'apikey': {
      noteLiteral(params.value ?? '', ctx);
      const location = params.in === 'query' ? 'query' : 'header';
      const name = params.key || 'X-API-Key';
      return [literalScheme(`api_key_${name}`, { kind: 'api_key', location, paramName: name, evidence }, ctx)];
    }
    case 'oauth2': {
      noteLiteral(params.accessToken ?? '', ctx);
      noteLiteral(params.clientSecret ?? '', ctx);
      noteLiteral(params.password ?? '', ctx);
      // A grant the runner can perform itself, with the token URL the collection states.
      const kind = OAUTH2_GRANTS[params.grant_type ?? ''];
      if (kind && params.accessTokenUrl) {
        const id = `oauth2_${params.grant_type}`;
        return [
          literalScheme(
            id,
            { kind, tokenUrl: params.accessTokenUrl, credentialVars: varsOf(params, OAUTH2_KEYS), scope: params.scope || undefined, evidence },
            ctx,
          ),
        ];
      }
    }
    // falls through: a token obtained in the Postman UI (authorization code, implicit)
    default:
      return [
        literalScheme(
          `postman_${type}`,
          {
            kind: 'unsupported',
            detail: `Postman "${type}" authorization${type === 'oauth2' ? ' (a token obtained in the Postman UI, e.g. authorization code)' : ''}`,
            evidence,
          },
          ctx,
        ),
      ];
  }
}

/** Credential headers written by hand (`Authorization: Token {{token}}`, `X-Api-Key: …`). */
export function schemesOfHeaders(headers: Record<string, string>, ctx: AuthContext, evidence: (h: string) => Evidence): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!/^authorization$/i.test(name) && !isCredentialName(name)) continue;
    const m = PREFIXED.exec(value.trim());
    if (m) {
      out.push(variableScheme(m[2], name, m[1] ?? '', ctx, evidence(name)));
      continue;
    }
    noteLiteral(value, ctx);
    const word = /^(\S+)\s+\S+$/.exec(value.trim());
    if (/^authorization$/i.test(name) && word && /^bearer$/i.test(word[1]))
      out.push(literalScheme('bearer', { kind: 'bearer', paramName: name, prefix: 'Bearer ', location: 'header', evidence: evidence(name) }, ctx));
    else if (/^authorization$/i.test(name) && word && /^basic$/i.test(word[1]))
      out.push(literalScheme('basic', { kind: 'basic', evidence: evidence(name) }, ctx));
    else
      out.push(
        literalScheme(
          `api_key_${name}`,
          { kind: 'api_key', paramName: name, prefix: word ? `${word[1]} ` : undefined, location: 'header', evidence: evidence(name) },
          ctx,
        ),
      );
  }
  return out;
}

export function evidenceOf(file: string, item: string, text: string): Evidence {
  return { file, at: `item "${item}"`, quote: quote(text) };
}
