// `reqflow:split`: what the split changes in Vitest's resolved config, in configureVitest
// (before Vitest globs the test files and makes the reporters, as its plugin API allows): a
// split project's flow.yaml is excluded and its parts' files included; the JUnit classname of
// a part's tests stays the project's flow.yaml. Main process only.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { glob } from 'tinyglobby';
import type { Plugin } from 'vitest/config';
import type { ResolvedConfig } from 'vitest/node';
import { slash } from './dependencies.js';
import { DEFAULT_INCLUDE, ROOT_FILE_NAME, type FlowOptions } from './options.js';
import { partOf, writeSplitFiles } from './split-files.js';

export function splitPlugin(options: FlowOptions): Plugin {
  return {
    name: 'reqflow:split',
    // Vitest awaits this hook (Promise.all over every plugin's), though its type says void.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    async configureVitest({ vitest, project }) {
      // also for --merge-reports, whose reporters read the parts' paths from the blobs
      junitClassname(vitest.config);
      // Watch mode keeps a project in one file: an edit would otherwise add and remove test files under Vitest.
      if (options.split === false || vitest.config.watch || vitest.config.mergeReports) return;
      if (await splitProjects(project.config, options)) moreWorkers(vitest.config);
    },
  };
}

type ProjectConfig = Pick<ResolvedConfig, 'root' | 'dir' | 'include' | 'exclude'>;

/**
 * How many workers run a split project's files when the config does not say. Vitest's default
 * (cores - 1, so one worker on 2 cores) suits files that keep a core busy; a part mostly waits
 * on the API, so more files than cores overlap their waits (400 operations against a server
 * answering in 20 ms, 2 cores: 14.5 s with 1 worker, 7.7 s with 2, 5.7 s with 4; BENCHMARKS.md).
 */
export const SPLIT_WORKERS = Math.max(4, availableParallelism());

type WorkerConfig = { maxWorkers?: number; fileParallelism?: boolean; providedOptions?: { maxWorkers?: boolean } };

/**
 * Raises Vitest's worker count to SPLIT_WORKERS unless the user chose one (`maxWorkers` in the
 * config or on the command line, VITEST_MAX_WORKERS) or turned file parallelism off. Vitest 4
 * leaves an unchosen `maxWorkers` undefined; Vitest 5 fills in its default and records in
 * `providedOptions` whether it was chosen.
 */
export function moreWorkers(config: WorkerConfig): void {
  const chosen = config.providedOptions ? config.providedOptions.maxWorkers : config.maxWorkers !== undefined;
  if (chosen || config.fileParallelism === false) return;
  config.maxWorkers = Math.max(config.maxWorkers ?? 1, SPLIT_WORKERS);
}

/** Writes the parts of every project this Vitest project runs, and points `include` at them; true when one was split. */
async function splitProjects(config: ProjectConfig, options: FlowOptions): Promise<boolean> {
  const dir = config.dir || config.root;
  const found = await glob(options.include ?? DEFAULT_INCLUDE, { cwd: dir, ignore: config.exclude, absolute: true, dot: true });
  const roots = found.filter((f) => path.basename(f) === ROOT_FILE_NAME).sort();
  if (roots.length === 0) return false;
  const { split, parts } = await writeSplitFiles(dir, roots, process.env.FLOW_ENV || options.env);
  const rel = (f: string) => slash(path.relative(dir, f));
  config.exclude.push(...split.map(rel));
  config.include.push(...parts.map(rel));
  return split.length > 0;
}

type JUnitOptions = { classname?: string; classnameTemplate?: unknown };

/**
 * A part's tests keep the project's flow.yaml as their JUnit classname (what a CI's test view
 * groups by), unless the config sets its own.
 */
export function junitClassname(config: Pick<ResolvedConfig, 'root' | 'reporters'>): void {
  for (const entry of config.reporters) {
    if (!Array.isArray(entry) || entry[0] !== 'junit') continue;
    const options = ((entry as unknown[])[1] ??= {}) as JUnitOptions;
    if (options.classname !== undefined || options.classnameTemplate !== undefined) continue;
    options.classnameTemplate = ({ filepath }: { filepath: string }) => slash(path.relative(config.root, partOf(filepath)?.root ?? filepath));
  }
}
