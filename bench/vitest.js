// Vitest benchmark (issue 5): what the plugin costs on top of Vitest itself.
//  1. `vitest run` on a 4-operation project against `vitest run` on a trivial test file, in
//     the same repository, alternately (goal: under 1.3×).
//  2. `vitest run` on the runner benchmark's 1,000-request project against `flow run --all`
//     on the same project and server (goal: under 1.5×).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FLOW, ROOT, measureNode, median, table } from './lib.js';
import { chainProject } from './runner.js';

const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');

const FOUR_OPS = {
  'flow.yaml': 'version: 1\nname: four\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'actors/user.yaml':
    'name: user\nauth:\n  strategy: simple\n  method: POST\n  path: /login\n  body: { user: u }\n  extract: { token: $.data.token }\ninject:\n  headers: { Authorization: "Bearer {{user.token}}" }\n',
  'resources/items.yaml': [
    'name: item',
    'operations:',
    '  create: { method: POST, path: /items, actor: user, body: { name: lamp }, expect_status: 201, extract: { id: $.data.id } }',
    '  get: { path: "/items/{{item.id}}", actor: user, assert: ["$.data.name == \'lamp\'"] }',
    '  publish: { method: POST, path: "/items/{{item.id}}/publish", actor: user, depends_on: [item.get] }',
    '  check: { path: "/items/{{item.id}}", actor: user, depends_on: [item.publish], assert: ["$.data.published == true"] }',
    '',
  ].join('\n'),
};

/** A repository using reqflow from this checkout: the 4-operation project and a trivial test. */
export async function repository() {
  const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-bench-vitest-'));
  const files = {
    'package.json': '{ "type": "module", "private": true }\n',
    'vitest.config.js': "import { flow } from 'reqflow/vitest';\nexport default { plugins: [flow()] };\n",
    'trivial/trivial.test.js': "import { expect, test } from 'vitest';\ntest('trivial', () => { expect(1 + 1).toBe(2); });\n",
    ...Object.fromEntries(Object.entries(FOUR_OPS).map(([f, text]) => [`api/${f}`, text])),
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  await mkdir(path.join(dir, 'node_modules'));
  await symlink(ROOT, path.join(dir, 'node_modules/reqflow'), 'dir');
  await symlink(path.join(ROOT, 'node_modules/vitest'), path.join(dir, 'node_modules/vitest'), 'dir');
  return dir;
}

/** A test file with the layout a chain project's suite has: a describe per resource, three tests each. */
function emptyChains(chains) {
  const lines = ["import { describe, test } from 'vitest';"];
  for (let i = 0; i < chains; i++) {
    lines.push(
      `describe('item${i}', { concurrent: false }, () => {`,
      ...['create', 'get', 'publish'].map((op) => `  test('item${i}.${op}', async () => {});`),
      '});',
    );
  }
  return `${lines.join('\n')}\n`;
}

function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bench/api-server.js'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (d) => {
      const m = /LISTENING (\S+)/.exec(String(d));
      if (m) resolve({ url: m[1], stop: () => child.kill() });
    });
    child.on('error', reject);
  });
}

async function vitestRun(cwd, filter, url, env = {}) {
  const r = await measureNode([VITEST, 'run', filter], { cwd, env: { FLOW_VAR_baseUrl: url, NO_COLOR: '1', ...env } });
  if (r.code !== 0) throw new Error(`vitest run ${filter} failed (exit ${r.code}):\n${r.stdout.slice(-1500)}\n${r.stderr.slice(-1500)}`);
  return r;
}

export async function benchVitest({ repeat = 5 } = {}) {
  const rows = [];
  const server = await startServer();
  const repo = await repository();
  let chains;
  try {
    // warm-up: Vite's caches, the OS file cache
    await vitestRun(repo, 'trivial', server.url);
    await vitestRun(repo, 'api', server.url);
    const flows = [];
    const trivial = [];
    for (let i = 0; i < repeat; i++) {
      flows.push(await vitestRun(repo, 'api', server.url));
      trivial.push(await vitestRun(repo, 'trivial', server.url));
    }
    const f = median(flows.map((r) => r.ms));
    const t = median(trivial.map((r) => r.ms));
    // Each pair ran back to back: the median of their ratios is steadier than the ratio of
    // medians on a machine whose load drifts during the benchmark.
    const ratio = median(flows.map((r, i) => r.ms / trivial[i].ms));
    rows.push([
      'vitest run, 4-operation project (5 requests)',
      Math.round(f),
      ratio.toFixed(2),
      'under 1.3',
      Math.round(Math.max(...flows.map((r) => r.rssMB))),
    ]);
    rows.push(['vitest run, one trivial test file', Math.round(t), '1.00', '', Math.round(Math.max(...trivial.map((r) => r.rssMB)))]);

    // The runner benchmark's 1,000 requests: 250 chains of login -> create -> get -> publish.
    chains = await chainProject(250);
    await writeFile(path.join(chains, 'package.json'), '{ "type": "module", "private": true }\n');
    await writeFile(path.join(chains, 'vitest.config.js'), "import { flow } from 'reqflow/vitest';\nexport default { plugins: [flow()] };\n");
    await mkdir(path.join(chains, 'node_modules'));
    await symlink(ROOT, path.join(chains, 'node_modules/reqflow'), 'dir');
    // Vitest's own cost for the same tests: 750 empty ones in the same describe/test layout.
    await mkdir(path.join(repo, 'empty'), { recursive: true });
    await writeFile(path.join(repo, 'empty/chains.test.js'), emptyChains(250));
    const viaVitest = [];
    const viaCli = [];
    const empty = [];
    const cliStart = [];
    for (let i = 0; i < repeat; i++) {
      empty.push(await vitestRun(repo, 'empty', server.url));
      // flow run's start-up: node, then the CLI and the runtime loaded (what --help loads)
      cliStart.push(await measureNode([FLOW, 'run', '--help']));
      viaVitest.push(await vitestRun(chains, 'flow.yaml', server.url));
      const cli = await measureNode([FLOW, 'run', '--all', '--project', chains, '--var', `baseUrl=${server.url}`, '--no-color']);
      if (cli.code !== 0) throw new Error(`flow run failed (exit ${cli.code}):\n${cli.stdout.slice(-1500)}\n${cli.stderr.slice(-1500)}`);
      viaCli.push(cli);
    }
    const v = median(viaVitest.map((r) => r.ms));
    const c = median(viaCli.map((r) => r.ms));
    rows.push([
      'vitest run, 250 chains (1,000 requests, 750 tests)',
      Math.round(v),
      (v / c).toFixed(2),
      'under 1.5',
      Math.round(Math.max(...viaVitest.map((r) => r.rssMB))),
    ]);
    rows.push(['flow run --all, same project', Math.round(c), '1.00', '', Math.round(Math.max(...viaCli.map((r) => r.rssMB)))]);
    rows.push([
      'vitest run, 750 empty tests in the same layout (no requests)',
      Math.round(median(empty.map((r) => r.ms))),
      '',
      '',
      Math.round(Math.max(...empty.map((r) => r.rssMB))),
    ]);
    // What a plugin costing nothing would take: Vitest's own cost for these tests plus the
    // work of flow run without its start-up (each term from the same round of runs).
    const floors = empty.map((e, i) => e.ms + viaCli[i].ms - cliStart[i].ms);
    rows.push([
      'floor: 750 empty tests + (flow run - its start-up)',
      Math.round(median(floors)),
      median(floors.map((f, i) => f / viaCli[i].ms)).toFixed(2),
      '',
      '',
    ]);
    rows.push([
      'flow run --help (start-up: node, CLI, runtime)',
      Math.round(median(cliStart.map((r) => r.ms))),
      '',
      '',
      Math.round(Math.max(...cliStart.map((r) => r.rssMB))),
    ]);

    // The parse cache (issue 24): a first run in a new cache folder, then a second one reading it.
    const firsts = [];
    const seconds = [];
    for (let i = 0; i < repeat; i++) {
      const cacheDir = path.join(chains, `.cache-${i}`);
      firsts.push(await vitestRun(chains, 'flow.yaml', server.url, { FLOW_CACHE_DIR: cacheDir }));
      seconds.push(await vitestRun(chains, 'flow.yaml', server.url, { FLOW_CACHE_DIR: cacheDir }));
    }
    const first = median(firsts.map((r) => r.ms));
    rows.push(['vitest run, 250 chains, first run (cold parse cache)', Math.round(first), '1.00', '', Math.round(Math.max(...firsts.map((r) => r.rssMB)))]);
    rows.push([
      'vitest run, 250 chains, second run (warm parse cache)',
      Math.round(median(seconds.map((r) => r.ms))),
      median(seconds.map((r, i) => r.ms / firsts[i].ms)).toFixed(2),
      'under 1',
      Math.round(Math.max(...seconds.map((r) => r.rssMB))),
    ]);
  } finally {
    server.stop();
    await rm(repo, { recursive: true, force: true });
    if (chains) await rm(chains, { recursive: true, force: true });
  }
  return {
    title: `Vitest plugin: wall time of whole processes (median of ${repeat}; loopback server in its own process)`,
    table: table(['case', 'ms', 'ratio', 'goal', 'main process peak RSS MB'], rows),
    notes:
      "The ratio compares each flow run with the row below it (first pair: the median of the ratios of runs made back to back); the floor's ratio is to `flow run --all`, run by run. Peak RSS is the Vitest main process only (workers are separate processes).",
  };
}
