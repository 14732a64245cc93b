// A 401/403 that no actor of the project got past: the login the answer asks for. A
// `WWW-Authenticate: Basic` or `Bearer` challenge proposes an actor file (username from a
// --var, the password or token a secret) and the import pattern that loads it; calibrate
// proves it on a later run, once the user has given the variable and the secret.
import picomatch from 'picomatch';
import path from 'node:path';
import type { Project } from '../project/index.js';
import { header } from '../http/index.js';
import type { Edit } from './types.js';

const LOGIN_ACTOR = 'user';

/** The scheme of a `WWW-Authenticate` challenge we can model without a login request. */
function challengeScheme(headers: Record<string, string | string[]>): 'basic' | 'bearer' | undefined {
  const value = header(headers, 'www-authenticate') ?? '';
  const scheme = /^\s*([A-Za-z]+)/.exec(value)?.[1]?.toLowerCase();
  return scheme === 'basic' || scheme === 'bearer' ? scheme : undefined;
}

/** Whether the root's `imports` load `file` (relative to the project). */
function isImported(project: Project, file: string): boolean {
  return project.imports.some((p) => picomatch(p, { dot: false })(file));
}

export function loginQuestion(project: Project, status: number, headers: Record<string, string | string[]>): { question: string; edit?: Edit; why: string } {
  const scheme = challengeScheme(headers);
  const none = project.actors.size ? 'no actor of the project was accepted' : 'the project has no actor';
  if (!scheme) return { question: `answered ${status} without an actor, and ${none}: the API needs a login the answer does not name`, why: '' };
  const has = [...project.actors.values()].some((a) => a.auth?.strategy === scheme);
  if (has) return { question: `answered ${status} (WWW-Authenticate: ${scheme}) and ${none}: the ${scheme} actor's credentials need a look`, why: '' };
  let actor = LOGIN_ACTOR;
  for (let i = 2; project.actors.has(actor); i++) actor = `${LOGIN_ACTOR}${i}`;
  const file = `actors/${actor}.yaml`;
  const edit: Edit = {
    kind: 'login',
    actor,
    scheme,
    variable: scheme === 'basic' ? `${actor}_username` : undefined,
    secret: `${actor.toUpperCase()}_${scheme === 'basic' ? 'PASSWORD' : 'TOKEN'}`,
    pattern: isImported(project, file) ? undefined : 'actors/*.yaml',
  };
  const give =
    scheme === 'basic'
      ? `--var ${edit.variable}=… and the secret ${edit.secret} (FLOW_SECRET_${edit.secret} or \`flow secret set ${edit.secret}\`)`
      : `the secret ${edit.secret} (FLOW_SECRET_${edit.secret} or \`flow secret set ${edit.secret}\`)`;
  return {
    edit,
    why: `answered ${status} with WWW-Authenticate: ${scheme === 'basic' ? 'Basic' : 'Bearer'}, and ${none}`,
    question: `answered ${status} asking for ${scheme === 'basic' ? 'HTTP Basic' : 'a Bearer token'} (WWW-Authenticate), and ${none}: the actor \`${actor}\` is proposed (${path.posix.join(file)}); give ${give}, then calibrate again to prove it`,
  };
}

/** Words of a refusal about who asks: a login, a credential, a permission. */
const ABOUT_WHO = /auth|log ?in|sign ?in|token|credential|permission|forbidden|access|role|scope|privilege|allowed|api ?key|session|user|account|admin/i;

/**
 * What a 403 says when it refuses the request itself, not who sends it ("Environment variants
 * deprecated for feature: x. Use strategy variants instead"): its message, when it speaks of no
 * login, credential or permission.
 */
export function requestRefusal(status: number, excerpt: string): string | undefined {
  if (status !== 403) return undefined;
  const message = answerMessage(excerpt);
  return message && !ABOUT_WHO.test(message) ? message : undefined;
}

/** An error answer's message: `message`, else the first of `details[].message`, else `error` (at most 200 characters). */
export function answerMessage(excerpt: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(excerpt);
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  const first = Array.isArray(b.details) ? (b.details[0] as Record<string, unknown> | undefined) : undefined;
  const message = [b.message, first?.message, b.error].find((m): m is string => typeof m === 'string' && m.trim() !== '');
  return message?.slice(0, 200);
}
