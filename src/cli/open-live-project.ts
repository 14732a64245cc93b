// What a command that sends requests does before it sends any: load the project (a wrong
// --project is a usage error), the lint gate, known operation ids and environment, --var.
// Mirrors `flow run`'s opening; to be folded into the shared openProject() when it lands.
import path from 'node:path';
import { buildGraph, type ProjectGraph } from '../graph/index.js';
import { lint } from '../lint/index.js';
import { loadProject, type Project } from '../project/index.js';
import { parseVarAssignment } from '../runtime/template/index.js';
import { unknownOperations } from './args.js';
import { formatLoc } from './format/run-output.js';
import { EXIT, type CliIO } from './io.js';

export interface LiveProject {
  project: Project;
  graph: ProjectGraph;
  vars: Record<string, string>;
}

/**
 * The opened project, or the exit code after the message was written (`command` names it).
 * `ids` are the operations named on the command line, checked against the project.
 */
export async function openLiveProject(command: string, o: { project: string; env?: string; var: string[] }, ids: readonly string[], io: CliIO): Promise<LiveProject | number> {
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
  const project = await loadProject(path.resolve(io.cwd, o.project));
  for (const d of project.diagnostics) {
    if (d.code === 'E_PROJECT_NOT_FOUND') return usage(`no project at ${o.project} (${d.message})`);
    if (d.code === 'E_NO_ROOT') return usage(`no flow.yaml in ${o.project}`);
  }
  const graph = buildGraph(project);
  const linted = lint(project, { graph });
  if (linted.errors) {
    for (const d of linted.diagnostics.filter((x) => x.severity === 'error')) io.stderr(`${formatLoc(d, io.cwd)}  error  ${d.code}  ${d.message}\n`);
    io.stderr(`flow ${command}: the project has ${linted.errors} lint error(s); nothing was sent\n`);
    return EXIT.failed;
  }
  const unknown = unknownOperations(ids, project, io.cwd);
  if (unknown) return usage(unknown);
  if (o.env && !project.environments.has(o.env)) {
    return usage(`environment "${o.env}" is not defined (defined: ${[...project.environments.keys()].join(', ') || 'none'})`);
  }
  return { project, graph, vars };
}
