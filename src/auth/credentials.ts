// Rendering a credential written in an auth map, and putting one on a request.
import type { TemplateValue } from '../project/types.js';
import { authConfigError } from './errors.js';
import type { AuthContext, AuthStrategy, OutgoingRequest } from './types.js';

export interface CredentialOptions {
  /** false for identities such as a username: not secret, and a short one would shred output */
  secret?: boolean;
  /** '' allowed (a Basic password may be empty); default false */
  allowEmpty?: boolean;
}

/**
 * The rendered text of `options[key]`. A missing key or an empty value is E_AUTH; a secret
 * goes through `ctx.redact` before anything else can see it.
 */
export async function renderCredential(
  ctx: AuthContext,
  strategy: string,
  options: Record<string, TemplateValue>,
  key: string,
  { secret = true, allowEmpty = false }: CredentialOptions = {},
): Promise<string> {
  const written = options[key];
  if (written === undefined || written === null) throw authConfigError(ctx, strategy, `has no \`${key}\``);
  const rendered = await ctx.render(written);
  if (rendered !== null && typeof rendered === 'object') throw authConfigError(ctx, strategy, `has a \`${key}\` that is not text`);
  const text = rendered === undefined || rendered === null ? '' : String(rendered);
  if (secret && text) ctx.redact(text);
  if (!text && !allowEmpty) throw authConfigError(ctx, strategy, `has an empty \`${key}\``);
  return text;
}

/** An optional plain setting (api_key `location`, `name`), rendered; undefined when absent. */
export async function renderSetting(ctx: AuthContext, options: Record<string, TemplateValue>, key: string): Promise<string | undefined> {
  const written = options[key];
  if (written === undefined || written === null) return undefined;
  const rendered = await ctx.render(written);
  return rendered === undefined || rendered === null ? undefined : String(rendered).trim() || undefined;
}

/**
 * Set a header, replacing any earlier one whatever its case: the credentials of the auth
 * strategy win over a header of the same name written on the operation or in inject.headers.
 */
export function setHeader(req: OutgoingRequest, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const k of Object.keys(req.headers)) if (k.toLowerCase() === lower) delete req.headers[k];
  req.headers[name] = value;
}

/** A header that carries the actor's credential: set as setHeader does, and named as one, so a redirect to another origin drops it. */
export function setCredentialHeader(req: OutgoingRequest, name: string, value: string): void {
  setHeader(req, name, value);
  (req.credentialHeaders ??= []).push(name);
}

/** The value of a header whatever its case, or undefined. */
export function getHeader(req: OutgoingRequest, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(req.headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** A string kept by `login` in `session.credentials`. */
export function credential(credentials: Readonly<Record<string, unknown>> | undefined, key: string): string {
  const v = credentials?.[key];
  // apply without a login of this strategy is a bug of the caller, not of the project
  if (typeof v !== 'string') throw new Error(`auth: no "${key}" credential in the session; call login() first`);
  return v;
}

/** `apply` of every strategy whose login ends in an `authorization` credential (bearer, basic, jwt, oauth2). */
export const applyAuthorization: AuthStrategy['apply'] = (req, _config, session) => {
  setCredentialHeader(req, 'Authorization', credential(session.credentials, 'authorization'));
};
