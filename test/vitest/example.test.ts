// `npm run example`, against a demo API this test starts, so it can check what the example
// shows off really happened: the fan-out, the polling, the upload, one login per runner.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startDemoApi } from '../../example-project/demo-api/server.js';
import { ensureBuilt, parseJUnit, REPO, runVitest } from './helpers.js';

const out = mkdtempSync(path.join(tmpdir(), 'reqflow-example-'));
const secrets = { ADMIN_PASSWORD: 'a', PARTNER_API_KEY: 'k', AUDITOR_PASSWORD: 'p' };
for (const name of Object.keys(secrets) as Array<keyof typeof secrets>) secrets[name] = `${name.toLowerCase()}-${randomBytes(8).toString('hex')}`;
let api: Awaited<ReturnType<typeof startDemoApi>>;

beforeAll(async () => {
  await ensureBuilt();
  api = await startDemoApi({ adminPassword: secrets.ADMIN_PASSWORD, partnerApiKey: secrets.PARTNER_API_KEY, auditorPassword: secrets.AUDITOR_PASSWORD });
}, 180_000);

afterAll(async () => {
  await api?.close();
  rmSync(out, { recursive: true, force: true });
});

test('the example project passes and does what it shows', async () => {
  const junit = path.join(out, 'junit.xml');
  const run = await runVitest(REPO, ['run', '--root', 'example-project', '--reporter=default', '--reporter=junit', `--outputFile.junit=${junit}`], {
    FLOW_VAR_baseUrl: api.url,
    ...Object.fromEntries(Object.entries(secrets).map(([k, v]) => [`FLOW_SECRET_${k}`, v])),
  });
  const xml = readFileSync(junit, 'utf8');
  expect(run.code, run.stdout + run.stderr).toBe(0);

  const suites = parseJUnit(xml);
  const names = (file: string) => suites.find((s) => s.name === file)!.cases.map((c) => c.name.split(' > ').pop());
  expect(names('flow.yaml')).toEqual([
    'category.list',
    'category.products',
    'product.create',
    'attachment.upload',
    'product.publish',
    'order.create',
    'order.get',
    'product.get',
    'report.request',
    'report.result',
    'order.cancel',
  ]);
  expect(names('tests/orders.test.ts')).toHaveLength(2);
  expect(suites.flatMap((s) => s.cases).filter((c) => c.failure || c.skipped)).toEqual([]);

  const count = (pattern: RegExp) => api.requests.filter((r) => pattern.test(r)).length;
  // for_each: one request per category the list returned
  for (const category of ['kitchen', 'office', 'garden']) expect(count(new RegExp(`^GET /api/v1/categories/${category}/products$`))).toBe(1);
  // the admin logs in once per runner (flow.yaml, tests/orders.test.ts)
  expect(count(/^POST \/api\/v1\/login$/)).toBe(2);
  expect(count(/^POST \/api\/v1\/products\/p_\d+\/attachments$/)).toBe(1);
  // 202, then polled: twice pending, then done, in each of the two files
  expect(count(/^POST \/api\/v1\/reports$/)).toBe(2);
  expect(count(/^GET \/api\/v1\/reports\/r_\d+$/)).toBe(6);
  expect(count(/^DELETE \/api\/v1\/orders\/o_\d+$/)).toBe(1);

  for (const value of Object.values(secrets)) {
    expect(xml.includes(value) || run.stdout.includes(value) || run.stderr.includes(value)).toBe(false);
  }
}, 120_000);
