// What a write acts on (docs/format.md#ownership), from the method, the path's references and
// the extractions alone: the runner refuses a write on an instance this run did not create,
// holds back a switch nobody named, and cleans up what its creates made; lint warns where a
// list feeds a write.
import type { Operation } from '../project/index.js';
import type { ProjectGraph } from './build.js';
import type { RefSite } from './sites.js';

export type WriteTarget =
  /** GET, HEAD, OPTIONS: changes nothing */
  | { kind: 'read' }
  /** a POST that starts an instance of its own resource (it extracts what the answer names) */
  | { kind: 'create' }
  /** a write on the instance its path names last: `/projects/{{project.id}}/items/{{item.id}}` acts on the item */
  | { kind: 'instance'; resource: string; field: string; index?: number }
  /** a write whose path names no instance but holds an id the user gives (`{{env.id}}`, a --var) */
  | { kind: 'given' }
  /** a write whose path holds no id at all: settings, a maintenance switch, a profile, a collection */
  | { kind: 'switch' }
  /** a POST with no id in its path that extracts nothing and whose path nothing reads: an action (a search, an echo) */
  | { kind: 'action' };

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const READ: WriteTarget = { kind: 'read' };
const CREATE: WriteTarget = { kind: 'create' };
const GIVEN: WriteTarget = { kind: 'given' };
const SWITCH: WriteTarget = { kind: 'switch' };
const ACTION: WriteTarget = { kind: 'action' };

export function writeTarget(graph: ProjectGraph, op: Operation): WriteTarget {
  if (READS.has(op.method)) return READ;
  const path = graph.sitesOf('operation', op.id).filter((s) => s.section === 'path' && !s.nested);
  const named = path.filter(namesInstance);
  const last = named[named.length - 1];
  const own = named.some((s) => s.expr.scope === op.resource);
  // A POST under a parent (`/projects/{{project.id}}/items`) that extracts makes a new item.
  if (op.method === 'POST' && !own && createsInstance(op)) return CREATE;
  if (last)
    return { kind: 'instance', resource: last.expr.scope, field: last.expr.field, ...(last.expr.index !== undefined ? { index: last.expr.index } : {}) };
  if (path.length) return GIVEN;
  // A POST is a switch when the project also reads its path (`GET /maintenance` beside
  // `POST /maintenance`): it has a state, which can be read first and written back.
  if (op.method === 'POST' && !readPaths(graph).has(normalPath(op.path))) return ACTION;
  return SWITCH;
}

const readPathsOf = new WeakMap<ProjectGraph, Set<string>>();

/** The paths without references that some GET of the project reads as one thing (a list's path is a collection's). */
function readPaths(graph: ProjectGraph): Set<string> {
  let paths = readPathsOf.get(graph);
  if (!paths) {
    paths = new Set();
    const lists = new Set<string>();
    for (const op of graph.project.operations.values()) {
      if (op.method !== 'GET' || op.path.includes('{{')) continue;
      (op.extract.some((e) => e.path.includes('[*]')) ? lists : paths).add(normalPath(op.path));
    }
    for (const list of lists) paths.delete(list);
    readPathsOf.set(graph, paths);
  }
  return paths;
}

function normalPath(path: string): string {
  return path.replace(/[?#].*$/, '').replace(/\/+$/, '') || '/';
}

/** A write on an instance (or a switch) that only an `acts_on: existing` may send on data the run did not make. */
export function isInstanceWrite(t: WriteTarget): t is Extract<WriteTarget, { kind: 'instance' }> {
  return t.kind === 'instance';
}

type ScopedSite = RefSite & { expr: { kind: 'scoped'; scope: string; field: string; index?: number } };

function namesInstance(s: RefSite): s is ScopedSite {
  return s.class === 'resource' && s.expr?.kind === 'scoped';
}

/** One extraction that is not a fan-out: the answer names the one thing it made. */
function createsInstance(op: Operation): boolean {
  return op.extract.some((e) => !e.path.includes('[*]'));
}
