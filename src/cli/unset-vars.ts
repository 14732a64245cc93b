// Before a run: the <SET_VIA_--var> variables the planned operations need and nobody gave.
// Found here, a missing `--var baseUrl=…` is one usage error (exit 2) instead of the same
// E_VAR_UNRESOLVED on every operation of the run.
import { closestName, type ProjectGraph } from '../graph/index.js';
import { SET_VIA_VAR, type Project } from '../project/index.js';
import { chooseEnvironment, collectVars } from '../runner/index.js';

export interface UnsetVariable {
  name: string;
  /** a --var name that is probably this one mistyped */
  near?: string;
}

export function unsetVariables(
  project: Project,
  graph: ProjectGraph,
  plan: string[],
  env: string | undefined,
  explicit: Record<string, string>,
  processEnv: NodeJS.ProcessEnv,
): UnsetVariable[] {
  const environment = chooseEnvironment(project, env);
  if (!environment) return [];
  const given = collectVars(explicit, processEnv);
  const unset = Object.entries(environment.variables).filter(([name, value]) => value === SET_VIA_VAR && given[name] === undefined);
  if (!unset.length) return [];
  const used = new Set<string>();
  const actors = new Set<string>();
  for (const id of plan) {
    const op = project.operations.get(id);
    if (!op) continue;
    if (!/^https?:\/\//i.test(op.path)) used.add('baseUrl'); // a relative path is read from baseUrl
    if (op.actor) actors.add(op.actor);
    for (const s of graph.sitesOf('operation', id)) if (s.expr?.kind === 'env') used.add(s.expr.name);
  }
  for (const actor of actors) for (const s of graph.sitesOf('actor', actor)) if (s.expr?.kind === 'env') used.add(s.expr.name);
  const strays = Object.keys(explicit).filter((name) => !Object.hasOwn(environment.variables, name));
  return unset.filter(([name]) => used.has(name)).map(([name]) => ({ name, near: closestName(name, strays) }));
}

export function describeUnset(list: UnsetVariable[]): string {
  return list
    .map(
      (v) =>
        `env.${v.name} is <SET_VIA_--var> and no value was given: pass --var ${v.name}=… or set FLOW_VAR_${v.name}${v.near ? ` (--var ${v.near} was given: did you mean ${v.name}?)` : ''}`,
    )
    .join('\n');
}
