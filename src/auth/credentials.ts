// Rendering a credential written in an auth map, and putting one on a request.
import { scalarText, type TemplateValue } from '../project/index.js';
import { authConfigError } from './errors.js';
import { setCredentialHeader } from '../http/index.js';
import type { AuthContext, AuthStrategy } from './types.js';

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
  const rendered = ctx.render(written);
  if (rendered !== null && typeof rendered === 'object') throw authConfigError(ctx, strategy, `has a \`${key}\` that is not text`);
  const text = scalarText(rendered);
  if (secret && text) ctx.redact(text);
  if (!text && !allowEmpty) throw authConfigError(ctx, strategy, `has an empty \`${key}\``);
  return text;
}

/** An optional plain setting (api_key `location`, `name`), rendered; undefined when absent. */
export async function renderSetting(ctx: AuthContext, options: Record<string, TemplateValue>, key: string): Promise<string | undefined> {
  const written = options[key];
  if (written === undefined || written === null) return undefined;
  const rendered = ctx.render(written);
  return scalarText(rendered).trim() || undefined;
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
