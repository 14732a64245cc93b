// How the clean-up removes an instance (docs/format.md#ownership): every DELETE of the project
// whose path ends with one of the resource's instances (`/items/{{item.id}}`), the resource's
// own first, then the others in the order declared. A server that archives on the first
// (`DELETE /features/{{feature.name}}`) and removes what is archived on another
// (`DELETE /archive/{{feature.name}}`) is left as it was: the clean-up sends each removal that
// comes after the last one the instance had. A format extension after it (`…/{{item.id}}.json`)
// is still the instance. A DELETE under the instance
// (`/items/{{item.id}}/tags`) removes something else, and is none of these.
import type { Operation } from '../project/index.js';
import type { RunContext } from './context.js';
import { targetOf } from './ownership.js';
import type { Instance } from './state.js';

/** The removals of each resource, computed once per project. */
const chains = new WeakMap<object, Map<string, Operation[]>>();

export function removalsOf(ctx: RunContext, resource: string): Operation[] {
  let byResource = chains.get(ctx.project);
  if (!byResource) chains.set(ctx.project, (byResource = new Map<string, Operation[]>()));
  let chain = byResource.get(resource);
  if (!chain) {
    const own: Operation[] = [];
    const others: Operation[] = [];
    for (const op of ctx.project.operations.values()) {
      if (removedBy(ctx, op) !== resource) continue;
      if (op.resource === resource) own.push(op);
      // another resource's, only when its path names nothing else (`/archive/{{feature.name}}`):
      // `/groups/{{group.id}}/members/{{user.id}}` acts on a group, which may not be the run's
      else if (pathSites(ctx, op).filter((s) => s.class === 'resource').length === 1) others.push(op);
    }
    byResource.set(resource, (chain = [...own, ...others]));
  }
  return chain;
}

/** A path template without its query, fragment and trailing slashes: `/items/{{item.id}}/?x=1` -> `/items/{{item.id}}`. */
export function pathOnly(path: string): string {
  return path.replace(/[?#].*$/, '').replace(/\/+$/, '');
}

/** The resource whose instance `op` removes: a DELETE whose path ends with that instance's reference. */
export function removedBy(ctx: RunContext, op: Operation): string | undefined {
  if (op.method !== 'DELETE') return undefined;
  const t = targetOf(ctx, op);
  if (t.kind !== 'instance') return undefined;
  const path = pathOnly(op.path);
  const last = pathSites(ctx, op).at(-1);
  if (!last || last.expr?.kind !== 'scoped' || last.expr.scope !== t.resource) return undefined;
  // the reference ends the path, or only a format extension follows it (`/issues/{{issue.id}}.json`)
  const at = path.lastIndexOf(`/${last.raw}`);
  return at >= 0 && /^(\.[A-Za-z0-9]{1,8})?$/.test(path.slice(at + last.raw.length + 1)) ? t.resource : undefined;
}

/**
 * The GET at the very path of a removal that answered 2xx (`GET /items/{{item.id}}` for
 * `DELETE /items/{{item.id}}`), of the same resource and able to name `instance`: the clean-up
 * asks it whether the removal removed anything. Another path (a cached client view, a list
 * under another parent) may answer from elsewhere, so only that one is asked.
 */
export function readerOf(ctx: RunContext, resource: string, instance: Instance, removal: Operation): Operation | undefined {
  const field = nameField(ctx, removal);
  if (field === undefined || instance.values[field] === undefined) return undefined;
  let byRemoval = readers.get(ctx.project);
  if (!byRemoval) readers.set(ctx.project, (byRemoval = new Map()));
  if (!byRemoval.has(removal.id)) {
    const path = pathOnly(removal.path);
    byRemoval.set(
      removal.id,
      [...ctx.project.operations.values()].find((op) => op.method === 'GET' && op.resource === resource && pathOnly(op.path) === path),
    );
  }
  return byRemoval.get(removal.id);
}

/** Each removal's reader, found once per project (explore cleans up thousands of forks). */
const readers = new WeakMap<object, Map<string, Operation | undefined>>();

/** The field of its instance the removal's path reads (`id` for `/items/{{item.id}}`). */
export function nameField(ctx: RunContext, op: Operation): string | undefined {
  const t = targetOf(ctx, op);
  return t.kind === 'instance' ? t.field : undefined;
}

/**
 * The fields of the resource's instance that each of its removals' paths reads (`[type, value]`
 * for `/tags/{{tag.type}}/{{tag.value}}`), once per project.
 */
export function removalFields(ctx: RunContext, resource: string): string[][] {
  let byResource = fields.get(ctx.project);
  if (!byResource) fields.set(ctx.project, (byResource = new Map()));
  let list = byResource.get(resource);
  if (!list) {
    list = removalsOf(ctx, resource).map((op) => [
      ...new Set(pathSites(ctx, op).flatMap((s) => (s.expr?.kind === 'scoped' && s.expr.scope === resource ? [s.expr.field] : []))),
    ]);
    byResource.set(resource, list);
  }
  return list;
}

const fields = new WeakMap<object, Map<string, string[][]>>();

/** The instance with what names it for its removals alone (Instance.names) beside its values: what the clean-up binds. */
export function namedForRemoval(instance: Instance): Instance {
  return instance.names ? { ...instance, values: { ...instance.names, ...instance.values } } : instance;
}

function pathSites(ctx: RunContext, op: Operation) {
  return ctx.graph.sitesOf('operation', op.id).filter((s) => s.section === 'path' && !s.nested);
}
