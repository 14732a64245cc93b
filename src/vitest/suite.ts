// `reqflow/vitest/suite`: what a transformed `flow.yaml` runs in the test worker. It loads the
// project at collection time and declares one test per operation on one shared runner.
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { CleanupReport } from '../runner/index.js';
import { prerequisites, scheduleOrder, splitProject, type ProjectGraph } from '../graph/index.js';
import { openProject } from '../open/index.js';
import type { Project } from '../project/index.js';
import type { Runner } from '../runner/index.js';
import { testBudgetMs } from './budget.js';
import { contractOptions } from './contract.js';
import { EXPLORE_TEST, exploreTimeoutMs, runExploreTest } from './explore.js';
import { FlowTestError, problemError, warnLint } from './failure.js';
import { suiteLayout, type LayoutOperation } from './layout.js';
import { runnerOptions, type SuitePlan } from './options.js';
import { settle, type Reported } from './outcome.js';
import { partFileNames } from './split-files.js';

export { createFlowTest, flowTest, type FlowHandle, type FlowFixtures } from './fixture.js';
export { FlowTestError } from './failure.js';
export { settle } from './outcome.js';
export type { SuitePlan, SuiteOptions } from './options.js';

/** The name of the one test a project with lint errors becomes. */
export const LINT_TEST = 'lint';
/** The name of the one test a part that no longer matches its project becomes. */
export const SPLIT_TEST = 'split';
/** The name of the one test a project without the environment asked for becomes. */
export const ENVIRONMENT_TEST = 'environment';
/** The order is the schedule: never concurrent, never shuffled (`concurrent: false` is what Vitest 4 and 5 both read). */
const IN_ORDER = { concurrent: false, shuffle: false } as const;

export async function defineFlowSuite(plan: SuitePlan): Promise<void> {
  // `env` (and FLOW_ENV) apply to every project: one that lacks it fails here, as one test,
  // before any request, instead of in beforeAll with the runner's stack and every test skipped.
  const options = runnerOptions(plan.options);
  const opened = await openProject(plan.root, { env: options.env, strict: plan.options.strict });
  const { project, graph, problem } = opened;
  if (problem) {
    // One failing test, never a crash of collection. Lint's errors include our own bugs (a
    // graph that cannot be built: lint's fuzz test builds them from thousands of broken projects).
    const error = problemError(problem, project, options.env);
    test(problem.kind === 'environment' ? ENVIRONMENT_TEST : LINT_TEST, () => {
      throw error;
    });
    return;
  }
  const parts = plan.part === undefined ? undefined : splitProject(graph!);
  // What a project does once (its lint warnings, explore), a split project does in its first part.
  const fileOf = parts && partFileNames(parts.map((p) => p.id));
  const firstPart = !parts || fileOf?.get(parts[0].id) === plan.part;
  // Without `strict`, lint's warnings pass: said where the run is read, not only by `flow lint`.
  if (firstPart) warnLint(opened.lint.diagnostics);
  let layout: LayoutOperation[];
  try {
    // a part the project no longer has (edited after Vitest listed its files) has no operations
    layout = layoutOf(project, graph!, parts && (parts.find((p) => fileOf?.get(p.id) === plan.part)?.operations ?? []));
  } catch (err) {
    // Lint passed, so this is our bug; still a failing test, never a crash of collection.
    test(LINT_TEST, () => {
      throw err;
    });
    return;
  }

  if (plan.part && layout.length === 0) {
    // the project changed after Vitest listed its files: say so rather than pass on nothing
    test(SPLIT_TEST, () => {
      throw new FlowTestError('E_SPLIT_STALE', `E_SPLIT_STALE: ${plan.part} is no longer a part of this project (it changed during the run); run Vitest again`);
    });
    return;
  }
  if (layout.length === 0) {
    // Vitest fails a file without tests; a project without operations is not an error.
    test.skip('no operations in this project', () => {});
    return;
  }

  let runner: Runner | undefined;
  beforeAll(async () => {
    // The runtime loads here, not with this module: a project with lint errors never needs it
    // (undici, auth, templates: about a third of a suite's start-up).
    runner = await opened.createRunner({ ...options, ...(await contractOptions(plan.options)) });
  });
  afterAll(async () => {
    try {
      // what the file's run created is deleted, each switch written back (docs/format.md#ownership)
      const report = plan.options.keep ? undefined : await runner?.cleanUp();
      // a resource with no delete operation is the project's to say; a delete that failed is worth a line
      if (report && (report.left.some((l) => l.via) || report.restored.some((r) => !r.restored))) console.warn(cleanupWarning(report));
    } finally {
      await runner?.close();
    }
  });

  const budgets = new Map(layout.map((op) => [op.id, budgetOf(project, op)]));
  const reported: Reported = { ids: new Set(), result: (id) => runner?.result(id) };
  for (const block of suiteLayout(layout)) {
    describe(block.resource, IN_ORDER, () => {
      for (const id of block.operations) {
        test(id, async (ctx) => settle(await runner!.run(id), ctx, reported), budgets.get(id));
      }
    });
  }
  if (plan.options.explore && plan.options.openapi && firstPart) {
    // opt-in, after the operations: property-based testing from the same graph (src/explore)
    test(EXPLORE_TEST, async () => runExploreTest(project, graph!, plan.options, options), exploreTimeoutMs(plan.options));
  }
}

/**
 * The operations the suite reports, in schedule order: the project's, or one part's (which
 * splitProject gives in that order; each file runs its own prerequisites).
 */
function layoutOf(project: Project, graph: ProjectGraph, part: readonly string[] | undefined): LayoutOperation[] {
  return (part ?? scheduleOrder(graph)).map((id) => {
    const op = project.operations.get(id)!;
    return { id, resource: op.resource, method: op.method, prerequisites: new Set(prerequisites(graph, id)) };
  });
}

function budgetOf(project: Project, op: LayoutOperation): number {
  const ops = [...op.prerequisites, op.id].map((x) => project.operations.get(x)!);
  return testBudgetMs(ops, project.actors.size);
}

/** What a clean-up could not undo, one line each (already redacted). */
function cleanupWarning(report: CleanupReport): string {
  const lines = [
    ...report.restored.filter((r) => !r.restored).map((r) => `  NOT restored ${r.operation}: ${r.detail}`),
    ...report.left.filter((l) => l.via).map((l) => `  left ${l.resource} ${l.id ?? `[${l.index ?? l.createdBy}]`}: ${l.why}`),
  ];
  return `reqflow: the clean-up after this file's run left:\n${lines.join('\n')}`;
}
