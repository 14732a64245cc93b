// The project model explore runs: a copy (the loaded project is never changed) in which every
// operation a step sends accepts any status and asserts nothing (explore's checks judge the
// answer, not the happy path's expectations), is not retried (a 5xx is a finding, not a
// hiccup), and has a timeout within the budget. Each step's body is set on that copy just
// before the step runs. An operation sent with an invalid body has a twin, `<id>~invalid`,
// that extracts nothing: a refused request must not stand in the memo of the real
// operation, which later steps read as their prerequisite.
import { isSecretRef, literal, type Operation, type Project, type Resource, type TemplateValue } from '../project/index.js';

/** Every status: the step's answer reaches explore's checks whatever it is. */
const ANY_STATUS = Array.from({ length: 500 }, (_, i) => i + 100);

const INVALID_SUFFIX = '~invalid';
const CLEANUP_SUFFIX = '~cleanup';

export interface ExploreModel {
  project: Project;
  /** the operation a step runs, whose body explore sets */
  step(id: string, invalid?: boolean): Operation;
  /** the clean-up twin of a delete: no prerequisites of its own resource, its path set to name one instance */
  cleanup(id: string): Operation;
}

/**
 * `deleteIds`: each gets a clean-up twin, `<id>~cleanup`, whose path names the instance by its
 * values: it needs no create of its own resource first (a create that failed last in the
 * sequence would block it) and none of the delete's depends_on.
 */
export function exploreModel(
  project: Project,
  stepIds: Iterable<string>,
  invalidIds: Iterable<string>,
  deleteIds: Iterable<string>,
  timeoutMs: number,
): ExploreModel {
  const operations = new Map(project.operations);
  const resources = new Map(project.resources);
  const stepOf = (op: Operation, id = op.id, name = op.name): Operation => ({
    ...op,
    id,
    name,
    expectStatus: ANY_STATUS,
    assert: [],
    retry: undefined,
    timeoutMs: Math.min(op.timeoutMs ?? timeoutMs, timeoutMs),
  });
  for (const id of stepIds) operations.set(id, stepOf(project.operations.get(id)!));
  for (const id of invalidIds) {
    const op = project.operations.get(id)!;
    const twin = { ...stepOf(op, `${id}${INVALID_SUFFIX}`, `${op.name}${INVALID_SUFFIX}`), extract: [], postResponse: undefined };
    operations.set(twin.id, twin);
    const r = resources.get(op.resource)!;
    resources.set(r.id, { ...r, operations: [...r.operations, twin.id] } satisfies Resource);
  }
  for (const id of deleteIds) {
    const op = project.operations.get(id)!;
    const { depends_on: _d, ...raw } = op.raw;
    // the own references are out of the graph's sight until the clean-up writes the values in
    const path = op.path.replace(new RegExp(`\\{\\{\\s*${op.resource}[.[][^}]*\\}\\}`, 'g'), 'x');
    const twin = { ...stepOf(op, `${id}${CLEANUP_SUFFIX}`, `${op.name}${CLEANUP_SUFFIX}`), path, dependsOn: [], raw, extract: [] };
    operations.set(twin.id, twin);
    const r = resources.get(op.resource)!;
    resources.set(r.id, { ...r, operations: [...r.operations, twin.id] } satisfies Resource);
  }
  const model = { ...project, operations, resources };
  return {
    project: model,
    step: (id, invalid) => operations.get(invalid ? `${id}${INVALID_SUFFIX}` : id)!,
    cleanup: (id) => operations.get(`${id}${CLEANUP_SUFFIX}`)!,
  };
}

/**
 * The generated body with the project's own references kept: a top-level field the project
 * writes with a `{{…}}` (a parent's id, a `{{$.uuid}}` that must be unique) stays as written,
 * so that it comes from its real producer.
 */
export function withWrittenRefs(generated: unknown, written: TemplateValue | undefined): unknown {
  if (!isObject(generated) || !isObject(written)) return generated;
  const out: Record<string, unknown> = { ...generated };
  for (const [k, v] of Object.entries(written)) if (holdsTemplate(v, 0)) out[k] = v;
  return out;
}

/**
 * The body to send: what was drawn is data (an enum value of `"{{secret.X}}"` in a description
 * is sent as that text, never rendered); a top-level field kept as the project writes it (the
 * very value `withWrittenRefs` copied) is rendered as the project's own.
 */
export function asSent(body: unknown, written: TemplateValue | undefined): TemplateValue {
  if (body === written) return body as TemplateValue;
  if (!isObject(body) || !isObject(written)) return literal(body);
  const out: Record<string, TemplateValue> = {};
  for (const [k, v] of Object.entries(body)) out[k] = v === written[k] ? (v as TemplateValue) : literal(v);
  return out;
}

function holdsTemplate(v: unknown, depth: number): boolean {
  if (typeof v === 'string') return v.includes('{{');
  if (!v || typeof v !== 'object' || depth > 16) return false;
  if (isSecretRef(v)) return true;
  return Object.values(v).some((x) => holdsTemplate(x, depth + 1));
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
