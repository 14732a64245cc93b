// One exit code per kind of problem, for every command that opens a project (src/open): a
// wrong --project is a usage error in `flow lint`, `flow run` and `flow graph` alike.
import type { ProblemKind, ProjectProblem } from '../open/index.js';
import { EXIT } from './io.js';

export const PROBLEM_EXIT: Record<ProblemKind, number> = {
  // the caller named the wrong place, or an environment the project lacks
  'not-a-project': EXIT.usage,
  environment: EXIT.usage,
  // the project is there and has errors: a failure found, as a failed test is
  lint: EXIT.failed,
};

/** The sentence after `flow <command>: `; `projectArg` is --project as the user wrote it. */
export function problemMessage(problem: ProjectProblem, projectArg: string): string {
  if (problem.kind !== 'not-a-project') return problem.message;
  return problem.errors[0]?.code === 'E_NO_ROOT' ? `no flow.yaml in ${projectArg}` : `no project at ${projectArg} (${problem.message})`;
}
