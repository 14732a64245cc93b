// Real `vitest run --reporter=junit` on the fixture repository (test/fixtures/vitest/repo),
// each run against its own recording server: what CI sees, and what the API received.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startShopServer } from '../fixtures/vitest/server.js';
import { caseNamed, ensureBuilt, FIXTURES, parseJUnit, runVitest, type JUnitSuite, type RunOutput } from './helpers.js';

const ROOT = path.join(FIXTURES, 'repo');
const out = mkdtempSync(path.join(tmpdir(), 'reqflow-junit-'));

interface FixtureRun extends RunOutput {
  xml: string;
  suites: JUnitSuite[];
  routes: string[];
  authorizations: Array<string | undefined>;
  token: string;
}

let n = 0;
async function runFixture(args: string[]): Promise<FixtureRun> {
  const token = `tok-${randomBytes(9).toString('hex')}`;
  const server = await startShopServer(token);
  const junit = path.join(out, `junit-${++n}.xml`);
  try {
    const run = await runVitest(ROOT, ['run', ...args, '--reporter=default', '--reporter=junit', `--outputFile.junit=${junit}`], {
      FLOW_VAR_baseUrl: server.url,
      FLOW_SECRET_SHOP_TOKEN: token,
    });
    const xml = readFileSync(junit, 'utf8');
    return { ...run, xml, suites: parseJUnit(xml), routes: server.routes(), authorizations: server.received.map((r) => r.authorization), token };
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe('vitest run --reporter=junit on a repository of flow projects', () => {
  let run: FixtureRun;
  beforeAll(async () => {
    run = await runFixture([]);
  }, 120_000);

  test('one testcase per operation, named resource > resource.operation, in schedule order', () => {
    expect(run.code).toBe(1);
    const shop = run.suites.find((s) => s.name === 'shop/flow.yaml')!;
    expect(shop.cases.map((c) => c.name)).toEqual([
      'product > product.create',
      'product > product.publish',
      'order > order.create',
      'invoice > invoice.create',
      'invoice > invoice.send',
      'order > order.get',
      'product > product.stock',
    ]);
    for (const name of ['product.create', 'product.publish', 'order.create', 'order.get']) {
      const c = caseNamed(run.suites, 'shop/flow.yaml', name);
      expect(c.failure, name).toBeUndefined();
      expect(c.skipped, name).toBe(false);
    }
    expect(shop).toMatchObject({ tests: 7, failures: 2, skipped: 1 });
  });

  test('a status mismatch fails with the code, the YAML position, the request and the response', () => {
    const failure = caseNamed(run.suites, 'shop/flow.yaml', 'invoice.create').failure!;
    expect(failure.type).toBe('FlowError');
    expect(failure.message).toMatch(/^E_STATUS_MISMATCH: /);
    expect(failure.message).toContain('at shop/resources/invoices.yaml:9:5 (invoice.create)');
    expect(failure.message).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/invoices/);
    // the id the server gave this file's order (files of the repository run in parallel)
    expect(failure.message).toMatch(/"order_id":"o\d+"/);
    expect(failure.message).toContain('400 (');
    expect(failure.message).toContain('invoicing is closed');
  });

  test('the terminal shows no serialized error fields: the message already says the code and the place', () => {
    // (Vitest's JUnit reporter prints them: `Serialized Error: { code, loc }` under the message.)
    for (const [where, text] of Object.entries({ stdout: run.stdout, stderr: run.stderr })) {
      expect(text.includes('Serialized Error'), where).toBe(false);
    }
    expect(run.stderr).toContain('E_STATUS_MISMATCH');
  });

  test('a failed assert names the expression, what was expected and the actual value, once each', () => {
    const failure = caseNamed(run.suites, 'shop/flow.yaml', 'product.stock').failure!;
    expect(failure.message).toMatch(/^E_ASSERT_FAILED: \$\.data\.available > 100 failed: expected > 100, actual 3\s+at /);
    const lines = failure.text.split('\n');
    expect(lines).toContain('FlowError: E_ASSERT_FAILED: $.data.available > 100 failed: expected > 100, actual 3');
    expect(lines.filter((l) => l.includes('✗'))).toEqual(['    ✗ $.data.available > 100: expected > 100, actual 3']);
    // the assert's own line, not the operation's
    expect(failure.message).toContain('at shop/resources/products.yaml:23:9 (product.stock)');
    expect(failure.message).toContain('{"available":3}');
  });

  test('an operation whose prerequisite failed is skipped, with the reason as a property', () => {
    const send = caseNamed(run.suites, 'shop/flow.yaml', 'invoice.send');
    expect(send.skipped).toBe(true);
    expect(send.failure).toBeUndefined();
    expect(send.properties).toEqual({ skipped: 'prerequisite invoice.create failed' });
    // and the terminal says it too
    expect(run.stdout).toContain('invoice.send');
    expect(run.stdout).toContain('[prerequisite invoice.create failed]');
  });

  test('a project with lint errors is one failing lint test listing the diagnostics', () => {
    const broken = run.suites.find((s) => s.name === 'broken/flow.yaml')!;
    expect(broken.cases.map((c) => c.name)).toEqual(['lint']);
    const failure = broken.cases[0].failure!;
    // (XML turns the newlines of an attribute into spaces; the element text keeps them)
    expect(failure.message).toMatch(/^E_LINT: 1 lint error\s/);
    expect(failure.text).toContain('E_LINT: 1 lint error\n  broken/flow.yaml:10:15  E_REF_UNDEFINED');
    expect(failure.message).toContain('broken/flow.yaml:10:15  E_REF_UNDEFINED');
    // the other projects of the repository still ran
    expect(caseNamed(run.suites, 'inventory/flow.yaml', 'health.check').failure).toBeUndefined();
  });

  test('a project without operations is one skipped test, not a failed file', () => {
    const empty = run.suites.find((s) => s.name === 'empty/flow.yaml')!;
    expect(empty.cases.map((c) => [c.name, c.skipped, c.failure])).toEqual([['no operations in this project', true, undefined]]);
  });

  test('flowTest tests share one runner per file and skip like flow tests', () => {
    const custom = run.suites.find((s) => s.name === 'shop/custom.spec.ts')!;
    expect(custom.cases.map((c) => [c.name, c.failure?.message, c.skipped])).toEqual([
      ['custom: an order keeps the product it was placed for', undefined, false],
      ['custom: the runner is shared by the tests of a file', undefined, false],
      [
        'custom: check fails when a prerequisite failed and no test of the file showed it',
        expect.stringMatching(
          /^E_STATUS_MISMATCH: invoice\.send did not run: its prerequisite invoice\.create failed \(no test here shows it\): expected 201, got 400/,
        ),
        false,
      ],
      ['custom: check skips like a flow test once that failure was shown', undefined, true],
    ]);
    expect(custom.cases[3].properties).toEqual({ skipped: 'prerequisite invoice.create failed' });
  });

  test('prerequisites run once per file: the server saw one product and one order per file', () => {
    // two files use the shop project: flow.yaml and custom.spec.ts, each with its own runner
    const count = (route: string) => run.routes.filter((r) => r === route).length;
    expect(count('POST /products')).toBe(2);
    expect(count('POST /products/:id/publish')).toBe(2);
    expect(count('POST /orders')).toBe(2);
    expect(count('GET /orders/:id')).toBe(2);
    expect(count('POST /invoices')).toBe(2);
    // invoice.send never reached the server
    expect(run.routes.some((r) => r.includes('/send'))).toBe(false);
  });

  test("what a hook prints is the test's console output, redacted", () => {
    expect(caseNamed(run.suites, 'shop/flow.yaml', 'product.publish').systemOut).toContain('pre_request hook: publishing with Bearer ***');
    expect(run.stdout).toContain('pre_request hook: publishing with Bearer ***');
    expect(caseNamed(run.suites, 'shop/flow.yaml', 'product.create').systemOut).not.toContain('hook');
  });

  test('the secret token is used but reaches no reporter', () => {
    expect(run.authorizations).toContain(`Bearer ${run.token}`);
    // the server echoed the token in its 400 body: it must come out redacted
    expect(caseNamed(run.suites, 'shop/flow.yaml', 'invoice.create').failure?.message).toContain('"seen_authorization":"Bearer ***"');
    for (const [where, text] of Object.entries({ xml: run.xml, stdout: run.stdout, stderr: run.stderr })) {
      expect(text.includes(run.token), `token in ${where}`).toBe(false);
    }
  });
});

test('-t order.create runs that operation and its prerequisites, nothing else', async () => {
  const run = await runFixture(['shop/flow.yaml', '-t', 'order.create']);
  expect(run.stderr).not.toMatch(/Error/);
  const shop = run.suites.find((s) => s.name === 'shop/flow.yaml')!;
  const state = Object.fromEntries(shop.cases.map((c) => [c.name.split(' > ').pop(), c.skipped ? 'skipped' : c.failure ? 'failed' : 'passed']));
  expect(state).toEqual({
    'product.create': 'skipped',
    'product.publish': 'skipped',
    'order.create': 'passed',
    'invoice.create': 'skipped',
    'invoice.send': 'skipped',
    'order.get': 'skipped',
    'product.stock': 'skipped',
  });
  expect(run.suites.map((s) => s.name)).toEqual(['shop/flow.yaml']);
  expect(run.routes).toEqual(['POST /products', 'POST /products/:id/publish', 'POST /orders']);
  expect(run.code).toBe(0);
}, 120_000);

test("-t on an operation whose prerequisite fails: it fails with the prerequisite's error, since no other test shows it", async () => {
  const run = await runFixture(['shop/flow.yaml', '-t', 'invoice.send']);
  const send = caseNamed(run.suites, 'shop/flow.yaml', 'invoice.send');
  expect(send.skipped).toBe(false);
  expect(send.failure?.message).toMatch(
    /^E_STATUS_MISMATCH: invoice\.send did not run: its prerequisite invoice\.create failed \(no test here shows it\): expected 201, got 400/,
  );
  expect(send.failure?.message).toContain('{"error":"invoicing is closed"');
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr + run.xml).not.toContain(run.token);
}, 120_000);

test('--shard splits a repository with several projects', async () => {
  const [one, two] = await Promise.all([runFixture(['--shard=1/2']), runFixture(['--shard=2/2'])]);
  const a = one.suites.map((s) => s.name);
  const b = two.suites.map((s) => s.name);
  expect(a.length).toBeGreaterThan(0);
  expect(b.length).toBeGreaterThan(0);
  expect(a.filter((x) => b.includes(x))).toEqual([]);
  expect([...a, ...b].sort()).toEqual(['broken/flow.yaml', 'empty/flow.yaml', 'inventory/flow.yaml', 'shop/custom.spec.ts', 'shop/flow.yaml']);
}, 120_000);
