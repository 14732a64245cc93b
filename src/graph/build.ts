// The dependency graph of a project (docs/format.md#dependencies): who produces each resource field, and what
// each operation needs first, implicitly (references) and explicitly (depends_on).
import type { Operation, Project, YamlPath } from '../project/index.js';
import { collectSites, type OwnerKind, type RefSite } from './sites.js';

type EdgeKind = 'implicit' | 'explicit';

/** `from` needs `to` to have run first. */
export interface Edge {
  from: string;
  to: string;
  kind: EdgeKind;
  /** the reference as written (`{{order.id}}`) or the depends_on entry */
  via: string;
  /** where the reference or the depends_on entry is written */
  file: string;
  yamlPath: YamlPath;
  /** for an implicit edge: the reference it comes from (it may sit in the operation's actor) */
  site?: RefSite;
}

/** A resource reference of an operation that only the operation itself extracts: no edge. */
export interface SelfProducedRef {
  opId: string;
  site: RefSite;
}

export class ProjectGraph {
  /** operation ids in declaration order; an operation's number is its index here */
  readonly opIds: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** every reference site: environments, then actors, then operations, each in document order */
  readonly refs: readonly RefSite[];
  /** per operation number: its edges, one per (target, kind), explicit ones first */
  readonly edges: ReadonlyArray<readonly Edge[]>;
  /** per operation number: the distinct numbers of its prerequisites, ascending */
  readonly needs: ReadonlyArray<readonly number[]>;
  /** per operation number: the numbers of the operations that need it, ascending */
  readonly neededBy: ReadonlyArray<readonly number[]>;
  /** per operation number: 1 for DELETE (scheduled last among ready operations) */
  readonly isDelete: Uint8Array;
  readonly selfProduced: readonly SelfProducedRef[];

  private readonly producerIndex: Map<string, Map<string, string[]>>;
  private readonly sitesByOwner: Record<OwnerKind, Map<string, RefSite[]>>;

  constructor(
    readonly project: Project,
    parts: {
      refs: RefSite[];
      edges: Edge[][];
      producers: Map<string, Map<string, string[]>>;
      sitesByOwner: Record<OwnerKind, Map<string, RefSite[]>>;
      selfProduced: SelfProducedRef[];
    },
  ) {
    this.opIds = [...project.operations.keys()];
    this.indexOf = new Map(this.opIds.map((id, i) => [id, i]));
    this.refs = parts.refs;
    this.edges = parts.edges;
    this.producerIndex = parts.producers;
    this.sitesByOwner = parts.sitesByOwner;
    this.selfProduced = parts.selfProduced;
    this.isDelete = new Uint8Array(this.opIds.length);
    this.opIds.forEach((id, i) => {
      if (project.operations.get(id)?.method === 'DELETE') this.isDelete[i] = 1;
    });
    const needs: number[][] = this.opIds.map(() => []);
    const neededBy: number[][] = this.opIds.map(() => []);
    parts.edges.forEach((list, i) => {
      if (list.length === 0) return;
      const targets = new Set<number>();
      for (const e of list) targets.add(this.indexOf.get(e.to)!);
      needs[i] = [...targets].sort((a, b) => a - b);
    });
    // Built in ascending `from` order, so each list is ascending too.
    needs.forEach((list, i) => list.forEach((t) => neededBy[t].push(i)));
    this.needs = needs;
    this.neededBy = neededBy;
  }

  get size(): number {
    return this.opIds.length;
  }

  /** The operations that extract `resource.field`, in declaration order. */
  producers(resource: string, field: string): readonly string[] {
    return this.producerIndex.get(resource)?.get(field) ?? [];
  }

  /** The fields some operation of `resource` extracts, in first-extraction order. */
  fieldsOf(resource: string): readonly string[] {
    return [...(this.producerIndex.get(resource)?.keys() ?? [])];
  }

  /** The edges of an operation (what it needs); empty for an unknown id. */
  edgesOf(opId: string): readonly Edge[] {
    const i = this.indexOf.get(opId);
    return i === undefined ? [] : this.edges[i];
  }

  /** The edge `from -> to`, explicit first (the one a user would remove to break a cycle). */
  edgeBetween(from: string, to: string): Edge | undefined {
    const list = this.edgesOf(from);
    return list.find((e) => e.to === to && e.kind === 'explicit') ?? list.find((e) => e.to === to);
  }

  /** The reference sites written in an operation, actor or environment. */
  sitesOf(kind: OwnerKind, id: string): readonly RefSite[] {
    return this.sitesByOwner[kind].get(id) ?? NONE;
  }
}

export function buildGraph(project: Project): ProjectGraph {
  const sites = collectSites(project);
  const producers = producerIndex(project);
  const actorNeeds = new ActorNeeds(project, sites.byActor);
  const selfProduced: SelfProducedRef[] = [];
  const edges: Edge[][] = [];
  for (const op of project.operations.values()) {
    const own = sites.byOperation.get(op.id) ?? [];
    edges.push(edgesOf(op, project, producers, actorNeeds.forOperation(op, own), selfProduced));
  }
  const sitesByOwner = { environment: sites.byEnvironment, actor: sites.byActor, operation: sites.byOperation };
  return new ProjectGraph(project, { refs: sites.all, edges, producers, sitesByOwner, selfProduced });
}

/**
 * resource -> field -> producing operation ids, in declaration order
 * (docs/format.md#extractions-per-resource, #references).
 */
function producerIndex(project: Project): Map<string, Map<string, string[]>> {
  const index = new Map<string, Map<string, string[]>>();
  for (const op of project.operations.values()) {
    let fields = index.get(op.resource);
    if (!fields) index.set(op.resource, (fields = new Map()));
    for (const ex of op.extract) {
      const list = fields.get(ex.name);
      if (!list) fields.set(ex.name, [op.id]);
      else if (list[list.length - 1] !== op.id) list.push(op.id);
    }
  }
  return index;
}

function edgesOf(
  op: Operation,
  project: Project,
  producers: Map<string, Map<string, string[]>>,
  resourceSites: readonly RefSite[],
  selfProduced: SelfProducedRef[],
): Edge[] {
  const out: Edge[] = [];
  const add = (edge: Edge) => {
    // Operations have few edges: a scan is cheaper than a set per operation.
    for (const e of out) if (e.to === edge.to && e.kind === edge.kind) return;
    out.push(edge);
  };
  for (const dep of dependsOnEntries(op)) {
    if (project.operations.has(dep.target)) {
      add({ from: op.id, to: dep.target, kind: 'explicit', via: dep.target, file: op.file, yamlPath: dep.yamlPath });
    }
  }
  for (const site of resourceSites) {
    const expr = site.expr;
    if (expr?.kind !== 'scoped') continue;
    // Inside `for_each: order`, {{order.f}} is the instance of the iteration; the operation
    // that lists them is named in depends_on (docs/format.md#run-loops), so no producer is implied.
    if (expr.scope === op.forEach && expr.index === undefined) continue;
    const list = producers.get(expr.scope)?.get(expr.field) ?? [];
    // the first declared producer, never the operation itself (docs/design.md#first-producer)
    const to = list[0] === op.id ? list[1] : list[0];
    if (to === undefined) {
      if (list.length) selfProduced.push({ opId: op.id, site });
      continue;
    }
    add({ from: op.id, to, kind: 'implicit', via: site.raw, file: site.file, yamlPath: site.yamlPath, site });
  }
  return out;
}

/** The depends_on entries with their paths (from the map as written, so indexes are true). */
export function dependsOnEntries(op: Operation): Array<{ target: string; yamlPath: YamlPath }> {
  const written = op.raw.depends_on;
  const list: unknown[] = Array.isArray(written) ? written : op.dependsOn;
  const out: Array<{ target: string; yamlPath: YamlPath }> = [];
  list.forEach((target, i) => {
    if (typeof target === 'string') out.push({ target, yamlPath: [...op.yamlPath, 'depends_on', i] });
  });
  return out;
}

/**
 * The resource references an operation carries through actors: its own actor's login
 * (`auth`, `session`) and `inject` headers, and the login of every actor whose session it
 * reads (`{{admin.token}}`), transitively.
 */
class ActorNeeds {
  private readonly login = new Map<string, RefSite[]>();
  private readonly request = new Map<string, RefSite[]>();

  constructor(
    private readonly project: Project,
    private readonly sites: Map<string, RefSite[]>,
  ) {}

  /** Own sites first, then those through actors; resource references only, each once. */
  forOperation(op: Operation, own: RefSite[]): readonly RefSite[] {
    if (own.length === 0 && !op.actor) return NONE;
    const result = own.filter((s) => s.class === 'resource');
    const viaActors: RefSite[][] = [];
    if (op.actor && this.project.actors.has(op.actor)) viaActors.push(this.requestSites(op.actor));
    for (const s of own) if (s.class === 'actor' && s.expr?.kind === 'scoped') viaActors.push(this.loginSites(s.expr.scope));
    if (!viaActors.some((l) => l.length)) return result;
    const seen = new Set(result);
    for (const list of viaActors) {
      for (const s of list) {
        if (seen.has(s)) continue;
        seen.add(s);
        result.push(s);
      }
    }
    return result;
  }

  /** Resource sites of the actor's `inject` headers and of its login (and the logins it reads). */
  private requestSites(actor: string): RefSite[] {
    let out = this.request.get(actor);
    if (!out) {
      const inject = (this.sites.get(actor) ?? []).filter((s) => s.section === 'inject');
      const readActors = inject.flatMap((s) => (s.class === 'actor' && s.expr?.kind === 'scoped' ? [s.expr.scope] : []));
      out = unique([...inject.filter((s) => s.class === 'resource'), ...[actor, ...readActors].flatMap((a) => this.loginSites(a))]);
      this.request.set(actor, out);
    }
    return out;
  }

  /** Resource sites of an actor's login (`auth`, `session`) and of the logins of the actors it reads. */
  private loginSites(actor: string): RefSite[] {
    let out = this.login.get(actor);
    if (out) return out;
    out = [];
    const queue = [actor];
    const visited = new Set<string>();
    for (let a = queue.shift(); a !== undefined; a = queue.shift()) {
      if (visited.has(a)) continue;
      visited.add(a);
      for (const s of this.sites.get(a) ?? []) {
        if (s.section === 'inject') continue;
        if (s.class === 'resource') out.push(s);
        else if (s.class === 'actor' && s.expr?.kind === 'scoped') queue.push(s.expr.scope);
      }
    }
    this.login.set(actor, out);
    return out;
  }
}

const NONE: readonly RefSite[] = [];

function unique<T>(list: T[]): T[] {
  return [...new Set(list)];
}
