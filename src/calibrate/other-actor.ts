// An operation that fails as its actor may need another one: a user's session where the
// project's actor is an API token ("User id is missing", a 500 on a token without a user), an
// admin where the actor is a plain user. Each other actor of the project is tried once per
// operation for the whole calibration, on a fork (its login shared: each actor logs in once);
// the first the operation passes as, with its expected status and its checks, and does not pass
// as its own actor in the same try, is proposed as its `actor`. What the try made is cleaned up
// as in any try (removals retried as its maker).
import { targetOf, withEdits } from './model.js';
import { searchAccepted, statusOf, type SearchContext } from './repair.js';
import type { Edit } from './types.js';

/** Other actors tried for one operation. */
const MAX_OTHERS = 8;

/** The answers another actor may change: a refusal, a 400 about who asks, the server failing on a credential it did not expect. */
const mayNeedOtherActor = (status: number): boolean => status === 400 || status === 401 || status === 403 || status >= 500;

/** A logout ends the session the other actors' tries share: never tried as another actor. */
const LOGOUT = /\/(log_?out|sign_?out)\/?$/i;

export interface OtherActorContext extends SearchContext {
  /** `operation as actor` pairs tried so far in the calibration: each is tried once */
  triedAs?: Set<string>;
}

export interface OtherActor {
  /** `start`, what the search added as that actor, and the actor */
  edits: Edit[];
  why: string;
}

/**
 * The first other actor `operation` passes as, after `status` as its own (with `start`, the
 * edits a search found it needs, `said` what their answers said); undefined when none does, or
 * when it passes as its own actor too in the same try (the round's failure was the order or
 * the moment, not who asked). A refusal or a 5xx that turns into a 400/422 as the other actor
 * (it got further) goes on with the search as that actor: the fields that answer names.
 */
export async function asOtherActor(
  ctx: OtherActorContext,
  operation: string,
  status: number,
  start: Edit[] = [],
  said: string[] = [],
): Promise<OtherActor | undefined> {
  const op = ctx.project.operations.get(operation)!;
  if (!op.actor || !mayNeedOtherActor(status) || LOGOUT.test(op.path.replace(/-/g, '_'))) return undefined;
  const others = [...ctx.project.actors.keys()].filter((id) => id !== op.actor).slice(0, MAX_OTHERS);
  const before = said.length ? ` (${said.join('; ')})` : '';
  for (const actor of others) {
    const as: Edit = { kind: 'actor', operation, to: actor };
    const key = `${operation} as ${actor}`;
    if (ctx.edited.has(targetOf(as)) || ctx.triedAs?.has(key)) continue;
    ctx.triedAs?.add(key);
    let edits = [...start, as];
    let tried = await ctx.tryRun(withEdits(ctx.project, [...ctx.pending, ...edits]), operation, `try ${operation} as ${actor}`);
    const got = statusOf(tried);
    let why = `answered ${status} as ${op.actor}${before}, and ${got ?? tried.status} as ${actor}`;
    // it got further as that actor (its input, no longer who asks, is refused): the search goes on as that actor
    if (tried.status !== 'passed' && status !== 400 && (got === 400 || got === 422)) {
      const found = await searchAccepted(ctx, operation, edits, [why], tried);
      if (found.last?.status !== 'passed') continue;
      edits = found.steps;
      tried = found.last;
      why = `${found.said.join('; ')}; then ${statusOf(tried) ?? 'passed'}`;
    }
    if (tried.status !== 'passed') continue;
    // the same try as its own actor: when it passes too, the actor is not what the round's failure was about
    const own = await ctx.tryRun(
      withEdits(ctx.project, [...ctx.pending, ...edits.filter((e) => e !== as)]),
      operation,
      `try ${operation} as ${op.actor} again`,
    );
    if (own.status === 'passed') return undefined;
    return { edits, why: `${why}; as ${op.actor} in the same try, ${statusOf(own) ?? own.status}` };
  }
  return undefined;
}
