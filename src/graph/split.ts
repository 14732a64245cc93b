// How a project is cut into parts that can run apart (Vitest test files, `flow run --shard`):
// operations that share no state go to different parts. Two operations share state when the
// resources they touch meet; an operation touches its own resource and those of its
// prerequisites (the relation the Vitest suite's layout keeps blocks safe with). A part runs
// its own prerequisites, so a group too large for one part is cut by resource: each piece
// then re-runs the few prerequisites it shares with another (a login, a parent's create).
// Pure and deterministic: the same project gives the same parts, with the same ids, every run.
import type { ProjectGraph } from './build.js';
import { scheduleOrder } from './order.js';

export interface SplitPart {
  /** stable: the resource that names its largest group (a resource id, unique in the project) */
  id: string;
  /** the operations this part reports, in schedule order */
  operations: string[];
}

/**
 * Below this many operations a part is not worth a file of its own: under Vitest each file is a
 * fresh worker that loads the runtime and the project again, about 0.45 s of CPU (400 operations
 * in 40 files cost 20 s of CPU against 1.6 s in one file, BENCHMARKS.md).
 */
export const MIN_PART_OPERATIONS = 25;
/** At most this many parts, for the same reason. */
export const MAX_PARTS = 32;

/** The resources an operation reads or writes: its own and its prerequisites'. */
export function touchedResources(resource: string, prerequisites: Iterable<string>, resourceOf: (id: string) => string): Set<string> {
  const out = new Set([resource]);
  for (const id of prerequisites) out.add(resourceOf(id));
  return out;
}

/** `<resource>.<operation>`: the resource is everything before the last dot. */
export function resourceOfId(id: string): string {
  const dot = id.lastIndexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
}

/**
 * The parts of a project, largest first. One part when the project is small or all of one
 * piece that cannot be cut. Every operation is in exactly one part.
 */
export function splitProject(graph: ProjectGraph): SplitPart[] {
  const order = scheduleOrder(graph);
  const resourceOf = (id: string) => graph.project.operations.get(id)?.resource ?? resourceOfId(id);
  const groups = stateGroups(graph, order, resourceOf);
  const target = Math.max(MIN_PART_OPERATIONS, Math.ceil(order.length / MAX_PARTS));
  // a group much larger than a part is cut by resource
  const units = groups.flatMap((g) => (g.operations.length > 2 * target ? byResource(g.operations, resourceOf) : [g]));
  const count = Math.min(units.length, MAX_PARTS, Math.max(1, Math.floor(order.length / MIN_PART_OPERATIONS)));
  return pack(units, count, order);
}

/** Operations in the same connected component of the "touches" relation, by resource. */
function stateGroups(graph: ProjectGraph, order: string[], resourceOf: (id: string) => string): SplitPart[] {
  const parent = new Map<string, string>();
  const find = (r: string): string => {
    let root = r;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) root = up;
    parent.set(r, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)];
    // the smaller name wins, so a group's root does not depend on the order of the unions
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  };
  for (const id of order) {
    const own = resourceOf(id);
    find(own);
    // direct prerequisites suffice: the union is transitive
    const i = graph.indexOf.get(id)!;
    for (const need of graph.needs[i]) union(own, resourceOf(graph.opIds[need]));
  }
  const groups = new Map<string, string[]>();
  for (const id of order) {
    const root = find(resourceOf(id));
    const ops = groups.get(root);
    if (ops) ops.push(id);
    else groups.set(root, [id]);
  }
  return [...groups].map(([id, operations]) => ({ id, operations }));
}

function byResource(operations: string[], resourceOf: (id: string) => string): SplitPart[] {
  const pieces = new Map<string, string[]>();
  for (const id of operations) {
    const r = resourceOf(id);
    const ops = pieces.get(r);
    if (ops) ops.push(id);
    else pieces.set(r, [id]);
  }
  return [...pieces].map(([id, ops]) => ({ id, operations: ops }));
}

/**
 * `count` parts of about the same size: largest unit first into the smallest part (ties by
 * id, so the result is the same every run). A part is named after its largest unit.
 */
function pack(units: SplitPart[], count: number, order: string[]): SplitPart[] {
  const sorted = [...units].sort((a, b) => b.operations.length - a.operations.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const parts: Array<{ id: string; members: Set<string> }> = [];
  for (const unit of sorted) {
    if (parts.length < count) {
      parts.push({ id: unit.id, members: new Set(unit.operations) });
      continue;
    }
    let smallest = parts[0];
    for (const p of parts) if (p.members.size < smallest.members.size) smallest = p;
    for (const id of unit.operations) smallest.members.add(id);
  }
  // each part in schedule order
  const rank = new Map(order.map((id, i) => [id, i]));
  return parts.map((p) => ({ id: p.id, operations: [...p.members].sort((a, b) => rank.get(a)! - rank.get(b)!) }));
}

/**
 * The parts shard `index` of `count` runs (1-based, as `--shard 2/4`): every part in exactly
 * one shard, the shards about the same size (the same packing as the parts themselves).
 */
export function shardParts(parts: SplitPart[], index: number, count: number): SplitPart[] {
  const load = new Array<number>(count).fill(0);
  const mine: SplitPart[] = [];
  const sorted = [...parts].sort((a, b) => b.operations.length - a.operations.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const part of sorted) {
    let to = 0;
    for (let s = 1; s < count; s++) if (load[s] < load[to]) to = s;
    load[to] += part.operations.length;
    if (to === index - 1) mine.push(part);
  }
  return mine;
}
