// What a write made that the run's state does not record (docs/format.md#ownership): a create
// whose answer failed its checks (201 where 200 was expected: the thing exists all the same),
// a probe's create, a POST that answered 201 Created with the name the request gave it (a
// clone: `POST /features/{{feature.name}}/clone` with `{"name": "copy-…"}`), and a create that
// extracts nothing (a 201 in a collection: reported left when nothing names it). Each is kept
// aside for the clean-up, named by the field its removal's path reads: from what the create
// extracts, else the answer, else (a create's answer that echoes nothing) the body it sent. A POST
// shaped as a create that extracts nothing yet is kept aside by the id its answer gives
// (origin-removal.ts). Each keeps the URL path it was made at. A create's instance, kept aside
// or recorded, is also named for the removals under where it posted by what it lacks of their
// fields, from its own answer or body (Instance.names).
import { isPlainObject, type Operation } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import type { RunContext } from './context.js';
import type { Instance } from './state.js';
import { targetOf } from './ownership.js';
import { nameField, removalFields, removalsOf } from './removals.js';
import { sentObject } from './request.js';
import { extract } from './verify.js';
import { createShaped, idIn, requestPath, scalar } from './origin-removal.js';
import { issuedCredential } from './issued.js';
import { bornIn } from './born.js';
import { envNamedRemovals } from './named-removal.js';
import { sameInstance } from './same-instance.js';
import { keepKeyed } from './keyed.js';
import { sentBy } from './claim.js';

/**
 * Keep aside what `op`'s answer made when the state did not record it (`startedBefore`: the
 * state's count of instances before the answer was handled).
 */
export function keepMade(ctx: RunContext, op: Operation, res: FlowResponse, actor: string | undefined, startedBefore: number): void {
  // a PUT or POST at a key the run drew: what is there is the run's (keyed.ts)
  if (keepKeyed(ctx, op, res, actor)) return;
  if (op.method !== 'POST' || res.status < 200 || res.status >= 300) return;
  if (ctx.state.started !== startedBefore) return nameRecorded(ctx, op, res, startedBefore);
  const path = requestPath(res);
  const born = bornIn(res);
  const origin = { operation: op.id, ...(actor ? { actor } : {}), ...(path ? { path } : {}), ...(born !== undefined ? { born } : {}) };
  const t = targetOf(ctx, op);
  // a create by its 201 alone: another 2xx may hand back what was there (then as any POST, below)
  const creates = t.kind === 'create' && (!t.byStatus || res.status === 201);
  const values = creates || res.status === 201 ? named(ctx, op, res, creates) : undefined;
  // a POST shaped as a create that extracts nothing yet (origin-removal.ts): the id its answer gives
  // (not a 200 with the id the request sent: a create given an id that exists may answer so, with someone's)
  let id = values === undefined && createShaped(ctx, op) ? idIn(answerObject(res)) : undefined;
  if (id !== undefined && res.status !== 201 && idIn(sentObject(res)) === id) id = undefined;
  if (values) {
    // the id its answer gives: with no removal to name it (the clean-up finds a DELETE from where it
    // was made), and for a create that extracts nothing, as for a POST shaped as one (`{"data": {"id": …}}` too)
    if (creates && values.id === undefined && ((t.kind === 'create' && t.byStatus) || !removalsOf(ctx, op.resource).length)) {
      const made = idIn(answerObject(res));
      if (made !== undefined) values.id = made;
    }
    const kept = ctx.state.keepAside(op.resource, values, origin);
    if (kept && creates) nameForRemovals(ctx, op, res, kept);
    // an answer with no id: a read finds the item by what was sent (claim.ts)
    if (kept && creates && values.id === undefined) kept.sent = sentBy(op, sentObject(res));
  } else if (id !== undefined) ctx.state.keepAside(op.resource, { id }, origin);
  else if (createShaped(ctx, op)) {
    // a create that answered no id (a 204): kept when a read can find it by a run-unique value it sent (claim.ts)
    const sent = sentBy(op, sentObject(res));
    const kept = sent && ctx.state.keepAside(op.resource, {}, origin);
    if (kept) kept.sent = sent;
  }
}

/**
 * The fields its removals read that a create's recorded instance lacks (`/tags/{{tag.type}}/{{tag.value}}`
 * after a create that extracts only the type), from its own answer, else the body it sent: kept
 * for the clean-up alone (Instance.names), so the removal names the run's own instance.
 */
function nameRecorded(ctx: RunContext, op: Operation, res: FlowResponse, startedBefore: number): void {
  const made = ctx.state.newest(op.resource);
  if (!made?.owned || made.seq <= startedBefore || made.origin?.operation !== op.id || targetOf(ctx, op).kind !== 'create') return;
  nameForRemovals(ctx, op, res, made);
}

/**
 * What names a create's instance for its removals beside its values: the fields its other
 * removals read (`{{tag.type}}` beside `{{tag.value}}`) and, with no id, the credential it
 * issued, which a removal by `{{env.token}}` reads. For one kept aside and one recorded alike.
 */
function nameForRemovals(ctx: RunContext, op: Operation, res: FlowResponse, made: Instance): void {
  made.names = merged(fromAnswerOrBody(ctx, op, res, made.values), sameInstance(ctx, op, made, made.values, sentObject(res)));
  if (made.values.id === undefined) made.issued = issuedCredential(answerObject(res));
}

/**
 * What the instance lacks of the fields of each removal under the create's path that reads one
 * it has (`value` beside the `type` it extracted), at the top of the answer, else of the body
 * sent. A removal that reads none of them is another way to remove another kind of it
 * (`/keyed/{{item.key}}` beside `/items/{{item.id}}`): not for this one.
 */
function fromAnswerOrBody(ctx: RunContext, op: Operation, res: FlowResponse, have: Record<string, unknown>): Instance['names'] {
  const values: Record<string, unknown> = {};
  const by: string[] = [];
  const answer = answerObject(res);
  const sent = sentObject(res);
  for (const { id, fields } of removalFields(ctx, op)) {
    if (!fields.some((f) => have[f] !== undefined) || fields.every((f) => have[f] !== undefined)) continue;
    for (const field of fields) {
      if (have[field] !== undefined || values[field] !== undefined) continue;
      const v = scalarAt(answer, field) ?? scalarAt(sent, field);
      if (v !== undefined) values[field] = v;
    }
    if (fields.every((f) => have[f] !== undefined || values[f] !== undefined)) by.push(id);
  }
  // a removal that reads a variable nobody gave, named as a field the create answered or sent (named-removal.ts)
  for (const { id, vars } of envNamedRemovals(ctx, op)) {
    for (const name of vars) {
      const v = have[name] === undefined && values[name] === undefined ? (scalarAt(answer, name) ?? scalarAt(sent, name)) : undefined;
      if (v !== undefined) values[name] = v;
    }
    if (vars.every((f) => have[f] !== undefined || values[f] !== undefined)) by.push(id);
  }
  return by.length ? { values, by } : undefined;
}

function merged(a: Instance['names'], b: Instance['names']): Instance['names'] {
  return a && b ? { values: { ...b.values, ...a.values }, by: [...new Set([...a.by, ...b.by])] } : (a ?? b);
}

/** What names what a create (or a 201) made; undefined for a 201 that names nothing of this resource. */
function named(ctx: RunContext, op: Operation, res: FlowResponse, creates: boolean): Record<string, unknown> | undefined {
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
  if (!creates && (field === undefined || values[field] === undefined)) return undefined;
  return values;
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
  return scalar(o && Object.hasOwn(o, field) ? o[field] : undefined);
}
