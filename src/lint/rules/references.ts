// E_REF_UNDEFINED for `{{ }}` references (docs/format.md#references, #error-codes): a scope that exists nowhere, the
// `{{resource.operation.field}}` form (2.8.1). W_ENV_NOT_DEFINED for an `env.X` defined in no
// environment: only a warning, since `--var X=…` or FLOW_VAR_X may give it at run time (lint
// checks the scope, not the field: 2.8.3; a value missing then is E_VAR_UNRESOLVED).
// A valid reference is quoted even under a credential key: its scope and variable names are
// names, not secrets (only a reference that does not parse may be the credential's own text).
import { didYouMean, operationFormOf, type ProjectGraph, type RefSite } from '../../graph/index.js';
import type { Project } from '../../project/index.js';
import type { Finding, LintContext, MissingName, Rule } from '../rule.js';

type Check = (site: RefSite, ctx: Names) => string | undefined;

/** What a site's problem says is undefined (a file that did not parse may define it). */
function missingOf(site: RefSite): MissingName | undefined {
  if (site.expr?.kind === 'env') return { kind: 'variable', name: site.expr.name };
  if (site.class === 'undefined-scope' && site.expr?.kind === 'scoped') return { kind: 'scope', name: site.expr.scope };
  return undefined;
}

interface Names {
  project: Project;
  graph: ProjectGraph;
  envVariables: Set<string>;
}

/** Per reference class: the problem with a site of that class, if any. */
const CHECKS: Partial<Record<RefSite['class'], { code: string; check: Check }>> = {
  'undefined-scope': { code: 'E_REF_UNDEFINED', check: undefinedScope },
  env: { code: 'W_ENV_NOT_DEFINED', check: undefinedEnvVariable },
  resource: { code: 'E_REF_UNDEFINED', check: operationForm },
};

const referencesRule: Rule = {
  id: 'references',
  codes: ['E_REF_UNDEFINED', 'W_ENV_NOT_DEFINED'],
  *check({ project, graph }: LintContext): Iterable<Finding> {
    const names: Names = { project, graph, envVariables: envVariables(project) };
    for (const site of graph.refs) {
      const entry = CHECKS[site.class];
      if (!entry) continue;
      const message = entry.check(site, names);
      if (message) yield { code: entry.code, message, file: site.file, yamlPath: site.yamlPath, missing: missingOf(site) };
    }
  },
};

function undefinedScope(site: RefSite, { project }: Names): string | undefined {
  if (site.expr?.kind !== 'scoped') return undefined;
  const { scope, field, index } = site.expr;
  if (index !== undefined && project.actors.has(scope)) {
    return `${site.raw}: "${scope}" is an actor, and an actor has one session, not numbered instances: write {{${scope}.${field}}}`;
  }
  const candidates = [...project.actors.keys(), ...project.resources.keys(), 'env', 'secret'];
  return `${site.raw}: "${scope}" is not an actor, a resource, env or secret${didYouMean(scope, candidates)}`;
}

function undefinedEnvVariable(site: RefSite, { envVariables }: Names): string | undefined {
  if (site.expr?.kind !== 'env' || envVariables.has(site.expr.name)) return undefined;
  const { name } = site.expr;
  return `${site.raw}: no environment defines ${name}${didYouMean(name, envVariables)}; give it with --var ${name}=… or FLOW_VAR_${name}, or add it to an environment`;
}

function operationForm(site: RefSite, { project, graph }: Names): string | undefined {
  const expr = site.expr;
  if (expr?.kind !== 'scoped') return undefined;
  const op = operationFormOf(expr, project);
  // A field that happens to share an operation's name is a real field with a sub-path.
  if (!op || graph.producers(expr.scope, expr.field).length) return undefined;
  const index = expr.index === undefined ? '' : `[${expr.index}]`;
  const use = `{{${expr.scope}${index}.${expr.path.join('.')}}}`;
  return `${site.raw}: there is no {{resource.operation.field}} form; extractions belong to the resource: use ${use}`;
}

function envVariables(project: Project): Set<string> {
  const names = new Set<string>();
  for (const env of project.environments.values()) for (const name of Object.keys(env.variables)) names.add(name);
  return names;
}

export default referencesRule;
