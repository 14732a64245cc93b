// Cycles of the dependency graph (docs/format.md#cycles), each as a printable path.
import type { ProjectGraph } from './build.js';

/**
 * The cycles closed by the back edges of a depth-first search in declaration order: each as
 * a path of operation ids with the first repeated at the end (`a.x -> b.y -> a.x` when
 * joined with " -> "), rotated to start at its earliest declared operation, each reported
 * once, sorted by declaration order. Every cycle of the graph contains the closing edge of
 * one reported cycle, so a project without reported cycles is acyclic. Linear in the size
 * of the graph (iterative: no recursion depth limit).
 */
export function findCycles(graph: ProjectGraph): string[][] {
  const cycles = new Map<string, number[]>();
  for (const cycle of backEdgeCycles(graph)) {
    const canonical = rotateToMin(cycle);
    const key = canonical.join(',');
    if (!cycles.has(key)) cycles.set(key, canonical);
  }
  return [...cycles.values()].sort(compareSequences).map((c) => [...c, c[0]].map((i) => graph.opIds[i]));
}

/** One cycle (without the repeated end) per back edge, found on the DFS path. */
function backEdgeCycles(graph: ProjectGraph): number[][] {
  const n = graph.size;
  const { needs } = graph;
  const state = new Uint8Array(n); // 0 unseen, 1 on the path, 2 finished
  const next = new Int32Array(n); // per node: the next successor to look at
  const posOnPath = new Int32Array(n);
  const path: number[] = [];
  const found: number[][] = [];
  for (let root = 0; root < n; root++) {
    if (state[root]) continue;
    state[root] = 1;
    posOnPath[root] = 0;
    path.push(root);
    while (path.length) {
      const v = path[path.length - 1];
      const succ = needs[v];
      if (next[v] < succ.length) {
        const w = succ[next[v]++];
        if (state[w] === 0) {
          state[w] = 1;
          posOnPath[w] = path.length;
          path.push(w);
        } else if (state[w] === 1) {
          found.push(path.slice(posOnPath[w]));
        }
      } else {
        state[v] = 2;
        path.pop();
      }
    }
  }
  return found;
}

function rotateToMin(cycle: number[]): number[] {
  let min = 0;
  for (let i = 1; i < cycle.length; i++) if (cycle[i] < cycle[min]) min = i;
  return [...cycle.slice(min), ...cycle.slice(0, min)];
}

function compareSequences(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
