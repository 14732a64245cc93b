// The worker side of runInWorker: the CLI as usual, told whether the terminal is one.
import { parentPort, workerData } from 'node:worker_threads';
import { processIO } from './io.js';
import { main } from './main.js';
import type { WorkerTerminal } from './worker.js';

const terminal = workerData as WorkerTerminal;
const code = await main(process.argv.slice(2), { ...processIO(), ...terminal }).catch((err: unknown) => {
  process.stderr.write(`flow: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
  return 70;
});
parentPort!.postMessage(code);
