// E_AUTH: every failure of a strategy, naming the actor (never a credential). A failure of
// something the strategy called (a login's E_STATUS_MISMATCH, a missing secret) keeps its
// code in the message and in `details.cause`, as the runner's own session errors do.
import { FlowError, hasCode } from '../errors.js';
import type { AuthContext } from './types.js';

/** `actor admin`, or `inline auth` for an operation's own `auth` map. */
export function subject(ctx: AuthContext): string {
  return ctx.actor ? `actor ${ctx.actor.id}` : 'inline auth';
}

/** A mistake in the auth map itself (a missing key, a bad `location`). */
export function authConfigError(ctx: AuthContext, strategy: string, message: string): FlowError {
  return new FlowError('E_AUTH', `${strategy} auth of ${subject(ctx)} ${message}`, {
    details: { actor: ctx.actor?.id, strategy },
  });
}

/**
 * Run one part of a login (or refresh); an error becomes `E_AUTH` "login of actor X failed[ at step s]:
 * <CODE> <message>". An E_AUTH passes through unchanged. The message is the cause's first
 * line only: causes are already redacted by their makers, and a stack has no place here.
 */
export async function guardLogin<T>(ctx: AuthContext, run: () => Promise<T>, step?: string, what = 'login'): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw loginFailed(ctx, err, step, what);
  }
}

function loginFailed(ctx: AuthContext, err: unknown, step?: string, what = 'login'): FlowError {
  if (hasCode(err) && err.code === 'E_AUTH') return err as FlowError;
  const code = hasCode(err) ? err.code : 'E_INTERNAL';
  const text = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  const where = step === undefined ? '' : ` at step ${step}`;
  return new FlowError('E_AUTH', `${what} of ${subject(ctx)} failed${where}: ${code} ${text}`, {
    cause: err,
    details: { actor: ctx.actor?.id, cause: code, ...(step === undefined ? {} : { step }) },
  });
}
