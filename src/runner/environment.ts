// Which environment a run uses, and the values for `<SET_VIA_--var>` placeholders.
import { FlowError } from '../errors.js';
import type { Environment, Project } from '../project/index.js';
import { varsFromEnv } from '../runtime/index.js';

/** `--env`, else `default_environment`, else the only (or first) environment; none is allowed. */
export function chooseEnvironment(project: Project, requested?: string): Environment | undefined {
  if (requested) {
    const env = project.environments.get(requested);
    if (!env) {
      const known = [...project.environments.keys()];
      throw new FlowError('E_ENV_UNDEFINED', `environment "${requested}" is not defined${known.length ? ` (defined: ${known.join(', ')})` : ''}`);
    }
    return env;
  }
  if (project.defaultEnvironment && project.environments.has(project.defaultEnvironment)) {
    return project.environments.get(project.defaultEnvironment);
  }
  return project.environments.values().next().value;
}

/** FLOW_VAR_<name> from the process environment, overridden by explicit vars (--var, plugin option). */
export function collectVars(explicit: Record<string, string> | undefined, processEnv: NodeJS.ProcessEnv): Record<string, string> {
  return { ...varsFromEnv(processEnv), ...(explicit ?? {}) };
}
