// An operation that fails as its actor may need another one: a user's session where the
// project's actor is an API token ("User id is missing", a 500 on a token without a user), an
// admin where the actor is a plain user. Each other actor of the project is tried once per
// operation for the whole calibration, on a fork (its login shared: each actor logs in once);
// the first the operation passes as, with its expected status and its checks, is proposed as its
// `actor`. What the try made is cleaned up as in any try (removals retried as its maker).
import type { OperationResult } from '../runner/index.js';
import { targetOf, withEdits } from './model.js';
import { statusOf, type SearchContext } from './repair.js';
import type { Edit } from './types.js';

/** Other actors tried for one operation. */
const MAX_OTHERS = 8;

/** The answers another actor may change: a refusal, a 400 about who asks, the server failing on a credential it did not expect. */
export const mayNeedOtherActor = (status: number): boolean => status === 400 || status === 401 || status === 403 || status >= 500;

/** A logout ends the session the other actors' tries share: never tried as another actor. */
const LOGOUT = /\/(log_?out|sign_?out)\/?$/i;

export interface OtherActorContext extends SearchContext {
  /** `operation as actor` pairs tried so far in the calibration: each is tried once */
  triedAs?: Set<string>;
}

export interface OtherActor {
  edit: Extract<Edit, { kind: 'actor' }>;
  why: string;
  tried: OperationResult;
}

/** The first other actor `operation` passes as, after `status` as its own; undefined when none does (or it has no actor). */
export async function asOtherActor(ctx: OtherActorContext, operation: string, status: number): Promise<OtherActor | undefined> {
  const op = ctx.project.operations.get(operation)!;
  if (!op.actor || !mayNeedOtherActor(status) || LOGOUT.test(op.path.replace(/-/g, '_'))) return undefined;
  const others = [...ctx.project.actors.keys()].filter((id) => id !== op.actor).slice(0, MAX_OTHERS);
  for (const actor of others) {
    const edit: OtherActor['edit'] = { kind: 'actor', operation, to: actor };
    const key = `${operation} as ${actor}`;
    if (ctx.edited.has(targetOf(edit)) || ctx.triedAs?.has(key)) continue;
    ctx.triedAs?.add(key);
    const tried = await ctx.tryRun(withEdits(ctx.project, [...ctx.pending, edit]), operation, `try ${operation} as ${actor}`);
    if (tried.status === 'passed') return { edit, why: `answered ${status} as ${op.actor}, and ${statusOf(tried) ?? 'passed'} as ${actor}`, tried };
  }
  return undefined;
}
