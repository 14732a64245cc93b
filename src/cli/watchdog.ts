// The last line of a command's time wall: a worker thread that, unless disarmed first, writes
// one line to stderr and kills the process after `ms`. A timer cannot do it when the main
// thread is stuck in synchronous work (a draw that never ends): the worker's own thread still
// runs, and it writes with writeSync on fd 2, which does not go through the stuck main thread.
import { Worker } from 'node:worker_threads';

const SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
try { writeSync(2, workerData.message); } catch {}
process.kill(process.pid, 'SIGKILL');
`;

/** Arm the watchdog; call the returned function to disarm it (the command ended in time). */
export function armWatchdog(ms: number, message: string): () => void {
  // execArgv: none of the parent's flags (a loader hook would make its start wait for the main thread)
  const worker = new Worker(SOURCE, { eval: true, workerData: { ms, message }, execArgv: [], stdout: true, stderr: true });
  // it never keeps the process alive by itself
  worker.unref();
  return () => void worker.terminate();
}
