// Runner benchmark (issue 3): `flow run --all` on N chains of login -> create -> get ->
// publish (4×N requests) against a plain undici loop doing the same requests, same server.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FLOW, ROOT, measureNode, median, table } from './lib.js';

export async function chainProject(chains) {
  const dir = await mkdtemp(path.join(tmpdir(), `reqflow-bench-run-${chains}-`));
  await mkdir(path.join(dir, 'actors'));
  await mkdir(path.join(dir, 'resources'));
  await mkdir(path.join(dir, 'environments'));
  await writeFile(path.join(dir, 'flow.yaml'), 'version: 1\nname: bench\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n');
  await writeFile(path.join(dir, 'environments/local.yaml'), 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n');
  for (let i = 0; i < chains; i++) {
    await writeFile(
      path.join(dir, `actors/user${i}.yaml`),
      `name: user${i}\nauth:\n  strategy: simple\n  method: POST\n  path: /login\n  body: { user: u${i} }\n  extract: { token: $.data.token }\ninject:\n  headers: { Authorization: "Bearer {{user${i}.token}}" }\n`,
    );
    await writeFile(
      path.join(dir, `resources/item${i}.yaml`),
      [
        `name: item${i}`,
        'operations:',
        `  create: { method: POST, path: /items, actor: user${i}, body: { name: item${i} }, expect_status: 201, extract: { id: $.data.id } }`,
        `  get: { path: "/items/{{item${i}.id}}", actor: user${i}, assert: ["$.data.id == {{item${i}.id}}"] }`,
        `  publish: { method: POST, path: "/items/{{item${i}.id}}/publish", actor: user${i}, depends_on: [item${i}.get], assert: ["$.data.published == true"] }`,
        '',
      ].join('\n'),
    );
  }
  return dir;
}

export function startServer(delayMs = 0) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bench/api-server.js'), String(delayMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (d) => {
      const m = /LISTENING (\S+)/.exec(String(d));
      if (m) resolve({ url: m[1], stop: () => child.kill() });
    });
    child.on('error', reject);
  });
}

async function flowRun(dir, url, extra = []) {
  const r = await measureNode([FLOW, 'run', '--all', '--project', dir, '--var', `baseUrl=${url}`, '--no-color', ...extra]);
  const m = /(\d+) passed, (\d+) failed.*\((\d+) ms\)/.exec(r.stdout);
  if (r.code !== 0 || !m) throw new Error(`flow run failed (exit ${r.code}):\n${r.stdout.slice(-1500)}\n${r.stderr.slice(-1500)}`);
  return { wallMs: r.ms, netMs: Number(m[3]), rssMB: r.rssMB };
}

async function undiciLoop(url, chains) {
  const r = await measureNode([path.join(ROOT, 'bench/undici-loop.js'), url, String(chains)]);
  if (r.code !== 0) throw new Error(`undici loop failed: ${r.stderr}`);
  return { ...JSON.parse(r.stdout), wallMs: r.ms, rssMB: r.rssMB };
}

export async function benchRunner({ repeat = 5, pairs = 9 } = {}) {
  const rows = [];
  const notes = [];
  const dirs = {};
  const fast = await startServer(0);
  try {
    for (const chains of [1, 50, 250]) dirs[chains] = await chainProject(chains);
    // Start-up: a one-chain run, whole process.
    const one = [];
    for (let i = 0; i < repeat; i++) one.push(await flowRun(dirs[1], fast.url));
    rows.push([
      'flow run, 1 chain (4 requests), whole process',
      Math.round(median(one.map((r) => r.wallMs))),
      '',
      '',
      Math.round(Math.max(...one.map((r) => r.rssMB))),
    ]);
    const perRequest = {};
    for (const chains of [50, 250]) {
      const flow = [];
      const loop = [];
      // Pairs alternate which side runs first, so neither always follows the other.
      for (let i = 0; i < pairs; i++) {
        if (i % 2) loop.push(await undiciLoop(fast.url, chains));
        flow.push(await flowRun(dirs[chains], fast.url));
        if (i % 2 === 0) loop.push(await undiciLoop(fast.url, chains));
      }
      const f = median(flow.map((r) => r.netMs));
      const u = median(loop.map((r) => r.ms));
      // The ratio is the median of the ratios of runs made back to back: the machine's load
      // drifts during a benchmark, and a pair sees the same load.
      const ratios = flow.map((r, i) => r.netMs / loop[i].ms);
      const ratio = median(ratios);
      const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
      perRequest[chains] = f / (chains * 4);
      rows.push([
        `flow run --all, ${chains} chains (${chains * 4} requests), net of start-up`,
        Math.round(f),
        ratio.toFixed(2),
        spread,
        Math.round(Math.max(...flow.map((r) => r.rssMB))),
      ]);
      rows.push([`plain undici loop, same requests`, Math.round(u), '1.00', '', Math.round(Math.max(...loop.map((r) => r.rssMB)))]);
    }
    notes.push(`cost per request: ${perRequest[50].toFixed(3)} ms at 200 requests, ${perRequest[250].toFixed(3)} ms at 1,000 requests`);
  } finally {
    fast.stop();
  }
  // Concurrency: a server that answers after 5 ms, as a real API over a network would.
  const slow = await startServer(5);
  try {
    const seq = await flowRun(dirs[250], slow.url);
    const par = await flowRun(dirs[250], slow.url, ['--concurrency', '8']);
    rows.push(['250 chains, 5 ms server latency, --concurrency 1', seq.netMs, '', '', Math.round(seq.rssMB)]);
    rows.push(['250 chains, 5 ms server latency, --concurrency 8', par.netMs, `${(seq.netMs / par.netMs).toFixed(2)}× faster`, '', Math.round(par.rssMB)]);
  } finally {
    slow.stop();
    await Promise.all(Object.values(dirs).map((d) => rm(d, { recursive: true, force: true })));
  }
  return {
    title: `flow run vs a plain undici loop (loopback server in its own process; medians; ratio: median of ${pairs} back-to-back pairs)`,
    table: table(['case', 'ms', 'ratio to undici', 'pair ratios', 'peak RSS MB'], rows),
    notes: notes.join('\n'),
  };
}
