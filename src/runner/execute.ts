// One operation, once, in a fixed order (as Hurl's runner/entry.rs): render -> auth ->
// pre_request -> send (poll_until repeats it) -> expect_status -> extract -> post_response
// -> assert. for_each wraps it from loops.ts.
import { FlowError } from '../errors.js';
import type { RefSite } from '../graph/index.js';
import { type Actor, type Loc, locate, type Operation, type Project } from '../project/index.js';
import type { FlowResponse, PreparedRequest } from '../http/index.js';
import type { RenderContext } from '../runtime/index.js';
import type { AssertRecord } from './types.js';
import { renderContext, type Binding, type RunContext, type Trace } from './context.js';
import { postResponseHook, preRequestHook } from './hooks.js';
import { pollUntil } from './loops.js';
import { prepareRequest } from './prepare.js';
import { send } from './send.js';
import type { Instance } from './state.js';
import { checkAsserts, checkResponse, checkStatus, extract } from './verify.js';

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
  const exchange = () => requestOnce(ctx, op, rc, trace, target);
  const res = op.pollUntil ? await pollUntil(ctx, op, rc, exchange) : await exchange();
  if (!op.pollUntil) checkStatus(res, op.expectStatus, ctx.redactor, () => expectStatusLoc(ctx.project, op));
  // A response that breaks the contract still goes through extract and assert: when nothing
  // else fails, its values are recorded and its dependents run, so one run shows every drift.
  const contract = ctx.options.responseCheck ? checkResponse(ctx, op, res, trace) : undefined;
  let extracted: Record<string, unknown>;
  try {
    const { scalars, many } = extract(op.extract, res);
    // post_response sees what was just extracted, in the instance it is about to go into
    extracted = op.postResponse
      ? { ...scalars, ...(await postResponseHook(ctx, op, trace, res, { ...(target ?? ctx.state.into(op.resource, op.id))?.values, ...scalars })) }
      : scalars;
    ctx.state.record(op.resource, op.id, extracted, many, target);
    for (const name in many) extracted[name] = many[name];
  } catch (err) {
    // the contract's violation comes first, as it came first in the checks (and often explains the rest)
    throw contract ? contract.error : err;
  }

  const { records, error } = checkAsserts(op, res, rc, ctx.redactor);
  const asserted = { extracted: ctx.redactor.value(extracted), asserts: records };
  if (contract) return { ...asserted, error: contract.error, handsOn: error === undefined };
  return { ...asserted, error };
}

/** The `expect_status` line, which a mismatch is about; without one (any 2xx), the operation's. */
function expectStatusLoc(project: Project, op: Operation): Loc | undefined {
  return op.raw.expect_status === undefined ? undefined : locate(project, op.file, [...op.yamlPath, 'expect_status'], true);
}

const NO_ACTORS: readonly Actor[] = [];

/**
 * The actors other than its own whose session values the operation or its actor's
 * inject.headers read. Not memoised: an operation has a few sites, and most run once.
 */
function otherActorsRead(ctx: RunContext, op: Operation): readonly Actor[] {
  let ids: Set<string> | undefined;
  for (const s of ctx.graph.sitesOf('operation', op.id)) if (readsOtherActor(s, op)) (ids ??= new Set()).add(s.expr.scope);
  if (op.actor) {
    for (const s of ctx.graph.sitesOf('actor', op.actor)) if (s.section === 'inject' && readsOtherActor(s, op)) (ids ??= new Set()).add(s.expr.scope);
  }
  return ids ? [...ids].flatMap((id) => ctx.project.actors.get(id) ?? []) : NO_ACTORS;
}

function readsOtherActor(s: RefSite, op: Operation): s is RefSite & { expr: { kind: 'scoped'; scope: string } } {
  return s.class === 'actor' && s.expr?.kind === 'scoped' && s.expr.scope !== op.actor;
}

/** Render, authenticate, run the pre_request hook and send: one HTTP exchange. */
async function requestOnce(ctx: RunContext, op: Operation, rc: RenderContext, trace: Trace, target?: Instance): Promise<FlowResponse> {
  const actor = op.actor ? ctx.project.actors.get(op.actor) : undefined;
  if (op.actor && !actor) throw new FlowError('E_REF_UNDEFINED', `actor "${op.actor}" is not defined`);
  // The session first: inject.headers read {{actor.token}}. Then the session of every other
  // actor the operation reads ({{admin.token}} in a header): its login extracts that value.
  const session = actor && (await ctx.sessions.ensure(actor, trace));
  for (const other of otherActorsRead(ctx, op)) await ctx.sessions.ensure(other, trace);
  let req: PreparedRequest = await prepareRequest(ctx, op, rc, actor?.inject.headers);
  // The actor's inject.headers carry its identity too (the strategies name their own headers).
  if (actor) req.credentialHeaders = Object.keys(actor.inject.headers);
  if (actor && session) await ctx.sessions.apply(actor, session, req, trace);
  if (op.auth) await ctx.sessions.applyInline(op.auth, req, trace);
  if (op.preRequest) req = await preRequestHook(ctx, op, trace, req, { ...(target ?? ctx.state.newest(op.resource))?.values });
  return send(ctx, req, { trace, purpose: op.id, actor: actor?.id, timeoutMs: op.timeoutMs, retry: op.retry });
}
