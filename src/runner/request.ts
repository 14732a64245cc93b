// One HTTP exchange of an operation: render, authenticate, run the pre_request hook, send.
// A run sends the operation as written; a probe (probe.ts) with its overrides: another
// body or query (data, never rendered), another actor or none, no retry.
import { FlowError } from '../errors.js';
import { holdsReference, type RefSite } from '../graph/index.js';
import { type Actor, isPlainObject, isRawMap, namesIssuedCredential, type Operation, type TemplateValue } from '../project/index.js';
import { type FlowResponse, getHeader, type PreparedRequest } from '../http/index.js';
import { extractAll, render, type RenderContext } from '../runtime/index.js';
import type { RunContext, Trace } from './context.js';
import { preRequestHook } from './hooks.js';
import { prepareRequest } from './prepare.js';
import { send } from './send.js';
import { targetOf } from './ownership.js';
import { readPriorState } from './switches.js';
import type { Instance } from './state.js';
import type { ProbeOverrides } from './types.js';

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

/** Render, authenticate, run the pre_request hook and send: one HTTP exchange. `probe`: sent as a probe, with its overrides. */
export async function requestOnce(
  ctx: RunContext,
  op: Operation,
  rc: RenderContext,
  trace: Trace,
  target?: Instance,
  probe?: ProbeOverrides,
): Promise<FlowResponse> {
  const actorId = probe?.actor === undefined ? op.actor : (probe.actor ?? undefined);
  const actor = actorId ? ctx.project.actors.get(actorId) : undefined;
  if (actorId && !actor) throw new FlowError('E_REF_UNDEFINED', `actor "${actorId}" is not defined`);
  // The session first: inject.headers read {{actor.token}}. Then the session of every other
  // actor the operation reads ({{admin.token}} in a header): its login extracts that value.
  const session = actor && (await ctx.sessions.ensure(actor, trace));
  for (const other of otherActorsRead(ctx, op)) await ctx.sessions.ensure(other, trace);
  let req: PreparedRequest = probe ? await prepareProbe(ctx, op, rc, actor, probe) : await prepareRequest(ctx, op, rc, actor?.inject.headers);
  // The actor's inject.headers carry its identity too (the strategies name their own headers).
  if (actor) req.credentialHeaders = Object.keys(actor.inject.headers);
  if (actor && session) await ctx.sessions.apply(actor, session, req, trace);
  // an operation's inline auth is its own identity: a probe as another actor (or none) leaves it out
  if (op.auth && probe?.actor === undefined) await ctx.sessions.applyInline(op.auth, req, trace);
  if (op.preRequest) req = await preRequestHook(ctx, op, trace, req, { ...(target ?? ctx.state.newest(op.resource))?.values });
  if (!probe && targetOf(ctx, op).kind === 'switch') await readPriorState(ctx, op.id, req, trace, actor?.id);
  // a probe is sent once: a 5xx or a 429 is its answer, not a hiccup to retry
  const timeoutMs = probe ? (probe.timeoutMs ?? op.timeoutMs) : op.timeoutMs;
  const res = await send(ctx, req, {
    trace,
    purpose: op.id,
    actor: actor?.id,
    timeoutMs,
    retry: probe ? undefined : op.retry,
    inspect: hideExtracted(ctx, op),
  });
  if (typeof req.body === 'string') sentBodies.set(res, req.body);
  return res;
}

/**
 * What an operation extracts under a credential name, or from a field of one (`id: $.data.secret`:
 * an id a server answers as a secret), is hidden from its own answer's record on: it then
 * travels in paths.
 */
function hideExtracted(ctx: RunContext, op: Operation): ((res: FlowResponse) => void) | undefined {
  const specs = op.extract.filter((e) => namesIssuedCredential(e.name) || namesIssuedCredential(/([A-Za-z_$][\w$-]*)\W*$/.exec(e.path)?.[1] ?? ''));
  if (!specs.length) return undefined;
  return (res) => {
    const { values, many } = extractAll(specs, res);
    for (const v of [...Object.values(values), ...Object.values(many).flat()]) if (typeof v === 'string') ctx.redactor.add(v, 'token');
  };
}

/** The body each answer's request carried (as text), for what the clean-up names a thing by (made.ts). */
const sentBodies = new WeakMap<FlowResponse, string>();

/** The JSON object the request of `res` sent, or undefined (none, not JSON, not an object). */
export function sentObject(res: FlowResponse): Record<string, unknown> | undefined {
  const text = sentBodies.get(res);
  if (text === undefined || !text.trimStart().startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The operation's request with a probe's body and query: both are data (text drawn from a
 * description or read from a server), sent as they are, never rendered. `keepWritten` keeps
 * the top-level body fields the operation writes with a `{{…}}` (a parent's id), rendered.
 */
async function prepareProbe(ctx: RunContext, op: Operation, rc: RenderContext, actor: Actor | undefined, probe: ProbeOverrides): Promise<PreparedRequest> {
  if (probe.body === undefined) return prepareRequest(ctx, op, rc, actor?.inject.headers, false, probe.query);
  const req = await prepareRequest(ctx, { ...op, body: undefined, bodyForm: undefined }, rc, actor?.inject.headers, false, probe.query);
  let body = probe.body;
  if (probe.keepWritten && isMap(body) && isMap(op.body)) {
    body = { ...body };
    for (const [k, v] of Object.entries(op.body)) if (holdsReference(v)) (body as Record<string, unknown>)[k] = render(v, rc);
  }
  req.body = JSON.stringify(body);
  if (getHeader(req, 'content-type') === undefined) req.headers['content-type'] = 'application/json';
  return req;
}

function isMap(v: unknown): v is Record<string, TemplateValue> {
  return isRawMap(v);
}
