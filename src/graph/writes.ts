// What a write acts on (docs/format.md#ownership), from the method, the path's references, the
// extractions and the expected status alone (and the paths of the project beside it): the
// runner refuses a write on an instance this run did not create, holds back a switch nobody
// named, and cleans up what its creates made; lint warns where a list feeds a write.
import type { Operation } from '../project/index.js';
import type { ProjectGraph } from './build.js';
import type { RefSite } from './sites.js';

export type WriteTarget =
  /** GET, HEAD, OPTIONS: changes nothing */
  | { kind: 'read' }
  /**
   * a POST that starts an instance of its own resource: it extracts what the answer names, or
   * (`byStatus`) it extracts nothing and is expected to answer 201 Created in a collection of the
   * resource (`createsInCollection`): it made something only when it answers 201
   */
  | { kind: 'create'; byStatus?: true }
  /**
   * a write on the instance its path names last (`/projects/{{project.id}}/items/{{item.id}}` acts
   * on the item), or before a scope the server has (`/features/{{feature.name}}/environments/{{environment.name}}/on`
   * acts on the feature: see `actedOn`)
   */
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
const CREATE_BY_STATUS: WriteTarget = { kind: 'create', byStatus: true };
const GIVEN: WriteTarget = { kind: 'given' };
const SWITCH: WriteTarget = { kind: 'switch' };
const ACTION: WriteTarget = { kind: 'action' };

export function writeTarget(graph: ProjectGraph, op: Operation): WriteTarget {
  if (READS.has(op.method)) return READ;
  const path = pathSites(graph, op);
  const named = path.filter(namesInstance);
  const about = answersAbout(graph, op);
  // A POST under a parent (`/projects/{{project.id}}/items`) that extracts, or answers 201 there, makes a new item.
  if (isCreate(graph, op, named, about)) return createsInstance(op) ? CREATE : CREATE_BY_STATUS;
  const last = actedOn(graph, op, named) ?? about;
  if (last)
    return { kind: 'instance', resource: last.expr.scope, field: last.expr.field, ...(last.expr.index !== undefined ? { index: last.expr.index } : {}) };
  if (path.length) return GIVEN;
  // A POST is a switch when the project also reads its path (`GET /maintenance` beside
  // `POST /maintenance`): it has a state, which can be read first and written back.
  if (op.method === 'POST' && (!readPaths(graph).has(normalPath(op.path)) || hasInstances(graph, op.resource))) return ACTION;
  return SWITCH;
}

function pathSites(graph: ProjectGraph, op: Operation): RefSite[] {
  return graph.sitesOf('operation', op.id).filter((s) => s.section === 'path' && !s.nested);
}

/** The instances the path names (`{{item.id}}`, not `{{env.id}}`), in order, query included. */
export function pathInstances(graph: ProjectGraph, op: Operation): ScopedSite[] {
  return pathSites(graph, op).filter(namesInstance);
}

function isCreate(graph: ProjectGraph, op: Operation, named: readonly ScopedSite[], about = answersAbout(graph, op)): boolean {
  if (op.method !== 'POST' || named.some((s) => s.expr.scope === op.resource)) return false;
  return createsInCollection(graph, op) || (createsInstance(op) && !about);
}

/**
 * The instance of its own resource that a POST's body names, when the POST answers something
 * about it rather than a new one: away from the resource's own collection, it extracts none of
 * the fields that body names it by nor those by which the resource's operations address one in
 * their paths (`POST /users/reset-password {"email": "{{user.email}}"}` extracting a reset link's
 * token acts on that user). At the collection, a body naming another instance (a reply's parent)
 * still makes a new one.
 */
function answersAbout(graph: ProjectGraph, op: Operation): ScopedSite | undefined {
  if (op.method !== 'POST' || !createsInstance(op) || atOwnCollection(graph, op)) return undefined;
  const own = graph
    .sitesOf('operation', op.id)
    .filter((s): s is ScopedSite => s.section === 'body' && !s.nested && namesInstance(s) && s.expr.scope === op.resource);
  if (own.length !== 1) return undefined;
  const identity = new Set([own[0].expr.field, ...addressedBy(graph, op.resource)]);
  return op.extract.some((e) => identity.has(e.name)) ? undefined : own[0];
}

/** The fields by which a resource's operations name one of its instances in their paths (`/items/{{item.id}}`: `id`). */
function addressedBy(graph: ProjectGraph, resource: string): string[] {
  return (graph.project.resources.get(resource)?.operations ?? []).flatMap((id) =>
    pathInstances(graph, graph.project.operations.get(id)!)
      .filter((s) => s.expr.scope === resource)
      .map((s) => s.expr.field),
  );
}

/**
 * A POST expected to answer 201 Created, and nothing else (a new resource was made, RFC 9110), to
 * a collection of its own resource: its path ends with a literal segment
 * (`/projects/{{project.id}}/tokens`) and another operation of the resource addresses one thing
 * under it (`/projects/{{project.id}}/tokens/{{env.token}}`). It makes a new thing, whether or not
 * the project extracts from its answer, and changes none of the instances its path names. An
 * action (`/items/{{item.id}}/archive`) has no such path under it: it may change what its path
 * names, and it stays a write on that. A list of statuses (`[200, 201]`) may answer with
 * something that was there: not a create either.
 */
function createsInCollection(graph: ProjectGraph, op: Operation): boolean {
  if (op.expectStatus?.length !== 1 || op.expectStatus[0] !== 201) return false;
  return atOwnCollection(graph, op);
}

/**
 * Whether the operation's path is a collection of its own resource: it ends with a literal
 * segment, and another operation of the resource addresses one thing under it.
 */
export function atOwnCollection(graph: ProjectGraph, op: Operation): boolean {
  const segments = normalPath(op.path).split('/');
  if (segments.at(-1)!.includes('{{')) return false;
  return collections(graph).get(op.resource)?.has(shape(segments)) ?? false;
}

const collectionsOf = new WeakMap<ProjectGraph, Map<string, Set<string>>>();

/** Per resource, the shapes of the paths under which one of its operations addresses one thing (`/tokens/{{…}}` gives `/tokens`). */
function collections(graph: ProjectGraph): Map<string, Set<string>> {
  let byResource = collectionsOf.get(graph);
  if (!byResource) {
    byResource = new Map();
    for (const op of graph.project.operations.values()) {
      const segments = normalPath(op.path).split('/');
      if (segments.length < 2 || !segments.at(-1)!.includes('{{')) continue;
      let set = byResource.get(op.resource);
      if (!set) byResource.set(op.resource, (set = new Set()));
      set.add(shape(segments.slice(0, -1)));
      // `/projects/{{…}}.json` is one thing of the collection `/projects.json` too
      const ext = formatExtension(segments.at(-1)!);
      if (ext) set.add(shape(segments.slice(0, -1)) + ext);
    }
    collectionsOf.set(graph, byResource);
  }
  return byResource;
}

/** The format extension after a segment's reference (`{{issue.id}}.json` -> `.json`), else ''. */
export function formatExtension(segment: string): string {
  return /\}\}(\.[A-Za-z0-9]{1,8})$/.exec(segment)?.[1] ?? '';
}

/** A path's segments with each one that holds a reference as `{}` (references of any name stand for any value). */
function shape(segments: readonly string[]): string {
  return segments.map((s) => (s.includes('{{') ? '{}' : s)).join('/');
}

/**
 * The instance a write acts on: the one its path names last, unless the path goes on past it
 * (`/features/{{feature.name}}/environments/{{environment.name}}/on`, `…/variants`) and it is of
 * a resource the project has no create for, a scope the server has (an environment, a locale, a
 * region). Then the write changes the nearest instance before it of a resource the project can
 * create: the feature's settings in that environment, not the environment. A path that ends
 * with an instance (`/projects/{{project.id}}/items/{{item.id}}`) names the instance it writes:
 * a server may find it by its id alone, whatever its parents, so that one it stays. So does an
 * instance named only in the query, and a path with no instance the project can create before.
 */
function actedOn(graph: ProjectGraph, op: Operation, named: readonly ScopedSite[]): ScopedSite | undefined {
  const last = named.at(-1);
  if (!last || !goesOnPast(op.path, last.raw)) return last;
  const creatable = creatableResources(graph);
  for (let k = named.length - 1; k >= 0; k--) if (creatable.has(named[k].expr.scope)) return named[k];
  return last;
}

/** Whether the path (its query aside) has a segment after `raw`: a sub-collection or an action of what `raw` names. */
export function goesOnPast(path: string, raw: string): boolean {
  const name = pathname(path);
  const at = name.lastIndexOf(raw);
  return at >= 0 && /\/[^/]/.test(name.slice(at + raw.length));
}

/** The path without its query or fragment. */
export function pathname(path: string): string {
  return path.replace(/[?#].*$/, '');
}

/** A path template without its query, fragment and trailing slashes: `/items/{{item.id}}/?x=1` -> `/items/{{item.id}}`. */
export function pathOnly(path: string): string {
  return pathname(path).replace(/\/+$/, '');
}

const creatableOf = new WeakMap<ProjectGraph, Set<string>>();

/** The resources the project has a create for (a run can own an instance of them). */
function creatableResources(graph: ProjectGraph): Set<string> {
  let set = creatableOf.get(graph);
  if (!set) {
    set = new Set();
    for (const op of graph.project.operations.values()) {
      if (isCreate(graph, op, pathInstances(graph, op))) set.add(op.resource);
    }
    creatableOf.set(graph, set);
  }
  return set;
}

/**
 * A resource some operation of which names one instance in its path (`/items/{{item.id}}`,
 * `/buckets/{{env.bucket_id}}`): a POST to its collection makes one, whether or not the
 * project extracts its id yet. A switch's resource has no such path.
 */
function hasInstances(graph: ProjectGraph, resource: string): boolean {
  for (const id of graph.project.resources.get(resource)?.operations ?? []) {
    if (graph.sitesOf('operation', id).some((s) => s.section === 'path' && !s.nested)) return true;
  }
  return false;
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
  return pathname(path).replace(/\/+$/, '') || '/';
}

/** A write on an instance (or a switch) that only an `acts_on: existing` may send on data the run did not make. */
export function isInstanceWrite(t: WriteTarget): t is Extract<WriteTarget, { kind: 'instance' }> {
  return t.kind === 'instance';
}

export type ScopedSite = RefSite & { expr: { kind: 'scoped'; scope: string; field: string; index?: number } };

function namesInstance(s: RefSite): s is ScopedSite {
  return s.class === 'resource' && s.expr?.kind === 'scoped';
}

/** One extraction that is not a fan-out: the answer names the one thing it made. */
function createsInstance(op: Operation): boolean {
  return op.extract.some((e) => !e.path.includes('[*]'));
}
