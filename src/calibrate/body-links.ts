// Ids in a body that name another resource (`strategyId`, `segmentIds`, `projectId`): the
// import keeps the description's example (`strategyId: 15d1e20b-…`), which names nothing on
// the server the run talks to, and the write fails (a 404, a 400, a 5xx on a foreign key). The
// repair a user makes: the resource's own value, `{{strategy.id}}`, which the graph then runs
// a producer for. Proposed only once the try with them is accepted (repair.ts). The same naming
// rule (resourceRef) values a query parameter (query.ts) and a field a 400 names again.
import { hasTemplate } from '../graph/index.js';
import { isPlainObject, singular, snake, type Operation, type Project, type TemplateValue } from '../project/index.js';
import type { Edit } from './types.js';

/** Body fields linked in one try at most: the body is untrusted. */
const MAX_FIELDS = 6;

/** `strategyId`, `segment_ids`, `featureName`: the resource it names, the field of it, one or a list. */
const ID_FIELD = /^(.+?)(Ids|_ids|Id|_id|Names|_names|Name|_name)$/;

/**
 * A `{{resource.field}}` for each top-level body field (inside a one-key wrapper) named after a resource of the project
 * that extracts such a field and holding a literal (a list of literals gets one item): the
 * edits, with what each names. A field already holding a reference is the user's.
 */
export function bodyLinks(project: Project, op: Operation, edited: ReadonlySet<string>): Edit[] {
  if (!isPlainObject(op.body)) return [];
  const edits: Edit[] = [];
  for (const [field, value] of topFields(op.body)) {
    if (edits.length >= MAX_FIELDS) break;
    if (edited.has(`${op.id} body ${field}`) || !isLiteral(value)) continue;
    const ref = resourceRef(project, op, field.split('.').at(-1)!);
    if (ref) edits.push({ kind: 'body_field', operation: op.id, field, value: Array.isArray(value) ? [ref] : ref });
  }
  return edits;
}

/**
 * A body's fields, dotted: its top level, or inside a one-key wrapper, the fields of the object
 * it wraps (`{ issue: { priority_id: 7 } }`, as Rails takes it: `issue.priority_id`).
 */
export function topFields(body: Record<string, TemplateValue>): Array<readonly [string, TemplateValue]> {
  const top = Object.entries(body);
  const [wrapper, inner] = top.length === 1 && isPlainObject(top[0][1]) ? top[0] : [];
  return wrapper !== undefined && isPlainObject(inner) ? Object.entries(inner).map(([k, v]) => [`${wrapper}.${k}`, v] as const) : top;
}

/**
 * The `{{resource.field}}` a body field or a query parameter named after a resource of the
 * project stands for (`strategyId` -> `{{strategy.id}}`, `environmentName` ->
 * `{{environment.name}}`); with `plain`, a name that is the resource's own too (`environments`,
 * as a 400 names it). Undefined when no resource fits, or when it is the operation's own
 * resource and the field one it extracts itself (it would wait for its own answer).
 */
export function resourceRef(project: Project, op: Operation, field: string, plain = false): string | undefined {
  const m = ID_FIELD.exec(field);
  const resource = m ? snake(m[1]) : plain ? singular(snake(field)) : undefined;
  if (!resource || !project.resources.has(resource)) return undefined;
  const of = fieldOf(project, resource, m && /name/i.test(m[2]) ? 'name' : 'id');
  if (!of || (resource === op.resource && op.extract.some((x) => x.name === of))) return undefined;
  return `{{${resource}.${of}}}`;
}

/**
 * A field a 400/422 names that is a resource of the project: frameworks word a reference by its
 * name less `_id` ("Activity cannot be blank" for `activity_id`, Rails' `{"author": ["must
 * exist"]}`). Its id, `{{activity.id}}`, under the name the body's other references use
 * (`activity_id`, or `activityId` beside `issueId`). None when the body sends that name already
 * (tried, or the user's), or the resource is the operation's own or extracts no `id`.
 */
export function namedReference(project: Project, op: Operation, field: string): { edit: Extract<Edit, { kind: 'body_field' }>; resource: string } | undefined {
  const keys = field.split('.');
  const name = keys.at(-1)!;
  const resource = snake(name);
  if (resource === op.resource || !project.resources.has(resource) || fieldOf(project, resource, 'id') !== 'id') return undefined;
  let parent: unknown = op.body;
  for (const k of keys.slice(0, -1)) parent = isPlainObject(parent) ? parent[k] : undefined;
  const siblings = isPlainObject(parent) ? Object.keys(parent) : [];
  const camel = siblings.some((k) => /[a-z0-9]Ids?$/.test(k)) && !siblings.some((k) => /_ids?$/.test(k));
  const key = camel ? `${name}Id` : `${name}_id`;
  if (siblings.includes(key)) return undefined;
  return { edit: { kind: 'body_field', operation: op.id, field: [...keys.slice(0, -1), key].join('.'), value: `{{${resource}.id}}` }, resource };
}

/** A literal value or a list of them, with no reference. */
function isLiteral(value: TemplateValue): boolean {
  const items = Array.isArray(value) ? value : [value];
  return items.length > 0 && items.every((v) => (typeof v === 'string' && !hasTemplate(v)) || typeof v === 'number');
}

/**
 * The field of `resource` that names one of it: `wanted` (`id`, `name`) when some operation
 * extracts it, else the one field its operations extract (an environment named by its `name`).
 */
function fieldOf(project: Project, resource: string, wanted: string): string | undefined {
  const names = new Set<string>();
  for (const id of project.resources.get(resource)?.operations ?? []) {
    for (const x of project.operations.get(id)?.extract ?? []) names.add(x.name);
  }
  if (names.has(wanted)) return wanted;
  return names.size === 1 ? [...names][0] : undefined;
}
