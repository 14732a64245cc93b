// A real `vitest run` of test/fixtures/vitest/projects: per-project plugin options (two projects
// on two servers), lint warnings shown in the run, `strict` for one project, and a project with
// a tab whose `lint` test points at it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { caseNamed, ensureBuilt, FIXTURES, parseJUnit, runVitest, type JUnitSuite, type RunOutput } from './helpers.js';

const ROOT = path.join(FIXTURES, 'projects');
const out = mkdtempSync(path.join(tmpdir(), 'reqflow-projects-'));
let run: RunOutput & { suites: JUnitSuite[] };
let alpha: TestServer;
let beta: TestServer;

beforeAll(async () => {
  await ensureBuilt();
  alpha = await startServer({ 'POST /things': (_req, res) => json(res, 201, { id: 1 }) });
  beta = await startServer({ 'GET /beta/items': (_req, res) => json(res, 200, { server: 'beta' }) });
  const junit = path.join(out, 'junit.xml');
  const result = await runVitest(ROOT, ['run', '--reporter=default', '--reporter=junit', `--outputFile.junit=${junit}`], {
    ALPHA_URL: alpha.url,
    BETA_URL: beta.url,
  });
  run = { ...result, suites: parseJUnit(readFileSync(junit, 'utf8')) };
}, 180_000);

afterAll(async () => {
  await Promise.all([alpha?.close(), beta?.close()]);
  rmSync(out, { recursive: true, force: true });
});

test('each project sends to its own server: projects[...].vars win over the shared vars', () => {
  expect(caseNamed(run.suites, 'beta/flow.yaml', 'item.get').failure).toBeUndefined();
  expect(caseNamed(run.suites, 'beta/custom.spec.ts', 'flowTest: the project options apply').failure).toBeUndefined();
  // the suite and the flowTest file, both at beta; none of beta's requests reached alpha
  expect(beta.count('GET /beta/items')).toBe(2);
  expect(alpha.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /things']);
});

test('a misspelt key passes, and the run shows the warning with the key it meant', () => {
  expect(caseNamed(run.suites, 'alpha/flow.yaml', 'thing.create').failure).toBeUndefined();
  expect(run.stdout + run.stderr).toContain(
    'alpha/resources/things.yaml:7:5  warning  W_UNKNOWN_KEY  unknown key "expect_stauts" is ignored (did you mean "expect_status"?)',
  );
});

test('strict: true for one project makes its warning a failing lint test, and nothing is sent', () => {
  const suite = run.suites.find((s) => s.name === 'strict/flow.yaml')!;
  expect(suite.cases.map((c) => c.name)).toEqual(['lint']);
  expect(suite.cases[0].failure?.text).toContain('strict/flow.yaml:12:9  W_UNKNOWN_KEY');
  // alpha's one POST is alpha's own
  expect(alpha.count('POST /things')).toBe(1);
});

test('a tab: the lint test is located at it, with one E_YAML_PARSE and the follow-on errors counted', () => {
  const failure = caseNamed(run.suites, 'broken/flow.yaml', 'lint').failure!;
  expect(failure.text.trim().split('\n').slice(0, 4)).toEqual([
    'FlowError: E_LINT: 1 lint error',
    '  broken/resources/things.yaml:5:1  E_YAML_PARSE  YAML: Tabs are not allowed as indentation: indent with spaces',
    '  2 more errors come from broken/resources/things.yaml, which did not parse',
    // where Vitest locates the failure: the tab, not the correct file that refers to it
    ' ❯ lint broken/resources/things.yaml:5:1',
  ]);
  expect(run.code).toBe(1);
});
