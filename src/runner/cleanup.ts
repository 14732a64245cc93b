// The clean-up after a run (docs/format.md#ownership): every switch the run flipped is written
// back, then every instance its creates made and no DELETE removed is deleted with the
// project's own delete operation, newest first (what was made under a parent goes before it).
// Nothing else is touched. Each delete is sent once, as a probe bound to its instance: no
// prerequisite runs for it, and whatever it answers is reported.
import { type Operation, scalarText } from '../project/index.js';
import type { RunContext, Trace } from './context.js';
import { targetOf } from './ownership.js';
import { probeOnce } from './probe.js';
import { restoreSwitches } from './switches.js';
import type { CleanupEntry, CleanupReport } from './types.js';

export async function cleanUp(ctx: RunContext): Promise<CleanupReport> {
  const trace: Trace = { operation: 'clean-up', exchanges: [] };
  const restored = await restoreSwitches(ctx, trace);
  const deleted: CleanupEntry[] = [];
  const left: CleanupEntry[] = [];
  for (const { resource, index, instance } of ctx.state.ownedLeft()) {
    const del = deleteOf(ctx, resource);
    // what names it: its delete's field, else an `id` (a resource with no delete is still named)
    const field = (del && targetField(ctx, del)) ?? (Object.hasOwn(instance.values, 'id') ? 'id' : undefined);
    const id = field !== undefined && instance.values[field] !== undefined ? ctx.redactor.text(scalarText(instance.values[field])) : undefined;
    const entry: CleanupEntry = { resource, index, ...(id !== undefined ? { id } : {}), ...(instance.origin ? { createdBy: instance.origin.operation } : {}) };
    if (!del) {
      left.push({ ...entry, why: `${resource} has no DELETE operation on one instance` });
      continue;
    }
    if (id === undefined) {
      left.push({ ...entry, via: del.id, why: `the instance has no ${field ?? 'id'} for ${del.path}` });
      continue;
    }
    try {
      const { response } = await probeOnce(ctx, del, { instance: index }, trace);
      if ((response.status >= 200 && response.status < 300) || response.status === 404 || response.status === 410) {
        instance.gone = true;
        deleted.push({ ...entry, via: del.id, status: response.status });
      } else {
        left.push({ ...entry, via: del.id, status: response.status, why: `${del.id} answered ${response.status}` });
      }
    } catch (err) {
      left.push({ ...entry, via: del.id, why: ctx.redactor.text(err instanceof Error ? err.message : String(err)) });
    }
  }
  return { restored, deleted, left, exchanges: trace.exchanges };
}

/** The resource's DELETE of one of its own instances, the first declared. */
function deleteOf(ctx: RunContext, resource: string): Operation | undefined {
  for (const id of ctx.project.resources.get(resource)?.operations ?? []) {
    const op = ctx.project.operations.get(id);
    if (!op || op.method !== 'DELETE') continue;
    const t = targetOf(ctx, op);
    if (t.kind === 'instance' && t.resource === resource) return op;
  }
  return undefined;
}

function targetField(ctx: RunContext, op: Operation): string | undefined {
  const t = targetOf(ctx, op);
  return t.kind === 'instance' ? t.field : undefined;
}
