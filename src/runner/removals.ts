// How the clean-up removes an instance (docs/format.md#ownership): every DELETE of the project
// whose path ends with one of the resource's instances (`/items/{{item.id}}`), the resource's
// own first, then the others in the order declared. A server that archives on the first
// (`DELETE /features/{{feature.name}}`) and removes what is archived on another
// (`DELETE /archive/{{feature.name}}`) is left as it was: the clean-up sends each removal that
// comes after the last one the instance had. A format extension after it (`…/{{item.id}}.json`)
// is still the instance. A DELETE under the instance
// (`/items/{{item.id}}/tags`) removes something else, and is none of these.
import type { Operation } from '../project/index.js';
import { formatExtension, pathOnly } from '../graph/index.js';
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
  const rest = at >= 0 ? path.slice(at + 1) : undefined;
  return rest === last.raw || rest === last.raw + formatExtension(rest ?? '') ? t.resource : undefined;
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
 * The fields of `create`'s instance that each removal under the collection it posts to reads
 * (`[type, value]` for `/tags/{{tag.type}}/{{tag.value}}` after `POST /tags`), once per project.
 * A removal elsewhere (`/admin/tags/{{tag.type}}/{{tag.value}}` after `POST /features/{{feature.name}}/tags`)
 * may remove what others share (the tag itself, not its use on the run's feature): not named so.
 */
export function removalFields(ctx: RunContext, create: Operation): Array<{ id: string; fields: string[] }> {
  let byCreate = fields.get(ctx.project);
  if (!byCreate) fields.set(ctx.project, (byCreate = new Map()));
  let list = byCreate.get(create.id);
  if (!list) {
    const under = `${pathOnly(create.path)}/`;
    list = removalsOf(ctx, create.resource)
      .filter((op) => pathOnly(op.path).startsWith(under))
      .map((op) => ({ id: op.id, fields: fieldsRead(ctx, op, create.resource) }));
    byCreate.set(create.id, list);
  }
  return list;
}

/** The fields of `resource`'s instance that `op`'s path reads. */
export function fieldsRead(ctx: RunContext, op: Operation, resource: string): string[] {
  return [...new Set(pathSites(ctx, op).flatMap((s) => (s.expr?.kind === 'scoped' && s.expr.scope === resource ? [s.expr.field] : [])))];
}

const fields = new WeakMap<object, Map<string, Array<{ id: string; fields: string[] }>>>();

/** The instance with what names it for its removals alone (Instance.names) beside its values: what the clean-up binds. */
export function namedForRemoval(instance: Instance): Instance {
  return instance.names ? { ...instance, values: { ...instance.names.values, ...instance.values } } : instance;
}

/** Whether `removal` may read what names the instance for another removal alone (Instance.names): only its own. */
export function readsOthersNames(ctx: RunContext, resource: string, instance: Instance, removal: Operation): boolean {
  const names = instance.names;
  return !!names && !names.by.includes(removal.id) && fieldsRead(ctx, removal, resource).some((f) => instance.values[f] === undefined);
}

function pathSites(ctx: RunContext, op: Operation) {
  return ctx.graph.sitesOf('operation', op.id).filter((s) => s.section === 'path' && !s.nested);
}

/**
 * Where `instance`'s create posted (`/links`), when the resource reads or writes one instance
 * there by a field it has (`/links/{{token.secret}}`) yet none of `removals` is under it: they
 * remove another kind of it (`/user/tokens/{{token.id}}`), and none removes this one.
 */
export function madeElsewhere(ctx: RunContext, resource: string, instance: Instance, removals: readonly Operation[]): string | undefined {
  const create = instance.origin && ctx.project.operations.get(instance.origin.operation);
  if (create?.method !== 'POST' || create.resource !== resource) return undefined;
  const at = pathOnly(create.path);
  if (removals.some((op) => pathOnly(op.path).startsWith(`${at}/`))) return undefined;
  for (const op of ctx.project.operations.values()) {
    if (op.resource !== resource || op.method === 'POST' || !pathOnly(op.path).startsWith(`${at}/`)) continue;
    if (fieldsRead(ctx, op, resource).some((f) => instance.values[f] !== undefined)) return at;
  }
  return undefined;
}
