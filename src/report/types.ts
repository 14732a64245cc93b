// What every reporter of `flow run` reads: the results of a run (plain data, already redacted by
// the runner) and the project and graph they came from. Built once, after the run ends.
import type { ProjectGraph } from '../graph/index.js';
import type { Project } from '../project/index.js';
import type { OperationResult } from '../runner/index.js';

export interface RunReport {
  project: Project;
  graph: ProjectGraph;
  /** the environment the run used */
  environment?: string;
  /** the operations asked for (every one for --all) */
  asked: string[];
  /** each operation that ended, once (the last run of a force: true one), in the order they ended */
  results: OperationResult[];
  /** every end counted, each run of a force: true operation included, as the terminal summary does */
  summary: { passed: number; failed: number; skipped: number; ms: number };
  startedAt: Date;
  /** file paths in reports are relative to it */
  cwd: string;
}
