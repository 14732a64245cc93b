// What a command that sends requests does before it sends any, on top of openProject (the
// one way every command opens a project): a wrong --project is a usage error, the lint gate,
// known operation ids and environment; and --var, read the same way by each.
import path from 'node:path';
import type { ProjectGraph } from '../graph/index.js';
import { openProject, type OpenedProject } from '../open/index.js';
import type { CacheOptions, Diagnostic } from '../project/index.js';
import { parseVarAssignment } from '../runtime/index.js';
import { unknownOperations } from './args.js';
import { lintProblemLines } from './format/lint-lines.js';
import type { CliIO } from './io.js';
import { usageError } from './usage.js';
import { PROBLEM_EXIT, problemMessage } from './problem.js';

/** An opened project that passed the gate: its graph is built. */
export interface LiveProject extends OpenedProject {
  graph: ProjectGraph;
}

/** The --var values by name, or the usage message for the first that is not name=value. */
export function parseVars(assignments: readonly string[]): Record<string, string> | string {
  const vars: Record<string, string> = {};
  for (const assignment of assignments) {
    const parsed = parseVarAssignment(assignment);
    if (!parsed) return `--var takes name=value; got "${assignment}"`;
    vars[parsed.name] = parsed.value;
  }
  return vars;
}

/**
 * The opened project, or the exit code after the message was written (`command` names it).
 * `ids` are the operations named on the command line, checked against the project.
 */
export async function openLiveProject(
  command: string,
  o: { project: string; env?: string; strict?: boolean },
  ids: readonly string[],
  io: CliIO,
  cache?: CacheOptions,
  /** shown the lint warnings once the gate has passed, before the operations are checked */
  warn?: (diagnostics: Diagnostic[]) => void,
): Promise<LiveProject | number> {
  const usage = (message: string) => usageError(io, command, message);
  const opened = await openProject(path.resolve(io.cwd, o.project), { env: o.env, strict: o.strict, cache });
  const { project, problem } = opened;
  if (problem?.kind === 'lint') {
    io.stderr(lintProblemLines(problem, io.cwd));
    io.stderr(`flow ${command}: ${problem.message}; nothing was sent\n`);
    return PROBLEM_EXIT.lint;
  }
  if (problem) return usage(problemMessage(problem, o.project));
  warn?.(opened.lint.diagnostics);
  const unknown = unknownOperations(ids, project, io.cwd);
  if (unknown) return usage(unknown);
  // lint has passed: the graph was built
  return opened as LiveProject;
}
