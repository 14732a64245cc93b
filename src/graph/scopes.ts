// What the scope of a reference is (docs/format.md#references): builtins, then env, then secret, then actor
// session, then indexed resource, then resource. One table, read in that order.
import type { Project } from '../project/index.js';
import type { Expr } from './template.js';

export type RefClass = 'builtin' | 'env' | 'secret' | 'actor' | 'resource' | 'undefined-scope' | 'syntax-error';

/** The resolution order of docs/format.md#references, first match wins. */
const RESOLUTION_ORDER = ['builtin', 'env', 'secret', 'actor', 'indexed-resource', 'resource'] as const;
type ResolutionStep = (typeof RESOLUTION_ORDER)[number];

/** The ids a scope may name. */
export interface ScopeNames {
  actors: { has(id: string): boolean };
  resources: { has(id: string): boolean };
  /**
   * The fields an actor's login puts in its session (see loginFields). Asked only of a name
   * that is both an actor and a resource; without it such a name is always the actor's.
   */
  sessionFields?(actor: string): ReadonlySet<string>;
}

// a quoted literal resolves to itself, as a builtin does
const BUILTIN_KINDS = new Set<Expr['kind']>(['uuid', 'now', 'faker', 'codec', 'literal']);

const MATCHES: Record<ResolutionStep, (expr: Expr, names: ScopeNames) => boolean> = {
  builtin: (e) => BUILTIN_KINDS.has(e.kind),
  env: (e) => e.kind === 'env',
  secret: (e) => e.kind === 'secret',
  // An actor has one session: an indexed form never names an actor.
  actor: (e, n) => e.kind === 'scoped' && e.index === undefined && n.actors.has(e.scope) && sessionAnswers(e.scope, e.field, n),
  'indexed-resource': (e, n) => e.kind === 'scoped' && e.index !== undefined && n.resources.has(e.scope),
  resource: (e, n) => e.kind === 'scoped' && e.index === undefined && n.resources.has(e.scope),
};

/**
 * Whether the actor's session answers `{{scope.field}}`. When a resource shares the name, the
 * runtime falls back to the resource for a field the session lacks (docs/format.md#references), so the
 * reference is the actor's only if its login provides the field; otherwise it is the
 * resource's, and the operation extracting it becomes a prerequisite (docs/format.md#implicit).
 */
function sessionAnswers(scope: string, field: string, n: ScopeNames): boolean {
  if (!n.resources.has(scope) || !n.sessionFields) return true;
  return n.sessionFields(scope).has(field);
}

const CLASS_OF: Record<ResolutionStep, RefClass> = {
  builtin: 'builtin',
  env: 'env',
  secret: 'secret',
  actor: 'actor',
  'indexed-resource': 'resource',
  resource: 'resource',
};

/** The step of docs/format.md#references that resolves `expr`, or undefined when its scope exists nowhere. */
function resolveScope(expr: Expr, scopeNames: ScopeNames): ResolutionStep | undefined {
  for (const step of RESOLUTION_ORDER) if (MATCHES[step](expr, scopeNames)) return step;
  return undefined;
}

export function classify(expr: Expr, scopeNames: ScopeNames): RefClass {
  const step = resolveScope(expr, scopeNames);
  return step ? CLASS_OF[step] : 'undefined-scope';
}

/**
 * For `{{order.create.id}}`: the operation id `order.create` when the middle segment names an
 * operation of that resource (docs/format.md#no-operation-scope: there is no such form; extractions belong to the
 * resource). Undefined otherwise.
 */
export function operationFormOf(expr: Expr, project: Project): string | undefined {
  if (expr.kind !== 'scoped' || expr.path.length === 0 || !project.resources.has(expr.scope)) return undefined;
  const id = `${expr.scope}.${expr.field}`;
  return project.operations.has(id) ? id : undefined;
}
