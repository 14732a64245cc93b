// A 202 Accepted to a removal says the server took the request and has not finished it: it may
// still be working on the instance in the background. The next removal of that instance (an
// archive's delete after the archiving) waits until ACCEPTED_PAUSE_MS after that answer, so the
// run does not pull the instance from under the server's own work: Unleash 7.5.1 records an
// archived flag's lifecycle up to a second later, and its process exits when the flag was
// deleted meanwhile. Nothing else waits.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Operation } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import type { Binding, RunContext } from './context.js';
import { targetInstance } from './ownership.js';
import { removedBy } from './removals.js';

export const ACCEPTED_PAUSE_MS = 2000;

/** Notes on the removed instance when its removal answered 202 (markGone calls it). */
export function noteAccepted(instance: { acceptedAt?: number }, res: FlowResponse): void {
  if (res.status === 202) instance.acceptedAt = Date.now();
}

/** Before a removal is sent: the rest of the pause after its instance's last 202, if any. */
export async function afterAccepted(ctx: RunContext, op: Operation, binding?: Binding): Promise<void> {
  if (op.method !== 'DELETE' || removedBy(ctx, op) === undefined) return;
  const at = targetInstance(ctx, op, binding)?.instance.acceptedAt;
  const wait = at === undefined ? 0 : at + ACCEPTED_PAUSE_MS - Date.now();
  if (wait > 0) await sleep(Math.min(wait, ACCEPTED_PAUSE_MS));
}
