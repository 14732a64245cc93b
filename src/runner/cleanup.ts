// The clean-up after a run (docs/format.md#ownership): every switch the run flipped is written
// back, then every instance its creates made is removed with the project's own DELETEs
// (removals.ts: the resource's, then one that removes what the first archived), newest first
// (what was made under a parent goes before it). Nothing else is touched. Each removal is sent
// once, as a probe bound to its instance: no prerequisite runs for it, and whatever it answers
// is reported; what is left is reported with why.
import { type Operation, scalarText } from '../project/index.js';
import type { Binding, RunContext, Trace } from './context.js';
import { ID_NAME, noRemoval, originRemoval } from './origin-removal.js';
import { namedRemoval } from './named-removal.js';
import { targetOf } from './ownership.js';
import { bornIn, sameTime } from './born.js';
import { probeOnce } from './probe.js';
import { fieldsRead, madeElsewhere, nameField, namedForRemoval, readerOf, readsOthersNames, removalsOf } from './removals.js';
import type { Instance } from './state.js';
import { restoreSwitches } from './switches.js';
import { keyedOperation } from './keyed.js';
import { indexedPlace } from '../runtime/index.js';
import type { CleanupEntry, CleanupReport, CleanupStep } from './types.js';

export async function cleanUp(ctx: RunContext): Promise<CleanupReport> {
  const trace: Trace = { operation: 'clean-up', exchanges: [] };
  const restored = await restoreSwitches(ctx, trace);
  const deleted: CleanupEntry[] = [];
  const left: CleanupEntry[] = [];
  // instances left with a server's answer (a removal refused, or one that did not remove it), with how many were deleted before them
  const refused: Refused[] = [];
  for (const { resource, index, instance: own } of ctx.state.owned()) {
    // named by what its create sent or answered too, where the run extracted nothing of it
    const instance = namedForRemoval(own);
    const chain = removalsOf(ctx, resource);
    // the removals after the last one this instance had: none left, it is gone
    const last = instance.removedBy?.at(-1);
    const pending = last === undefined ? chain : chain.slice(chain.findIndex((op) => op.id === last) + 1);
    // what names it: the field of a removal it has, else an `id` (a resource with no removal is still named)
    const field =
      chain.map((op) => nameField(ctx, op)).find((f) => f !== undefined && Object.hasOwn(instance.values, f)) ??
      (Object.hasOwn(instance.values, 'id') ? 'id' : onlyId(own));
    const id = field !== undefined && instance.values[field] !== undefined ? ctx.redactor.text(scalarText(instance.values[field])) : undefined;
    const entry: CleanupEntry = {
      resource,
      ...(index !== undefined ? { index } : {}),
      ...(id !== undefined ? { id } : {}),
      ...(instance.origin ? { createdBy: instance.origin.operation } : {}),
    };
    if (own.keyed) {
      await removeKeyed(ctx, { resource, instance: own, entry }, { deleted, left }, trace);
      continue;
    }
    if (!chain.length) {
      // no removal names it: the resource's own DELETE from where it was made, when one fits
      const removal = originRemoval(ctx, resource, instance) ?? namedRemoval(ctx, resource, instance);
      if (!removal) {
        left.push({ ...entry, why: noRemoval(ctx, resource, instance) });
        continue;
      }
      const { why, ...step } = await removeOnce(ctx, removal.op, { resource, instance, vars: removal.vars }, trace);
      if (step.status !== undefined && removed(step.status)) deleted.push({ ...entry, ...step, status: step.status });
      else left.push({ ...entry, via: removal.op.id, ...(step.status !== undefined ? { status: step.status } : {}), why });
      continue;
    }
    let out = pending.length ? await removeInstance(ctx, resource, index, own, pending, trace) : { steps: [] };
    let readBack: string | undefined;
    if (!out.stop && !out.steps.length && instance.removedBy?.length) {
      // a removal answered 2xx during the run: gone, unless the resource's read still finds it
      readBack = await readsBack(ctx, resource, instance, last!, trace);
      if (readBack === undefined) continue;
      out = await removeInstance(ctx, resource, index, own, chain, trace);
      if (!out.stop && !out.steps.length) {
        const kept: CleanupEntry = { ...entry, via: last!, why: `${last} answered 2xx during the run, yet ${readBack} still reads it` };
        left.push(kept);
        refused.push({ entry: kept, resource, instance, after: deleted.length });
        continue;
      }
    }
    if (!out.stop && out.steps.length) {
      const sent = out.steps.map((st) => `${st.via} ${st.status}`).join(', ');
      // a server may answer 2xx to a DELETE and keep the thing (a value it cannot delete): said, not counted as deleted
      const removedWith = [...out.steps].reverse().find((st) => st.status >= 200 && st.status < 300)?.via;
      const reader = removedWith ? await readsBack(ctx, resource, instance, removedWith, trace) : undefined;
      if (reader === undefined) deleted.push({ ...entry, ...out.steps[0], ...(out.steps.length > 1 ? { then: out.steps.slice(1) } : {}) });
      else {
        const kept: CleanupEntry = {
          ...entry,
          via: out.steps.at(-1)!.via,
          status: out.steps.at(-1)!.status,
          why: `${sent}${readBack ? ' (and during the run)' : ''}, yet ${reader} still reads it`,
        };
        left.push(kept);
        refused.push({ entry: kept, resource, instance, after: deleted.length });
      }
      continue;
    }
    // where it stopped (what it answered, if it was sent), and what was sent before
    const { at, status, why } = out.stop ?? { at: pending[0], why: `each of ${pending.map((op) => op.id).join(', ')} names another ${resource}` };
    const before = out.steps.slice(0, status === undefined ? undefined : -1).map((st) => `${st.via} ${st.status}`);
    const stopped: CleanupEntry = {
      ...entry,
      via: at.id,
      ...(status !== undefined ? { status } : {}),
      why: before.length ? `${why} (after ${before.join(', ')})` : why,
    };
    left.push(stopped);
    if (status !== undefined) refused.push({ entry: stopped, resource, instance, after: deleted.length });
  }
  await takenAlong(ctx, refused, deleted, left, trace);
  const report = { restored, deleted, left, exchanges: trace.exchanges };
  ctx.emit({ type: 'cleanup', report });
  return report;
}

/**
 * What the run made at a key it drew (keyed.ts): the resource's DELETE at that very path, then
 * its GET there, when the DELETE answered 2xx, to see it gone. After the run's own removal of it,
 * only the read (and the DELETE again when it still finds it).
 */
async function removeKeyed(
  ctx: RunContext,
  { resource, instance, entry }: { resource: string; instance: Instance; entry: CleanupEntry },
  out: { deleted: CleanupEntry[]; left: CleanupEntry[] },
  trace: Trace,
): Promise<void> {
  const removal = keyedOperation(ctx, instance, 'DELETE');
  const read = keyedOperation(ctx, instance, 'GET');
  const named = { ...entry, ...(entry.id === undefined ? keyOf(ctx, instance) : {}) };
  if (!removal) {
    out.left.push({ ...named, why: `${resource} has no DELETE at the path ${instance.origin!.operation} made it at` });
    return;
  }
  const bound = { resource, instance };
  const stillThere = async () => (read ? (await readAgain(ctx, read, resource, instance, trace))?.there : undefined);
  const before = instance.removedBy?.at(-1);
  if (before !== undefined && !(await stillThere())) return;
  const { why, ...step } = await removeOnce(ctx, removal, bound, trace);
  if (step.status === undefined || !removed(step.status)) {
    out.left.push({ ...named, via: removal.id, ...(step.status !== undefined ? { status: step.status } : {}), why });
    return;
  }
  if (step.status >= 200 && step.status < 300 && (await stillThere())) {
    const during = before !== undefined ? ` (and ${before} during the run)` : '';
    out.left.push({ ...named, via: removal.id, status: step.status, why: `${removal.id} ${step.status}${during}, yet ${read!.id} still reads it` });
    return;
  }
  out.deleted.push({ ...named, ...step, status: step.status });
}

/** The key a keyed instance was made at, for the report (redacted as any value). */
function keyOf(ctx: RunContext, instance: Instance): { id?: string } {
  const key = Object.values(instance.values)[0];
  return typeof key === 'string' || typeof key === 'number' ? { id: ctx.redactor.text(String(key)) } : {};
}

interface Refused {
  entry: CleanupEntry;
  resource: string;
  instance: Instance;
  /** how many instances were deleted before its removal was refused */
  after: number;
}

/**
 * An instance left with a server's answer (its removal refused, or answered 2xx and still read)
 * may have gone with one removed after it (an issue with its project, newest first): each is read
 * once with its resource's own GET, and one gone (readAgain) is deleted, not left. One with no
 * such read, or found, stays left.
 */
async function takenAlong(ctx: RunContext, refused: readonly Refused[], deleted: CleanupEntry[], left: CleanupEntry[], trace: Trace): Promise<void> {
  const later = refused.map((r) => [...new Set(deleted.slice(r.after).map((d) => d.via!))]);
  // from the last, so that each goes back to its place among the deleted
  for (let i = refused.length - 1; i >= 0; i--) {
    const { entry, resource, instance, after } = refused[i];
    const removal = later[i].length ? ctx.project.operations.get(entry.via!) : undefined;
    const read = removal && readerOf(ctx, resource, instance, removal);
    const found = read && (await readAgain(ctx, read, resource, instance, trace));
    if (!found?.gone) continue;
    const { why: _, ...rest } = entry;
    left.splice(left.indexOf(entry), 1);
    deleted.splice(after, 0, { ...rest, gone: `${read!.id} ${found.said} after ${later[i].join(', ')}` });
  }
}

/** The place in the run's state (from 1) an index names (`[-2]`: the second newest that has the field). */
function placeOf(ctx: RunContext, resource: string, index: number, field: string): number {
  return indexedPlace(ctx.state.values(resource) ?? [], index, field) + 1;
}

/** Send each pending removal in turn; the first that fails (or cannot be named) stops it, with why. */
async function removeInstance(
  ctx: RunContext,
  resource: string,
  index: number | undefined,
  own: Instance,
  pending: Operation[],
  trace: Trace,
): Promise<{ steps: CleanupStep[]; stop?: { at: Operation; status?: number; why: string } }> {
  const steps: CleanupStep[] = [];
  const instance = namedForRemoval(own);
  // each removal that cannot name it, with what it lacks (said when none could)
  const unnamed: Array<{ at: Operation; lacks: string }> = [];
  for (const at of pending) {
    const t = targetOf(ctx, at);
    // `/items/{{item[2].id}}` removes the second item only
    if (t.kind === 'instance' && t.index !== undefined && placeOf(ctx, resource, t.index, t.field) !== index) continue;
    // a removal that reads a field this instance lacks is another way to remove another kind of it
    // (`/context/{{context.name}}` beside `/projects/{{project.id}}/context/{{context.name_2}}`)
    const field = nameField(ctx, at);
    // or what names it for another removal alone (under where it was made: this one may remove what others share)
    const others = readsOthersNames(ctx, resource, own, at);
    if (field === undefined || instance.values[field] === undefined || others) {
      const lacks = others ? fieldsRead(ctx, at, resource).filter((f) => own.values[f] === undefined) : [field ?? 'id'];
      unnamed.push({ at, lacks: lacks.join(', ') });
      continue;
    }
    const { why, ...step } = await removeOnce(ctx, at, { resource, instance }, trace);
    if (step.status === undefined) return { steps, stop: { at, why } };
    steps.push({ ...step, status: step.status });
    if (!removed(step.status)) return { steps, stop: { at, status: step.status, why } };
  }
  // nothing that applies to it after a removal the run sent: it is gone
  if (steps.length || !unnamed.length || instance.removedBy?.length) return { steps };
  // every removal reads what it lacks: which, and what it has (a create that named nothing of it, another field)
  const has = Object.keys(own.values);
  // none under where it was made, where the resource has its instances: a DELETE of another kind of it
  const elsewhere = madeElsewhere(
    ctx,
    resource,
    own,
    unnamed.map((u) => u.at),
  );
  if (elsewhere !== undefined) {
    const reads = unnamed.map((u) => `${u.at.path} reads ${u.lacks}`).join(', ');
    return { steps, stop: { at: unnamed[0].at, why: `no DELETE addresses it where it was made (${elsewhere}): it has ${has.join(', ')}; ${reads}` } };
  }
  const why = `the instance has ${unnamed.map((u) => `no ${u.lacks} for ${u.at.path}`).join(', ')}${unnamed.length > 1 || !has.length ? ` (${has.length ? `it has ${has.join(', ')}` : 'nothing named it'})` : ''}`;
  return { steps, stop: { at: unnamed[0].at, why } };
}

/** One removal sent, as its instance's maker too when refused; `status` undefined: it could not be sent. */
async function removeOnce(ctx: RunContext, at: Operation, bound: Binding, trace: Trace): Promise<Partial<CleanupStep> & { via: string; why: string }> {
  try {
    let { status } = (await probeOnce(ctx, at, {}, trace, bound)).response;
    // not removed: the actor that made it may remove it (a try that gave the create its actor,
    // not yet the delete; a user's own item that an API token is refused, or not shown: 404)
    const maker = bound.instance.origin?.actor;
    const retried = (status < 200 || status >= 300) && maker !== undefined && maker !== at.actor;
    if (retried) status = (await probeOnce(ctx, at, { actor: maker }, trace, bound)).response.status;
    return { via: at.id, ...(retried ? { actor: maker } : {}), status, why: `${at.id} answered ${status}${retried ? ` (as ${maker} too)` : ''}` };
  } catch (err) {
    return { via: at.id, why: ctx.redactor.text(err instanceof Error ? err.message : String(err)) };
  }
}

/**
 * The read that still finds an instance a removal answered 2xx for (its id, as `context.get`),
 * or undefined when it is gone (404, 410), cannot be read back (no such read, another answer),
 * or the read could not be sent.
 */
async function readsBack(ctx: RunContext, resource: string, instance: Instance, removedWith: string, trace: Trace): Promise<string | undefined> {
  const removal = ctx.project.operations.get(removedWith);
  const read = removal && readerOf(ctx, resource, instance, removal);
  return read && (await readAgain(ctx, read, resource, instance, trace))?.there ? read.id : undefined;
}

/**
 * One read of an instance: `there` when it answers 2xx with it, `gone` when 404 or 410, or when
 * the 2xx gives another creation time than its create's answer did (born.ts: an instance that
 * took its id, maybe someone else's); neither for another answer, or one that could not be sent.
 */
async function readAgain(
  ctx: RunContext,
  read: Operation,
  resource: string,
  instance: Instance,
  trace: Trace,
): Promise<{ there?: true; gone?: true; said: string } | undefined> {
  let res;
  try {
    res = (await probeOnce(ctx, read, {}, trace, { resource, instance })).response;
  } catch {
    return undefined;
  }
  if (res.status === 404 || res.status === 410) return { gone: true, said: String(res.status) };
  if (res.status < 200 || res.status >= 300) return { said: String(res.status) };
  const born = instance.origin?.born;
  const now = born === undefined ? undefined : bornIn(res);
  return born !== undefined && now !== undefined && !sameTime(now, born)
    ? { gone: true, said: `${res.status} (another instance, which took its id)` }
    : { there: true, said: String(res.status) };
}

/** The one field the instance has when it is named as an id (`feedbackId`): what names one left with no removal. */
function onlyId(instance: Instance): string | undefined {
  const fields = Object.keys(instance.values);
  return fields.length === 1 && ID_NAME.test(fields[0]) ? fields[0] : undefined;
}

/** Removed now, or gone already. */
const removed = (status: number) => (status >= 200 && status < 300) || status === 404 || status === 410;
