// What a failing flow test throws. The text of a failed result is src/report's (failure-text.ts),
// shared with `flow run`'s JUnit and Markdown reports.
import { followOnLine, type FollowOn } from '../lint/index.js';
import type { ProjectProblem } from '../open/index.js';
import type { Diagnostic, Loc, Project } from '../project/index.js';
import { displayPath, errorText, failureMessage, where } from '../report/index.js';
import type { OperationResult } from '../runner/index.js';

export { assertLine, displayPath } from '../report/index.js';

/** Thrown by a failing flow test. `code` is the runner's error code (E_STATUS_MISMATCH, …). */
export class FlowTestError extends Error {
  declare readonly code: string;
  declare readonly loc?: Loc;

  constructor(code: string, message: string, loc?: Loc, operation?: string) {
    super(message);
    this.name = 'FlowError';
    // Not enumerable: Vitest's terminal reporters print enumerable fields of an error as
    // "Serialized Error" under the message, which already says both. (Its JUnit reporter
    // prints them anyway: the worker copies every own property when it sends the error.)
    Object.defineProperty(this, 'code', { value: code, enumerable: false });
    Object.defineProperty(this, 'loc', { value: loc, enumerable: false });
    // A stack that points at the YAML: Vitest prints the code frame of the first frame.
    if (loc) this.stack = `${this.name}: ${message}\n    at ${operation ?? 'flow'} (${loc.file}:${loc.line}:${loc.col})`;
  }
}

/** The error a failed result becomes. */
export function failureError(result: OperationResult, cwd: string = process.cwd()): FlowTestError {
  const loc = result.error?.loc ?? result.loc;
  const code = result.error?.code ?? 'E_FAILED';
  return new FlowTestError(code, failureMessage(result, cwd), loc, result.operation);
}

/** `operation` could not run because `prerequisite` failed, and no other test shows why. */
export function prerequisiteFailure(operation: string, prerequisite: OperationResult, cwd: string = process.cwd()): FlowTestError {
  const loc = prerequisite.error?.loc ?? prerequisite.loc;
  const code = prerequisite.error?.code ?? 'E_FAILED';
  const cause = `${operation} did not run: its prerequisite ${prerequisite.operation} failed (no test here shows it): ${errorText(prerequisite)}`;
  return new FlowTestError(code, failureMessage(prerequisite, cwd, cause), loc, prerequisite.operation);
}

/** The message of the one `lint` test of a project with errors. */
function lintMessage(errors: Diagnostic[], cwd: string, followOns: readonly FollowOn[] = []): string {
  const lines = [`E_LINT: ${errors.length} lint error${errors.length === 1 ? '' : 's'}`];
  for (const d of errors) lines.push(`  ${where(d, cwd)}  ${d.code}  ${d.message}`);
  for (const f of followOns) lines.push(`  ${followOnLine(f, cwd)}`);
  return lines.join('\n');
}

/** Located at the first error: lint sorts parse errors first, and what follows from them is only counted. */
export function lintError(errors: Diagnostic[], cwd: string = process.cwd(), followOns: readonly FollowOn[] = []): FlowTestError {
  const first = errors[0];
  const loc = first && { file: first.file, line: first.line, col: first.col };
  return new FlowTestError(first?.code ?? 'E_LINT', lintMessage(errors, cwd, followOns), loc, 'lint');
}

/** What a project that cannot run becomes: a lint failure, or the environment's (src/open says which). */
export function problemError(problem: ProjectProblem, project: Pick<Project, 'rootFile' | 'environments'>, env: string | undefined): FlowTestError {
  return (problem.kind === 'environment' && environmentError(project, env)) || lintError(problem.errors, process.cwd(), problem.followOns);
}

/**
 * The one failing test of a project that lacks the environment asked for (`env` and FLOW_ENV
 * apply to every project), found before any request; undefined when there is nothing to say.
 */
export function environmentError(
  project: Pick<Project, 'rootFile' | 'environments'>,
  env: string | undefined,
  cwd: string = process.cwd(),
): FlowTestError | undefined {
  if (!env || project.environments.has(env)) return undefined;
  const known = [...project.environments.keys()].join(', ') || 'none';
  const message = `E_ENV_UNDEFINED: environment "${env}" is not defined in ${displayPath(project.rootFile, cwd)} (defined: ${known})`;
  // located at the project's root file: the stack then points there, not into reqflow
  return new FlowTestError('E_ENV_UNDEFINED', message, { file: project.rootFile, line: 1, col: 1 }, 'environment');
}

/**
 * Lint's warnings (a misspelt key, say), one line each, as a Vitest warning: Vitest shows what
 * a test file writes to the console while it is collected, under the file's name.
 */
export function warnLint(diagnostics: readonly Diagnostic[], cwd: string = process.cwd()): void {
  const warnings = diagnostics.filter((d) => d.severity === 'warning');
  if (!warnings.length) return;
  const lines = warnings.map((d) => `reqflow: ${where(d, cwd)}  warning  ${d.code}  ${d.message}`);
  lines.push(`reqflow: ${warnings.length} lint warning(s); flow({ strict: true }) makes them errors`);
  console.warn(lines.join('\n'));
}
