// Small projects for graph tests, loaded by the real loader from a temporary directory.
import path from 'node:path';
import { buildGraph, type ProjectGraph } from '../../src/graph/index.js';
import type { Finding, Rule } from '../../src/lint/rule.js';
import { loadProject, locate, type Operation, type Project } from '../../src/project/index.js';
import { writeProject } from '../helpers/project.js';

/** Write `files` (relative path -> YAML text) into a fresh directory and load it. */
export async function loadFiles(files: Record<string, string>): Promise<Project> {
  return loadProject(await writeProject(files));
}

/** An inline project: `body` is the YAML after `version: 1` in flow.yaml. */
export async function loadInline(body: string): Promise<Project> {
  return loadFiles({ 'flow.yaml': `version: 1\n${body}` });
}

export async function graphOf(body: string): Promise<ProjectGraph> {
  const project = await loadInline(body);
  const errors = project.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`fixture does not load: ${errors.map((d) => d.message).join('; ')}`);
  return buildGraph(project);
}

export interface Located extends Finding {
  line: number;
  /** the file relative to the project */
  rel: string;
}

/** Run one rule as the lint runner would, with positions. */
export function runRule(rule: Rule, graph: ProjectGraph): Located[] {
  const project = graph.project;
  return [...rule.check({ project, graph })].map((f) => ({
    ...f,
    line: locate(project, f.file, f.yamlPath, f.atKey).line,
    rel: path.relative(project.dir, f.file),
  }));
}

/**
 * A project built in memory (no files): operation `r.o<i>` for i < n in one resource `r`,
 * `deps(i)` giving the depends_on of each, `deletes` the indexes whose method is DELETE.
 */
export function syntheticProject(n: number, deps: (i: number) => number[], deletes: Set<number> = new Set()): Project {
  const file = '/virtual/resources/r.yaml';
  const loc = { file, line: 1, col: 1 };
  const operations = new Map<string, Operation>();
  for (let i = 0; i < n; i++) {
    const dependsOn = deps(i).map((d) => `r.o${d}`);
    operations.set(`r.o${i}`, {
      id: `r.o${i}`,
      resource: 'r',
      name: `o${i}`,
      method: deletes.has(i) ? 'DELETE' : 'GET',
      path: '/x',
      dependsOn,
      headers: {},
      queryParams: {},
      extract: [],
      assert: [],
      assertLocs: [],
      force: false,
      actsOnExisting: false,
      raw: { depends_on: dependsOn },
      file,
      yamlPath: ['operations', `o${i}`],
      loc,
    });
  }
  return {
    dir: '/virtual',
    rootFile: '/virtual/flow.yaml',
    version: 1,
    name: 'synthetic',
    imports: [],
    environments: new Map(),
    actors: new Map(),
    resources: new Map([['r', { id: 'r', operations: [...operations.keys()], file, yamlPath: [], loc }]]),
    operations,
    files: [],
    diagnostics: [],
  };
}
