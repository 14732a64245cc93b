// The Vitest timeout of a flow test. The runner bounds every request itself (timeout, retry,
// poll_until); the test timeout is only a safety net and must never fire first, so it is the
// sum of the worst cases of the operation and of the prerequisites it may have to run.
import type { Operation } from '../project/types.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** one login per actor, at most, on top of the operations */
const LOGIN_ALLOWANCE_MS = DEFAULT_REQUEST_TIMEOUT_MS;
const SLACK_MS = 5_000;
/** `for_each` runs once per instance, a number known only at run time */
const FOR_EACH_ALLOWANCE = 25;

export function operationBudgetMs(op: Operation): number {
  const timeout = op.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const retries = op.retry?.max ?? 0;
  const backoff = op.retry ? op.retry.backoffMs * (2 ** (retries + 1) - 1) : 0;
  const once = timeout * (retries + 1) + backoff;
  const polls = op.pollUntil ? op.pollUntil.maxAttempts * (timeout + op.pollUntil.intervalMs) : 0;
  return (once + polls) * (op.forEach ? FOR_EACH_ALLOWANCE : 1);
}

export function testBudgetMs(ops: Operation[], actors: number): number {
  return ops.reduce((sum, op) => sum + operationBudgetMs(op), SLACK_MS + actors * LOGIN_ALLOWANCE_MS);
}
