// `flow({ env, vars })` in a real `vitest run` (test/fixtures/vitest/options): the options reach
// flowTest files too, and apply to every project, so one without that environment fails as
// one clear test before any request.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startShopServer } from '../fixtures/vitest/server.js';
import { caseNamed, ensureBuilt, FIXTURES, parseJUnit, runVitest, type JUnitSuite, type RunOutput } from './helpers.js';

const ROOT = path.join(FIXTURES, 'options');
const out = mkdtempSync(path.join(tmpdir(), 'reqflow-options-'));
let run: RunOutput & { suites: JUnitSuite[]; xml: string; urls: string[] };

beforeAll(async () => {
  await ensureBuilt();
  const server = await startShopServer('unused');
  const junit = path.join(out, 'junit.xml');
  try {
    const result = await runVitest(ROOT, ['run', '--reporter=default', '--reporter=junit', `--outputFile.junit=${junit}`], { FLOW_VAR_baseUrl: server.url });
    const xml = readFileSync(junit, 'utf8');
    run = { ...result, xml, suites: parseJUnit(xml), urls: server.received.map((r) => r.url) };
  } finally {
    await server.close();
  }
}, 180_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

const ENV_MESSAGE = 'E_ENV_UNDEFINED: environment "staging" is not defined in local-only/flow.yaml (defined: local)';

test('the flow.yaml suite and the flowTest file both run with the plugin env and vars', () => {
  expect(caseNamed(run.suites, 'tenants/flow.yaml', 'tenant.check').failure).toBeUndefined();
  const custom = run.suites.find((s) => s.name === 'tenants/custom.spec.ts')!;
  expect(custom.cases.map((c) => [c.name, c.failure?.message, c.skipped])).toEqual([
    ['flowTest: the plugin options apply', undefined, false],
    ['flowTest: an operation the project does not define throws', undefined, false],
    ['createFlowTest: its own options win over the plugin options', undefined, false],
  ]);
  // the suite, the flowTest file, and the createFlowTest file with its own tenant
  expect(run.urls.filter((u) => u === '/health?tenant=acme')).toHaveLength(2);
  expect(run.urls.filter((u) => u === '/health?tenant=beta')).toHaveLength(1);
  expect(run.urls.every((u) => u.startsWith('/health?tenant='))).toBe(true);
});

test('a project without that environment is one failing test, with a coded message and no stack into reqflow', () => {
  const suite = run.suites.find((s) => s.name === 'local-only/flow.yaml')!;
  expect(suite.cases.map((c) => [c.name, c.skipped, c.failure?.message])).toEqual([['environment', false, ENV_MESSAGE]]);
  const text = suite.cases[0].failure!.text;
  expect(text).toContain('local-only/flow.yaml:1:1');
  expect(text).not.toMatch(/(src|dist)\/(runtime|vitest)\//);
  // its flowTest file fails with the same error
  expect(caseNamed(run.suites, 'local-only/custom.spec.ts', 'flowTest: a project without the environment fails').failure?.message).toBe(ENV_MESSAGE);
  expect(run.stderr).not.toMatch(/(src|dist)\/runtime\//);
  expect(run.code).toBe(1);
});
