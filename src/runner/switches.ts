// A switch the user named (a write whose path names no instance: settings, a maintenance mode)
// is sent, but its prior state is read first (a GET of the same URL, with the same credentials)
// and written back when the run cleans up, so that a shared server is left as it was found.
import { isPlainObject, type HttpMethod } from '../project/index.js';
import { type FlowResponse, header, type PreparedRequest } from '../http/index.js';
import type { RunContext, Trace } from './context.js';
import { send } from './send.js';
import type { RestoreEntry } from './types.js';

/** A switch this run flipped, and what it read before. */
interface SwitchRecord {
  operation: string;
  actor?: string;
  method: HttpMethod;
  /** the request as sent, credentials applied: the restore goes the same way */
  request: PreparedRequest;
  /** the body the GET answered, written back as it was; absent when none could be read */
  prior?: { body: string; contentType: string };
  /** why the prior state could not be read */
  unreadable?: string;
}

/** Every switch a runner flipped, in order (kept per runner: a fork restores its own). */
const flipped = new WeakMap<RunContext, SwitchRecord[]>();

function switchesOf(ctx: RunContext): SwitchRecord[] {
  let list = flipped.get(ctx);
  if (!list) flipped.set(ctx, (list = []));
  return list;
}

/** GET the same URL first; a JSON or text answer is the state to write back. */
export async function readPriorState(ctx: RunContext, opId: string, req: PreparedRequest, trace: Trace, actor: string | undefined): Promise<void> {
  const record: SwitchRecord = { operation: opId, actor, method: req.method, request: { ...req, headers: { ...req.headers } } };
  // the first flip of an operation holds the state from before the run; a later one must not overwrite it
  if (switchesOf(ctx).some((s) => s.operation === opId)) return;
  switchesOf(ctx).push(record);
  if (req.method === 'DELETE') {
    record.unreadable = 'a DELETE of a collection cannot be written back';
    return;
  }
  const headers = { ...req.headers };
  delete headers['content-type'];
  let res: FlowResponse;
  try {
    res = await send(ctx, { ...req, method: 'GET', headers, body: undefined }, { trace, purpose: `${opId} (prior state)`, actor });
  } catch (err) {
    record.unreadable = `the GET of its prior state got no answer (${(err as Error).message})`;
    return;
  }
  if (res.status < 200 || res.status >= 300) {
    record.unreadable = `the GET of its prior state answered ${res.status}`;
    return;
  }
  const body = res.text();
  // a POST sets a state by what it sends: only an object read back can be sent back as it was
  if (req.method === 'POST' && !isJsonObject(body)) {
    record.unreadable = 'its prior state (the GET of the same path) is not a JSON object to send back';
    return;
  }
  record.prior = { body, contentType: header(res.headers, 'content-type') ?? 'application/json' };
}

function isJsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return isPlainObject(v);
  } catch {
    return false;
  }
}

/** Write back every switch, the last flipped first. */
export async function restoreSwitches(ctx: RunContext, trace: Trace): Promise<RestoreEntry[]> {
  const out: RestoreEntry[] = [];
  for (const s of [...switchesOf(ctx)].reverse()) {
    if (!s.prior) {
      out.push({ operation: s.operation, restored: false, detail: s.unreadable ?? 'its prior state is unknown' });
      continue;
    }
    const headers = { ...s.request.headers, 'content-type': s.prior.contentType };
    try {
      const res = await send(ctx, { ...s.request, headers, body: s.prior.body }, { trace, purpose: `${s.operation} (restore)`, actor: s.actor });
      const ok = res.status >= 200 && res.status < 300;
      out.push({ operation: s.operation, restored: ok, detail: `${s.method} ${s.request.url.pathname} answered ${res.status}` });
    } catch (err) {
      out.push({ operation: s.operation, restored: false, detail: `no answer (${(err as Error).message})` });
    }
  }
  switchesOf(ctx).length = 0;
  return out;
}
