// `reqflow:config`: makes Vitest collect `flow.yaml` files, hands the `flow()` options to the
// workers (for `flowTest`), and re-runs the tests of a project when any file it reads changes
// (watch mode). Vitest's own watcher only knows the module graph; a resource file is read by
// the suite at run time, not imported, so we tell Vitest through `watchTriggerPatterns`
// (Vitest >= 3.2, root config).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultInclude, type Plugin, type WatcherTriggerPattern } from 'vitest/config';
import { DependencyIndex, slash } from './dependencies.js';
import { DEFAULT_INCLUDE, OPTIONS_KEY, suiteOptions, type FlowOptions } from './options.js';
import { fileOfId, isFlowSuite, SUITE_MODULE } from './transform-plugin.js';

/** Any path: the index decides whether it belongs to a suite. */
const ANY_FILE = /.*/;

/**
 * @param refresh reloads a suite's dependencies after one of them changed (an edit may add a hook
 *   or an import), so the next edit is matched against the new set.
 */
export function configPlugin(
  options: FlowOptions,
  index: DependencyIndex,
  refresh: (suite: string) => void,
  onWatchMode: (watching: boolean) => void = () => {},
): Plugin {
  const trigger: WatcherTriggerPattern = {
    pattern: ANY_FILE,
    // Must return undefined (not []) for files that are not ours: an array means "handled".
    testsToRun(file) {
      const suites = index.suitesFor(file);
      if (!suites) return undefined;
      for (const suite of suites) refresh(suite);
      return index.testsOf(suites);
    },
  };
  return {
    name: 'reqflow:config',
    config(userConfig) {
      const patterns = options.include ?? DEFAULT_INCLUDE;
      // Vite concatenates arrays when merging a plugin's config: add ours to the user's
      // patterns, or to Vitest's defaults when the user set none (else they would be lost).
      const include = userConfig.test?.include ? patterns : [...defaultInclude, ...patterns];
      const own = ownPackagePattern();
      return { test: { include, watchTriggerPatterns: [trigger], ...(own && { server: { deps: { external: [own] } } }) } };
    },
    // Vitest >= 3.1 (4 and 5 alike): the resolved config says whether anything will be watched.
    configureVitest({ vitest, project, experimental_defineCacheKeyGenerator: cacheKey }) {
      onWatchMode(vitest.config.watch);
      // Vitest's file cache (experimental.fsModuleCache, 4.1+) would skip our transform on a
      // cached flow.yaml, and with it the watch registration of the project's files; the
      // generated module is three lines, so it is never worth caching.
      cacheKey?.(({ id }) => (isFlowSuite(fileOfId(id)) ? false : undefined));
      // A flow.yaml suite gets its options in the generated module; a `flowTest` file is the
      // user's own code, so its fixture reads them with `inject` (Vitest >= 3, 4 and 5 alike).
      // Per project: another project may call flow() with other options.
      project.provide(OPTIONS_KEY, suiteOptions(options, vitest.config.root));
    },
  };
}

/**
 * Our compiled code, when it is not under node_modules (a linked or self-referenced package,
 * as in this repository's example): Vitest would send it through Vite's transforms for every
 * test file, which costs about a second per run for nothing. Installed from npm, it is in
 * node_modules and Vitest already loads it natively.
 */
function ownPackagePattern(): RegExp | undefined {
  let suite: string;
  try {
    suite = slash(fileURLToPath(import.meta.resolve(SUITE_MODULE)));
  } catch {
    return undefined;
  }
  if (suite.includes('/node_modules/')) return undefined;
  const dist = slash(path.dirname(path.dirname(suite)));
  return new RegExp(`^${dist.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`);
}
