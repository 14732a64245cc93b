// The Vitest timeout of a flow test. The runner bounds every request itself (timeout, retry,
// poll_until); the test timeout is only a safety net and must never fire first, so it is the
// sum of the worst cases of the operation and of the prerequisites it may have to run.
import type { Operation } from '../project/index.js';

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** one login per actor, at most, on top of the operations */
const LOGIN_ALLOWANCE_MS = DEFAULT_REQUEST_TIMEOUT_MS;
const SLACK_MS = 5_000;
/** `for_each` runs once per instance, a number known only at run time */
const FOR_EACH_ALLOWANCE = 25;
// The runtime's own limits, repeated here so that collecting a suite does not load the runtime
// (test/vitest/units.test.ts checks they are the same).
/** a hook call's time limit (DEFAULT_HOOK_TIMEOUT_MS) */
export const HOOK_ALLOWANCE_MS = 5_000;
/** the longest Retry-After honoured before a retry (MAX_RETRY_WAIT_MS) */
export const RETRY_WAIT_ALLOWANCE_MS = 60_000;

export function operationBudgetMs(op: Operation): number {
  const timeout = op.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const retries = op.retry?.max ?? 0;
  // Before each retry: the doubling backoff, or a Retry-After of up to a minute.
  const waits = op.retry ? op.retry.backoffMs * (2 ** (retries + 1) - 1) + retries * RETRY_WAIT_ALLOWANCE_MS : 0;
  const attempts = 1 + (op.pollUntil?.maxAttempts ?? 0);
  // pre_request runs before each exchange (each poll too); post_response once.
  const hooks = ((op.preRequest ? attempts : 0) + (op.postResponse ? 1 : 0)) * HOOK_ALLOWANCE_MS;
  const once = timeout * (retries + 1) + waits;
  const polls = op.pollUntil ? op.pollUntil.maxAttempts * (timeout + op.pollUntil.intervalMs) : 0;
  return (once + polls + hooks) * (op.forEach ? FOR_EACH_ALLOWANCE : 1);
}

export function testBudgetMs(ops: Operation[], actors: number): number {
  return ops.reduce((sum, op) => sum + operationBudgetMs(op), SLACK_MS + actors * LOGIN_ALLOWANCE_MS);
}
