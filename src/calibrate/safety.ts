// What calibrate may send: reads always; writes with --writes; DELETEs and bulk changes
// (a PUT or PATCH with no {{…}} id in its path) with --destructive as well. An operation
// whose prerequisite may not run does not run either, nor one that needs a <SET_VIA_--var>
// nobody gave (the others still run). Actors' logins are always allowed: they authenticate,
// they change no data of the API.
import { scheduleOrder, type ProjectGraph } from '../graph/index.js';
import type { Operation, Project } from '../project/index.js';
import { needsVars } from '../runner/index.js';
import { producersOf } from './links.js';
import type { CalibrationPlan, NotRun, SafetyFlags } from './types.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why `op` may not be sent under `flags`; undefined when it may. */
export function refusal(op: Operation, flags: SafetyFlags): string | undefined {
  if (READS.has(op.method)) return undefined;
  const bulk = (op.method === 'PATCH' || op.method === 'PUT') && !op.path.includes('{{');
  if (op.method === 'DELETE' || bulk) {
    if (flags.writes && flags.destructive) return undefined;
    const what = op.method === 'DELETE' ? 'DELETE deletes' : `${op.method} without an id in its path changes many items`;
    return `${what}: needs --writes and --destructive`;
  }
  return flags.writes ? undefined : `${op.method} writes: needs --writes`;
}

/** Why `id`, or else the first of its prerequisites that may not be sent under the flags, may not run; undefined when all may. */
export function refusalWithPrerequisites(graph: ProjectGraph, id: string, refusalOf: (id: string) => string | undefined): string | undefined {
  const own = refusalOf(id);
  if (own) return own;
  const blocked = scheduleOrder(graph, [id]).find((p) => p !== id && refusalOf(p));
  return blocked ? `its prerequisite ${blocked} may not run (${refusalOf(blocked)})` : undefined;
}

export function planCalibration(project: Project, graph: ProjectGraph, asked: readonly string[], flags: SafetyFlags): CalibrationPlan {
  const run: string[] = [];
  const notRun: NotRun[] = [];
  const refused = new Map<string, string | undefined>();
  const refusalOf = (id: string) => {
    if (!refused.has(id)) refused.set(id, refusal(project.operations.get(id)!, flags));
    return refused.get(id);
  };
  const added = withProducers(project, graph, asked, (id) => !refusalOf(id));
  for (const id of [...asked, ...added.map((a) => a.operation)]) {
    const refused = refusalWithPrerequisites(graph, id, refusalOf);
    if (refused) {
      notRun.push({ operation: id, why: refused });
      continue;
    }
    const unset = flags.unsetVariables?.(project, scheduleOrder(graph, [id])) ?? [];
    if (unset.length) notRun.push({ operation: id, why: needsVars(unset), variables: unset });
    else run.push(id);
  }
  return { run, order: run.length ? scheduleOrder(graph, run) : [], notRun, added };
}

/**
 * A leaf pulls its chain: the creates of every id given from outside in the path of an asked
 * operation or of its prerequisites, and theirs in turn, so that one calibrate proves each
 * link (prove-links.ts). Only those that may run are added; each is named with what needs it.
 */
function withProducers(project: Project, graph: ProjectGraph, asked: readonly string[], mayRun: (id: string) => boolean): CalibrationPlan['added'] {
  // what runs anyway (the asked operations and their prerequisites) is not added
  const seen = new Set(asked.length ? scheduleOrder(graph, asked) : []);
  const added: CalibrationPlan['added'] = [];
  const queue = [...asked];
  while (queue.length) {
    const id = queue.shift()!;
    for (const needed of scheduleOrder(graph, [id])) {
      for (const producer of producersOf(project, needed)) {
        if (seen.has(producer.id) || !mayRun(producer.id)) continue;
        seen.add(producer.id);
        added.push({ operation: producer.id, for: needed });
        queue.push(producer.id);
      }
    }
  }
  return added;
}
