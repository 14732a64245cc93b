// Which response field a path placeholder names: an id, a name, or the one credential a create
// issues. The producers are chosen in bindings.ts; this reads their answers' fields.
import type { ObservedField } from '../observed.js';
import type { Endpoint } from './endpoints.js';
import { namesIssuedCredential, singular, snake } from './names.js';

export function successFields(p: Endpoint): ObservedField[] {
  const rs = p.ops.flatMap((o) => o.responses).filter((r) => r.status === undefined || (r.status >= 200 && r.status < 300));
  return rs.flatMap((r) => r.fields);
}

/**
 * The response field a placeholder named `name` refers to: a top-level field of that name,
 * else the top-level `id` when the name is id-like (`id`, `petId`, `pid`, the resource's own
 * name as Stripe's `{customer}`), else for `{id}` the resource's own id (`feedbackId` of a
 * feedback) when the answer has no `id` at all, else the top-level `name` when the placeholder
 * is named after a name or after its resource and is not id-like (`{featureName}`, `{contextField}`),
 * then the same one level down (an envelope or a list); last, `name` for an id-like
 * placeholder named after its resource (`{environment}`) that found no `id`.
 */
export function findIdField(p: Endpoint, name: string, resource: string): ObservedField | undefined {
  const fields = successFields(p);
  const depth = (f: ObservedField): number => f.path.length + (f.listPath?.length ?? 0);
  const last = (f: ObservedField): string => f.path[f.path.length - 1];
  const lower = name.toLowerCase();
  const r = resource.toLowerCase().replace(/_/g, '');
  const idLike =
    lower === 'id' ||
    lower.replace(/_/g, '') === r ||
    lower === `${r}id` ||
    lower === `${r}_id` ||
    /(^|_)id$/.test(lower) ||
    /[a-z]Id$/.test(name) ||
    (lower.length <= 4 && lower.endsWith('id'));
  // named after the item's name, or after the resource itself (`{contextField}` of a context)
  // (never one that says it is an id, a token, a key or a code: `{shipping_rate_token}`)
  const byName =
    !/(^|_)(id|uuid|token|key|code|number|secret)$|[a-z](Id|Uuid|Token|Key|Code|Number|Secret)$/i.test(name) &&
    (/(^|_)name$|[a-z]Name$/i.test(name) || lower.replace(/_/g, '').startsWith(r));
  const at = (d: number): ObservedField[] => fields.filter((f) => depth(f) === d);
  // the item's own name: top level, or in the items of a top-level list, never a nested object's (`tax_code.name`)
  const named = (d: number): ObservedField | undefined =>
    at(d).find((f) => last(f) === 'name' && (d === 1 || (f.path.length === 1 && f.listPath?.length === 1)));
  // `{projectId}` of a dashboard: the `id` of the items of its `projects` list, not of another list's
  const stem = /^(.+?)(?:Id|_id)$/.exec(name)?.[1];
  const kind = stem === undefined ? undefined : singular(snake(stem));
  const ofKind = (d: number): ObservedField | undefined =>
    kind === undefined || kind === resource
      ? undefined
      : at(d).find((f) => last(f) === 'id' && f.listPath?.length === 1 && singular(snake(String(f.listPath[0]))) === kind);
  // `{id}` of a feedback whose answer has no `id` at all but `feedbackId`: the resource's own id
  const noId = !fields.some((f) => last(f) === 'id');
  const ownId = (d: number): ObservedField | undefined =>
    lower === 'id' && noId ? at(d).find((f) => last(f).toLowerCase().replace(/_/g, '') === `${r}id`) : undefined;
  for (const d of [1, 2]) {
    const hit =
      at(d).find((f) => last(f) === name) ??
      ofKind(d) ??
      (idLike ? at(d).find((f) => last(f) === 'id') : undefined) ??
      ownId(d) ??
      (byName && !idLike ? named(d) : undefined);
    if (hit) return hit;
  }
  // `{environment}` of an environment: its id when it has one, else its name
  if (byName) return named(1) ?? named(2);
  return undefined;
}

/**
 * The one credential a create's answer issues (an API token's `secret`): its only top-level
 * field named as an issued credential, and not an object or a list. None when there are two
 * (`accessToken` beside `refreshToken`: which one the path takes, the answer does not say).
 */
export function issuedField(create: Endpoint): ObservedField | undefined {
  const found = new Map<string, ObservedField>();
  for (const f of successFields(create)) {
    if (f.path.length !== 1 || f.listPath !== undefined || f.type === 'object' || f.type === 'array') continue;
    if (namesIssuedCredential(f.path[0]) && !found.has(f.path[0])) found.set(f.path[0], f);
  }
  return found.size === 1 ? [...found.values()][0] : undefined;
}
