// `flow run` in a worker thread. A run holds every result until its summary, and V8 grows
// its young generation to the maximum while it loads a large project; the young generation
// cannot be capped on the main thread once Node has started, but a worker takes
// `resourceLimits`. Measured on the 1,000-request benchmark: peak RSS 138 -> 117 MB, no
// change in run time, about 60 ms more start-up (BENCHMARKS.md).
import { Worker } from 'node:worker_threads';
import { EXIT } from './io.js';

/** The young generation's size in the worker, in MB (V8's default grows to 16 or more). */
export const YOUNG_GENERATION_MB = 4;

/** What the worker cannot see for itself: its stdio are pipes to this thread. */
export interface WorkerTerminal {
  isTTY: boolean;
  stdoutIsTTY: boolean;
}

/** Run `flow <argv>` in a worker; resolves with its exit code. */
export function runInWorker(argv: string[]): Promise<number> {
  return new Promise((resolve) => {
    const terminal: WorkerTerminal = { isTTY: Boolean(process.stderr.isTTY), stdoutIsTTY: Boolean(process.stdout.isTTY) };
    const worker = new Worker(new URL('./worker-entry.js', import.meta.url), {
      argv,
      workerData: terminal,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    let code: number | undefined;
    worker.on('message', (c: number) => (code = c));
    worker.on('error', (err) => {
      process.stderr.write(`flow: internal error: ${err.message}\n`);
      code = EXIT.internal;
    });
    worker.on('exit', () => resolve(code ?? EXIT.internal));
  });
}
