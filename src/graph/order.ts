// Schedule order: Kahn's algorithm, ready operations taken by (DELETE last, the DELETEs of what
// is nested in an instance before its own, declaration order).
import { FlowError } from '../errors.js';
import type { ProjectGraph } from './build.js';
import { deleteLevels } from './delete-order.js';
import { didYouMean } from './suggest.js';

/**
 * Every operation of the project (or of `opIds` and their prerequisites) in an order where
 * each runs after its prerequisites. Ties go by declaration order, and among ready
 * operations a DELETE waits until nothing else is ready, and a DELETE of an instance until no
 * DELETE of what is nested in it is (delete-order.ts). Cycles (a lint error) never stall
 * it: when nothing is ready, the first waiting operation in that same priority goes next.
 * O(V log V + E) in the operations concerned. Throws E_REF_UNDEFINED for an unknown id.
 */
export function scheduleOrder(graph: ProjectGraph, opIds?: readonly string[]): string[] {
  const members = opIds ? closure(graph, indexesOf(graph, opIds), -1) : graph.opIds.map((_, i) => i);
  return kahn(graph, members).map((i) => graph.opIds[i]);
}

/**
 * The prerequisites of `opId`, transitively, in a valid schedule order; the operation itself
 * is not included (even when a cycle leads back to it). Costs the size of its closure, not
 * of the project, so calling it for every operation stays cheap.
 */
export function prerequisites(graph: ProjectGraph, opId: string): string[] {
  const [self] = indexesOf(graph, [opId]);
  return kahn(graph, closure(graph, graph.needs[self], self)).map((i) => graph.opIds[i]);
}

function indexesOf(graph: ProjectGraph, opIds: readonly string[]): number[] {
  return opIds.map((id) => {
    const i = graph.indexOf.get(id);
    if (i === undefined) throw new FlowError('E_REF_UNDEFINED', `unknown operation "${id}"${didYouMean(id, graph.opIds)}`, { operation: id });
    return i;
  });
}

/**
 * Per-graph scratch arrays, reused across calls: `mark[i] === epoch` means "in the current
 * set", so a call on a small closure never touches the whole project.
 */
interface Scratch {
  epoch: number;
  mark: Int32Array;
  local: Int32Array;
}

const scratches = new WeakMap<ProjectGraph, Scratch>();

function scratchFor(graph: ProjectGraph): Scratch {
  let s = scratches.get(graph);
  if (!s) scratches.set(graph, (s = { epoch: 0, mark: new Int32Array(graph.size), local: new Int32Array(graph.size) }));
  s.epoch++;
  return s;
}

/** The seeds and every operation reachable from them through `needs`, except `excluded`. */
function closure(graph: ProjectGraph, seeds: readonly number[], excluded: number): number[] {
  const { mark, epoch } = scratchFor(graph);
  if (excluded >= 0) mark[excluded] = epoch;
  const members: number[] = [];
  const visit = (i: number) => {
    if (mark[i] === epoch) return;
    mark[i] = epoch;
    members.push(i);
  };
  seeds.forEach(visit);
  for (let k = 0; k < members.length; k++) for (const w of graph.needs[members[k]]) visit(w);
  return members;
}

/**
 * Kahn's algorithm over `members` (which hold every prerequisite of each member, but
 * possibly an excluded operation). Members are numbered locally in priority order, so the
 * ready queue orders by that number alone.
 */
function kahn(graph: ProjectGraph, members: number[]): number[] {
  const n = graph.size;
  const { needs, isDelete } = graph;
  const levels = deleteLevels(graph);
  const m = members.length;
  const priority = (i: number) => (isDelete[i] ? (1 + levels[i]) * n + i : i);
  members.sort((a, b) => priority(a) - priority(b));
  const { mark, local, epoch } = scratchFor(graph);
  members.forEach((op, j) => {
    mark[op] = epoch;
    local[op] = j;
  });
  // Dependents within the set, as compressed rows: who waits for local j.
  const pending = new Int32Array(m);
  const rowStart = new Int32Array(m + 1);
  for (let j = 0; j < m; j++) {
    for (const w of needs[members[j]]) {
      if (mark[w] !== epoch) continue;
      pending[j]++;
      rowStart[local[w] + 1]++;
    }
  }
  for (let j = 0; j < m; j++) rowStart[j + 1] += rowStart[j];
  const fill = rowStart.slice(0, m);
  const dependents = new Int32Array(rowStart[m]);
  for (let j = 0; j < m; j++) {
    for (const w of needs[members[j]]) if (mark[w] === epoch) dependents[fill[local[w]]++] = j;
  }

  const state = new Uint8Array(m); // 0 waiting, 1 queued, 2 scheduled
  const heap = new MinHeap(m);
  for (let j = 0; j < m; j++) {
    if (pending[j] === 0) {
      heap.push(j);
      state[j] = 1;
    }
  }
  const out: number[] = [];
  let forced = 0;
  while (out.length < m) {
    if (heap.size === 0) {
      // Only cycles are left: release the first waiting operation by priority.
      while (state[forced] !== 0) forced++;
      heap.push(forced);
      state[forced] = 1;
    }
    const j = heap.pop();
    state[j] = 2;
    out.push(members[j]);
    for (let r = rowStart[j]; r < rowStart[j + 1]; r++) {
      const d = dependents[r];
      if (state[d] === 0 && --pending[d] === 0) {
        heap.push(d);
        state[d] = 1;
      }
    }
  }
  return out;
}

/** A binary min-heap of non-negative integers. */
class MinHeap {
  private readonly items: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.items = new Int32Array(Math.max(1, capacity));
  }

  push(value: number): void {
    const a = this.items;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (a[parent] <= value) break;
      a[i] = a[parent];
      i = parent;
    }
    a[i] = value;
  }

  pop(): number {
    const a = this.items;
    const top = a[0];
    const last = a[--this.size];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && a[child + 1] < a[child]) child++;
      if (a[child] >= last) break;
      a[i] = a[child];
      i = child;
    }
    a[i] = last;
    return top;
  }
}
