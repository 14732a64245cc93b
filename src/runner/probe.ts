// A probe (Runner.probe): one operation sent once with overrides, its answer whatever it is.
// No expect_status, no asserts, no retry; what the answer gives is extracted only when the
// caller asks to record it (a create whose instance the next steps read).
import { FlowError, hasCode } from '../errors.js';
import type { Operation } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import { renderContext, type Binding, type RunContext, type Trace } from './context.js';
import { postResponseHook } from './hooks.js';
import { requestOnce } from './request.js';
import { markGone } from './execute.js';
import { afterAccepted } from './accepted.js';
import { checkKeyFree } from './keyed.js';
import type { ProbeOverrides } from './types.js';
import { extract } from './verify.js';
import { recordSource } from './ownership.js';
import { keepMade } from './made.js';

export interface ProbeOutcome {
  response: FlowResponse;
  extracted: Record<string, unknown>;
  /** what the answer gave went into the runner's state */
  recorded: boolean;
}

/** `bound`: the instance its references read, given (the clean-up's, which may be kept aside) rather than by index. */
export async function probeOnce(ctx: RunContext, op: Operation, overrides: ProbeOverrides, trace: Trace, bound?: Binding): Promise<ProbeOutcome> {
  const binding = bound ?? (overrides.instance === undefined ? undefined : bindInstance(ctx, op, overrides.instance));
  const rc = renderContext(ctx, binding);
  await afterAccepted(ctx, op, binding);
  await checkKeyFree(ctx, op, trace);
  const response = await requestOnce(ctx, op, rc, trace, binding?.instance, overrides);
  const actor = overrides.actor === undefined ? op.actor : (overrides.actor ?? undefined);
  const started = ctx.state.started;
  try {
    return await recordProbe(ctx, op, overrides, trace, response, binding, actor);
  } finally {
    // a create the probe does not record is still the run's to clean up
    keepMade(ctx, op, response, actor, started);
  }
}

async function recordProbe(
  ctx: RunContext,
  op: Operation,
  overrides: ProbeOverrides,
  trace: Trace,
  response: FlowResponse,
  binding: Binding | undefined,
  actor: string | undefined,
): Promise<ProbeOutcome> {
  // a DELETE that removed its instance: the clean-up does not send it again
  if (op.method === 'DELETE') markGone(ctx, op, response, binding);
  if (!overrides.record || !accepted(response, op.expectStatus)) return { response, extracted: {}, recorded: false };
  try {
    const { scalars, many } = extract(op.extract, response);
    const target = binding?.instance;
    const extracted = op.postResponse
      ? { ...scalars, ...(await postResponseHook(ctx, op, trace, response, { ...(target ?? ctx.state.into(op.resource, op.id))?.values, ...scalars })) }
      : scalars;
    ctx.state.record(op.resource, op.id, extracted, many, target, recordSource(ctx, op, actor, response));
    for (const name in many) extracted[name] = many[name];
    return { response, extracted: ctx.redactor.value(extracted), recorded: true };
  } catch (err) {
    // the answer came: what it lacks is said, and nothing is recorded
    const code = hasCode(err) ? err.code : 'E_INTERNAL';
    const message = ctx.redactor.text(err instanceof Error ? err.message : String(err));
    (trace.warnings ??= []).push({ code, message: `not recorded: ${message}` });
    return { response, extracted: {}, recorded: false };
  }
}

/** The instance (from 1) of the operation's own resource its references read. */
function bindInstance(ctx: RunContext, op: Operation, index: number): Binding {
  const instance = Number.isInteger(index) && index >= 1 ? ctx.state.newest(op.resource, index) : undefined;
  if (!instance) {
    const held = ctx.state.instances(op.resource)?.length ?? 0;
    throw new FlowError('E_VAR_UNRESOLVED', `${op.resource}[${index}] is not in this runner's state (it holds ${held} ${op.resource} instance(s))`, {
      details: { variable: `${op.resource}[${index}]` },
    });
  }
  return { resource: op.resource, instance };
}

/** What a run would accept: expect_status, else a 2xx. */
function accepted(res: FlowResponse, expected: number[] | undefined): boolean {
  return expected ? expected.includes(res.status) : res.status >= 200 && res.status < 300;
}
