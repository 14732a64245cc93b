// `reqflow/vitest`: the Vite/Vitest plugin. `plugins: [flow()]` and `npx vitest` runs every
// `flow.yaml` as a suite. This module is loaded with the config, in the main process: it
// must not import the `vitest` test API (see `suite.ts` for what runs in the test worker).
// Nor, at load time, the project loader (the YAML parser, ~30 ms): only watch mode reads
// projects here, and every `vitest` run loads this module with its config.
import type { Plugin } from 'vitest/config';
import { configPlugin } from './config-plugin.js';
import { DependencyIndex, projectDependencies, slash } from './dependencies.js';
import { suiteOptions, validateOptions, type FlowOptions } from './options.js';
import { flowTestProjects } from './project-files.js';
import { serverPlugin } from './server-plugin.js';
import { splitPlugin } from './split-config.js';
import { transformPlugin } from './transform-plugin.js';

export type { FlowOptions, SuiteOptions, SuitePlan } from './options.js';
export { generateSuiteModule } from './transform-plugin.js';

export function flow(options: FlowOptions = {}): Plugin[] {
  // Thrown while the config loads: a typo would otherwise be ignored without a word.
  validateOptions(options);
  const index = new DependencyIndex();
  const inFlight = new Map<string, Promise<string[]>>();
  // Until Vitest says otherwise, assume watch mode: tracking is only a little wasted work.
  let watching = true;

  /**
   * (Re)load a project's dependency list. Loads of one suite run one after another, so a
   * refresh after an edit always reads the edited files. Never rejects: loadProject reports
   * problems as diagnostics.
   */
  function track(root: string): Promise<string[]> {
    const previous = inFlight.get(root) ?? Promise.resolve([]);
    const work = previous
      .then(() => import('../project/index.js'))
      .then(({ loadProject }) => loadProject(root))
      .then((project) => {
        const deps = projectDependencies(project);
        index.set(root, deps);
        return deps.files;
      })
      .catch(() => [] as string[]);
    inFlight.set(root, work);
    void work.then(() => {
      if (inFlight.get(root) === work) inFlight.delete(root);
    });
    return work;
  }

  /** A flow.yaml suite runs its own project. */
  async function suite(root: string): Promise<string[]> {
    index.setTestFile(root, [root]);
    return track(root);
  }

  /** Any other module: a `flowTest` file re-runs when the project it names changes. */
  async function module(file: string, code: string): Promise<string[]> {
    const roots = slash(file).includes('/node_modules/') ? [] : flowTestProjects(code, file);
    index.setTestFile(file, roots);
    // A project its flow.yaml suite already tracks (and watches) is not loaded again.
    const files = await Promise.all(roots.map(async (root) => (index.has(root) || inFlight.has(root) ? [] : track(root))));
    return files.flat();
  }

  // its options gain what needs the Vitest root (the description's path, the server's baseUrl) in reqflow:server
  const plan = { options: suiteOptions(options) };
  return [
    configPlugin(
      options,
      index,
      (suite) => void track(suite),
      (watch) => (watching = watch),
    ),
    // `vitest run` watches nothing: no need to load each project a second time here.
    transformPlugin(
      plan,
      async (root) => (watching ? suite(root) : []),
      async (file, code) => (watching ? module(file, code) : []),
    ),
    serverPlugin(options, plan, () => index.testsOf(index.projects())),
    splitPlugin(options),
  ];
}

export default flow;
