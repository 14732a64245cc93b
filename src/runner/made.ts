// What a write made that the run's state does not record (docs/format.md#ownership): a create
// whose answer failed its checks (201 where 200 was expected: the thing exists all the same),
// a probe's create, and a POST that answered 201 Created with the name the request gave it
// (a clone: `POST /features/{{feature.name}}/clone` with `{"name": "copy-…"}`). Each is kept
// aside for the clean-up, named by the field its removal's path reads: from what the create
// extracts, else the answer, else (a create's answer that echoes nothing) the body it sent.
import { isPlainObject, type Operation } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import type { RunContext } from './context.js';
import { targetOf } from './ownership.js';
import { nameField, removalsOf } from './removals.js';
import { sentObject } from './request.js';
import { extract } from './verify.js';

/**
 * Keep aside what `op`'s answer made when the state did not record it (`startedBefore`: the
 * state's count of instances before the answer was handled).
 */
export function keepMade(ctx: RunContext, op: Operation, res: FlowResponse, actor: string | undefined, startedBefore: number): void {
  if (ctx.state.started !== startedBefore || op.method !== 'POST' || res.status < 200 || res.status >= 300) return;
  const creates = targetOf(ctx, op).kind === 'create';
  if (!creates && res.status !== 201) return;
  const removal = removalsOf(ctx, op.resource)[0];
  const field = removal && nameField(ctx, removal);
  const values: Record<string, unknown> = creates ? extracted(op, res) : {};
  if (field !== undefined && values[field] === undefined) {
    const answered = scalarAt(answerObject(res), field);
    const sent = scalarAt(sentObject(res), field);
    // a create's answer names what it made; any other POST only when it echoes the name it was sent
    const name = creates ? (answered ?? sent) : answered !== undefined && answered === sent ? sent : undefined;
    if (name !== undefined) values[field] = name;
  }
  // a 201 that names nothing of this resource may have made anything (a payment, a log line): not ours to delete
  if (!creates && (field === undefined || values[field] === undefined)) return;
  ctx.state.keepAside(op.resource, values, { operation: op.id, ...(actor ? { actor } : {}) });
}

/** What the create's own extraction gets from the answer, when it gets it. */
function extracted(op: Operation, res: FlowResponse): Record<string, unknown> {
  try {
    return { ...extract(op.extract, res).scalars };
  } catch {
    return {};
  }
}

function answerObject(res: FlowResponse): Record<string, unknown> | undefined {
  try {
    const v = res.json();
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function scalarAt(o: Record<string, unknown> | undefined, field: string): string | number | undefined {
  const v = o && Object.hasOwn(o, field) ? o[field] : undefined;
  return (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
}
