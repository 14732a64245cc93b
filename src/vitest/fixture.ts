// `flowTest`: a Vitest `test.extend` that gives hand-written tests a project's runner, for
// checks YAML cannot say. One runner per test file (a file-scoped fixture), so state and
// prerequisites carry from one test to the next, as in a flow.yaml suite.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type TestContext } from 'vitest';
import { loadProject } from '../project/index.js';
import type { Project } from '../project/types.js';
import type { Runner } from '../runtime/index.js';
import type { OperationResult, RunSummary } from '../runtime/types.js';
import { lintError } from './failure.js';
import { ROOT_FILE_NAME, runnerOptions, type SuiteOptions } from './options.js';
import { lintErrors, settle, type Reported } from './outcome.js';

export interface FlowHandle {
  readonly project: Project;
  /** the file's shared runner */
  readonly runner: Runner;
  /** run an operation (prerequisites first, each once per file); never throws for API failures */
  run(operationId: string): Promise<OperationResult>;
  runMany(operationIds: string[]): Promise<RunSummary>;
  /** run it and pass, skip or fail this test exactly as its flow.yaml test would */
  check(operationId: string): Promise<OperationResult>;
  result(operationId: string): OperationResult | undefined;
  /** newest instance of a resource (or the `index`-th, from 1), or an actor's session values */
  values(resourceOrActor: string, index?: number): Record<string, unknown> | undefined;
}

export interface FlowFixtures {
  /** the runner of the project, shared by every test of the file */
  flowRunner: { project: Project; runner: Runner; reported: Reported };
  flow: FlowHandle;
}

/**
 * A `test` with a `flow` fixture for the project at `project`: a `flow.yaml`, its directory,
 * or a `file:` URL. A relative path is read from the test file's directory, like an import.
 * Without it, the nearest `flow.yaml` at or above the test file is used.
 */
export function createFlowTest(project?: string | URL, options: SuiteOptions = {}) {
  return test.extend<FlowFixtures>({
    flowRunner: [
      async ({}, use) => {
        const root = projectRoot(project, expect.getState().testPath);
        const loaded = await loadProject(root);
        const errors = lintErrors(loaded);
        if (errors.length) throw lintError(errors);
        // Loaded once lint has passed, as in a flow.yaml suite (suite.ts).
        const { createRunner } = await import('../runtime/index.js');
        const runner = createRunner(loaded, runnerOptions(options));
        try {
          await use({ project: loaded, runner, reported: { ids: new Set(), result: (id) => runner.result(id) } });
        } finally {
          await runner.close();
        }
      },
      { scope: 'file' },
    ],
    flow: async ({ flowRunner, skip, annotate }, use) => {
      const { project: loaded, runner, reported } = flowRunner;
      const ctx = { skip, annotate } as Pick<TestContext, 'skip' | 'annotate'>;
      await use({
        project: loaded,
        runner,
        run: (id) => runner.run(id),
        runMany: (ids) => runner.runMany(ids),
        check: async (id) => {
          const result = await runner.run(id);
          await settle(result, ctx, reported);
          return result;
        },
        result: (id) => runner.result(id),
        values: (name, index) => runner.values(name, index),
      });
    },
  });
}

/** `createFlowTest()`: the nearest flow.yaml at or above the test file. */
export const flowTest = createFlowTest();

/** The flow.yaml a fixture runs: given, or found upward from the test file. */
export function projectRoot(project: string | URL | undefined, testPath: string | undefined): string {
  const base = testPath ? path.dirname(testPath) : process.cwd();
  if (project !== undefined) {
    const given = project instanceof URL || project.startsWith('file:') ? fileURLToPath(project) : path.resolve(base, project);
    return path.basename(given) === ROOT_FILE_NAME ? given : path.join(given, ROOT_FILE_NAME);
  }
  for (let dir = base; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, ROOT_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`flowTest: no ${ROOT_FILE_NAME} at or above ${base}; use createFlowTest('path/to/${ROOT_FILE_NAME}')`);
}
