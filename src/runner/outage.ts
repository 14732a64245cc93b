// When most answers turn to 503 mid-run, something the run did likely switched the server off
// (a maintenance mode, a rate limit): the run stops sending operations and names the last write
// before the change, instead of reporting every later operation as the server's failure. The
// clean-up still runs: writing that switch back is what may bring the server back.
import { FlowError } from '../errors.js';
import type { RunContext } from './context.js';

/** How many answers are looked at, and how many 503s among them mean the server turned. */
const WINDOW = 10;
const TURNED = 8;

export interface Outage {
  /** the latest answers, oldest first */
  recent: Array<{ status: number; write?: string }>;
  /** an answer other than 503 came before (a server that was never up did not turn) */
  wasUp: boolean;
  /** the last write answered before the 503s began */
  lastWrite?: string;
  halted?: string;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Note one answer (from send.ts); a fork shares its root's (the server is one). */
export function noteAnswer(ctx: RunContext, method: string, status: number, what: string): void {
  const o = ctx.outage;
  if (o.halted) return;
  o.recent.push({ status, ...(WRITES.has(method) ? { write: what } : {}) });
  if (o.recent.length > WINDOW) {
    const dropped = o.recent.shift()!;
    if (dropped.status !== 503) o.wasUp = true;
  }
  const unavailable = o.recent.filter((a) => a.status === 503).length;
  if (o.wasUp && unavailable >= TURNED) {
    const first = o.recent.findIndex((a) => a.status === 503);
    const before =
      o.recent
        .slice(0, first)
        .reverse()
        .find((a) => a.write)?.write ?? o.lastWrite;
    o.halted = before ? `most answers turned to 503 after ${before}` : 'most answers turned to 503';
  } else if (status !== 503 && WRITES.has(method)) {
    o.lastWrite = what;
  }
}

/** Throws E_SERVER_UNAVAILABLE once the server turned: nothing more is sent but the clean-up. */
export function checkOutage(ctx: RunContext): void {
  const halted = ctx.outage.halted;
  if (!halted) return;
  throw new FlowError('E_SERVER_UNAVAILABLE', `${halted}: the run stopped sending; check what that write switched (a maintenance mode?) before running again`, {
    details: { reason: halted },
  });
}

export function newOutage(): Outage {
  return { recent: [], wasUp: false };
}
