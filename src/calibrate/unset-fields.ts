// A `<SET_VIA_--var>` nobody gave that stands alone as a body field of writes (the importer's
// "required field, no example": `enabled: "{{env.addon_enabled}}"`): calibrate tries a value
// for it — from the field's schema in the description (a boolean: true), else from its name —
// and proposes it only where the server's 2xx proves it. The importer invents nothing; a
// value the server accepted is what calibrate grounds.
import type { ProjectGraph } from '../graph/index.js';
import type { Operation, Project } from '../project/index.js';
import { sendsBody } from './body.js';
import { withEdits } from './model.js';
import type { Edit } from './types.js';
import { valueFor } from './values.js';

type FieldSchema = ((op: Operation, field: string) => Record<string, unknown> | undefined) | undefined;

export interface Tentative {
  edit: Extract<Edit, { kind: 'body_field' }>;
  variable: string;
}

/**
 * For each of `unset` used only as the whole value of body fields of POSTs, PUTs and PATCHes
 * (never in a path, a header, an actor or inside a longer string), a value for each of those
 * fields.
 */
function tentativeValues(project: Project, graph: ProjectGraph, unset: readonly string[], fieldSchema: FieldSchema): Tentative[] {
  const names = new Set(unset);
  const elsewhere = new Set<string>();
  for (const kind of ['actor', 'environment'] as const)
    for (const id of kind === 'actor' ? project.actors.keys() : project.environments.keys())
      for (const s of graph.sitesOf(kind, id)) if (s.expr?.kind === 'env') elsewhere.add(s.expr.name);
  const found = new Map<string, Tentative[]>();
  for (const op of project.operations.values()) {
    for (const s of graph.sitesOf('operation', op.id)) {
      if (s.expr?.kind !== 'env' || !names.has(s.expr.name)) continue;
      const name = s.expr.name;
      const keys = s.yamlPath.slice(op.yamlPath.length + 1);
      const whole = sendsBody(op) && s.section === 'body' && !s.nested && s.yamlPath[op.yamlPath.length] === 'body' && keys.length > 0;
      const value = whole ? fieldValue(op, keys) : undefined;
      if (value !== s.raw || !keys.every((k) => typeof k === 'string')) {
        elsewhere.add(name);
        continue;
      }
      const field = keys.join('.');
      const edit: Tentative['edit'] = { kind: 'body_field', operation: op.id, field, value: valueFor(field, fieldSchema?.(op, field)) };
      found.set(name, [...(found.get(name) ?? []), { edit, variable: name }]);
    }
  }
  return [...found].flatMap(([name, list]) => (elsewhere.has(name) ? [] : list));
}

/** The project with the value tried for each such variable in place, and the tries. */
export function withTentativeValues(
  project: Project,
  graph: ProjectGraph,
  unset: readonly string[],
  fieldSchema: FieldSchema,
): { model: Project; tentative: Tentative[] } {
  const tentative = tentativeValues(project, graph, unset, fieldSchema);
  return {
    model: withEdits(
      project,
      tentative.map((t) => t.edit),
    ),
    tentative,
  };
}

/** The string at a path of keys inside the operation's body, or undefined. */
function fieldValue(op: Operation, keys: ReadonlyArray<string | number>): unknown {
  let at: unknown = op.body;
  for (const k of keys) at = at && typeof at === 'object' ? (at as Record<string | number, unknown>)[k] : undefined;
  return at;
}
