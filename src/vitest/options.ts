// The options of `flow()` and how they become runner options in the test worker.
// Environment variables win over the config file, as a flag on the command line would:
// `FLOW_ENV=staging npx vitest` picks staging even when the config says `env: 'local'`.
import type { RunnerOptions } from '../runtime/types.js';

export interface FlowOptions {
  /** environment id; default: the project's `default_environment`. `FLOW_ENV` overrides it. */
  env?: string;
  /** values for `<SET_VIA_--var>` placeholders. `FLOW_VAR_<name>` overrides one. */
  vars?: Record<string, string>;
  /** how many independent operations the runner may run at once (default 1) */
  concurrency?: number;
  /** glob patterns of the `flow.yaml` files to run, relative to the Vitest root (default: `DEFAULT_INCLUDE`, every flow.yaml) */
  include?: string[];
}

/** The part of the options a generated suite carries. JSON only: it is written into the module. */
export interface SuiteOptions {
  env?: string;
  vars?: Record<string, string>;
  concurrency?: number;
}

/** What the transform hands to `defineFlowSuite`. */
export interface SuitePlan {
  /** absolute path of the `flow.yaml` */
  root: string;
  options: SuiteOptions;
}

export const DEFAULT_INCLUDE = ['**/flow.yaml'];
export const ROOT_FILE_NAME = 'flow.yaml';
const VAR_PREFIX = 'FLOW_VAR_';

/** The JSON-safe subset of the plugin options, without undefined keys (stable generated code). */
export function suiteOptions(options: FlowOptions = {}): SuiteOptions {
  const out: SuiteOptions = {};
  if (options.env !== undefined) out.env = options.env;
  if (options.vars !== undefined) out.vars = { ...options.vars };
  if (options.concurrency !== undefined) out.concurrency = options.concurrency;
  return out;
}

/** `FLOW_VAR_<name>=value` entries of an environment. */
export function varsFromEnv(processEnv: NodeJS.ProcessEnv): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [key, value] of Object.entries(processEnv)) {
    if (key.startsWith(VAR_PREFIX) && key.length > VAR_PREFIX.length && value !== undefined) vars[key.slice(VAR_PREFIX.length)] = value;
  }
  return vars;
}

/** Runner options for a suite, read in the worker at run time (so a globalSetup may set them). */
export function runnerOptions(options: SuiteOptions, processEnv: NodeJS.ProcessEnv = process.env): RunnerOptions {
  const env = processEnv.FLOW_ENV || options.env;
  const vars = { ...options.vars, ...varsFromEnv(processEnv) };
  const out: RunnerOptions = { vars, processEnv };
  if (env) out.env = env;
  if (options.concurrency !== undefined) out.concurrency = options.concurrency;
  return out;
}
