// A write whose body names a second instance of the resource its path already names: a flag
// that depends on another flag (`POST /features/{{feature.name}}/dependencies` with
// `{"feature": "parent_feature"}`), an issue related to another issue, a transfer to another
// account. The import keeps the description's example, and the server refuses it as a missing
// instance of that very resource ("No active feature parent_feature exists"). The repair a user
// makes: another instance of the run's own, `{{feature[-2].name}}` (the one before the newest,
// which the path reads; the run makes it: docs/format.md#run-more-instances), and the same value
// in the DELETE that removes the relation (`…/dependencies/{{env.parent}}`). Proposed only once a
// try with it is accepted (diagnose.ts).
// The same need by id, where the answer quotes nothing (`{"errors": ["Related issue cannot be
// blank"]}`): a body id field named after the resource the path names with more words
// (`issue_to_id`, `parent_issue_id`, `to_account_id` under `/issues/{{issue.id}}/…`) names
// another one of it; the path's own would be the same value, which such a server refuses.
import { parseTemplate, pathOnly, writeTarget } from '../graph/index.js';
import { escapeRegExp, isPlainObject, SET_VIA_VAR, snake, type Operation, type Project, type TemplateValue } from '../project/index.js';
import { graphOf } from './model.js';
import type { Edit } from './types.js';

/** The statuses a server refuses a missing instance with: 400, 403 (Unleash), 404, 422. */
const REFUSALS = new Set([400, 403, 404, 422]);
/** `issue_to_id`, `parentIssueId`, `to_account_ids`, `parent_feature_name`: the words, and what of the resource it holds. */
const ID_FIELD = /^(.+?)(Ids|_ids|Id|_id|Names|_names|Name|_name)$/;
/** Body fields looked at: the body is untrusted. */
const MAX_FIELDS = 20;

export interface AnotherInstance {
  /** the body field, as `{{R[-2].f}}` */
  edit: Extract<Edit, { kind: 'body_field' }>;
  /** the DELETEs of the relation under the write's path whose last segment is a variable nobody gave: that value */
  removals: Array<{ edits: Edit[]; operation: string }>;
  why: string;
  what: string;
}

/**
 * The body field whose literal the answer quotes as a missing instance of a resource the path
 * names (`{{feature.name}}`, and the answer says "feature" beside the value), else one named
 * after that resource with more words (`issue_to_id`), when a create of that resource extracts
 * the field the path reads: tried as the instance before the newest.
 */
export function anotherInstance(project: Project, op: Operation, status: number, excerpt: string, edited: ReadonlySet<string>): AnotherInstance | undefined {
  if (!(REFUSALS.has(status) || status >= 500) || !isPlainObject(op.body)) return undefined;
  const named = pathResources(project, op);
  if (!named.length) return undefined;
  const top = Object.entries(op.body);
  const [wrapper, inner] = top.length === 1 && isPlainObject(top[0][1]) ? top[0] : [];
  const all = wrapper !== undefined && isPlainObject(inner) ? Object.entries(inner).map(([k, v]) => [`${wrapper}.${k}`, v] as const) : top;
  const fields = all.slice(0, MAX_FIELDS);
  return (
    (REFUSALS.has(status) && excerpt ? quotedAsMissing(project, op, status, excerpt, edited, named, fields) : undefined) ??
    namedAfterPath(project, op, status, edited, named, fields)
  );
}

type Fields = ReadonlyArray<readonly [string, TemplateValue]>;
type Named = Array<{ resource: string; field: string }>;

/** The literal the answer quotes beside the name of a resource the path names. */
function quotedAsMissing(
  project: Project,
  op: Operation,
  status: number,
  excerpt: string,
  edited: ReadonlySet<string>,
  named: Named,
  fields: Fields,
): AnotherInstance | undefined {
  for (const [field, value] of fields) {
    if (typeof value !== 'string' || !value || value.includes('{{') || edited.has(`${op.id} body ${field}`)) continue;
    const quoted = `(^|[^\\w-])${escapeRegExp(value)}(?![\\w-])`;
    if (!new RegExp(quoted).test(excerpt)) continue;
    // the resource is said beside the value, not inside it (`parent_feature`)
    const rest = excerpt.replace(new RegExp(quoted, 'g'), '$1');
    const ref = named.find((r) => mentions(rest, r.resource) && createsField(project, r.resource, r.field));
    if (!ref) continue;
    const to = `{{${ref.resource}[-2].${ref.field}}}`;
    return {
      edit: { kind: 'body_field', operation: op.id, field, value: to },
      removals: removals(project, op, to, edited),
      why: `answered ${status} quoting \`${field}\` (${JSON.stringify(value)}) as a missing ${ref.resource}, the resource its path names with {{${ref.resource}.${ref.field}}}: another ${ref.resource} of this run's own`,
      what: `with ${field}: ${to}`,
    };
  }
  return undefined;
}

/**
 * A literal id (a number, a string, a list of them) in a field named after a resource the path
 * names, with more words than the resource's own (`issue_to_id` beside `{{issue.id}}`): the
 * field's bare name (`issue_id`) is the link to the path's own (body-links.ts); these name
 * another of it. Whatever the answer says: a try proves it.
 */
function namedAfterPath(
  project: Project,
  op: Operation,
  status: number,
  edited: ReadonlySet<string>,
  named: Named,
  fields: Fields,
): AnotherInstance | undefined {
  for (const [field, value] of fields) {
    const items = Array.isArray(value) ? value : [value];
    const literal = items.length > 0 && items.every((v) => typeof v === 'number' || (typeof v === 'string' && v !== '' && !v.includes('{{')));
    if (!literal || edited.has(`${op.id} body ${field}`)) continue;
    const m = ID_FIELD.exec(field.split('.').at(-1)!);
    if (!m) continue;
    const words = snake(m[1]).split('_');
    const holds = /name/i.test(m[2]) ? 'name' : 'id';
    const ref = named.find((r) => r.field === holds && hasRun(words, r.resource.split('_')) && createsField(project, r.resource, r.field));
    if (!ref) continue;
    const to = `{{${ref.resource}[-2].${ref.field}}}`;
    return {
      edit: { kind: 'body_field', operation: op.id, field, value: Array.isArray(value) ? [to] : to },
      removals: removals(project, op, to, edited),
      why: `answered ${status} to \`${field}\` (${JSON.stringify(value)}), named after the ${ref.resource} its path names with {{${ref.resource}.${ref.field}}}, which would be the same ${ref.resource}: another ${ref.resource} of this run's own`,
      what: `with ${field}: ${to}`,
    };
  }
  return undefined;
}

/**
 * Of a search's edits that were not accepted, a body field it linked to the very instance the
 * path names (`account_id: "{{account.id}}"` under `/accounts/{{account.id}}/transfers`): the
 * same value twice, which a server refuses as it does its own example. Tried as another.
 */
export function anotherThanOwn(project: Project, op: Operation, steps: readonly Edit[], edited: ReadonlySet<string>): AnotherInstance | undefined {
  for (const e of steps) {
    if (e.kind !== 'body_field' || e.operation !== op.id) continue;
    const value = Array.isArray(e.value) && e.value.length === 1 ? e.value[0] : e.value;
    const ref = pathResources(project, op).find((r) => value === `{{${r.resource}.${r.field}}}` && createsField(project, r.resource, r.field));
    if (!ref) continue;
    const to = `{{${ref.resource}[-2].${ref.field}}}`;
    return {
      edit: { ...e, value: Array.isArray(e.value) ? [to] : to },
      removals: removals(project, op, to, edited),
      why: `\`${e.field}\` as {{${ref.resource}.${ref.field}}} is the ${ref.resource} its path names: another ${ref.resource} of this run's own`,
      what: `with ${e.field}: ${to}`,
    };
  }
  return undefined;
}

/** Whether `words` hold `run` in a row, with at least one word more (`issue_to` holds `issue`; `issue` does not). */
function hasRun(words: string[], run: string[]): boolean {
  if (words.length <= run.length) return false;
  for (let i = 0; i + run.length <= words.length; i++) if (run.every((w, j) => words[i + j] === w)) return true;
  return false;
}

/** The resources the path names by a field (`{{feature.name}}`), not by an index. */
function pathResources(project: Project, op: Operation): Array<{ resource: string; field: string }> {
  const out: Array<{ resource: string; field: string }> = [];
  for (const p of parseTemplate(op.path)) {
    if (p.kind !== 'ref' || p.expr.kind !== 'scoped' || p.expr.index !== undefined || p.expr.path.length) continue;
    if (project.resources.has(p.expr.scope) && !project.actors.has(p.expr.scope)) out.push({ resource: p.expr.scope, field: p.expr.field });
  }
  return out;
}

/** Whether a create of `resource` extracts `field`: the run can make another instance. */
function createsField(project: Project, resource: string, field: string): boolean {
  const graph = graphOf(project);
  return [...project.operations.values()].some(
    (o) => o.resource === resource && o.extract.some((x) => x.name === field) && writeTarget(graph, o).kind === 'create',
  );
}

/** `feature` in "No active feature x exists", "Feature x not found", "features", "feature flag" for `feature_flag`. */
function mentions(text: string, resource: string): boolean {
  const words = escapeRegExp(resource).replace(/[_-]/g, '[ _-]');
  return new RegExp(`(^|[^A-Za-z0-9])${words}s?(?![A-Za-z0-9])`, 'i').test(text);
}

/** The DELETEs of the write's own resource one segment under its path, that segment a variable nobody gave. */
function removals(project: Project, op: Operation, to: string, edited: ReadonlySet<string>): AnotherInstance['removals'] {
  const at = pathOnly(op.path);
  const out: AnotherInstance['removals'] = [];
  for (const d of project.operations.values()) {
    if (d.method !== 'DELETE' || d.resource !== op.resource) continue;
    const path = pathOnly(d.path);
    if (!path.startsWith(`${at}/`)) continue;
    const parts = parseTemplate(path.slice(at.length + 1));
    const only = parts.length === 1 ? parts[0] : undefined;
    if (only?.kind !== 'ref' || only.expr.kind !== 'env' || !unset(project, only.expr.name)) continue;
    const edits: Edit[] = [{ kind: 'path_ref', operation: d.id, from: only.raw, to }];
    // it removes what the write made: the write first
    if (!d.dependsOn.includes(op.id)) edits.push({ kind: 'depends_on', operation: d.id, to: op.id });
    if (edits.some((e) => edited.has(e.kind === 'path_ref' ? `${d.id} path ${e.from}` : `${d.id} depends_on ${op.id}`))) continue;
    out.push({ edits, operation: d.id });
  }
  return out;
}

/** A variable no environment gives a value (`<SET_VIA_--var>`): a value the user chose is never replaced. */
function unset(project: Project, name: string): boolean {
  return [...project.environments.values()].every((e) => e.variables[name] === undefined || e.variables[name] === SET_VIA_VAR);
}
