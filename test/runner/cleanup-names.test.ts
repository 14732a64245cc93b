// The clean-up names what a create made by what that create sent or got back (docs/format.md#ownership),
// where the run extracts nothing of it: a tag made with `{"type": …, "value": …}` whose answer gives
// the type alone is removed with `DELETE /items/{id}/tags/{type}/{value}`, the value its own create
// sent. Someone else's tag of the same type stays. Checked on the server's side.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, outcomes, ROOT } from './helpers.js';

let srv: TestServer;
let tags: Array<{ item: string; type: string; value: string }>;
/** the tags themselves, which any item may use: `simple:mine-1` too was someone's before the run */
let shared: Set<string>;
const THEIRS = { item: 'i1', type: 'simple', value: 'theirs' };

beforeEach(async () => {
  await srv?.close();
  tags = [{ ...THEIRS }];
  shared = new Set(['simple:theirs', 'simple:mine-1']);
  srv = await startServer({
    'POST /items': (_req, res) => json(res, 201, { id: 'i1' }),
    // an invite link: named by its secret, with no DELETE (only the personal tokens of the same resource have one)
    // an action shaped as a create: it answers the item it was sent
    'POST /uses': (req, res) => json(res, 201, { itemId: (req.json() as { itemId: string }).itemId, at: 1 }),
    'GET /items': (_req, res) => json(res, 200, [{ id: 'theirs-9' }]),
    'POST /links': (_req, res) => json(res, 201, { secret: 'link-secret-1', enabled: true }),
    '*': (req, res) => {
      const add = /^\/items\/([^/]+)\/tags$/.exec(req.path);
      if (add && req.method === 'POST') {
        const sent = req.json() as { type: string; value: string };
        // the server keeps values lower-case, and answers with what it kept (or the type alone)
        const tag = { item: add[1], type: sent.type, value: req.headers['x-quiet'] ? sent.value : sent.value.toLowerCase() };
        tags.push(tag);
        return json(res, 201, req.headers['x-quiet'] ? { type: tag.type } : { type: tag.type, value: tag.value });
      }
      const one = /^\/items\/([^/]+)\/tags\/([^/]+)\/([^/]+)$/.exec(req.path);
      if (one && req.method === 'DELETE') {
        const at = tags.findIndex((t) => t.item === one[1] && t.type === one[2] && t.value === decodeURIComponent(one[3]));
        if (at < 0) return json(res, 404, {});
        tags.splice(at, 1);
        return void res.writeHead(200).end();
      }
      const tag = /^\/tags\/([^/]+)\/([^/]+)$/.exec(req.path);
      if (tag && req.method === 'DELETE') return void res.writeHead(shared.delete(`${tag[1]}:${decodeURIComponent(tag[2])}`) ? 200 : 404).end();
      if (req.method === 'DELETE' && req.path === '/items/i1') return void res.writeHead(200).end();
      json(res, 404, {});
    },
  });
});

afterAll(async () => {
  await closeRunners();
  await srv?.close();
});

function files(headers = ''): Record<string, string> {
  return {
    'flow.yaml': ROOT,
    'environments/test.yaml': envFile({ baseUrl: srv.url }),
    'resources/item.yaml': [
      'name: item',
      'operations:',
      '  create: { method: POST, path: /items, expect_status: 201, extract: { id: $.data.id } }',
      '  delete: { method: DELETE, path: "/items/{{item.id}}", expect_status: 200 }',
      '',
    ].join('\n'),
    'resources/tag.yaml': [
      'name: tag',
      'operations:',
      `  create: { method: POST, path: "/items/{{item.id}}/tags",${headers} body: { type: simple, value: Mine-1 }, expect_status: 201, extract: { type: $.data.type } }`,
      '  delete: { method: DELETE, path: "/items/{{item.id}}/tags/{{tag.type}}/{{tag.value}}", expect_status: 200 }',
      // removes the tag itself, from every item: not what the run's create made
      '  delete_shared: { method: DELETE, path: "/tags/{{tag.type}}/{{tag.value}}", expect_status: 200 }',
      '',
    ].join('\n'),
  };
}

describe('a removal reads a field the create did not extract', () => {
  it('named by the value its own answer gives: the tag the run made is removed, and only it', async () => {
    const { runner } = await load(files());
    const summary = await runner.runMany(['tag.create']);
    expect(outcomes(summary)).toEqual([['tag.create', 'passed', undefined]]);
    expect(tags).toHaveLength(2);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    // the value the server kept, as its answer gave it (`mine-1`), not the one sent
    expect(report.deleted.map((d) => [d.resource, d.id, d.via, d.status])).toEqual([
      ['tag', 'mine-1', 'tag.delete', 200],
      ['item', 'i1', 'item.delete', 200],
    ]);
    expect(tags).toEqual([THEIRS]);
    expect([...shared]).toEqual(['simple:theirs', 'simple:mine-1']);
  });

  it('an answer that gives the type alone: named by the value its create sent', async () => {
    const { runner } = await load(files(' headers: { x-quiet: "1" },'));
    await runner.runMany(['tag.create']);
    expect(tags).toHaveLength(2);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(report.deleted.map((d) => [d.resource, d.id, d.via, d.status])).toEqual([
      ['tag', 'Mine-1', 'tag.delete', 200],
      ['item', 'i1', 'item.delete', 200],
    ]);
    expect(tags).toEqual([THEIRS]);
  });

  it('what none of its removals can name is left, each removal with what it lacks, and what it has', async () => {
    const f = files();
    f['resources/tag.yaml'] = [
      'name: tag',
      'operations:',
      // a link the server keeps by another field than any removal reads
      '  link: { method: POST, path: "/items/{{item.id}}/tags", body: { type: simple, value: link-1 }, expect_status: 201, extract: { kind: $.data.type } }',
      '  delete: { method: DELETE, path: "/items/{{item.id}}/tags/{{tag.type}}/{{tag.value}}", expect_status: 200 }',
      '  delete_by_id: { method: DELETE, path: "/tag-ids/{{tag.id}}", expect_status: 200 }',
      '',
    ].join('\n');
    const { runner } = await load(f);
    await runner.runMany(['tag.link']);
    const report = await runner.cleanUp();
    expect(report.left.map((l) => l.why)).toEqual([
      'the instance has no value for /items/{{item.id}}/tags/{{tag.type}}/{{tag.value}}, no id for /tag-ids/{{tag.id}} (it has kind)',
    ]);
  });
});

describe('a removal reads a variable nobody gave, named as a field the create sent or answered', () => {
  const SET = '<SET_VIA_--var>';
  function imported(env: Record<string, string> = {}): Record<string, string> {
    const f = files();
    f['environments/test.yaml'] = envFile({ baseUrl: srv.url, value: SET, ...env });
    f['resources/tag.yaml'] = [
      'name: tag',
      'operations:',
      '  create: { method: POST, path: "/items/{{item.id}}/tags", body: { type: simple, value: Mine-1 }, expect_status: 201, extract: { type: $.data.type } }',
      // as imported: the value is supplied on each run
      '  delete: { method: DELETE, path: "/items/{{item.id}}/tags/{{tag.type}}/{{env.value}}", expect_status: 200 }',
      '  delete_shared: { method: DELETE, path: "/tags/{{tag.type}}/{{env.value}}", expect_status: 200 }',
      '',
    ].join('\n');
    return f;
  }

  it('the removal under where it was made takes the value its create answered: the run’s tag is removed, not the shared one', async () => {
    const { runner } = await load(imported());
    await runner.runMany(['tag.create']);
    expect(tags).toHaveLength(2);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(report.deleted.map((d) => [d.resource, d.via, d.status])).toEqual([
      ['tag', 'tag.delete', 200],
      ['item', 'item.delete', 200],
    ]);
    expect(srv.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/items/i1/tags/simple/mine-1', '/items/i1']);
    expect(tags).toEqual([THEIRS]);
    expect([...shared]).toEqual(['simple:theirs', 'simple:mine-1']);
  });

  it('a variable the user gave names their choice: never replaced, the tag is left with why', async () => {
    const { runner } = await load(imported({ value: 'theirs' }));
    await runner.runMany(['tag.create']);
    const report = await runner.cleanUp();
    expect(report.left.map((l) => [l.resource, l.why])).toEqual([['tag', 'it has no id for tag.delete, tag.delete_shared (they read {{env.value}})']]);
    expect(srv.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/items/i1']);
  });
});

describe('no removal is under where the create made it', () => {
  it('the resource has its instance there, but no DELETE: said so, not that it lacks the other DELETE’s field', async () => {
    const f = files();
    f['resources/token.yaml'] = [
      'name: token',
      'operations:',
      '  create: { method: POST, path: /user-tokens, expect_status: 201, extract: { id: $.data.id } }',
      '  delete: { method: DELETE, path: "/user-tokens/{{token.id}}", expect_status: 200 }',
      '  create_link: { method: POST, path: /links, expect_status: 201, extract: { secret: $.data.secret } }',
      '  get: { method: GET, path: "/links/{{token.secret}}", expect_status: 200 }',
      '',
    ].join('\n');
    const { runner } = await load(f);
    await runner.runMany(['token.create_link']);
    const report = await runner.cleanUp();
    expect(report.left.map((l) => [l.resource, l.why])).toEqual([
      ['token', 'no DELETE addresses it where it was made (/links): it has secret; /user-tokens/{{token.id}} reads id'],
    ]);
    expect(srv.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });
});

/**
 * An item and a POST that sends one's id and answers it back; `atCollection`: `/uses` is the
 * collection of `GET /uses/{{item.itemId}}`, where a POST that answers 201 is a create.
 */
const itemWithUse = (use: string, atCollection = false) => [
  'name: item',
  'operations:',
  '  create: { method: POST, path: /items, expect_status: 201, extract: { id: $.data.id } }',
  '  list: { method: GET, path: /items, expect_status: 200, extract: { id: "$.data[*].id" } }',
  `  use: { method: POST, path: /uses, body: { itemId: "{{item.id}}" }, expect_status: 201, extract: { itemId: $.data.itemId }${use} }`,
  ...(atCollection ? ['  get_use: { method: GET, path: "/uses/{{item.itemId}}", expect_status: 200 }'] : []),
  '  delete: { method: DELETE, path: "/items/{{item.id}}", expect_status: 200 }',
  '',
];

describe('a POST away from its collection sent the field of one of the run’s own instances, and answered it back', () => {
  const item = (use: string) => itemWithUse(use);

  it('acts on that instance and makes none: the clean-up removes the one item, once', async () => {
    const f = files();
    f['resources/item.yaml'] = item(', depends_on: [item.create]').join('\n');
    const { runner } = await load(f);
    await runner.runMany(['item.use']);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(report.deleted.map((d) => [d.resource, d.index, d.id, d.via, d.status])).toEqual([['item', 1, 'i1', 'item.delete', 200]]);
  });

  it('on an id a list gave (acts_on: existing), nothing of it is the run’s: no DELETE names it, and nothing is said left', async () => {
    const f = files();
    f['resources/item.yaml'] = item(', depends_on: [item.list], acts_on: existing').join('\n');
    const { runner } = await load(f);
    await runner.runMany(['item.use']);
    expect(srv.requests.find((r) => r.method === 'POST' && r.path === '/uses')?.json()).toEqual({ itemId: 'theirs-9' });
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    // the run's own item (its create ran first) only
    expect(srv.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/items/i1']);
  });

  it('without acts_on, a listed item is not written to (E_NOT_OWNED)', async () => {
    const f = files();
    f['resources/item.yaml'] = item(', depends_on: [item.list]').join('\n');
    const { runner } = await load(f);
    const summary = await runner.runMany(['item.use']);
    expect(outcomes(summary).find(([id]) => id === 'item.use')).toEqual(['item.use', 'skipped', 'E_NOT_OWNED']);
    expect(srv.requests.some((r) => r.path === '/uses')).toBe(false);
  });
});

describe('a create at its own collection sent the field of one of the run’s own instances, and answered it back', () => {
  const item = (use: string) => itemWithUse(use, true);

  it('is that instance: its removal reads the id it was sent', async () => {
    const f = files();
    f['resources/item.yaml'] = item(', depends_on: [item.create]').join('\n');
    const { runner } = await load(f);
    await runner.runMany(['item.use']);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(report.deleted.map((d) => [d.resource, d.index, d.id, d.via, d.status])).toEqual([
      ['item', 2, 'i1', 'item.delete', 200],
      ['item', 1, 'i1', 'item.delete', 200],
    ]);
  });

  it('an id a list gave is not the run’s: what it answered is left, and no DELETE names it', async () => {
    const f = files();
    f['resources/item.yaml'] = item(', depends_on: [item.list], acts_on: existing').join('\n');
    const { runner } = await load(f);
    await runner.runMany(['item.use']);
    const report = await runner.cleanUp();
    expect(report.left.map((l) => [l.id, l.why])).toEqual([
      ['theirs-9', 'no DELETE addresses it where it was made (/uses): it has itemId; /items/{{item.id}} reads id'],
    ]);
    // the run's own item (its create ran first) only
    expect(srv.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/items/i1']);
  });
});
