// `reqflow:server`: the API under test and its description, for the whole Vitest run. With
// `server`, the plugin starts it before the first test file runs (configureVitest is awaited)
// and stops it when Vitest closes; in watch mode an edit of the server's source (`watch`
// globs) restarts it before the flow suites re-run (onTestsRerun is awaited too), and an edit
// of the `openapi` description re-runs them. Main process only: no test API here.
import path from 'node:path';
import picomatch from 'picomatch';
import type { Plugin, WatcherTriggerPattern } from 'vitest/config';
import type { ManagedServer, WaitState } from '../server/index.js';
import { slash } from './dependencies.js';
import { suiteOptions, type FlowOptions, type SuitePlan } from './options.js';

/**
 * @param plan the transform's plan: its options gain the absolute description path and the
 *   server's `baseUrl` once the root is known
 * @param flowTests every flow suite and flowTest file seen so far (what an edit re-runs)
 */
export function serverPlugin(options: FlowOptions, plan: Omit<SuitePlan, 'root'>, flowTests: () => string[]): Plugin {
  let description: string | undefined;
  let isSource: (file: string) => boolean = () => false;
  let restartDue = false;
  let server: ManagedServer | undefined;
  // every project of a Vitest run with this plugin calls configureVitest: one server for all
  let starting: Promise<unknown> | undefined;
  let root = process.cwd();

  const trigger: WatcherTriggerPattern = {
    pattern: /.*/,
    // undefined (not []) for the files that are not ours: an array means "handled"
    testsToRun(file) {
      const f = slash(file);
      if (f === description) return flowTests();
      if (!isSource(f)) return undefined;
      restartDue = true;
      return flowTests();
    },
  };

  async function start(): Promise<ManagedServer> {
    const [{ startServer, waitingLine }, { createRedactor }, { envSecretValues }, { wantsProgress }] = await Promise.all([
      import('../server/index.js'),
      import('../redact/index.js'),
      import('../runtime/index.js'),
      import('../report/index.js'),
    ]);
    // while it starts, a terminal shows what was tried and what came back, on one line
    let drawn = false;
    const onWait = wantsProgress(process.stderr.isTTY === true, process.env)
      ? (state: WaitState) => {
          drawn = true;
          process.stderr.write(`\r\x1b[Kreqflow: ${waitingLine(state, (process.stderr.columns || 80) - 9)}`);
        }
      : undefined;
    const clear = () => {
      if (drawn) process.stderr.write('\r\x1b[K');
      drawn = false;
    };
    return startServer(options.server!, root, {
      onWait,
      // The server inherits the FLOW_SECRET_* variables: its lines never show their values.
      // (The suite's runner is in a worker: what it learns is not known here.)
      redactor: createRedactor(envSecretValues(process.env)),
      onExit: (message) => console.error(`reqflow: E_SERVER_EXITED: ${message}`),
      // what it writes to stderr shows as it comes (an exception behind a 500, say), as Playwright does
      onStderr: (line) => {
        clear();
        console.error(`[server] ${line}`);
      },
    }).finally(clear);
  }

  return {
    name: 'reqflow:server',
    config() {
      const watching = options.openapi !== undefined || !!options.server?.watch?.length;
      return watching ? { test: { watchTriggerPatterns: [trigger] } } : undefined;
    },
    configResolved(config) {
      root = config.root;
      plan.options = suiteOptions(options, root);
      description = options.openapi === undefined ? undefined : slash(path.resolve(root, options.openapi));
      const globs = (options.server?.watch ?? []).map((g) => slash(path.resolve(root, g)));
      if (globs.length) isSource = picomatch(globs, { dot: true });
    },
    // Vitest awaits this hook (Promise.all over every plugin's), though its type says void.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    async configureVitest({ vitest }) {
      // A description outside the root is not under Vite's watcher: add it.
      if (description && vitest.config.watch) vitest.vite.watcher.add(description);
      if (!options.server) return;
      if (starting) return void (await starting);
      starting = start().then(
        (s) => (server = s),
        (err: unknown) => {
          starting = undefined;
          throw plainError(err, vitest.vite.config.configFile);
        },
      );
      await starting;
      // also when a config edit restarts Vitest: configureVitest then starts it again
      vitest.onClose(async () => {
        starting = undefined;
        await server?.stop();
        server = undefined;
      });
      vitest.onTestsRerun(async () => {
        if (!restartDue) return;
        restartDue = false;
        await server?.stop();
        // A server that no longer starts after an edit is said here; its tests then fail to
        // connect, and the next edit tries again.
        server = await start().catch((err: unknown) => {
          console.error(`reqflow: ${plainError(err).message}`);
          return undefined;
        });
      });
    },
  };
}

/** The coded message alone: Vitest prints a thrown error's stack, which says nothing here. */
function plainError(err: unknown, configFile?: string): Error {
  const code = (err as { code?: unknown }).code;
  const message = `${typeof code === 'string' ? `${code}: ` : ''}${(err as Error).message ?? String(err)}`;
  const out = new Error(message);
  out.name = 'FlowError';
  // a frame that points at the config (without one, Node prints the message in brackets)
  out.stack = `${out.name}: ${message}\n    at flow({ server }) (${configFile ?? 'vitest config'})`;
  return out;
}
