import { afterAll, describe, expect, it } from 'vitest';
import { loadProject } from '../../src/project/index.js';
import { createRunner, type Runner } from '../../src/runner/index.js';
import type { RunEvent } from '../../src/runner/types.js';
import { cleanProjects } from '../helpers/project.js';
import { freshShopApi } from '../helpers/shop-api.js';
import { SHOP_SECRET, shopProject } from '../helpers/shop-project.js';

const api = freshShopApi();
const runners: Runner[] = [];

afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  await cleanProjects();
});

async function runnerFor(overrides: Record<string, string> = {}, options: { concurrency?: number; events?: RunEvent[] } = {}) {
  const project = await loadProject(await shopProject(overrides));
  expect(project.diagnostics).toEqual([]);
  const runner = createRunner(project, {
    vars: { baseUrl: api().url },
    processEnv: { FLOW_SECRET_SHOP_PW: SHOP_SECRET },
    concurrency: options.concurrency,
    onEvent: (e) => options.events?.push(e),
  });
  runners.push(runner);
  return runner;
}

describe('prerequisites', () => {
  it('runs every prerequisite first, in order, each once (checked on the server)', async () => {
    const runner = await runnerFor();
    const result = await runner.run('order.get');
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(api().log).toEqual(['POST /login', 'POST /products', `POST /products/1/publish`, 'POST /orders', 'GET /orders/2']);
  });

  it('reuses prerequisites that already ran in the same runner', async () => {
    const runner = await runnerFor();
    await runner.run('order.get');
    const del = await runner.run('order.delete');
    expect(del.status).toBe('passed');
    // no second login, product or order: delete reads the order that exists
    expect(api().log.slice(5)).toEqual(['DELETE /orders/2']);
    expect(runner.result('order.create')?.prerequisiteOf).toEqual(expect.arrayContaining(['order.get', 'order.delete']));
  });

  it('an operation asked for always runs, even after it ran as a prerequisite', async () => {
    const runner = await runnerFor();
    await runner.run('order.get');
    await runner.run('order.create');
    expect(api().count('POST /orders')).toBe(2);
    expect(runner.values('order', 1)?.id).toBe(2);
    expect(runner.values('order', 2)?.id).toBe(3);
    expect(runner.values('order')?.id).toBe(3);
  });

  it('force: true runs a prerequisite each time it is needed', async () => {
    const runner = await runnerFor({
      'resources/stamps.yaml':
        'name: stamp\noperations:\n  make: { path: /whoami, actor: admin, force: true }\n  a: { path: /whoami, actor: admin, depends_on: [stamp.make] }\n  b: { path: /whoami, actor: admin, depends_on: [stamp.make] }\n',
    });
    await runner.run('stamp.a');
    await runner.run('stamp.b');
    expect(api().count('GET /whoami')).toBe(4);
  });

  it('concurrent requests for one prerequisite share one in-flight run', async () => {
    api().slow.set('/products', 80);
    const runner = await runnerFor({}, { concurrency: 4 });
    const [a, b] = await Promise.all([runner.run('order.get'), runner.run('order.list')]);
    expect([a.status, b.status]).toEqual(['passed', 'passed']);
    expect(api().count('POST /login')).toBe(1);
    expect(api().count('POST /products')).toBe(1);
    expect(api().count('POST /orders')).toBe(1);
  });

  it('independent branches run at once with --concurrency, one at a time without', async () => {
    const files = {
      'resources/reports.yaml': 'name: report\noperations:\n' + [1, 2, 3, 4].map((i) => `  r${i}: { path: /whoami, actor: admin }\n`).join(''),
    };
    api().slow.set('/whoami', 60);
    const seq = await runnerFor(files, { concurrency: 1 });
    await seq.runMany(['report.r1', 'report.r2', 'report.r3', 'report.r4']);
    expect(api().maxInFlight).toBe(1);
    api().maxInFlight = 0;
    const par = await runnerFor(files, { concurrency: 4 });
    const summary = await par.runMany(['report.r1', 'report.r2', 'report.r3', 'report.r4']);
    expect(summary.passed).toBe(4);
    expect(api().maxInFlight).toBeGreaterThanOrEqual(3);
  });

  it('runMany runs the schedule order, DELETEs last, each asked-for operation once', async () => {
    const events: RunEvent[] = [];
    const runner = await runnerFor({}, { events });
    const summary = await runner.runMany(['order.delete', 'order.get', 'order.create', 'product.create', 'product.publish', 'order.list']);
    expect(summary.failed).toBe(0);
    const ended = events.filter((e) => e.type === 'operation:end').map((e) => (e as { result: { operation: string } }).result.operation);
    // ready operations go by declaration order (orders.yaml loads before products.yaml)
    expect(ended).toEqual(['order.list', 'product.create', 'product.publish', 'order.create', 'order.get', 'order.delete']);
    expect(api().count('POST /orders')).toBe(1);
  });

  it('a failed prerequisite skips its dependents with the reason, and unaffected operations go on', async () => {
    const runner = await runnerFor({
      'resources/products.yaml':
        'name: product\noperations:\n  create: { method: POST, path: /nope, actor: admin, expect_status: 201, extract: { id: $.data.id } }\n  publish: { method: POST, path: "/products/{{product.id}}/publish", actor: admin }\n',
    });
    const summary = await runner.runMany(['order.get', 'order.list']);
    const get = summary.results.find((r) => r.operation === 'order.get')!;
    expect(get.status).toBe('skipped');
    expect(get.skippedBecause).toBe('prerequisite product.create failed');
    expect(summary.results.find((r) => r.operation === 'order.list')?.status).toBe('passed');
    const create = runner.result('product.create')!;
    expect(create.error?.code).toBe('E_STATUS_MISMATCH');
    expect(create.error?.message).toMatch(/expected 201, got 404/);
    expect(create.error?.loc?.line).toBe(3);
  });
});
