// A project split into test files: real `vitest run --shard=k/4` runs of a 400-operation project
// of 40 independent resources, their blob reports merged into one JUnit file, against a real
// server that records what it received.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { wideProjectYaml } from '../helpers/wide-project.js';
import { ensureBuilt, parseJUnit, REPO, runVitest, type JUnitCase } from './helpers.js';

const OPERATIONS = 400;
let server: TestServer;
const made: string[] = [];

/** A throwaway repository: api/flow.yaml and a vitest.config.js with flow(options). */
function repo(flowYaml: string, options = ''): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-split-'));
  made.push(dir);
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(path.join(dir, 'api'));
  writeFileSync(path.join(dir, 'api/flow.yaml'), flowYaml);
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(REPO, path.join(dir, 'node_modules/reqflow'), 'dir');
  writeFileSync(path.join(dir, 'vitest.config.js'), `import { flow } from 'reqflow/vitest';\n\nexport default { plugins: [flow(${options})] };\n`);
  return dir;
}

const env = () => ({ FLOW_VAR_baseUrl: server.url });
const cases = (file: string): JUnitCase[] => parseJUnit(readFileSync(file, 'utf8')).flatMap((s) => s.cases);

beforeAll(async () => {
  let n = 0;
  server = await startServer({
    'POST /things': (_req, res) => json(res, 201, { id: ++n }),
    '*': (_req, res) => json(res, 200, { ok: true }),
  });
  await ensureBuilt();
}, 180_000);

afterAll(async () => {
  await server.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('vitest run --shard=k/4 on a project of 40 independent resources', () => {
  let dir: string;
  let shards: JUnitCase[][];
  const blobs = () => path.join(dir, 'blobs');

  beforeAll(async () => {
    dir = repo(wideProjectYaml(40, OPERATIONS / 40));
    // Two at a time: each shard's Vitest has workers of its own.
    const runs = [];
    for (const pair of [
      [1, 2],
      [3, 4],
    ]) {
      runs.push(
        ...(await Promise.all(
          pair.map((k) =>
            runVitest(
              dir,
              ['run', `--shard=${k}/4`, '--reporter=blob', '--reporter=junit', `--outputFile.blob=blobs/blob-${k}-4.json`, `--outputFile.junit=junit-${k}.xml`],
              env(),
              180_000,
            ),
          ),
        )),
      );
    }
    for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
    shards = [1, 2, 3, 4].map((k) => cases(path.join(dir, `junit-${k}.xml`)));
  }, 400_000);

  test('every operation is reported exactly once across the shards, all green, at most 40% in one shard', () => {
    const names = shards.flat().map((c) => c.name);
    expect(names).toHaveLength(OPERATIONS);
    expect(new Set(names).size).toBe(OPERATIONS);
    expect(names).toContain('r017 > r017.get9');
    expect(shards.flat().filter((c) => c.failure || c.skipped)).toEqual([]);
    for (const shard of shards) expect(shard.length).toBeLessThanOrEqual(0.4 * OPERATIONS);
  });

  test('the JUnit classname is still the project; test names are resource > operation', () => {
    expect(new Set(shards.flat().map((c) => c.classname))).toEqual(new Set(['api/flow.yaml']));
    expect(shards.flat().every((c) => /^r\d{3} > r\d{3}\.(create|get\d)$/.test(c.name))).toBe(true);
  });

  test('the parts are files named after a resource, the same every run', () => {
    const parts = readdirSync(path.join(dir, '.reqflow/split/api/flow.yaml')).sort();
    // 40 groups of 10 packed into 16 files of 20 or 30 (src/graph/split.ts)
    expect(parts).toEqual(Array.from({ length: 16 }, (_, r) => `r${String(r).padStart(3, '0')}.yaml`));
    expect(readFileSync(path.join(dir, '.reqflow/.gitignore'), 'utf8')).toContain('*');
  });

  test('vitest --merge-reports makes one JUnit file of the four blob reports', async () => {
    const merged = path.join(dir, 'merged.xml');
    const run = await runVitest(dir, ['run', `--merge-reports=${blobs()}`, '--reporter=junit', `--outputFile=${merged}`], env(), 120_000);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const all = cases(merged);
    expect(all).toHaveLength(OPERATIONS);
    expect(new Set(all.map((c) => c.name))).toEqual(new Set(shards.flat().map((c) => c.name)));
    expect(new Set(all.map((c) => c.classname))).toEqual(new Set(['api/flow.yaml']));
  }, 150_000);
});

// Two resources of 30 and 31 operations: two parts, one per resource. Every answer takes 30 ms and the
// server notes whether requests of both resources were ever in flight at once: only files run
// by different workers at the same time can do that.
describe('the parts run in parallel workers', () => {
  let slow: TestServer;
  const inFlight = { a: 0, b: 0 };
  let overlapped = false;
  const twoResources = ['version: 1', 'name: two', 'environment:', '  variables:', '    baseUrl: <SET_VIA_--var>', 'resources:'];
  for (const r of ['a', 'b']) {
    twoResources.push(`  ${r}:`, '    operations:', `      create: { method: POST, path: /${r}, expect_status: 201, extract: { id: $.data.id } }`);
    for (let k = 1; k < 30; k++) twoResources.push(`      get${k}: { path: "/${r}/{{${r}.id}}" }`);
  }
  // a misspelt key: a lint warning, the same in both parts
  twoResources.push('      get30: { path: "/b/{{b.id}}", expect_stauts: 200 }');

  beforeAll(async () => {
    slow = await startServer({
      '*': async (req, res) => {
        const r = req.path.startsWith('/a') ? 'a' : 'b';
        inFlight[r]++;
        if (inFlight.a > 0 && inFlight.b > 0) overlapped = true;
        await new Promise((done) => setTimeout(done, 30));
        inFlight[r]--;
        json(res, req.method === 'POST' ? 201 : 200, { id: 1 });
      },
    });
  });
  afterAll(() => slow.close());

  async function run(args: string[]): Promise<{ overlapped: boolean; output: string }> {
    overlapped = false;
    const dir = repo(`${twoResources.join('\n')}\n`);
    const result = await runVitest(dir, ['run', ...args], { FLOW_VAR_baseUrl: slow.url }, 120_000);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(0);
    expect(readdirSync(path.join(dir, '.reqflow/split/api/flow.yaml')).sort()).toEqual(['a.yaml', 'b.yaml']);
    return { overlapped, output };
  }

  // Vitest's own default is one worker on a 2-core machine; the plugin raises it for a split project.
  test('by default, even on 2 cores; a lint warning is shown once, not once per part', async () => {
    const { overlapped, output } = await run([]);
    expect(overlapped).toBe(true);
    expect(output.match(/warning {2}W_UNKNOWN_KEY/g)).toHaveLength(1);
  }, 150_000);

  test('not with --no-file-parallelism, nor when the user chose --maxWorkers=1', async () => {
    expect((await run(['--no-file-parallelism'])).overlapped).toBe(false);
    expect((await run(['--maxWorkers=1'])).overlapped).toBe(false);
  }, 150_000);
});

test('a project edited after Vitest listed its parts fails with E_SPLIT_STALE, not a silent pass', async () => {
  const dir = repo(wideProjectYaml(6, 10));
  // a globalSetup runs after the files are listed, before the workers: the edit lands between
  writeFileSync(
    path.join(dir, 'edit.js'),
    "import { readFileSync, writeFileSync } from 'node:fs';\nexport default () => writeFileSync('api/flow.yaml', readFileSync('api/flow.yaml', 'utf8').replaceAll('r000', 'q000'));\n",
  );
  writeFileSync(
    path.join(dir, 'vitest.config.js'),
    "import { flow } from 'reqflow/vitest';\n\nexport default { plugins: [flow()], test: { globalSetup: './edit.js' } };\n",
  );
  const junit = path.join(dir, 'junit.xml');
  const run = await runVitest(dir, ['run', '--reporter=junit', `--outputFile=${junit}`], env(), 120_000);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const failed = parseJUnit(readFileSync(junit, 'utf8')).flatMap((s) => s.cases.filter((c) => c.failure));
  expect(failed.map((c) => [c.name, c.failure?.message])).toEqual([
    ['split', expect.stringContaining('E_SPLIT_STALE: r000.yaml is no longer a part of this project')],
  ]);
}, 150_000);

describe('what stays one file', () => {
  test('split: false keeps the project in one test file', async () => {
    const dir = repo(wideProjectYaml(3, 10), '{ split: false }');
    const junit = path.join(dir, 'junit.xml');
    const run = await runVitest(dir, ['run', '--reporter=junit', `--outputFile=${junit}`], env(), 120_000);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const suites = parseJUnit(readFileSync(junit, 'utf8'));
    expect(suites.map((s) => [s.name, s.tests])).toEqual([['api/flow.yaml', 30]]);
    expect(existsSync(path.join(dir, '.reqflow'))).toBe(false);
  }, 150_000);

  test('a project with lint errors fails once, in one file', async () => {
    const broken = wideProjectYaml(3, 10).replace('path: /things/{{r001.id}}', 'path: /things/{{nothing.id}}');
    const dir = repo(broken);
    const junit = path.join(dir, 'junit.xml');
    const run = await runVitest(dir, ['run', '--reporter=junit', `--outputFile=${junit}`], env(), 120_000);
    expect(run.code).toBe(1);
    const suites = parseJUnit(readFileSync(junit, 'utf8'));
    expect(suites.map((s) => [s.name, s.tests, s.failures])).toEqual([['api/flow.yaml', 1, 1]]);
    expect(suites[0].cases[0].failure?.message).toContain('E_REF_UNDEFINED');
  }, 150_000);
});
