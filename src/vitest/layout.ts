// How a flow suite is laid out: `describe` blocks per resource, tests in schedule order.
// Vitest runs blocks one after another, so grouping must never reorder two operations that
// could observe each other: an operation joins the previous block of its resource only when
// every operation it would overtake is independent of it. Otherwise a new block for the same
// resource starts (the schedule wins over tidiness; e.g. DELETEs stay last).
import { resourceOfId, touchedResources } from '../graph/index.js';
import type { HttpMethod } from '../project/index.js';

export interface LayoutOperation {
  id: string;
  resource: string;
  method: HttpMethod;
  /** every operation that runs before it, transitively (ids) */
  prerequisites: ReadonlySet<string>;
}

export interface SuiteBlock {
  resource: string;
  operations: string[];
}

export function suiteLayout(order: readonly LayoutOperation[]): SuiteBlock[] {
  const blocks: SuiteBlock[] = [];
  const lastBlockOf = new Map<string, number>();
  const byId = new Map(order.map((op) => [op.id, op]));
  for (const op of order) {
    const at = lastBlockOf.get(op.resource);
    const overtaken = at === undefined ? [] : blocks.slice(at + 1).flatMap((b) => b.operations.map((id) => byId.get(id)!));
    if (at !== undefined && overtaken.every((other) => independent(op, other, byId))) {
      blocks[at].operations.push(op.id);
      continue;
    }
    lastBlockOf.set(op.resource, blocks.length);
    blocks.push({ resource: op.resource, operations: [op.id] });
  }
  return blocks;
}

/** True when running `a` before `b` instead of after cannot change what either sees. */
function independent(a: LayoutOperation, b: LayoutOperation, byId: Map<string, LayoutOperation>): boolean {
  if (a.method === 'DELETE' || b.method === 'DELETE') return false;
  if (a.prerequisites.has(b.id) || b.prerequisites.has(a.id)) return false;
  const touched = resourcesOf(b, byId);
  for (const r of resourcesOf(a, byId)) if (touched.has(r)) return false;
  return true;
}

/** The resources whose state an operation (or one of its prerequisites) reads or writes. */
function resourcesOf(op: LayoutOperation, byId: Map<string, LayoutOperation>): Set<string> {
  return touchedResources(op.resource, op.prerequisites, (id) => byId.get(id)?.resource ?? resourceOfId(id));
}
