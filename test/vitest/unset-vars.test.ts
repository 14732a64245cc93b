// The Vitest plugin when some <SET_VIA_--var> values are not given: the operations that need
// one are skipped tests with the --var as the reason; the others run and pass (a real Vitest
// run in a child process, reported as JUnit).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestServer } from '../helpers/http-server.js';
import { startUnsetApi, unsetProjectFiles } from '../helpers/unset-project.js';
import { caseNamed, ensureBuilt, parseJUnit, REPO, runVitest } from './helpers.js';

let api: TestServer;
const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-unset-'));
beforeAll(async () => {
  await ensureBuilt();
  api = await startUnsetApi();
}, 180_000);
afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('an operation that needs a var nobody gave is a skipped test with the --var; the others pass', async () => {
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(REPO, path.join(dir, 'node_modules/reqflow'), 'dir');
  writeFileSync(path.join(dir, 'vitest.config.js'), "import { flow } from 'reqflow/vitest';\n\nexport default { plugins: [flow()] };\n");
  for (const [file, text] of Object.entries(unsetProjectFiles(api.url))) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const junit = path.join(dir, 'junit.xml');
  const run = await runVitest(dir, ['run', '--reporter=default', '--reporter=junit', `--outputFile.junit=${junit}`]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const suites = parseJUnit(readFileSync(junit, 'utf8'));
  expect(caseNamed(suites, 'flow.yaml', 'item.list').skipped).toBe(false);
  expect(caseNamed(suites, 'flow.yaml', 'item.list').failure).toBeUndefined();
  const get = caseNamed(suites, 'flow.yaml', 'child.get');
  expect(get.skipped).toBe(true);
  expect(Object.values(get.properties).join('\n')).toContain('needs --var child=… (<SET_VIA_--var>, not given)');
  const detail = caseNamed(suites, 'flow.yaml', 'child.detail');
  expect(detail.skipped).toBe(true);
  expect(Object.values(detail.properties).join('\n')).toContain('needs --var child=…, --var tenant=…');
  expect(api.requests.map((q) => q.path).sort()).toEqual(['/items', '/items/1']);
}, 120_000);
