// Whole process, as a user feels it (issue 24): `flow run --all` on 250 chains (501 files, 1,000
// requests) as a child process, minus a one-chain run, against a plain undici loop process doing
// the same requests, alternating, in the same round; with a cold parse cache (a new folder for
// every run) and a warm one. Two ratios (issue 35): "ratio" divides flow's net time by the whole
// loop process (its start-up included, so it reads lower); "net ratio" divides it by the loop's
// own net time, (loop, 250 chains - loop, 1 chain): the cost per request, start-up off both sides.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FLOW, ROOT, measureNode, median, table } from './lib.js';
import { chainProject, startServer } from './runner.js';

async function flowWall(dir, url, env) {
  const r = await measureNode([FLOW, 'run', '--all', '--project', dir, '--var', `baseUrl=${url}`, '--no-color'], { env });
  if (r.code !== 0) throw new Error(`flow run failed (exit ${r.code}):\n${r.stdout.slice(-1500)}\n${r.stderr.slice(-1500)}`);
  return r;
}

async function loopWall(url, chains) {
  const r = await measureNode([path.join(ROOT, 'bench/undici-loop.js'), url, String(chains)]);
  if (r.code !== 0) throw new Error(`undici loop failed: ${r.stderr}`);
  return r;
}

export async function benchProcess({ pairs = 7 } = {}) {
  const server = await startServer(0);
  const one = await chainProject(1);
  const many = await chainProject(250);
  const caches = await mkdtemp(path.join(tmpdir(), 'reqflow-bench-cache-'));
  const rows = [];
  try {
    let fresh = 0;
    const modes = {
      'cold cache': () => ({ FLOW_CACHE_DIR: path.join(caches, `cold-${fresh++}`) }),
      'warm cache': () => ({ FLOW_CACHE_DIR: path.join(caches, 'warm') }),
      'no cache': () => ({ FLOW_NO_CACHE: '1' }),
    };
    await flowWall(many, server.url, modes['warm cache']()); // fills the warm folder
    await flowWall(one, server.url, modes['warm cache']());
    for (const [mode, env] of Object.entries(modes)) {
      const ratios = [];
      const netRatios = [];
      const flows = [];
      const loops = [];
      const netLoops = [];
      for (let i = 0; i < pairs; i++) {
        // Alternate which side runs first, so neither always follows the other.
        const loopFirst = i % 2 === 1;
        const loop = loopFirst ? await loopWall(server.url, 250) : undefined;
        const base = await flowWall(one, server.url, env());
        const full = await flowWall(many, server.url, env());
        const after = loopFirst ? loop : await loopWall(server.url, 250);
        const loopOne = await loopWall(server.url, 1);
        flows.push(full.ms - base.ms);
        loops.push(after.ms);
        netLoops.push(after.ms - loopOne.ms);
        ratios.push((full.ms - base.ms) / after.ms);
        netRatios.push((full.ms - base.ms) / (after.ms - loopOne.ms));
      }
      const spread = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
      rows.push([
        `flow run --all, 250 chains, minus 1 chain, ${mode}`,
        Math.round(median(flows)),
        Math.round(median(loops)),
        median(ratios).toFixed(2),
        spread(ratios),
        Math.round(median(netLoops)),
        median(netRatios).toFixed(2),
        spread(netRatios),
      ]);
    }
  } finally {
    server.stop();
    await Promise.all([one, many, caches].map((d) => rm(d, { recursive: true, force: true })));
  }
  return {
    title: `Whole process: flow run vs a plain undici loop process (1,000 requests; medians of ${pairs} alternating pairs)`,
    table: table(['case', 'flow ms', 'loop process ms', 'ratio', 'pair ratios', 'loop 250-1 ms', 'net ratio', 'pair net ratios'], rows),
  };
}
