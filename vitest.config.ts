import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// The OS keychain module keeps the D-Bus session it first reached for the life of the process:
// these files must be the first in theirs to use it.
const OWN_PROCESS = ['test/runtime/secrets/keychain.test.ts', 'test/runtime/secrets/unreachable.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default in a run is one worker fewer than the cores: one on a 2-core machine,
    // so every file waited for the one before. Most files spend their time waiting on a
    // server or a child process (a Vitest run, bin/flow.js, tsc) rather than on the CPU, and
    // the main process is idle: at least four files at once overlap those waits (BENCHMARKS.md,
    // "The test suite"); a larger machine keeps the default.
    maxWorkers: Math.max(4, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          // test/unleash/: a real feature-flag server with its own install, run apart (npm run test:unleash)
          exclude: [...configDefaults.exclude, 'test/unleash/**', ...OWN_PROCESS],
          // Each file in a fresh process paid for loading Vitest and src/ again, 208 times:
          // about a third of the suite's CPU, on a machine where the CPU is what the run waits
          // for. A worker now runs file after file with the modules it already loaded
          // (BENCHMARKS.md, "The test suite"); a file that changes a global (process.env, a
          // `window`) puts it back.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
