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
