// A removal of the run's instance that reads a variable nobody gave (docs/format.md#ownership):
// a freshly imported project has `DELETE /items/{{item.id}}/tags/{{tag.type}}/{{env.value}}`
// after `POST /items/{{item.id}}/tags` sent `{"type": …, "value": …}` and extracted the type. A
// `<SET_VIA_--var>` given no value, past where the create posted and named exactly as a field of
// that create's answer (its top level), else of the body it sent, is taken from there: a value of
// the run's own instance alone, kept for the clean-up (Instance.names), never a variable the user
// gave. The rest of the path past the create's is this resource's own fields the instance has;
// the path up to there must render to where its create posted (the DELETE goes under the same
// parent), and a removal elsewhere (`/tags/{{tag.type}}/{{env.value}}` after
// `POST /items/{{item.id}}/tags`: the tag itself, which others may use) is never one.
import { parseTemplate, pathOnly } from '../graph/index.js';
import type { Operation } from '../project/index.js';
import type { RunContext } from './context.js';
import { decoded, envSegment, rendersTo, segments, unset } from './origin-removal.js';
import type { Instance } from './state.js';

export interface EnvNamed {
  /** the DELETE's id */
  id: string;
  /** the variables it reads past the create's path, each named as a field of the instance */
  vars: string[];
}

/** The resource's own DELETEs under `create`'s path whose segments past it are its instance's fields and unset variables (one at least). */
export function envNamedRemovals(ctx: RunContext, create: Operation): EnvNamed[] {
  let byCreate = found.get(ctx);
  if (!byCreate) found.set(ctx, (byCreate = new Map()));
  let list = byCreate.get(create.id);
  if (!list) byCreate.set(create.id, (list = find(ctx, create)));
  return list;
}

/** Once per run (which variables are given is the run's): a create's answer may come thousands of times. */
const found = new WeakMap<RunContext, Map<string, EnvNamed[]>>();

function find(ctx: RunContext, create: Operation): EnvNamed[] {
  const base = segments(create.path);
  if (create.method !== 'POST' || !base) return [];
  const under = `${pathOnly(create.path)}/`;
  const out: EnvNamed[] = [];
  for (const op of ctx.project.operations.values()) {
    if (op.method !== 'DELETE' || op.resource !== create.resource || !pathOnly(op.path).startsWith(under)) continue;
    const past = segments(op.path)?.slice(base.length) ?? [];
    const vars: string[] = [];
    const fits = past.every((s) => {
      const name = envSegment(s);
      if (name !== undefined) return unset(ctx, name) && vars.push(name) > 0;
      return ownField(s, create.resource) !== undefined;
    });
    if (fits && vars.length) out.push({ id: op.id, vars: [...new Set(vars)] });
  }
  return out;
}

/**
 * The DELETE of `resource` that names `instance` (its values and Instance.names merged) with the
 * unset variables its create's answer or body gave, and their values; undefined when none fits.
 */
export function namedRemoval(ctx: RunContext, resource: string, instance: Instance): { op: Operation; vars: Record<string, string> } | undefined {
  const create = instance.origin && ctx.project.operations.get(instance.origin.operation);
  const made = instance.origin?.path?.replace(/\/+$/, '').split('/').slice(1);
  const base = create && segments(create.path);
  if (!instance.names || !made || !base || base.length > made.length) return undefined;
  for (const { id, vars } of envNamedRemovals(ctx, create)) {
    const op = ctx.project.operations.get(id);
    if (!op || !instance.names.by.includes(id)) continue;
    const values: Record<string, string> = {};
    for (const name of vars) {
      const v = instance.values[name];
      if (typeof v === 'string' || typeof v === 'number') values[name] = String(v);
    }
    if (Object.keys(values).length !== vars.length) continue;
    const past = segments(op.path)!.slice(base.length);
    if (!past.every((s) => envSegment(s) !== undefined || instance.values[ownField(s, resource)!] !== undefined)) continue;
    // the path up to where the create posted renders to its request path (under the same parent)
    const at: Array<string | undefined> = made.slice(made.length - base.length).map((s) => decoded(s));
    if (base.every((s, i) => at[i] !== undefined && (s === at[i] || rendersTo(ctx, s, at[i])))) return { op, vars: values };
  }
  return undefined;
}

/** The field of `resource`'s instance a segment or template is, whole (`{{tag.type}}` -> `type`). */
export function ownField(segment: string, resource: string): string | undefined {
  const parts = parseTemplate(segment);
  const only = parts.length === 1 ? parts[0] : undefined;
  return only?.kind === 'ref' && only.expr.kind === 'scoped' && only.expr.scope === resource && only.expr.index === undefined ? only.expr.field : undefined;
}
