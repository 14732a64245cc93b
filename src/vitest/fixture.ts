// `flowTest`: a Vitest `test.extend` that gives hand-written tests a project's runner, for
// checks YAML cannot say. One runner per test file (a file-scoped fixture), so state and
// prerequisites carry from one test to the next, as in a flow.yaml suite.
import { expect, inject, test, type TestContext } from 'vitest';
import { didYouMean } from '../graph/index.js';
import { openProject } from '../open/index.js';
import type { Project } from '../project/index.js';
import type { OperationResult, Runner, RunSummary } from '../runner/index.js';
import { contractOptions } from './contract.js';
import { displayPath, problemError, warnLint } from './failure.js';
import { OPTIONS_KEY, runnerOptions, validateSuiteOptions, withDefaults, type SuiteOptions } from './options.js';
import { settle, type Reported } from './outcome.js';
import { optionsFor } from './project-options.js';
import { projectRoot } from './project-files.js';

export interface FlowHandle {
  readonly project: Project;
  /** the file's shared runner */
  readonly runner: Runner;
  /** run an operation (prerequisites first, each once per file); never throws for API failures, only for an id the project does not define */
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
 * Without it, the nearest `flow.yaml` at or above the test file is used. `options` win over
 * those of `flow()` in the Vitest config, which the config plugin provides to the worker.
 */
export function createFlowTest(project?: string | URL, options: SuiteOptions = {}) {
  validateSuiteOptions(options);
  return test.extend<FlowFixtures>({
    flowRunner: [
      // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's first parameter as a pattern: it must be one
      async ({}, use) => {
        const root = projectRoot(project, expect.getState().testPath);
        // Read here, not when the module loads: `inject` needs a running test file.
        const provided = inject(OPTIONS_KEY);
        const suite = withDefaults(options, provided && optionsFor(provided, root));
        const opts = runnerOptions(suite);
        const opened = await openProject(root, { env: opts.env, strict: suite.strict });
        const { project: loaded, problem } = opened;
        if (problem) throw problemError(problem, loaded, opts.env);
        warnLint(opened.lint.diagnostics);
        // The runtime loads once lint has passed, as in a flow.yaml suite (suite.ts).
        const runner = await opened.createRunner({ ...opts, ...(await contractOptions(suite)) });
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
      // A typo must fail the test: the runner would only resolve to a failed result (E_REF_UNDEFINED).
      const known = (call: string, ids: string[]) => {
        for (const id of ids) if (!loaded.operations.has(id)) throw unknownOperation(call, id, loaded);
      };
      await use({
        project: loaded,
        runner,
        run: async (id) => {
          known('run', [id]);
          return runner.run(id);
        },
        runMany: async (ids) => {
          known('runMany', ids);
          return runner.runMany(ids);
        },
        check: async (id) => {
          known('check', [id]);
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

function unknownOperation(call: string, id: string, project: Project): Error {
  const where = displayPath(project.rootFile, process.cwd());
  return new Error(`flow.${call}: unknown operation "${id}" in ${where}${didYouMean(id, project.operations.keys())}`);
}

/** `createFlowTest()`: the nearest flow.yaml at or above the test file. */
export const flowTest = createFlowTest();
