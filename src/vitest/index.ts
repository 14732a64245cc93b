// `reqflow/vitest`: the Vite/Vitest plugin. `plugins: [flow()]` and `npx vitest` runs every
// `flow.yaml` as a suite. This module is loaded with the config, in the main process: it
// must not import the `vitest` test API (see `suite.ts` for what runs in the test worker).
// Nor, at load time, the project loader (the YAML parser, ~30 ms): only watch mode reads
// projects here, and every `vitest` run loads this module with its config.
import type { Plugin } from 'vitest/config';
import { configPlugin } from './config-plugin.js';
import { DependencyIndex, projectDependencies } from './dependencies.js';
import { suiteOptions, type FlowOptions } from './options.js';
import { transformPlugin } from './transform-plugin.js';

export type { FlowOptions, SuiteOptions, SuitePlan } from './options.js';
export { generateSuiteModule } from './transform-plugin.js';

export function flow(options: FlowOptions = {}): Plugin[] {
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

  return [
    configPlugin(options, index, (suite) => void track(suite), (watch) => (watching = watch)),
    // `vitest run` watches nothing: no need to load each project a second time here.
    transformPlugin({ options: suiteOptions(options) }, async (root) => (watching ? track(root) : [])),
  ];
}

export default flow;
