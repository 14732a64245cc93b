// The order of DELETEs among themselves (docs/format.md#run-prerequisites): a DELETE of an
// instance goes after every DELETE of what is nested in it, so that
// `/features/{{feature.name}}/strategies/{{strategy.id}}` is removed while its feature still
// takes writes, before `/features/{{feature.name}}`; and after the DELETEs of a resource whose
// writes name it in their body (a segment after the strategies attached to it: a server
// refuses to remove what is in use). Read from the paths and bodies alone.
import type { ProjectGraph } from './build.js';
import { goesOnPast, pathInstances, pathname } from './writes.js';

const levelsOf = new WeakMap<ProjectGraph, Int32Array>();

/**
 * Per operation number: 0 for every operation but a DELETE whose path ends with an instance
 * (`/features/{{feature.name}}`) that other DELETEs name with more path after it
 * (`/features/{{feature.name}}/strategies/{{strategy.id}}`, `…/variants`): 1 more than the
 * highest of those. DELETEs go by it, lowest first: the innermost ones first. Where nesting goes
 * round (`/a/{{a.id}}/b/{{b.id}}` beside `/b/{{b.id}}/a/{{a.id}}`) it decides nothing.
 * O(operations + path references).
 */
export function deleteLevels(graph: ProjectGraph): Int32Array {
  const cached = levelsOf.get(graph);
  if (cached) return cached;
  // per DELETE: the resource whose instance its path ends with, and those it names with more path after them
  const removes: Array<string | undefined> = [];
  const inside = new Map<string, Set<string>>(); // outer resource -> resources removed inside it ('' for none)
  graph.opIds.forEach((id, i) => {
    if (!graph.isDelete[i]) return;
    const op = graph.project.operations.get(id)!;
    // what the query names is no parent
    const name = pathname(op.path);
    const named = pathInstances(graph, op).filter((s) => name.includes(s.raw));
    const last = named.at(-1);
    const removed = last && !goesOnPast(op.path, last.raw) ? last.expr.scope : undefined;
    removes[i] = removed;
    for (const s of named) {
      if (s.expr.scope === removed) continue;
      let set = inside.get(s.expr.scope);
      if (!set) inside.set(s.expr.scope, (set = new Set()));
      set.add(removed ?? '');
    }
  });
  // a write whose body names another resource's instance (`segmentIds: ["{{segment.id}}"]`)
  // ties its own resource's instance to it, as a foreign key does: removed before it
  graph.opIds.forEach((id) => {
    const op = graph.project.operations.get(id)!;
    for (const s of graph.sitesOf('operation', id)) {
      if ((s.section !== 'body' && s.section !== 'body_form') || s.class !== 'resource' || s.expr?.kind !== 'scoped') continue;
      if (s.expr.scope === op.resource) continue;
      let set = inside.get(s.expr.scope);
      if (!set) inside.set(s.expr.scope, (set = new Set()));
      set.add(op.resource);
    }
  });
  const level = longestChains(inside);
  const out = new Int32Array(graph.size);
  removes.forEach((r, i) => {
    if (r !== undefined) out[i] = level.get(r) ?? 0;
  });
  levelsOf.set(graph, out);
  return out;
}

/**
 * For each outer resource, 1 + the highest level of what is removed inside it (a DELETE that
 * removes no instance counts 0): Kahn's algorithm over "removed inside", so a long chain needs
 * no recursion. Resources on a cycle keep what they had when it stalled.
 */
function longestChains(inside: Map<string, Set<string>>): Map<string, number> {
  const level = new Map<string, number>();
  const pending = new Map<string, number>();
  const outers = new Map<string, string[]>(); // inner -> the outer resources that wait for it
  for (const [outer, inners] of inside) {
    pending.set(outer, inners.size);
    for (const inner of inners) {
      if (!outers.has(inner)) outers.set(inner, []);
      outers.get(inner)!.push(outer);
    }
  }
  const ready = [...new Set([...outers.keys()].filter((r) => !pending.get(r)))];
  for (let k = 0; k < ready.length; k++) {
    const inner = ready[k];
    for (const outer of outers.get(inner) ?? []) {
      level.set(outer, Math.max(level.get(outer) ?? 0, (level.get(inner) ?? 0) + 1));
      const left = pending.get(outer)! - 1;
      pending.set(outer, left);
      if (left === 0) ready.push(outer);
    }
  }
  return level;
}
