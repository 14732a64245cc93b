// The plugin's opt-in `explore` test (`flow({ openapi, explore: { budget, seed, rounds } })`):
// `flow explore` on the project, in the worker, after its operations' tests; it fails with
// every finding's text (redacted by the run's redactor), and when no step got an answer.
// Loaded only when a suite has one.
import type { ProjectGraph } from '../graph/index.js';
import type { Project } from '../project/index.js';
import type { RunnerOptions } from '../runner/index.js';
import { FlowTestError } from './failure.js';
import type { SuiteOptions } from './options.js';

export const EXPLORE_TEST = 'explore';
const DEFAULT_BUDGET_S = 10;

/** How long the test may take: the budget, and time for the clean-up and the last requests. */
export function exploreTimeoutMs(options: SuiteOptions): number {
  return (options.explore?.budget ?? DEFAULT_BUDGET_S) * 1000 + 30_000;
}

export async function runExploreTest(project: Project, graph: ProjectGraph, options: SuiteOptions, runner: RunnerOptions): Promise<void> {
  const [{ explore }, { loadContract }, { findingText }, { createRedactor }, { envSecretValues }] = await Promise.all([
    import('../explore/index.js'),
    import('../contract/index.js'),
    import('../report/index.js'),
    import('../redact/index.js'),
    import('../runtime/index.js'),
  ]);
  const contract = await loadContract(options.openapi!);
  const result = await explore(project, {
    contract,
    graph,
    budgetMs: (options.explore?.budget ?? DEFAULT_BUDGET_S) * 1000,
    rounds: options.explore?.rounds,
    seed: options.explore?.seed ?? 1,
    destructive: false,
    authz: options.explore?.authz ?? false,
    env: runner.env,
    vars: runner.vars,
    processEnv: runner.processEnv,
    redactor: createRedactor(envSecretValues(runner.processEnv ?? process.env)),
  });
  const loc = (id?: string) => (id && project.operations.get(id)?.loc) || { file: project.rootFile, line: 1, col: 1 };
  // nothing explored is not a pass: the CLI exits 1 for it too
  if (!result.answered)
    throw new FlowTestError(
      'E_NOTHING_EXPLORED',
      result.resources.length
        ? `no step got an answer (${result.requests} request(s) sent): the server does not answer, or a login or a prerequisite failed`
        : 'nothing to explore: no resource has a create, a collection read or a bulk operation',
      loc(),
      EXPLORE_TEST,
    );
  if (!result.findings.length) return;
  const text = result.findings.map((f) => findingText(f, process.cwd())).join('\n');
  const first = result.findings[0];
  throw new FlowTestError(first.code, `${result.findings.length} finding(s)\n${text}`, loc(first.operation), EXPLORE_TEST);
}
