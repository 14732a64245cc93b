// Another instance of a prerequisite (docs/format.md#run-more-instances): an operation that reads
// `{{feature[-2].name}}` (the instance before the newest, another than the one `{{feature.name}}`
// names) or `{{feature[2].name}}` (the second) needs that many instances of the resource. A run
// makes one of each prerequisite; when it has fewer, it runs the resource's create again, which
// renders its own run-unique names and starts a new instance of the run's own (the clean-up
// removes it with the others, newest first). What a list read counts too: it is an instance.
import { type ProjectGraph, writeTarget } from '../graph/index.js';
import { withField } from '../runtime/index.js';
import type { RunState } from './state.js';

/** An index past this is not made (a project file is untrusted): the reference reads what there is. */
export const MAX_MADE_INDEX = 10;

export interface MoreNeeded {
  resource: string;
  field: string;
  /** as written: from 1 the n-th, from -1 the n-th newest that has the field */
  index: number;
  /** the resource's create that extracts the field */
  create: string;
}

const memo = new WeakMap<ProjectGraph, Map<string, MoreNeeded[]>>();

/** The indexed references of `opId` past the first instance that a create of their resource can make. */
export function moreNeeded(graph: ProjectGraph, opId: string): MoreNeeded[] {
  let byOp = memo.get(graph);
  if (!byOp) memo.set(graph, (byOp = new Map<string, MoreNeeded[]>()));
  let list = byOp.get(opId);
  if (list) return list;
  list = [];
  for (const site of graph.sitesOf('operation', opId)) {
    const e = site.expr;
    if (e?.kind !== 'scoped' || e.index === undefined || site.class !== 'resource') continue;
    const n = Math.abs(e.index);
    if (n < 2 || n > MAX_MADE_INDEX) continue;
    const create = graph.producers(e.scope, e.field).find((id) => id !== opId && createOf(graph, id, e.scope));
    if (create && !list.some((m) => m.resource === e.scope && m.field === e.field && m.index === e.index)) {
      list.push({ resource: e.scope, field: e.field, index: e.index, create });
    }
  }
  byOp.set(opId, list);
  return list;
}

function createOf(graph: ProjectGraph, opId: string, resource: string): boolean {
  const op = graph.project.operations.get(opId);
  return op?.resource === resource && writeTarget(graph, op).kind === 'create';
}

/** Whether the run has fewer instances than `need` reads. */
export function lacking(state: RunState, need: MoreNeeded): boolean {
  const values = state.values(need.resource) ?? [];
  return need.index > 0 ? values.length < need.index : withField(values, need.field) < -need.index;
}
