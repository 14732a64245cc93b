// The options of `flow()` and how they become runner options in the test worker.
// Environment variables win over the config file, as a flag on the command line would:
// `FLOW_ENV=staging npx vitest` picks staging even when the config says `env: 'local'`.
// Loaded with the config (main process): nothing heavy here.
import { closestName } from '../graph/suggest.js';
import { varsFromEnv } from '../runtime/template/vars.js';
import type { RunnerOptions } from '../runtime/types.js';

export interface FlowOptions {
  /** environment id, for every project; default: each project's `default_environment`. `FLOW_ENV` overrides it. */
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

/** The key under which the config plugin provides the `flow()` options to the workers (`inject`), for `flowTest`. */
export const OPTIONS_KEY = 'reqflow:options';

declare module 'vitest' {
  interface ProvidedContext {
    'reqflow:options': SuiteOptions;
  }
}

export const DEFAULT_INCLUDE = ['**/flow.yaml'];
export const ROOT_FILE_NAME = 'flow.yaml';
const FLOW_OPTION_NAMES = ['env', 'vars', 'concurrency', 'include'];
const SUITE_OPTION_NAMES = ['env', 'vars', 'concurrency'];

/**
 * Throws an Error naming every bad option: a misspelt key or `concurrency: 0` would otherwise
 * be ignored or fail far from the config. `where` is the call the message names.
 */
export function validateOptions(options: unknown, where = 'flow()', names: string[] = FLOW_OPTION_NAMES): void {
  if (options === undefined) return;
  if (!isRecord(options)) throw new Error(`${where}: the options must be an object, got ${describe(options)}`);
  const problems: string[] = [];
  for (const key of Object.keys(options)) {
    if (!names.includes(key)) problems.push(`unknown option "${key}"${suggestion(key, names)}; the options are ${names.join(', ')}`);
  }
  const { env, vars, concurrency, include } = options;
  if (env !== undefined && (typeof env !== 'string' || env === '')) problems.push(`env must be an environment id (a non-empty string), got ${describe(env)}`);
  if (vars !== undefined) {
    if (!isRecord(vars)) problems.push(`vars must be an object of strings, got ${describe(vars)}`);
    else for (const [k, v] of Object.entries(vars)) if (typeof v !== 'string') problems.push(`vars.${k} must be a string, got ${describe(v)}`);
  }
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && (concurrency as number) >= 1)) {
    problems.push(`concurrency must be a whole number >= 1, got ${describe(concurrency)}`);
  }
  if (names.includes('include') && include !== undefined && !(Array.isArray(include) && include.every((p) => typeof p === 'string'))) {
    problems.push(`include must be an array of glob patterns, got ${describe(include)}`);
  }
  if (problems.length) throw new Error(`${where}: ${problems.join('; ')}`);
}

/** The options `createFlowTest` takes: those of `flow()` a runner reads. */
export function validateSuiteOptions(options: unknown): void {
  validateOptions(options, 'createFlowTest()', SUITE_OPTION_NAMES);
}

/** " (did you mean env?)": the edit distance misses `enviroment` for `env`, a shared start catches it. */
function suggestion(key: string, names: string[]): string {
  const lower = key.toLowerCase();
  const near = closestName(key, names) ?? names.find((n) => lower.length >= 3 && lower.startsWith(n.slice(0, 3)));
  return near ? ` (did you mean ${near}?)` : '';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

/** The JSON-safe subset of the plugin options, without undefined keys (stable generated code). */
export function suiteOptions(options: FlowOptions = {}): SuiteOptions {
  const out: SuiteOptions = {};
  if (options.env !== undefined) out.env = options.env;
  if (options.vars !== undefined) out.vars = { ...options.vars };
  if (options.concurrency !== undefined) out.concurrency = options.concurrency;
  return out;
}

/**
 * A `createFlowTest` fixture's options: its own, over the plugin's (provided to the worker).
 * Vars merge by name, so a test file may set one without losing the config's others.
 */
export function withDefaults(own: SuiteOptions, defaults: SuiteOptions | undefined): SuiteOptions {
  const vars = defaults?.vars || own.vars ? { ...defaults?.vars, ...own.vars } : undefined;
  return suiteOptions({ env: own.env ?? defaults?.env, vars, concurrency: own.concurrency ?? defaults?.concurrency });
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
