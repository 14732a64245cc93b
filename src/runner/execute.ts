// One operation, once, in a fixed order (as Hurl's runner/entry.rs): render -> auth ->
// pre_request -> send (poll_until repeats it) -> expect_status -> extract -> post_response
// -> assert. for_each wraps it from loops.ts.
import { type Loc, locate, type Operation, type Project } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import type { AssertRecord } from './types.js';
import { renderContext, type Binding, type RunContext, type Trace } from './context.js';
import { postResponseHook } from './hooks.js';
import { pollUntil } from './loops.js';
import { requestOnce } from './request.js';
import { checkAsserts, checkResponse, checkStatus, extract } from './verify.js';
import { checkOutage } from './outage.js';
import { checkOwnership, checkSwitch, recordSource, targetInstance } from './ownership.js';
import { keepMade } from './made.js';
import { claimMade } from './claim.js';
import { removedBy } from './removals.js';
import { afterAccepted, noteAccepted } from './accepted.js';
import { checkKeyFree, markKeyedGone } from './keyed.js';

export interface OnceResult {
  extracted: Record<string, unknown>;
  asserts: AssertRecord[];
  /** a failed assert: the operation fails, and what it extracted and asserted is still reported */
  error?: unknown;
  /** `error` is the response check's (a contract) and nothing else failed: the values are recorded for the dependents */
  handsOn?: boolean;
}

export async function executeOnce(ctx: RunContext, op: Operation, trace: Trace, binding?: Binding): Promise<OnceResult> {
  const rc = renderContext(ctx, binding);
  // inside for_each over its own resource, the operation works on the bound instance
  const target = binding?.resource === op.resource ? binding.instance : undefined;
  // what a write acts on is decided before anything is sent (docs/format.md#ownership)
  checkOutage(ctx);
  checkSwitch(ctx, op);
  checkOwnership(ctx, op, binding);
  await afterAccepted(ctx, op, binding);
  await checkKeyFree(ctx, op, trace);
  const exchange = () => requestOnce(ctx, op, rc, trace, target);
  const res = op.pollUntil ? await pollUntil(ctx, op, rc, exchange) : await exchange();
  ctx.answers?.set(op.id, res);
  const started = ctx.state.started;
  let contract: ReturnType<typeof checkResponse>;
  let extracted: Record<string, unknown>;
  // a DELETE that answered 2xx removed its instance, whatever status the operation expects
  if (op.method === 'DELETE') markGone(ctx, op, res, binding);
  try {
    if (!op.pollUntil) checkStatus(res, op.expectStatus, ctx.redactor, () => expectStatusLoc(ctx.project, op));
    // A response that breaks the contract still goes through extract and assert: when nothing
    // else fails, its values are recorded and its dependents run, so one run shows every drift.
    contract = ctx.options.responseCheck ? checkResponse(ctx, op, res, trace) : undefined;
    try {
      const read = extract(op.extract, res);
      const scalars = read.scalars;
      // a create of this run that answered no id: the item of this list that carries what it sent (claim.ts)
      const { many, claim } = claimMade(ctx, op, res, read.many);
      // post_response sees what was just extracted, in the instance it is about to go into
      extracted = op.postResponse
        ? { ...scalars, ...(await postResponseHook(ctx, op, trace, res, { ...(target ?? ctx.state.into(op.resource, op.id))?.values, ...scalars })) }
        : scalars;
      ctx.state.record(op.resource, op.id, extracted, many, target, recordSource(ctx, op, op.actor, res));
      claim?.();
      for (const name in read.many) extracted[name] = read.many[name];
    } catch (err) {
      // the contract's violation comes first, as it came first in the checks (and often explains the rest)
      throw contract ? contract.error : err;
    }
  } finally {
    // what the answer made and the state did not record is still the run's to clean up
    keepMade(ctx, op, res, op.actor, started);
  }

  const { records, error } = checkAsserts(op, res, rc, ctx.redactor);
  const asserted = { extracted: ctx.redactor.value(extracted), asserts: records };
  if (contract) return { ...asserted, error: contract.error, handsOn: error === undefined };
  return { ...asserted, error };
}

/**
 * A removal (removals.ts) that answered 2xx (or found it gone already) is noted on its instance:
 * the clean-up sends only the removals that come after it.
 */
export function markGone(ctx: RunContext, op: Operation, res: FlowResponse, binding?: Binding): void {
  if ((res.status < 200 || res.status >= 300) && res.status !== 404 && res.status !== 410) return;
  const keyed = markKeyedGone(ctx, op, res);
  if (keyed) return noteAccepted(keyed, res);
  if (removedBy(ctx, op) === undefined) return;
  const found = targetInstance(ctx, op, binding);
  if (!found) return;
  (found.instance.removedBy ??= []).push(op.id);
  noteAccepted(found.instance, res);
}

/** The `expect_status` line, which a mismatch is about; without one (any 2xx), the operation's. */
function expectStatusLoc(project: Project, op: Operation): Loc | undefined {
  return op.raw.expect_status === undefined ? undefined : locate(project, op.file, [...op.yamlPath, 'expect_status'], true);
}
