// What explore may do with each resource, read from the graph: the operation that creates it
// (a POST that extracts what the others' paths read), reads it, updates it and deletes it
// (their paths hold `{{<resource>.…}}`: they act on one instance a create really made).
// Bulk operations (a DELETE, PUT or PATCH on a path with no `{{…}}`: a whole collection) only
// with --destructive; an operation whose prerequisites include one it may not send is left out,
// and so is one the caller says cannot be sent (a variable not given, a refused schema).
import { refersTo, scheduleOrder, type ProjectGraph } from '../graph/index.js';
import type { Operation, Project } from '../project/index.js';

export interface ResourceTargets {
  resource: string;
  create?: Operation;
  read?: Operation;
  /** PUT and PATCH on one instance, and POST actions on it (`/orders/{{order.id}}/publish`) */
  writes: Operation[];
  delete?: Operation;
  /** GETs of the collection (`/items`, `/lists/{{list.id}}/items`): what a write may break too */
  lists: Operation[];
  /** bulk operations, with --destructive only */
  bulk: Operation[];
}

export interface SkippedOperation {
  operation: string;
  why: string;
  /** W_EXPLORE_SCHEMA: its request schema cannot be drawn from */
  code?: 'W_EXPLORE_SCHEMA';
  /** where in the description, for a refused schema */
  pointer?: string;
  /** the <SET_VIA_--var> variables it (or a prerequisite, or its actor) needs and nobody gave */
  unset?: string[];
}

/** Why explore cannot send `op` (a variable not given, a refused schema); undefined when it can. */
export type Blocked = (op: Operation) => Omit<SkippedOperation, 'operation'> | undefined;

const BULK = new Set(['DELETE', 'PUT', 'PATCH']);

function isBulk(op: Operation): boolean {
  return BULK.has(op.method) && !op.path.includes('{{');
}

/** Why explore leaves `op` alone; undefined when it may use it. */
function unusable(op: Operation): string | undefined {
  if (op.forEach) return 'for_each: runs once per instance, not once per step';
  if (op.pollUntil) return 'poll_until: its answer is awaited, not checked once';
  return undefined;
}

export function resourceTargets(
  project: Project,
  graph: ProjectGraph,
  destructive: boolean,
  blocked: Blocked = () => undefined,
): { targets: ResourceTargets[]; skipped: SkippedOperation[] } {
  const skipped: SkippedOperation[] = [];
  const refused = (op: Operation) => !destructive && isBulk(op);
  const usable = (op: Operation): boolean => {
    const why = unusable(op) ?? (refused(op) ? `${op.method} on a collection path: a bulk change, only with --destructive` : undefined);
    const bulkFirst = why ? undefined : scheduleOrder(graph, [op.id]).find((id) => id !== op.id && refused(project.operations.get(id)!));
    if (why || bulkFirst) skipped.push({ operation: op.id, why: why ?? `its prerequisite ${bulkFirst} is a bulk change, only with --destructive` });
    const cannot = why || bulkFirst ? undefined : blocked(op);
    if (cannot) skipped.push({ operation: op.id, ...cannot });
    return !why && !bulkFirst && !cannot;
  };
  const targets: ResourceTargets[] = [];
  for (const resource of project.resources.values()) {
    const onInstance = (op: Operation) => refersTo(op.path, resource.id);
    const t: ResourceTargets = { resource: resource.id, writes: [], lists: [], bulk: [] };
    for (const id of resource.operations) {
      const op = project.operations.get(id)!;
      if (!usable(op)) continue;
      if (isBulk(op)) t.bulk.push(op);
      else if (op.method === 'POST' && !onInstance(op) && op.extract.length) t.create ??= op;
      else if (op.method === 'GET' && onInstance(op)) t.read ??= op;
      else if (op.method === 'GET') t.lists.push(op);
      else if (op.method === 'DELETE' && onInstance(op)) t.delete ??= op;
      else if ((op.method === 'PUT' || op.method === 'PATCH' || op.method === 'POST') && onInstance(op)) t.writes.push(op);
    }
    if (t.create || t.lists.length || t.bulk.length) targets.push(t);
  }
  return { targets, skipped };
}
