// The <SET_VIA_--var> variables operations need and nobody gave: one home for the CLI's
// check before a run (a missing `--var baseUrl=…` is one usage error, not the same
// E_VAR_UNRESOLVED on every operation), calibrate's "Not run", and the runner's skip
// (`skipUnset`: `flow run` and the Vitest plugin run what they can, and skip the rest).
import { closestName, type ProjectGraph } from '../graph/index.js';
import { SET_VIA_VAR, type Environment, type Project } from '../project/index.js';
import { chooseEnvironment, collectVars } from './environment.js';

export interface UnsetVariable {
  name: string;
  /** a --var name that is probably this one mistyped */
  near?: string;
}

/** The unset variables the operations of `plan` use (their actors' included), in the environment's order. */
export function unsetNames(
  project: Project,
  graph: ProjectGraph,
  plan: readonly string[],
  environment: Environment | undefined,
  given: Record<string, string>,
): string[] {
  if (!environment) return [];
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
  return unset.filter(([name]) => used.has(name)).map(([name]) => name);
}

export function unsetVariables(
  project: Project,
  graph: ProjectGraph,
  plan: readonly string[],
  env: string | undefined,
  explicit: Record<string, string>,
  processEnv: NodeJS.ProcessEnv,
): UnsetVariable[] {
  const environment = chooseEnvironment(project, env);
  const names = unsetNames(project, graph, plan, environment, collectVars(explicit, processEnv));
  const strays = Object.keys(explicit).filter((name) => !Object.hasOwn(environment?.variables ?? {}, name));
  return names.map((name) => ({ name, near: closestName(name, strays) }));
}

/** Why an operation is not run: `needs --var a=…, --var b=… (<SET_VIA_--var>, not given)`. */
export function needsVars(names: readonly string[]): string {
  return `needs ${names.map((v) => `--var ${v}=…`).join(', ')} (<SET_VIA_--var>, not given)`;
}

export function describeUnset(list: UnsetVariable[]): string {
  return list
    .map(
      (v) =>
        `env.${v.name} is <SET_VIA_--var> and no value was given: pass --var ${v.name}=… or set FLOW_VAR_${v.name}${v.near ? ` (--var ${v.near} was given: did you mean ${v.name}?)` : ''}`,
    )
    .join('\n');
}
