// A DELETE that answers 2xx and keeps the thing (seen on a real feature-flag server: a context
// field whose legal value holds "\u0000" answers 200 to DELETE and stays) is not counted as
// deleted: the clean-up reads each removed instance back with its resource's own GET, sends its
// removal once more when it is still there, and reports it left, with why. Checked on the
// server's side.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, ROOT } from './helpers.js';

let srv: TestServer;
let items: Map<string, { id: string; name: string }>;

beforeEach(async () => {
  await srv?.close();
  items = new Map();
  let n = 0;
  srv = await startServer({
    'POST /items': (req, res) => {
      const { name } = req.json() as { name: string };
      const id = `i${++n}`;
      items.set(id, { id, name });
      json(res, 201, { id, name });
    },
    '*': (req, res) => {
      const m = /^\/items\/([^/]+)$/.exec(req.path);
      const item = m && items.get(decodeURIComponent(m[1]));
      if (!item) return json(res, 404, {});
      if (req.method === 'DELETE') {
        // the bug: a name with a NUL answers 200 and is not deleted
        if (!item.name.includes('\u0000')) items.delete(item.id);
        return json(res, 200, {});
      }
      json(res, 200, item);
    },
  });
});

afterAll(async () => {
  await closeRunners();
  await srv?.close();
});

const files = (name: string, more: string[] = []) => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': envFile({ baseUrl: srv.url }),
  'resources/item.yaml': [
    'name: item',
    'operations:',
    `  create: { method: POST, path: /items, body: { name: ${JSON.stringify(name)} }, extract: { id: $.data.id } }`,
    '  get: { path: "/items/{{item.id}}" }',
    '  delete: { method: DELETE, path: "/items/{{item.id}}" }',
    ...more,
    '',
  ].join('\n'),
});

const sent = () => srv.requests.filter((r) => r.path !== '/items' || r.method !== 'POST').map((r) => `${r.method} ${r.path}`);

describe('the clean-up reads back what a removal answered 2xx for', () => {
  it('a DELETE the run sent that kept the item: sent once more, then reported left with why', async () => {
    const { runner } = await load(files('stuck\u0000'));
    expect((await runner.run('item.delete')).status).toBe('passed'); // the server said 200
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['DELETE /items/i1', 'GET /items/i1', 'DELETE /items/i1', 'GET /items/i1']);
    expect(report.deleted).toEqual([]);
    expect(report.left).toEqual([
      expect.objectContaining({
        resource: 'item',
        id: 'i1',
        via: 'item.delete',
        status: 200,
        why: 'item.delete 200 (and during the run), yet item.get still reads it',
      }),
    ]);
    expect(items.has('i1')).toBe(true);
  });

  it("the clean-up's own removal that kept it: left, not deleted", async () => {
    const { runner } = await load(files('stuck\u0000'));
    await runner.run('item.create');
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['DELETE /items/i1', 'GET /items/i1']);
    expect(report.deleted).toEqual([]);
    expect(report.left).toEqual([expect.objectContaining({ id: 'i1', via: 'item.delete', status: 200, why: 'item.delete 200, yet item.get still reads it' })]);
  });

  it('a removal that did remove it: one read back (404), deleted, nothing sent again', async () => {
    const { runner } = await load(files('fine'));
    await runner.run('item.delete');
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['DELETE /items/i1', 'GET /items/i1']);
    expect(report.left).toEqual([]);
    expect(items.size).toBe(0);
    await runner.run('item.create');
    const second = await runner.cleanUp();
    expect(second.deleted).toEqual([expect.objectContaining({ id: 'i2', via: 'item.delete', status: 200 })]);
    expect(items.size).toBe(0);
  });

  it('the same when a later removal reads a field the instance lacks (a second way to remove another kind of it)', async () => {
    const { runner } = await load(files('stuck\u0000', ['  delete_by_code: { method: DELETE, path: "/items/{{item.code}}" }']));
    await runner.run('item.delete');
    const report = await runner.cleanUp();
    expect(sent()).toEqual(['DELETE /items/i1', 'GET /items/i1', 'DELETE /items/i1', 'GET /items/i1']);
    expect(report.left).toEqual([
      expect.objectContaining({ id: 'i1', via: 'item.delete', status: 200, why: 'item.delete 200 (and during the run), yet item.get still reads it' }),
    ]);
  });
});
