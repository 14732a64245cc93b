// The options of `flow()` and how they become runner options in the test worker.
// Environment variables win over the config file, as a flag on the command line would:
// `FLOW_ENV=staging npx vitest` picks staging even when the config says `env: 'local'`.
// Loaded with the config (main process): nothing heavy here.
import path from 'node:path';
import { closestName } from '../graph/index.js';
import { varsFromEnv } from '../runtime/index.js';
import type { RunnerOptions } from '../runner/index.js';
import { originOf, probeUrl, type ServerOptions } from '../server/index.js';
import { resolveProjects } from './project-options.js';

export interface FlowOptions {
  /** environment id, for every project; default: each project's `default_environment`. `FLOW_ENV` overrides it. */
  env?: string;
  /** values for `<SET_VIA_--var>` placeholders. `FLOW_VAR_<name>` overrides one. */
  vars?: Record<string, string>;
  /** how many independent operations the runner may run at once (default 1) */
  concurrency?: number;
  /** glob patterns of the `flow.yaml` files to run, relative to the Vitest root (default: `DEFAULT_INCLUDE`, every flow.yaml) */
  include?: string[];
  /** the API under test, started before the suites and stopped after (Playwright's `webServer`); its url's origin becomes `baseUrl` */
  server?: FlowServerOptions;
  /** an OpenAPI 3.0/3.1 (or Swagger 2.0) description (relative to the Vitest root): every response is checked against it */
  openapi?: string;
  /** what a contract violation does: `fail` the operation's test (default) or `warn` */
  contract?: ContractMode;
  /** cut each project into test files of operations that share no state, for Vitest's workers and `--shard` (default true; false keeps a project in one file) */
  split?: boolean;
  /** opt-in, with `openapi`: one more test per project, `explore`, that runs `flow explore` and fails with its findings */
  explore?: {
    /** seconds (default 10) */
    budget?: number;
    /** the seed of the draws (default 1: a test is reproducible) */
    seed?: number;
    /** stop after this many rounds (each gives every resource 40 sequences), or at the budget, whichever first: the same draws on a busy CI runner as on a quiet laptop */
    rounds?: number;
    /** also try what each actor creates as every other actor and with no credentials (`flow explore --authz`) */
    authz?: boolean;
  };
  /** lint warnings (a misspelt key) fail the project's `lint` test; without it they are printed as warnings */
  strict?: boolean;
  /** leave what a suite's run created, and any switch it flipped, in place (default false: cleaned up after the suite, docs/format.md#ownership) */
  keep?: boolean;
  /**
   * Options for one project, by the path of its `flow.yaml` (or of its directory) relative to
   * the Vitest root: `{ 'api/flow.yaml': { vars: { baseUrl } } }`. They win over the options
   * above; `vars` merge by name.
   */
  projects?: Record<string, ProjectOptions>;
}

/** The options one project may set for itself (`projects`), and those `createFlowTest` takes. */
const PROJECT_KEYS = ['env', 'vars', 'concurrency', 'strict'] as const satisfies readonly (keyof FlowOptions)[];
const FLOW_TEST_KEYS = ['env', 'vars', 'concurrency'] as const satisfies readonly (keyof FlowOptions)[];

/** What one project may set for itself (`projects`). */
export type ProjectOptions = Pick<FlowOptions, (typeof PROJECT_KEYS)[number]>;

type ContractMode = 'fail' | 'warn';

/** `anyAnswer` is flow run's (a URL defaulted from baseUrl): here the user always names the url or port. */
interface FlowServerOptions extends Omit<ServerOptions, 'anyAnswer'> {
  /** globs of the server's source (relative to the Vitest root): in watch mode, an edit restarts the server and re-runs the flow suites */
  watch?: string[];
}

/** The part of the options a generated suite carries. JSON only: it is written into the module. */
export interface SuiteOptions {
  env?: string;
  vars?: Record<string, string>;
  concurrency?: number;
  strict?: boolean;
  keep?: boolean;
  /** each project's own options, by the absolute path of its flow.yaml (project-options.ts merges them in) */
  projects?: Record<string, ProjectOptions>;
  /** absolute path of the OpenAPI description */
  openapi?: string;
  contract?: ContractMode;
  explore?: FlowOptions['explore'];
}

/** What the transform hands to `defineFlowSuite`. */
export interface SuitePlan {
  /** absolute path of the `flow.yaml` */
  root: string;
  options: SuiteOptions;
  /** the file name of one part of the project (src/vitest/split-files.ts): run only its operations */
  part?: string;
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

/** One option of `flow()`: what a valid value is, and what the generated suite carries of it. */
interface OptionSpec {
  /** the problems with a value given (not undefined); `all` is every option, for those that need another */
  check(value: unknown, all: Record<string, unknown>): string[];
  /**
   * Its part of the suite options (JSON, written into the generated module; undefined: none),
   * given the Vitest root when known; absent: the option is the main process's only (include,
   * server, split).
   */
  suite?(value: unknown, options: FlowOptions, root: string | undefined): unknown;
}

const when = (bad: boolean, problem: string): string[] => (bad ? [problem] : []);
const copy = (value: unknown) => value;

/**
 * Every option of `flow()`, in the order problems are reported: the one place an option is
 * added (with its key in FlowOptions, which `satisfies` below holds to this table, and in
 * SuiteOptions when the suite carries it). The names lists derive from it.
 */
const OPTIONS = {
  env: { check: (v) => when(typeof v !== 'string' || v === '', `env must be an environment id (a non-empty string), got ${describe(v)}`), suite: copy },
  vars: {
    check: (v) =>
      !isRecord(v)
        ? [`vars must be an object of strings, got ${describe(v)}`]
        : Object.entries(v).flatMap(([k, x]) => when(typeof x !== 'string', `vars.${k} must be a string, got ${describe(x)}`)),
    // a managed server's origin is the baseUrl var (the config's own vars.baseUrl wins)
    suite: (v, o, root) => {
      const baseUrl = root !== undefined && o.server ? serverOrigin(o.server) : undefined;
      return v !== undefined || baseUrl ? { ...(baseUrl && { baseUrl }), ...(v as Record<string, string> | undefined) } : undefined;
    },
  },
  concurrency: { check: (v) => when(!(Number.isInteger(v) && (v as number) >= 1), `concurrency must be a whole number >= 1, got ${describe(v)}`), suite: copy },
  include: {
    check: (v) => when(!(Array.isArray(v) && v.every((p) => typeof p === 'string')), `include must be an array of glob patterns, got ${describe(v)}`),
  },
  server: { check: (v) => serverProblems(v) },
  openapi: {
    check: (v) => when(typeof v !== 'string' || v === '', `openapi must be the path of an OpenAPI description, got ${describe(v)}`),
    suite: (v, _o, root) => (root === undefined || v === undefined ? v : path.resolve(root, v as string)),
  },
  contract: { check: (v) => when(v !== 'fail' && v !== 'warn', `contract must be 'fail' or 'warn', got ${describe(v)}`), suite: copy },
  split: { check: (v) => when(typeof v !== 'boolean', `split must be true or false, got ${describe(v)}`) },
  explore: { check: (v, all) => exploreProblems(v, all.openapi), suite: (v) => (v === undefined ? undefined : { ...(v as object) }) },
  strict: { check: (v) => when(typeof v !== 'boolean', `strict must be true or false, got ${describe(v)}`), suite: copy },
  keep: { check: (v) => when(typeof v !== 'boolean', `keep must be true or false, got ${describe(v)}`), suite: copy },
  projects: {
    check: (v) => projectsProblems(v),
    suite: (v, _o, root) => (root === undefined || v === undefined ? undefined : resolveProjects(v as Record<string, ProjectOptions>, root)),
  },
} satisfies Record<keyof FlowOptions, OptionSpec>;

const FLOW_OPTION_NAMES = Object.keys(OPTIONS) as (keyof FlowOptions)[];
const EXPLORE_OPTION_NAMES = ['budget', 'seed', 'rounds', 'authz'] as const satisfies readonly (keyof NonNullable<FlowOptions['explore']>)[];
const SERVER_OPTION_NAMES = ['command', 'cwd', 'env', 'url', 'port', 'timeout', 'reuseExisting', 'watch'];

/**
 * Throws an Error naming every bad option: a misspelt key or `concurrency: 0` would otherwise
 * be ignored or fail far from the config. `where` is the call the message names.
 */
export function validateOptions(options: unknown, where = 'flow()', names: readonly (keyof FlowOptions)[] = FLOW_OPTION_NAMES): void {
  if (options === undefined) return;
  if (!isRecord(options)) throw new Error(`${where}: the options must be an object, got ${describe(options)}`);
  const problems: string[] = [];
  const known: readonly string[] = names;
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) problems.push(`unknown option "${key}"${suggestion(key, names)}; the options are ${names.join(', ')}`);
  }
  for (const name of FLOW_OPTION_NAMES) {
    if (names.includes(name) && options[name] !== undefined) problems.push(...(OPTIONS[name] as OptionSpec).check(options[name], options));
  }
  if (problems.length) throw new Error(`${where}: ${problems.join('; ')}`);
}

function exploreProblems(explore: unknown, openapi: unknown): string[] {
  if (explore === undefined) return [];
  if (!isRecord(explore)) return [`explore must be an object ({ ${EXPLORE_OPTION_NAMES.join(', ')} }), got ${describe(explore)}`];
  const out: string[] = [];
  if (openapi === undefined) out.push('explore needs openapi: its request schemas are what is drawn from');
  for (const key of Object.keys(explore))
    if (!(EXPLORE_OPTION_NAMES as readonly string[]).includes(key))
      out.push(`unknown option "explore.${key}"${suggestion(key, EXPLORE_OPTION_NAMES)}; the explore options are ${EXPLORE_OPTION_NAMES.join(', ')}`);
  if (explore.budget !== undefined && !(typeof explore.budget === 'number' && explore.budget > 0))
    out.push(`explore.budget must be a number of seconds > 0, got ${describe(explore.budget)}`);
  if (explore.seed !== undefined && !Number.isSafeInteger(explore.seed)) out.push(`explore.seed must be a whole number, got ${describe(explore.seed)}`);
  if (explore.rounds !== undefined && !(Number.isSafeInteger(explore.rounds) && (explore.rounds as number) > 0))
    out.push(`explore.rounds must be a whole number > 0, got ${describe(explore.rounds)}`);
  if (explore.authz !== undefined && typeof explore.authz !== 'boolean') out.push(`explore.authz must be true or false, got ${describe(explore.authz)}`);
  return out;
}

function projectsProblems(projects: unknown): string[] {
  if (projects === undefined) return [];
  if (!isRecord(projects)) return [`projects must be an object keyed by the path of a flow.yaml, got ${describe(projects)}`];
  const out: string[] = [];
  for (const [key, value] of Object.entries(projects)) {
    try {
      validateOptions(value, `projects[${JSON.stringify(key)}]`, PROJECT_KEYS);
    } catch (err) {
      out.push((err as Error).message);
    }
  }
  return out;
}

function serverProblems(server: unknown): string[] {
  if (server === undefined) return [];
  if (!isRecord(server)) return [`server must be an object ({ command, url }), got ${describe(server)}`];
  const out: string[] = [];
  for (const key of Object.keys(server)) {
    if (!SERVER_OPTION_NAMES.includes(key))
      out.push(`unknown option "server.${key}"${suggestion(key, SERVER_OPTION_NAMES)}; the server options are ${SERVER_OPTION_NAMES.join(', ')}`);
  }
  const { command, cwd, env, url, port, timeout, reuseExisting, watch } = server;
  if (typeof command !== 'string' || command.trim() === '') out.push(`server.command must be the command that starts the server, got ${describe(command)}`);
  if (cwd !== undefined && typeof cwd !== 'string') out.push(`server.cwd must be a directory, got ${describe(cwd)}`);
  if (env !== undefined && !(isRecord(env) && Object.values(env).every((v) => typeof v === 'string')))
    out.push(`server.env must be an object of strings, got ${describe(env)}`);
  if (url === undefined && port === undefined) out.push('server needs the url (or port) it answers at');
  if (url !== undefined && !(typeof url === 'string' && /^https?:\/\//.test(url))) out.push(`server.url must be an http(s) URL, got ${describe(url)}`);
  if (port !== undefined && !(Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536))
    out.push(`server.port must be a port number, got ${describe(port)}`);
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0)) out.push(`server.timeout must be a number of ms > 0, got ${describe(timeout)}`);
  if (reuseExisting !== undefined && typeof reuseExisting !== 'boolean') out.push(`server.reuseExisting must be true or false, got ${describe(reuseExisting)}`);
  if (watch !== undefined && !(Array.isArray(watch) && watch.every((p) => typeof p === 'string')))
    out.push(`server.watch must be an array of glob patterns, got ${describe(watch)}`);
  return out;
}

/** The options `createFlowTest` takes: those of `flow()` a runner reads. */
export function validateSuiteOptions(options: unknown): void {
  validateOptions(options, 'createFlowTest()', FLOW_TEST_KEYS);
}

/** " (did you mean env?)": the edit distance misses `enviroment` for `env`, a shared start catches it. */
function suggestion(key: string, names: readonly string[]): string {
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

/**
 * The JSON-safe subset of the plugin options, without undefined keys (stable generated code).
 * With `root` (the Vitest root), the description's path is made absolute, and a managed
 * server's origin becomes the `baseUrl` var (the config's own `vars.baseUrl` wins).
 */
export function suiteOptions(options: FlowOptions = {}, root?: string): SuiteOptions {
  const out: Record<string, unknown> = {};
  for (const name of FLOW_OPTION_NAMES) {
    const carried = (OPTIONS[name] as OptionSpec).suite?.(options[name], options, root);
    if (carried !== undefined) out[name] = carried;
  }
  return out;
}

/** Where the flows send their requests when the plugin starts the server (undefined: no url or port yet). */
function serverOrigin(server: Pick<ServerOptions, 'url' | 'port'>): string | undefined {
  if (!server.url && server.port === undefined) return undefined;
  return originOf(probeUrl({ ...server, command: '' }));
}

/**
 * A `createFlowTest` fixture's options: its own, over the plugin's (provided to the worker).
 * Vars merge by name, so a test file may set one without losing the config's others.
 */
export function withDefaults(own: SuiteOptions, defaults: SuiteOptions | undefined): SuiteOptions {
  const vars = defaults?.vars || own.vars ? { ...defaults?.vars, ...own.vars } : undefined;
  return suiteOptions({
    env: own.env ?? defaults?.env,
    vars,
    concurrency: own.concurrency ?? defaults?.concurrency,
    openapi: defaults?.openapi,
    contract: defaults?.contract,
    strict: defaults?.strict,
  });
}

/** Runner options for a suite, read in the worker at run time (so a globalSetup may set them). */
export function runnerOptions(options: SuiteOptions, processEnv: NodeJS.ProcessEnv = process.env): RunnerOptions {
  const env = processEnv.FLOW_ENV || options.env;
  const vars = { ...options.vars, ...varsFromEnv(processEnv) };
  // an operation that needs a var nobody gave is a skipped test with the var as its reason
  const out: RunnerOptions = { vars, processEnv, skipUnset: true };
  if (env) out.env = env;
  if (options.concurrency !== undefined) out.concurrency = options.concurrency;
  return out;
}
