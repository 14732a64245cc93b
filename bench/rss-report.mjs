// Preloaded with `node --import` into a measured child: reports its peak RSS at exit.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  if (process.env.BENCH_RSS_FD) writeSync(Number(process.env.BENCH_RSS_FD), `${process.resourceUsage().maxRSS}\n`);
});
