// What `flow run` says of lint: the errors that stop it, or the warnings before the results (a
// misspelt key is only a warning, and the run would pass without a word about it).
import { followOnLine, stylishLine } from '../../lint/index.js';
import type { ProjectProblem } from '../../open/index.js';
import type { Diagnostic } from '../../project/index.js';

/** One line per diagnostic, `file:line:col  severity  CODE  message`, as `flow lint` prints them. */
export function lintLines(diagnostics: readonly Diagnostic[], cwd: string): string {
  return diagnostics.map((d) => `${stylishLine(d, cwd)}\n`).join('');
}

/** The lint problem that stops a run: its errors (warnings too under --strict), and what follows from a file that did not parse. */
export function lintProblemLines(problem: ProjectProblem, cwd: string): string {
  return lintLines(problem.errors, cwd) + (problem.followOns ?? []).map((f) => `${followOnLine(f, cwd)}\n`).join('');
}
