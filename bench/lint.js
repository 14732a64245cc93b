// Lint benchmark: generated projects of 100, 1,000 and 10,000 operations, `flow lint` end to
// end in a child process (start-up included). Goal: 10,000 operations < 2 s and < 300 MB.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FLOW, measureNode, median, table } from './lib.js';

const OPS_PER_RESOURCE = 10;

/** A project whose operations reference each other the way real ones do. */
export async function generateProject(dir, operations) {
  const resources = Math.ceil(operations / OPS_PER_RESOURCE);
  await mkdir(path.join(dir, 'resources'), { recursive: true });
  await mkdir(path.join(dir, 'actors'), { recursive: true });
  await mkdir(path.join(dir, 'environments'), { recursive: true });
  await writeFile(path.join(dir, 'flow.yaml'), 'version: 1\nname: bench\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n');
  await writeFile(path.join(dir, 'environments/local.yaml'), 'name: local\nvariables:\n  baseUrl: http://127.0.0.1:9\n  password: !secret PW\n');
  await writeFile(
    path.join(dir, 'actors/admin.yaml'),
    'name: admin\nauth:\n  strategy: simple\n  method: POST\n  path: /login\n  body: { user: admin, password: "{{env.password}}" }\n  extract: { token: $.data.token }\ninject:\n  headers: { Authorization: "Bearer {{admin.token}}" }\n',
  );
  let made = 0;
  for (let r = 0; r < resources && made < operations; r++) {
    const name = `res${r}`;
    const prev = r > 0 ? `res${r - 1}` : undefined;
    const lines = [`name: ${name}`, 'operations:'];
    for (let o = 0; o < OPS_PER_RESOURCE && made < operations; o++, made++) {
      if (o === 0) {
        lines.push('  create:', '    method: POST', `    path: /${name}`, '    actor: admin');
        lines.push(prev ? `    body: { parent: "{{${prev}.id}}", note: "{{$.uuid}}" }` : '    body: { note: "{{$.uuid}}" }');
        lines.push('    expect_status: 201', '    extract: { id: $.data.id, etag: $.headers.ETag }');
      } else {
        const method = o === OPS_PER_RESOURCE - 1 ? 'DELETE' : o % 3 === 0 ? 'PATCH' : 'GET';
        lines.push(`  op${o}:`, `    method: ${method}`, `    path: /${name}/{{${name}.id}}/step${o}`, '    actor: admin');
        lines.push(`    assert: ["$.data.id == '{{${name}.id}}'"]`);
        if (o % 4 === 0) lines.push(`    depends_on: [${name}.op${o - 1}]`);
      }
    }
    await writeFile(path.join(dir, `resources/${name}.yaml`), `${lines.join('\n')}\n`);
  }
}

export async function benchLint({ sizes = [100, 1000, 10000], repeat = 3 } = {}) {
  const rows = [];
  for (const n of sizes) {
    const dir = await mkdtemp(path.join(tmpdir(), `reqflow-bench-lint-${n}-`));
    const cacheDir = path.join(dir, '.cache');
    try {
      await generateProject(dir, n);
      const lintOnce = async (env) => {
        const r = await measureNode([FLOW, 'lint', '--project', dir, '--format', 'json'], { env });
        if (r.code !== 0)
          throw new Error(`flow lint failed on the ${n}-operation project (exit ${r.code}):\n${r.stdout.slice(0, 2000)}${r.stderr.slice(0, 2000)}`);
        return r;
      };
      // Without the parse cache, then with it: the first run fills it (cold), the next ones read it (warm).
      const none = [];
      for (let i = 0; i < repeat; i++) none.push(await lintOnce({ FLOW_NO_CACHE: '1' }));
      const cold = await lintOnce({ FLOW_CACHE_DIR: cacheDir });
      const warm = [];
      for (let i = 0; i < repeat; i++) warm.push(await lintOnce({ FLOW_CACHE_DIR: cacheDir }));
      const ms = (runs) => Math.round(median(runs.map((r) => r.ms)));
      const rss = (runs) => Math.round(Math.max(...runs.map((r) => r.rssMB)));
      rows.push([n, ms(none), ms([cold]), ms(warm), Math.max(rss(none), rss([cold]), rss(warm))]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return {
    title: `flow lint (child process, start-up included; medians of ${repeat})`,
    table: table(['operations', 'no cache ms', 'cold cache ms', 'warm cache ms', 'peak RSS MB'], rows),
    rows,
  };
}
