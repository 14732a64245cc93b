// A `vitest --watch` child process for the watch-mode tests: its output so far, a wait for
// something in it (never hangs), and a stop that waits for the process to end.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { childEnv, REPO } from './helpers.js';

const VITEST_BIN = path.join(REPO, 'node_modules/vitest/vitest.mjs');
const READY = /(Waiting for file changes|Watching for file changes)/g;

/** How many runs have finished in `text` (Vitest says it waits for file changes after each). */
export const readyCount = (text: string) => text.match(READY)?.length ?? 0;

export class WatchChild {
  output = '';
  private child?: ChildProcess;

  constructor(cwd: string, env: Record<string, string> = {}) {
    const child = spawn(process.execPath, [VITEST_BIN, '--watch'], { cwd, env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (this.output += d));
    child.stderr.on('data', (d) => (this.output += d));
    this.child = child;
  }

  /** Resolves when `predicate(output)` holds; rejects after `ms`, or when Vitest exits first. */
  waitFor(predicate: (text: string) => boolean, ms: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const tick = () => {
        if (predicate(this.output)) return resolve();
        if (this.child?.exitCode != null) return reject(new Error(`vitest exited (${this.child.exitCode}) while waiting for ${what}:\n${this.output}`));
        if (Date.now() - started > ms) return reject(new Error(`timed out after ${ms} ms waiting for ${what}:\n${this.output}`));
        setTimeout(tick, 100);
      };
      tick();
    });
  }

  /** SIGTERM (SIGKILL after 5 s); resolves once the process has exited. */
  async stop(): Promise<void> {
    const c = this.child;
    this.child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
