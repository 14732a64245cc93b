// An operation an earlier try passed (its edit proposed) that is refused in the round, where the
// instance it acts on is one other operations acted on before it: a server that limits an
// action per instance (one password-reset e-mail a minute per user: 429), or a state an earlier
// operation left (the issue is a sub-task now). Each run reuses a prerequisite once; with
// `force: true` on the create, every operation that needs it gets an instance of its own. Proposed
// only once a try shows the operation passing after those others on one runner, with the create
// forced; a failure alone is the operation's own (the search's).
import { scheduleOrder, writeTarget, type ProjectGraph } from '../graph/index.js';
import type { Project } from '../project/index.js';
import type { OperationResult } from '../runner/index.js';
import { observedOf } from './diagnose.js';
import { targetOf, withEdits } from './model.js';
import { accepted, statusOf } from './repair.js';
import type { Edit, Proposal } from './types.js';

/** Operations looked at in one round, and those run before one in its try: each try is requests on the server. */
const MAX_OPERATIONS = 3;
const MAX_BEFORE = 6;

export interface OwnInstanceContext {
  project: Project;
  graph: ProjectGraph;
  edited: ReadonlySet<string>;
  pending: Edit[];
  /** one try on a fork of its own: `operation` alone, its prerequisites first */
  tryRun(project: Project, operation: string, purpose: string): Promise<OperationResult>;
  /** one try on a fork of its own: each of `before` in turn, then `operation` */
  tryAfter(project: Project, before: readonly string[], operation: string, purpose: string): Promise<OperationResult>;
  /** operations tried alone so far in the calibration: each once */
  triedAlone: Set<string>;
  /** operations an earlier round's try proved an edit for: refused now, only they are looked at */
  proven: ReadonlySet<string>;
}

/** For each operation refused this round that the search left alone (`handled`): `force: true` on the creates it shares, once proven. */
export async function ownInstances(results: readonly OperationResult[], handled: ReadonlySet<string>, ctx: OwnInstanceContext): Promise<Proposal[]> {
  const proposals: Proposal[] = [];
  const ran = results.map((r) => r.operation);
  const needs = new Map<string, Set<string>>();
  const refused = results.filter((r) => {
    const status = statusOf(r);
    return r.status === 'failed' && status !== undefined && status >= 400 && status !== 401 && status !== 403 && !handled.has(r.operation);
  });
  // only those an earlier try passed: refused in company, most likely (a try alone of every
  // refusal would cost each round requests for what is mostly the operation's own failure)
  const order = refused.filter((r) => ctx.proven.has(r.operation));
  let looked = 0;
  for (const r of order) {
    if (looked >= MAX_OPERATIONS) break;
    if (ctx.triedAlone.has(r.operation)) continue;
    const status = statusOf(r)!;
    const shared = sharedCreates(ctx, ran, r.operation, needs);
    if (!shared.creates.length) continue;
    looked++;
    ctx.triedAlone.add(r.operation);
    // refused on an instance of its own too: the operation's own failure, not the company it keeps
    const alone = await ctx.tryRun(withEdits(ctx.project, ctx.pending), r.operation, `try ${r.operation} alone`);
    if (!accepted(alone)) continue;
    const edits: Edit[] = shared.creates.map((c) => ({ kind: 'force', operation: c }));
    if (edits.some((e) => ctx.edited.has(targetOf(e)))) continue;
    const before = shared.before.slice(0, MAX_BEFORE);
    const what = `after ${before.join(', ')} with ${shared.creates.join(', ')} forced`;
    const tried = await ctx.tryAfter(withEdits(ctx.project, [...ctx.pending, ...edits]), before, r.operation, `try ${r.operation} ${what}`);
    if (!accepted(tried)) continue;
    const why =
      `answered ${status} in the round, after ${before.join(', ')} used the same ${shared.creates.map((c) => ctx.project.operations.get(c)!.resource).join(', ')}; ` +
      `${statusOf(alone) ?? 'passed'} on an instance of its own, and ${statusOf(tried) ?? 'passed'} after them once each makes its own`;
    for (const edit of edits) proposals.push({ edit, operation: r.operation, observed: observedOf(ctx.project, tried), why });
  }
  return proposals;
}

/**
 * The creates among the operation's prerequisites (not forced yet) that operations run before
 * it this round needed too, and those operations, in the round's order.
 */
function sharedCreates(
  ctx: OwnInstanceContext,
  ran: readonly string[],
  operation: string,
  memo: Map<string, Set<string>>,
): { creates: string[]; before: string[] } {
  const { project, graph } = ctx;
  const prerequisites = (id: string) => {
    if (!memo.has(id)) memo.set(id, new Set(scheduleOrder(graph, [id]).filter((p) => p !== id)));
    return memo.get(id)!;
  };
  const own = [...prerequisites(operation)].filter((p) => {
    const op = project.operations.get(p);
    return op && !op.force && writeTarget(graph, op).kind === 'create';
  });
  const creates = new Set<string>();
  const before: string[] = [];
  for (const id of ran.slice(0, ran.indexOf(operation))) {
    if (own.includes(id)) continue;
    const needs = prerequisites(id);
    const common = own.filter((c) => needs.has(c));
    if (!common.length) continue;
    for (const c of common) creates.add(c);
    before.push(id);
  }
  return { creates: [...creates], before };
}
