// Scheduling: under --concurrency, DELETEs still go last (docs/format.md#run-prerequisites), so that a
// DELETE never races a read of what it deletes; a sequential run sends what --dry-run plans.
import { afterAll, describe, expect, it } from 'vitest';
import { buildGraph, scheduleOrder } from '../../src/graph/index.js';
import { json, startServer } from '../helpers/http-server.js';
import { freshShopApi } from '../helpers/shop-api.js';
import { SHOP_FILES, SHOP_SECRET } from '../helpers/shop-project.js';
import { closeRunners, envFile, load, outcomes, ROOT } from './helpers.js';

const api = freshShopApi();

afterAll(async () => {
  await closeRunners();
});

const shop = (concurrency: number) => load(SHOP_FILES, { vars: { baseUrl: api().url }, secrets: { SHOP_PW: SHOP_SECRET }, concurrency });

describe('DELETEs under --concurrency', () => {
  it('a DELETE starts only after the other asked operations ended, even when a read of the same order is slow', async () => {
    api().slow.set('GET /orders/', 120);
    const { runner } = await shop(4);
    const summary = await runner.runMany(['order.delete', 'order.get', 'order.list']);
    expect(outcomes(summary)).toEqual([
      ['order.list', 'passed', undefined],
      ['order.get', 'passed', undefined],
      ['order.delete', 'passed', undefined],
    ]);
    expect(api().log.slice(-2)).toEqual(['GET /orders/2', 'DELETE /orders/2']);
  });
});

describe('sequential runs', () => {
  it('send every operation, prerequisites included, in the schedule order that --dry-run prints', async () => {
    const seen: string[] = [];
    const server = await startServer({ '*': (req, res) => (seen.push(req.path), json(res, 200, { ok: true })) });
    try {
      // target needs b and c; c needs a. a is declared first, so the schedule is a, b, c,
      // target; following the edges of target alone would send b before a.
      const { runner, project } = await load({
        'flow.yaml': ROOT,
        'environments/test.yaml': envFile({ baseUrl: server.url }),
        'resources/steps.yaml': [
          'name: step',
          'operations:',
          '  a: { path: /a }',
          '  b: { path: /b }',
          '  c: { path: /c, depends_on: [step.a] }',
          '  target: { path: /target, depends_on: [step.b, step.c] }',
          '',
        ].join('\n'),
      });
      const plan = scheduleOrder(buildGraph(project), ['step.target']);
      expect(plan).toEqual(['step.a', 'step.b', 'step.c', 'step.target']);
      await runner.run('step.target');
      expect(seen).toEqual(['/a', '/b', '/c', '/target']);
      seen.length = 0;
      const summary = await runner.runMany(['step.target', 'step.b']);
      // asked again: both run afresh, in schedule order; their prerequisites are reused
      expect(summary.results.map((r) => r.operation)).toEqual(['step.b', 'step.target']);
      expect(seen).toEqual(['/b', '/target']);
    } finally {
      await server.close();
    }
  });
});
