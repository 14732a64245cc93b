// A value nothing produced because the list that extracts it found no item: on a fresh server
// a list is empty until something is made, and a list scheduled before the create of its
// resource reads nothing. Said in E_VAR_UNRESOLVED's details (the reporters word the hint;
// calibrate tries the list after a create, and proposes `depends_on` when it then finds one).
import { isFanOutPath, prerequisites, writeTarget, type ProjectGraph } from '../graph/index.js';
import type { OperationResult } from './types.js';

export interface EmptyList {
  /** the list that ran and found nothing */
  producer: string;
  /** its extraction of the field (`$.features[*].name`) */
  path: string;
  /** the creates of the resource the list does not run after yet, and that do not need the list */
  creates: string[];
  /** the creates of the resource it runs after already (and still found nothing) */
  after: string[];
}

/** The producer of `scope.field` that ran, passed, and whose fan-out extraction of it found no item; undefined when none did. */
export function emptyList(graph: ProjectGraph, latest: (op: string) => OperationResult | undefined, scope: string, field: string): EmptyList | undefined {
  const project = graph.project;
  for (const producer of graph.producers(scope, field)) {
    const result = latest(producer);
    const spec = project.operations.get(producer)?.extract.find((x) => x.name === field);
    const got = result?.extracted[field];
    if (result?.status !== 'passed' || !spec || !isFanOutPath(spec.path) || !Array.isArray(got) || got.length) continue;
    const before = new Set(prerequisites(graph, producer));
    const all = (project.resources.get(scope)?.operations ?? []).filter((id) => {
      const op = project.operations.get(id);
      return op && writeTarget(graph, op).kind === 'create';
    });
    // a create that needs the list first would make a cycle
    const creates = all.filter((id) => !before.has(id) && !prerequisites(graph, id).includes(producer));
    return { producer, path: spec.path, creates, after: all.filter((id) => before.has(id)) };
  }
  return undefined;
}

/** The empty list a result's E_VAR_UNRESOLVED names, read back from its details; undefined when none. */
export function emptyListOf(result: OperationResult): (EmptyList & { reference: string; field: string; scope: string }) | undefined {
  const d = result.error?.code === 'E_VAR_UNRESOLVED' ? result.error.details : undefined;
  const e = d?.emptyList as Partial<EmptyList> | undefined;
  if (!e || typeof e.producer !== 'string' || typeof e.path !== 'string' || !Array.isArray(e.creates) || !Array.isArray(e.after)) return undefined;
  if (typeof d!.reference !== 'string' || typeof d!.field !== 'string' || typeof d!.scope !== 'string') return undefined;
  const ids = (list: unknown[]) => list.filter((c): c is string => typeof c === 'string');
  return { producer: e.producer, path: e.path, creates: ids(e.creates), after: ids(e.after), reference: d!.reference, field: d!.field, scope: d!.scope };
}
