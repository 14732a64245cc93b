// What a command that sends requests does before it sends any, on top of openProject (the
// one way every command opens a project): a wrong --project is a usage error, the lint gate,
// known operation ids and environment, --var.
import path from 'node:path';
import type { ProjectGraph } from '../graph/index.js';
import { openProject } from '../open/index.js';
import type { CacheOptions, Project } from '../project/index.js';
import { parseVarAssignment } from '../runtime/index.js';
import { unknownOperations } from './args.js';
import { lintProblemLines } from './format/lint-lines.js';
import { EXIT, type CliIO } from './io.js';
import { PROBLEM_EXIT, problemMessage } from './problem.js';

export interface LiveProject {
  project: Project;
  graph: ProjectGraph;
  vars: Record<string, string>;
}

/**
 * The opened project, or the exit code after the message was written (`command` names it).
 * `ids` are the operations named on the command line, checked against the project.
 */
export async function openLiveProject(
  command: string,
  o: { project: string; env?: string; var: string[] },
  ids: readonly string[],
  io: CliIO,
  cache?: CacheOptions,
): Promise<LiveProject | number> {
  const usage = (message: string) => {
    io.stderr(`flow ${command}: ${message}\n(flow ${command} --help lists the options)\n`);
    return EXIT.usage;
  };
  const vars: Record<string, string> = {};
  for (const assignment of o.var) {
    const parsed = parseVarAssignment(assignment);
    if (!parsed) return usage(`--var takes name=value; got "${assignment}"`);
    vars[parsed.name] = parsed.value;
  }
  const opened = await openProject(path.resolve(io.cwd, o.project), { env: o.env, cache });
  const { project, problem } = opened;
  if (problem?.kind === 'lint') {
    io.stderr(lintProblemLines(problem, io.cwd));
    io.stderr(`flow ${command}: ${problem.message}; nothing was sent\n`);
    return PROBLEM_EXIT.lint;
  }
  if (problem) return usage(problemMessage(problem, o.project));
  const unknown = unknownOperations(ids, project, io.cwd);
  if (unknown) return usage(unknown);
  // lint has passed: the graph was built
  return { project, graph: opened.graph!, vars };
}
