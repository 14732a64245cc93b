// Preloaded with `node --import` into a measured child: reports its peak RSS at exit. Only
// the main thread reports: maxRSS is the whole process's, worker threads included.
import { writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  process.on('exit', () => {
    if (process.env.BENCH_RSS_FD) writeSync(Number(process.env.BENCH_RSS_FD), `${process.resourceUsage().maxRSS}\n`);
  });
}
