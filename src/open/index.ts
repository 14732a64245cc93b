// Opening a project, the one way `flow run`, `flow lint`, `flow graph`, the Vitest suite and
// `flowTest` all do it: load, build the graph, lint, check the environment asked for, and
// (on demand) make the runner. Each caller reports a problem its own way (an exit code, a
// failing test); what counts as which kind of problem is decided here, once.
import { buildGraph, type ProjectGraph } from '../graph/index.js';
import { lint, type FollowOn, type LintResult } from '../lint/index.js';
import { loadProject, type CacheOptions, type Diagnostic, type Project } from '../project/index.js';
import type { Runner, RunnerOptions } from '../runner/index.js';

/**
 * What stops a project from running:
 * - `not-a-project`: the path is missing, not a directory, or has no flow.yaml (the caller
 *   named the wrong place: a usage problem);
 * - `lint`: the project has lint errors (loader errors included);
 * - `environment`: the environment asked for is not declared.
 */
export type ProblemKind = 'not-a-project' | 'lint' | 'environment';

export interface ProjectProblem {
  kind: ProblemKind;
  /** one sentence, without the command name */
  message: string;
  /** the errors behind it (for `lint`, every lint error, and with `strict` every warning; else the one loader diagnostic, or none) */
  errors: Diagnostic[];
  /** for `lint`: what is not in `errors` because it only follows from a file that did not parse */
  followOns?: FollowOn[];
}

export interface OpenOptions {
  /** the environment the run will use; checked when given */
  env?: string;
  /** the parse cache (src/project/parse-cache.ts): on unless `{ enabled: false }` */
  cache?: CacheOptions;
  /** warnings count as failures: in `lint.ok`, and as a `lint` problem (`flow run --strict`, the plugin's `strict`) */
  strict?: boolean;
  /**
   * Called once the project has loaded, before lint (`flow lint --fix`): returns true when it
   * changed files, and the project is then read again.
   */
  edit?: (project: Project) => Promise<boolean>;
}

export interface OpenedProject {
  project: Project;
  /** undefined only when it cannot be built (our bug): `problem` is then a lint error E_INTERNAL */
  graph: ProjectGraph | undefined;
  /** every diagnostic: the loader's and lint's */
  lint: LintResult;
  /** the first problem found, in the order load, lint, environment; undefined when it can run */
  problem?: ProjectProblem;
  /**
   * A runner on the same project and graph. The runtime (undici, auth, templates) is loaded
   * here, not with this module: `flow lint`, `flow graph` and a project with lint errors never
   * pay for it.
   */
  createRunner(options?: Omit<RunnerOptions, 'graph'>): Promise<Runner>;
}

/** Loader diagnostics that mean "not a project here", not "a project with errors". */
const NOT_A_PROJECT = new Set(['E_PROJECT_NOT_FOUND', 'E_NO_ROOT']);

/** @param dir the project directory, or its flow.yaml */
export async function openProject(dir: string, options: OpenOptions = {}): Promise<OpenedProject> {
  let project = await loadProject(dir, { cache: options.cache });
  if (options.edit && (await options.edit(project))) project = await loadProject(dir, { cache: options.cache });
  const graph = graphOf(project);
  // Without a graph, lint's rules that need one each report E_INTERNAL (lint builds it again
  // and fails the same way) and the others still report what they find.
  let linted = lintSafely(project, graph, options.strict);
  if (!graph && !linted.errors) linted = internalError(project, 'the dependency graph cannot be built', linted.diagnostics);
  return {
    project,
    graph,
    lint: linted,
    problem: problemOf(project, linted, options.env, options.strict),
    async createRunner(runnerOptions = {}) {
      const { createRunner } = await import('../runner/index.js');
      return createRunner(project, { ...runnerOptions, graph });
    },
  };
}

function problemOf(project: Project, linted: LintResult, env: string | undefined, strict = false): ProjectProblem | undefined {
  const missing = project.diagnostics.find((d) => NOT_A_PROJECT.has(d.code));
  if (missing) return { kind: 'not-a-project', message: missing.message, errors: [missing] };
  const errors = linted.diagnostics.filter((d) => strict || d.severity === 'error');
  if (errors.length) {
    const message = linted.errors
      ? `the project has ${linted.errors} lint error(s)${strict && linted.warnings ? ` and ${linted.warnings} warning(s), which strict makes errors` : ''}`
      : `the project has ${linted.warnings} lint warning(s), which strict makes errors`;
    return { kind: 'lint', message, errors, followOns: linted.followOns };
  }
  if (env !== undefined && !project.environments.has(env)) {
    const known = [...project.environments.keys()].join(', ') || 'none';
    return { kind: 'environment', message: `environment "${env}" is not defined (defined: ${known})`, errors: [] };
  }
  return undefined;
}

/** Lint, and a crash of lint itself as one E_INTERNAL error: every caller must get an answer. */
/** Undefined when it cannot be built: our bug (lint's fuzz test builds graphs from thousands of broken projects). */
function graphOf(project: Project): ProjectGraph | undefined {
  try {
    return buildGraph(project);
  } catch {
    return undefined;
  }
}

function lintSafely(project: Project, graph: ProjectGraph | undefined, strict = false): LintResult {
  try {
    return lint(project, { graph, strict });
  } catch (err) {
    return internalError(project, `lint failed: ${(err as Error).message}`);
  }
}

function internalError(project: Project, message: string, found: Diagnostic[] = project.diagnostics): LintResult {
  const internal: Diagnostic = { code: 'E_INTERNAL', severity: 'error', message, file: project.rootFile, line: 1, col: 1 };
  const diagnostics = [...found, internal];
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { diagnostics, followOns: [], errors, warnings: diagnostics.length - errors, ok: false };
}
