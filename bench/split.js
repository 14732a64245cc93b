// Scale-out benchmark (issue 35): one project split into Vitest test files.
//  1. 400 operations of 40 independent resources against a server answering in 20 ms:
//     `vitest run` with file parallelism against `--no-file-parallelism` (goal: at most 0.75x),
//     alternating; the CPU time (user + sys, workers included) shows what each file costs.
//  2. The same project with `split: false` (one file), for that cost.
//  3. 2,000 operations (200 resources) in 4 shards against one run (goal: each shard at most 35%).
// Every row records the load average: on a shared machine the wall times mean little.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, median, table } from './lib.js';
import { startServer } from './runner.js';

const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');

/**
 * Independent resources, each a create and `per - 1` reads, by one actor that logs in: the
 * login is what every file repeats.
 */
function wideYaml(resources, per) {
  const lines = ['version: 1', 'name: wide', 'environment:', '  variables:', '    baseUrl: <SET_VIA_--var>'];
  lines.push('actors:', '  user:', '    auth: { strategy: simple, method: POST, path: /login, body: { user: u }, extract: { token: $.data.token } }');
  lines.push('    inject: { headers: { Authorization: "Bearer {{user.token}}" } }', 'resources:');
  for (let r = 0; r < resources; r++) {
    const name = `r${String(r).padStart(3, '0')}`;
    lines.push(`  ${name}:`, '    operations:');
    lines.push('      create: { method: POST, path: /items, actor: user, body: { name: x }, expect_status: 201, extract: { id: $.data.id } }');
    for (let k = 1; k < per; k++) lines.push(`      get${k}: { path: "/items/{{${name}.id}}", actor: user }`);
  }
  return `${lines.join('\n')}\n`;
}

async function repository(resources, per, options = '') {
  const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-bench-split-'));
  await mkdir(path.join(dir, 'api'));
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  await writeFile(path.join(dir, 'vitest.config.js'), `import { flow } from 'reqflow/vitest';\nexport default { plugins: [flow(${options})] };\n`);
  await writeFile(path.join(dir, 'api/flow.yaml'), wideYaml(resources, per));
  await mkdir(path.join(dir, 'node_modules'));
  await symlink(ROOT, path.join(dir, 'node_modules/reqflow'), 'dir');
  return dir;
}

/** `vitest run <args>`: wall ms, and CPU ms of the process and its workers (from /proc when there is one). */
function vitest(dir, url, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const load = loadavg()[0];
    const child = spawn('/usr/bin/time', ['-f', '%U %S', process.execPath, VITEST, 'run', '--reporter=dot', ...args], {
      cwd: dir,
      env: { ...process.env, FLOW_VAR_baseUrl: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`vitest run ${args.join(' ')} failed (exit ${code}):\n${out.slice(-1500)}`));
      const [user, sys] = out.trim().split('\n').at(-1).split(' ').map(Number);
      resolve({ ms: performance.now() - started, cpuMs: (user + sys) * 1000, load });
    });
  });
}

export async function benchSplit({ pairs = 3 } = {}) {
  const server = await startServer(20);
  const wide = await repository(40, 10);
  const whole = await repository(40, 10, '{ split: false }');
  const large = await repository(200, 10);
  const rows = [];
  try {
    const par = [];
    const seq = [];
    const one = [];
    for (let i = 0; i < pairs; i++) {
      par.push(await vitest(wide, server.url, []));
      seq.push(await vitest(wide, server.url, ['--no-file-parallelism']));
      one.push(await vitest(whole, server.url, []));
    }
    const row = (name, runs, ratio = '') => [
      name,
      Math.round(median(runs.map((r) => r.ms))),
      Math.round(median(runs.map((r) => r.cpuMs))),
      ratio,
      runs.map((r) => r.load.toFixed(1)).join(', '),
    ];
    const ratios = par.map((p, i) => (p.ms / seq[i].ms).toFixed(2));
    rows.push(row('400 ops, 40 resources, split (16 files), file parallelism', par, `${median(ratios.map(Number)).toFixed(2)} (${ratios.join(', ')})`));
    rows.push(row('the same, --no-file-parallelism', seq));
    rows.push(row('the same, split: false (1 file)', one));
    const single = await vitest(large, server.url, []);
    const shards = [];
    for (const k of [1, 2, 3, 4]) shards.push(await vitest(large, server.url, [`--shard=${k}/4`]));
    rows.push(row('2,000 ops, 200 resources, one run', [single]));
    for (const [k, s] of shards.entries()) rows.push(row(`the same, --shard=${k + 1}/4`, [s], `${(s.ms / single.ms).toFixed(2)} of one run`));
  } finally {
    server.stop();
    await Promise.all([wide, whole, large].map((d) => rm(d, { recursive: true, force: true })));
  }
  return {
    title: `Scale-out: one project in Vitest test files (server answers in 20 ms; medians of ${pairs}, alternating)`,
    table: table(['case', 'wall ms', 'CPU ms (workers incl.)', 'ratio', 'load average at start'], rows),
  };
}
