// The loops that wrap one operation: poll_until (repeat the exchange until a condition holds)
// and for_each (run once per instance of a resource). retry lives in the HTTP layer.
import { setTimeout as sleep } from 'node:timers/promises';
import { FlowError, hasCode } from '../errors.js';
import type { Operation } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import type { RenderContext } from '../runtime/index.js';
import type { RunContext, Trace } from './context.js';
import { executeOnce, type OnceResult } from './execute.js';
import type { Instance } from './state.js';
import { checkStatus, evaluateOne } from './verify.js';

/**
 * Repeat `exchange` until every condition passes. Each attempt's status must still be an
 * expected one (a 202 then a 200 is `expect_status: [202, 200]`); a status outside it stops.
 */
export async function pollUntil(ctx: RunContext, op: Operation, rc: RenderContext, exchange: () => Promise<FlowResponse>): Promise<FlowResponse> {
  const poll = op.pollUntil!;
  let last: { expr: string; actual: unknown } | undefined;
  for (let attempt = 1; attempt <= poll.maxAttempts; attempt++) {
    const res = await exchange();
    checkStatus(res, op.expectStatus, ctx.redactor);
    last = undefined;
    for (const expr of poll.condition) {
      const { record, error } = evaluateOne(expr, res, rc, ctx.redactor);
      if (error) throw error;
      if (!record.pass) {
        last = { expr: record.expr, actual: record.actual };
        break;
      }
    }
    if (!last) return res;
    if (attempt < poll.maxAttempts) await sleep(poll.intervalMs);
  }
  throw new FlowError(
    'E_POLL_TIMEOUT',
    `poll_until did not hold after ${poll.maxAttempts} attempts every ${poll.intervalMs} ms` +
      (last ? `: ${last.expr} (actual: ${JSON.stringify(last.actual)})` : ''),
    { details: { attempts: poll.maxAttempts, ...last } },
  );
}

/**
 * for_each: once per instance of the resource that exists when it runs (its lister is in
 * depends_on), one per identity; inside, `{{<resource>.f}}` binds to that instance. All
 * iterations run; the first failure is the operation's error.
 */
export async function forEach(ctx: RunContext, op: Operation, trace: Trace): Promise<OnceResult> {
  const instances = distinct(ctx, op, ctx.state.instances(op.forEach!) ?? []);
  const merged: OnceResult = { extracted: {}, asserts: [] };
  // the values are handed on when every failed iteration failed only its contract
  let handsOn = true;
  for (const [i, instance] of instances.entries()) {
    let failure: unknown;
    try {
      const once = await executeOnce(ctx, op, trace, { resource: op.forEach!, instance });
      Object.assign(merged.extracted, once.extracted);
      merged.asserts.push(...once.asserts);
      failure = once.error;
      if (failure !== undefined && !once.handsOn) handsOn = false;
    } catch (err) {
      failure = err;
      handsOn = false;
    }
    if (failure === undefined) continue;
    if (hasCode(failure) && failure instanceof Error) failure.message = `${op.forEach}[${i + 1}]: ${failure.message}`;
    merged.error ??= failure;
  }
  if (merged.error !== undefined) merged.handsOn = handsOn;
  return merged;
}

/**
 * The instances for_each visits: the first of each identity. An instance's identity is the
 * values of the fields the operation reads from it (`{{comment.id}}` anywhere in the
 * operation), so a create's comment 2 and a list's comment 2 are one, and the request is sent
 * once. An operation that reads no field of the resource visits every instance.
 */
function distinct(ctx: RunContext, op: Operation, instances: readonly Instance[]): Instance[] {
  const fields = new Set<string>();
  for (const site of ctx.graph.sitesOf('operation', op.id)) {
    // an indexed reference (`{{comment[1].id}}`) names one instance, not the one visited
    if (site.expr?.kind === 'scoped' && site.expr.scope === op.forEach && site.expr.index === undefined) fields.add(site.expr.field);
  }
  if (!fields.size) return [...instances];
  const seen = new Set<string>();
  return instances.filter((instance) => {
    const key = JSON.stringify([...fields].map((f) => instance.values[f] ?? null));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
