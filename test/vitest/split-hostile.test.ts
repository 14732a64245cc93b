// A split project's part files against what can be in their place or in their names: real
// Vitest runs (the built package) of two resources of 30 operations each. Every case ran fewer
// tests than the project has, or never ended, before.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { ensureBuilt, parseJUnit, REPO, runVitest } from './helpers.js';

let server: TestServer;
const made: string[] = [];

beforeAll(async () => {
  server = await startServer({ 'POST /things': (_req, res) => json(res, 201, { id: 1 }), '*': (_req, res) => json(res, 200, { ok: true }) });
  await ensureBuilt();
}, 180_000);

afterAll(async () => {
  await server.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A repository whose api/flow.yaml has the resources named, 30 independent operations each. */
function repo(resources: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-split-hostile-'));
  made.push(dir);
  const lines = ['version: 1', 'name: two', 'environment:', '  variables:', '    baseUrl: <SET_VIA_--var>', 'resources:'];
  for (const r of resources) {
    lines.push(`  ${r}:`, '    operations:', '      create: { method: POST, path: /things, expect_status: 201, extract: { id: $.data.id } }');
    for (let k = 1; k < 30; k++) lines.push(`      get${k}: { path: "/things/{{${r}.id}}" }`);
  }
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(path.join(dir, 'api'));
  writeFileSync(path.join(dir, 'api/flow.yaml'), `${lines.join('\n')}\n`);
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(REPO, path.join(dir, 'node_modules/reqflow'), 'dir');
  writeFileSync(path.join(dir, 'vitest.config.js'), "import { flow } from 'reqflow/vitest';\n\nexport default { plugins: [flow()] };\n");
  return dir;
}

/** A run's exit code and the names of the tests its JUnit report lists. */
async function run(dir: string): Promise<{ code: number | null; names: string[]; output: string }> {
  const junit = path.join(dir, 'junit.xml');
  // a run of 60 operations takes seconds: a minute is a hang
  const result = await runVitest(dir, ['run', '--reporter=junit', `--outputFile=${junit}`], { FLOW_VAR_baseUrl: server.url }, 60_000);
  const output = result.stdout + result.stderr;
  const names = result.code === null ? [] : parseJUnit(readFileSync(junit, 'utf8')).flatMap((s) => s.cases.map((c) => c.name));
  return { code: result.code, names, output };
}

const SPLIT = '.reqflow/split/api/flow.yaml';

describe('what is in the place of a part file is read bounded', () => {
  test.each([
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
    ['a link to /dev/zero', (file: string) => symlinkSync('/dev/zero', file)],
  ])(
    '%s: the project runs in one file, every test, and the run ends',
    async (_kind, plant) => {
      const dir = repo(['a', 'b']);
      mkdirSync(path.join(dir, SPLIT), { recursive: true });
      plant(path.join(dir, SPLIT, 'a.yaml'));
      const { code, names, output } = await run(dir);
      expect(code, output).toBe(0);
      expect(names).toHaveLength(60);
    },
    90_000,
  );
});

test('a 101-character resource id and a resource named as its hash once was: two files, all 60 tests run', async () => {
  const long = 'x'.repeat(101);
  // the name the 32-bit hash of the long id gave its part's file: the second resource took it over
  let h = 0x811c9dc5;
  for (let i = 0; i < long.length; i++) h = Math.imul(h ^ long.charCodeAt(i), 0x01000193) >>> 0;
  const dir = repo([long, `part-${h.toString(16).padStart(8, '0')}`]);
  const { code, names, output } = await run(dir);
  expect(code, output).toBe(0);
  expect(names).toHaveLength(60);
  expect(readdirSync(path.join(dir, SPLIT))).toHaveLength(2);
}, 90_000);
