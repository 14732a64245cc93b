// What the clean-up removes when no removal addresses an instance (docs/format.md#ownership):
// a freshly imported project often has `DELETE /items/{{env.item_id}}` with the variable unset,
// and a create that extracts nothing yet. What such a POST made is still the run's: it is kept
// aside when the POST is shaped as a create (its path is one of its resource's own DELETEs'
// without the last segment) and its answer holds an id, and it is removed with that DELETE, each
// unset `{{env.X}}` of it bound to the segment of the create's own request path at that place,
// the last to the id (when that variable's name says it is an id), or to the one credential the
// create's answer issued when it is named as one (`{{env.token}}` for an API token's `secret`:
// only what this run made holds that value; a name or a type would be a guess). A DELETE whose literal
// segments differ from that path, or that reads a variable given a value (it names someone's
// chosen instance), or a reference that does not render to that very segment (`{{project.id}}`
// of the project it posted under does), is never used. The values go to that one request as
// given values do (data, never rendered as a template).
import { isPlainObject, namesIssuedCredential, type Operation, SET_VIA_VAR } from '../project/index.js';
import type { FlowResponse } from '../http/index.js';
import { formatExtension, hasTemplate, parseTemplate, pathOnly } from '../graph/index.js';
import { renderContext, type RunContext } from './context.js';
import { renderString } from '../runtime/index.js';
import type { Instance } from './state.js';

export const ID_NAME = /(^|[_-])(id|ID)$|[a-z0-9]Id$/;
const isTemplate = hasTemplate;

/** The variable a segment is, whole (`{{env.item_id}}` -> `item_id`); undefined for anything else. */
export function envSegment(segment: string): string | undefined {
  const parts = parseTemplate(segment);
  const only = parts.length === 1 ? parts[0] : undefined;
  return only?.kind === 'ref' && only.expr.kind === 'env' ? only.expr.name : undefined;
}

/** The segments of a path template (its query and trailing slashes aside); undefined when not relative. */
export function segments(path: string): string[] | undefined {
  const p = pathOnly(path);
  return p.startsWith('/') ? p.split('/').slice(1) : undefined;
}

/** The resource's own DELETEs, computed once per project. */
const deletes = new WeakMap<object, Map<string, Operation[]>>();

function ownDeletes(ctx: RunContext, resource: string): Operation[] {
  let byResource = deletes.get(ctx.project);
  if (!byResource) deletes.set(ctx.project, (byResource = new Map<string, Operation[]>()));
  let list = byResource.get(resource);
  if (!list) byResource.set(resource, (list = [...ctx.project.operations.values()].filter((o) => o.method === 'DELETE' && o.resource === resource)));
  return list;
}

/**
 * A DELETE's segments with the format extension after its last reference taken off
 * (`/items/{{env.id}}.json` -> `items`, `{{env.id}}`), and `made` (a create's path) without
 * it too (`/items.json` -> `items`); undefined when `made` does not end with that extension.
 */
function withoutExtension(del: string[] | undefined, made: string[]): { d: string[]; made: string[] } | undefined {
  if (!del) return undefined;
  const ext = formatExtension(del[del.length - 1]);
  if (!ext) return { d: del, made };
  const last = made[made.length - 1];
  if (!last?.endsWith(ext) || last.length === ext.length) return undefined;
  return { d: [...del.slice(0, -1), del[del.length - 1].slice(0, -ext.length)], made: [...made.slice(0, -1), last.slice(0, -ext.length)] };
}

/** A POST whose path is one of its resource's DELETEs' minus the last segment (`/items` beside `/items/{{…}}`, `/items.json` beside `/items/{{…}}.json`; a reference stands for any segment). */
export function createShaped(ctx: RunContext, op: Operation): boolean {
  const posted = op.method === 'POST' ? segments(op.path) : undefined;
  if (!posted) return false;
  return ownDeletes(ctx, op.resource).some((del) => {
    const both = withoutExtension(segments(del.path), posted);
    if (!both) return false;
    const { d, made: post } = both;
    if (d.length !== post.length + 1 || !isTemplate(d[d.length - 1])) return false;
    return post.every((s, i) => isTemplate(s) || isTemplate(d[i]) || s === d[i]);
  });
}

/** The id in a body (an answer's, or the one a request sent): `id` at its top, or in its one object that has one (`{"data": {"id": …}}`). */
export function idIn(body: unknown): string | number | undefined {
  if (!isPlainObject(body)) return undefined;
  const top = scalar(body.id);
  if (top !== undefined) return top;
  const inner = Object.values(body).filter((v) => isPlainObject(v) && scalar(v.id) !== undefined) as Array<Record<string, unknown>>;
  return inner.length === 1 ? scalar(inner[0].id) : undefined;
}

/** A value that can name an instance: a non-empty string or a finite number. */
export function scalar(v: unknown): string | number | undefined {
  return (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
}

/** The path of the URL a request went to (where a create made its instance). */
export function requestPath(res: FlowResponse): string | undefined {
  try {
    return new URL(res.url).pathname;
  } catch {
    return undefined;
  }
}

/**
 * The resource's own DELETE that removes `instance`, with the values of its unset variables:
 * its path is the create's request path plus one segment, the id.
 */
export function originRemoval(ctx: RunContext, resource: string, instance: Instance): { op: Operation; vars: Record<string, string> } | undefined {
  const id = scalar(instance.values.id);
  const origin = instance.origin?.path?.replace(/\/+$/, '').split('/').slice(1);
  if ((id === undefined && instance.issued === undefined) || !origin) return undefined;
  for (const op of ownDeletes(ctx, resource)) {
    const both = withoutExtension(segments(op.path), origin);
    if (!both) continue;
    const { d, made } = both;
    // the DELETE's path relative to baseUrl: the create's request path ends with all of it but its last segment
    if (d.length - 1 > made.length) continue;
    const at = made.slice(made.length - (d.length - 1)).map(decoded);
    // the last: the id, or, for a credential-named variable (`{{env.token}}`), the credential the create issued
    const lastName = envSegment(d[d.length - 1]);
    const key = lastName !== undefined && ID_NAME.test(lastName) ? id : lastName !== undefined && namesIssuedCredential(lastName) ? instance.issued : undefined;
    if (key === undefined) continue;
    const values = [...at, String(key)];
    const vars: Record<string, string> = {};
    const fits = d.every((s, i) => {
      const v = values[i];
      if (v === undefined) return false;
      if (!isTemplate(s)) return s === v;
      const name = envSegment(s);
      // a parent the run reads (`{{project.id}}`) where it renders to the very segment the create posted under
      if (name === undefined) return i < d.length - 1 && rendersTo(ctx, s, v);
      if (!unset(ctx, name)) return false;
      if (Object.hasOwn(vars, name) && vars[name] !== v) return false;
      vars[name] = v;
      return true;
    });
    if (fits) return { op, vars };
  }
  return undefined;
}

/** Why no DELETE removes an instance (originRemoval found none). */
export function noRemoval(ctx: RunContext, resource: string, instance: Instance): string {
  const own = ownDeletes(ctx, resource);
  if (!own.length || !instance.origin?.path) return `${resource} has no DELETE operation on one instance`;
  if (scalar(instance.values.id) === undefined) {
    // what they read instead (`{{env.token}}`: a value its create may give under another name, not guessed)
    const reads = [...new Set(own.map((o) => segments(o.path)?.at(-1) ?? o.path))].join(', ');
    return `it has no id for ${own.map((o) => o.id).join(', ')} (${own.length > 1 ? 'they read' : 'it reads'} ${reads})`;
  }
  return `no DELETE addresses it where it was made (${own.map((o) => o.id).join(', ')}: another path, or a variable given a value)`;
}

/** Whether a segment's reference renders, now, to `value` (a reference that cannot render does not). */
export function rendersTo(ctx: RunContext, segment: string, value: string): boolean {
  try {
    return renderString(segment, renderContext(ctx)) === value;
  } catch {
    return false;
  }
}

/** `<SET_VIA_--var>` in the environment and given no value. */
export function unset(ctx: RunContext, name: string): boolean {
  const env = ctx.environment?.variables ?? {};
  return Object.hasOwn(env, name) && env[name] === SET_VIA_VAR && !Object.hasOwn(ctx.vars, name);
}

export function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
