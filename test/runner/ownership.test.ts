// Own your writes (docs/format.md#ownership): on a server that holds someone else's data, a run
// changes and deletes only what it created, cleans that up afterwards (green or red), holds
// back a switch nobody named and writes a named one back. Checked on the server's side: what
// is still there, unchanged, afterwards.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, outcomes, resultOf, ROOT } from './helpers.js';

let srv: TestServer;
/** id -> item; `o*` are someone else's, there before the run */
let items: Map<string, { id: string; name: string; project?: string }>;
let projects: Map<string, { id: string }>;
let settings: { mode: string };
let next = 0;

const SOMEONE_ELSES = [
  { id: 'o1', name: 'theirs-1' },
  { id: 'o2', name: 'theirs-2' },
];

beforeEach(async () => {
  await srv?.close();
  items = new Map(SOMEONE_ELSES.map((i) => [i.id, { ...i }]));
  projects = new Map([['p0', { id: 'p0' }]]);
  settings = { mode: 'normal' };
  next = 0;
  srv = await startServer({
    'GET /items': (_req, res) => json(res, 200, { items: [...items.values()] }),
    'POST /items': (req, res) => {
      const id = `n${++next}`;
      items.set(id, { id, name: String((req.json() as { name?: string }).name) });
      json(res, 201, { id });
    },
    'POST /projects': (_req, res) => {
      const id = `p${++next}`;
      projects.set(id, { id });
      json(res, 201, { id });
    },
    'GET /settings': (_req, res) => json(res, 200, settings),
    'PUT /settings': (req, res) => {
      settings = req.json() as { mode: string };
      json(res, 200, settings);
    },
    'GET /boom': (_req, res) => json(res, 500, { error: 'boom' }),
    '*': (req, res) => {
      const sub = /^\/projects\/([^/]+)\/items$/.exec(req.path);
      if (sub && req.method === 'POST') {
        if (!projects.has(sub[1])) return json(res, 404, {});
        const id = `n${++next}`;
        items.set(id, { id, name: 'child', project: sub[1] });
        return json(res, 201, { id });
      }
      const p = /^\/projects\/([^/]+)$/.exec(req.path);
      if (p && req.method === 'DELETE') {
        // a project with items left in it cannot go: children first
        if ([...items.values()].some((i) => i.project === p[1])) return json(res, 409, { error: 'not empty' });
        return void res.writeHead(projects.delete(p[1]) ? 204 : 404).end();
      }
      const m = /^\/items\/([^/]+)$/.exec(req.path);
      const item = m && items.get(decodeURIComponent(m[1]));
      if (!item) return json(res, 404, { error: 'no such item' });
      if (req.method === 'DELETE') {
        items.delete(item.id);
        return void res.writeHead(204).end();
      }
      if (req.method === 'PATCH') Object.assign(item, req.json());
      json(res, 200, item);
    },
  });
});

afterAll(async () => {
  await closeRunners();
  await srv?.close();
});

function files(itemOps: string[], more: Record<string, string> = {}): Record<string, string> {
  return {
    'flow.yaml': ROOT,
    'environments/test.yaml': envFile({ baseUrl: srv.url, given: 'o2' }),
    'resources/item.yaml': ['name: item', 'operations:', ...itemOps.map((l) => `  ${l}`), ''].join('\n'),
    ...more,
  };
}

const CREATE = 'create: { method: POST, path: /items, body: { name: mine }, expect_status: 201, extract: { id: $.data.id } }';
const LIST = 'list: { path: /items, depends_on: [item.create], extract: { id: "$.data.items[*].id" } }';
const DELETE = 'delete: { method: DELETE, path: "/items/{{item.id}}", depends_on: [item.list], expect_status: 204 }';
const theirsIntact = () => expect(SOMEONE_ELSES.map((i) => items.get(i.id))).toEqual(SOMEONE_ELSES);

describe('a write acts only on what the run created', () => {
  it('a DELETE fed by a list is not sent: the listed instance is not the run’s; the clean-up deletes what the run made', async () => {
    const { runner } = await load(files([CREATE, LIST, DELETE]));
    const summary = await runner.runMany(['item.create', 'item.list', 'item.delete']);
    expect(outcomes(summary)).toEqual([
      ['item.create', 'passed', undefined],
      ['item.list', 'passed', undefined],
      ['item.delete', 'skipped', 'E_NOT_OWNED'],
    ]);
    expect(resultOf(summary, 'item.delete').skippedBecause).toMatch(/did not create \(it came from item\.list\).*acts_on: existing/);
    expect(srv.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    theirsIntact();
    // the item the run made is still there until the clean-up
    expect(items.has('n1')).toBe(true);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([{ resource: 'item', index: 1, id: 'n1', createdBy: 'item.create', via: 'item.delete', status: 204 }]);
    expect(report.left).toEqual([]);
    expect([...items.keys()]).toEqual(['o1', 'o2']);
    theirsIntact();
  });

  it('`acts_on: existing` declares the write on existing data: it is sent', async () => {
    const { runner } = await load(files([CREATE, LIST, DELETE.replace('expect_status: 204', 'expect_status: 204, acts_on: existing')]));
    const summary = await runner.runMany(['item.delete']);
    expect(outcomes(summary)).toEqual([['item.delete', 'passed', undefined]]);
    // the newest listed instance: what the list answered last
    expect(srv.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/items/n1']);
  });

  it('a PATCH on the run’s own instance is sent; an id the user gives counts as declared', async () => {
    const { runner } = await load(
      files([
        CREATE,
        'rename: { method: PATCH, path: "/items/{{item.id}}", body: { name: renamed } }',
        'touch: { method: PATCH, path: "/items/{{env.given}}", body: { name: given } }',
      ]),
    );
    const summary = await runner.runMany(['item.rename', 'item.touch']);
    expect(outcomes(summary)).toEqual([
      ['item.rename', 'passed', undefined],
      ['item.touch', 'passed', undefined],
    ]);
    expect(items.get('n1')?.name).toBe('renamed');
    expect(items.get('o2')?.name).toBe('given');
  });

  it('a create after a list starts its own instance: it never takes over a listed one', async () => {
    const { runner } = await load(
      files([
        'list: { path: /items, extract: { id: "$.data.items[*].id" } }',
        'create: { method: POST, path: /items, body: { name: mine }, depends_on: [item.list], expect_status: 201, extract: { id: $.data.id } }',
        'rename: { method: PATCH, path: "/items/{{item.id}}", depends_on: [item.create], body: { name: renamed } }',
      ]),
    );
    const summary = await runner.runMany(['item.rename']);
    expect(outcomes(summary)).toEqual([['item.rename', 'passed', undefined]]);
    expect(items.get('n1')?.name).toBe('renamed');
    theirsIntact();
  });

  it('a for_each over listed instances without the declaration sends nothing', async () => {
    const { runner } = await load(
      files([
        'list: { path: /items, extract: { id: "$.data.items[*].id" } }',
        'rename: { method: PATCH, path: "/items/{{item.id}}", for_each: item, depends_on: [item.list], body: { name: x } }',
      ]),
    );
    const summary = await runner.runMany(['item.rename']);
    expect(outcomes(summary)).toEqual([['item.rename', 'skipped', 'E_NOT_OWNED']]);
    expect(srv.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    theirsIntact();
  });
});

describe('clean-up', () => {
  it('after a failed run too, newest first: what was made under a parent goes before the parent', async () => {
    const { runner } = await load(
      files(
        [
          CREATE,
          'child: { method: POST, path: "/projects/{{project.id}}/items", expect_status: 201, extract: { id: $.data.id } }',
          DELETE,
          'boom: { path: /boom, depends_on: [item.child, item.create] }',
        ],
        {
          'resources/project.yaml': [
            'name: project',
            'operations:',
            '  create: { method: POST, path: /projects, expect_status: 201, extract: { id: $.data.id } }',
            '  delete: { method: DELETE, path: "/projects/{{project.id}}", expect_status: 204 }',
            '',
          ].join('\n'),
        },
      ),
    );
    const summary = await runner.runMany(['item.boom']);
    expect(outcomes(summary)).toEqual([['item.boom', 'failed', 'E_STATUS_MISMATCH']]);
    const report = await runner.cleanUp();
    // newest first: the child (n3) before its project (p2), then the item made before both
    expect(report.deleted.map((d) => `${d.resource} ${d.id}`)).toEqual(['item n3', 'project p2', 'item n1']);
    expect(report.left).toEqual([]);
    expect([...items.keys()]).toEqual(['o1', 'o2']);
    expect([...projects.keys()]).toEqual(['p0']);
    // a second clean-up has nothing left to do
    expect((await runner.cleanUp()).deleted).toEqual([]);
  });

  it('what cannot be deleted is reported with why', async () => {
    const { runner } = await load(files([CREATE]));
    await runner.run('item.create');
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([]);
    expect(report.left).toEqual([{ resource: 'item', index: 1, id: 'n1', createdBy: 'item.create', why: 'item has no DELETE operation on one instance' }]);
  });

  it('an instance another create made is deleted by the delete that reads what that create extracts', async () => {
    const { runner } = await load(
      files([
        CREATE,
        'create_keyed: { method: POST, path: /items, body: { name: keyed }, expect_status: 201, extract: { key: $.data.id } }',
        DELETE.replace(', depends_on: [item.list]', ''),
        'delete_keyed: { method: DELETE, path: "/items/{{item.key}}", expect_status: 204 }',
      ]),
    );
    await runner.run('item.create');
    await runner.run('item.create_keyed');
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => `${d.via} ${d.id}`)).toEqual(['item.delete_keyed n2', 'item.delete n1']);
    expect(report.left).toEqual([]);
    theirsIntact();
    expect([...items.keys()]).toEqual(['o1', 'o2']);
  });

  it('a fork cleans up its own instances only', async () => {
    const { runner } = await load(files([CREATE, DELETE.replace(', depends_on: [item.list]', '')]));
    await runner.run('item.create');
    const fork = runner.fork();
    await fork.run('item.create');
    expect((await fork.cleanUp()).deleted.map((d) => d.id)).toEqual(['n2']);
    expect(items.has('n1')).toBe(true);
    expect((await runner.cleanUp()).deleted.map((d) => d.id)).toEqual(['n1']);
  });
});

describe('switches', () => {
  const SETTINGS = {
    'resources/settings.yaml': [
      'name: settings',
      'operations:',
      '  get: { path: /settings }',
      '  maintenance: { method: PUT, path: /settings, body: { mode: maintenance } }',
      '',
    ].join('\n'),
  };

  it('a switch the user did not name is not sent', async () => {
    const { runner } = await load(files([CREATE], SETTINGS), { named: [] });
    const summary = await runner.runMany(['settings.maintenance']);
    expect(outcomes(summary)).toEqual([['settings.maintenance', 'skipped', 'E_SWITCH_NOT_NAMED']]);
    expect(srv.requests.filter((r) => r.method === 'PUT')).toEqual([]);
    expect(settings).toEqual({ mode: 'normal' });
  });

  it('a named switch is sent after its prior state is read, and the clean-up writes that state back', async () => {
    const { runner } = await load(files([CREATE], SETTINGS), { named: ['settings.maintenance'] });
    const summary = await runner.runMany(['settings.maintenance']);
    expect(outcomes(summary)).toEqual([['settings.maintenance', 'passed', undefined]]);
    expect(settings).toEqual({ mode: 'maintenance' });
    expect(resultOf(summary, 'settings.maintenance').exchanges.map((e) => `${e.request.method} ${e.purpose}`)).toEqual([
      'GET settings.maintenance (prior state)',
      'PUT settings.maintenance',
    ]);
    const report = await runner.cleanUp();
    expect(report.restored).toEqual([{ operation: 'settings.maintenance', restored: true, detail: 'PUT /settings answered 200' }]);
    expect(settings).toEqual({ mode: 'normal' });
  });
});

describe('a server that turns to 503', () => {
  it('the run stops and names the last write before the change; the clean-up writes the switch back', async () => {
    let maintenance = false;
    const turning = await startServer({
      'GET /maintenance': (_req, res) => json(res, 200, { enabled: maintenance }),
      'POST /maintenance': (req, res) => {
        maintenance = (req.json() as { enabled: boolean }).enabled;
        json(res, 200, { enabled: maintenance });
      },
      '*': (_req, res) => (maintenance ? json(res, 503, { error: 'maintenance' }) : json(res, 200, { ok: true })),
    });
    try {
      const reads = Array.from({ length: 14 }, (_, i) => `r${i}: { path: /things/${i}, depends_on: [admin.on] }`);
      const { runner } = await load(
        {
          'flow.yaml': ROOT,
          'environments/test.yaml': envFile({ baseUrl: turning.url }),
          'resources/admin.yaml': [
            'name: admin',
            'operations:',
            '  status: { path: /maintenance }',
            '  warm: { path: /things/warm }',
            '  on: { method: POST, path: /maintenance, body: { enabled: true }, depends_on: [admin.warm] }',
            ...reads.map((r) => `  ${r}`),
            '',
          ].join('\n'),
        },
        { named: ['admin.on'] },
      );
      const summary = await runner.runMany(reads.map((_, i) => `admin.r${i}`));
      expect(summary.results.slice(0, 8).map((r) => r.error?.code)).toEqual(Array(8).fill('E_STATUS_MISMATCH'));
      const stopped = runner.result('admin.r9');
      expect(stopped?.error?.code).toBe('E_SERVER_UNAVAILABLE');
      expect(stopped?.error?.message).toMatch(/most answers turned to 503 after POST .*\/maintenance \(admin\.on\)/);
      // past the stop, nothing more went to the server but the clean-up
      expect(turning.requests.filter((r) => r.path.startsWith('/things/')).map((r) => r.path)).toEqual([
        '/things/warm',
        ...Array.from({ length: 8 }, (_, i) => `/things/${i}`),
      ]);
      const report = await runner.cleanUp();
      expect(report.restored).toEqual([{ operation: 'admin.on', restored: true, detail: 'POST /maintenance answered 200' }]);
      expect(maintenance).toBe(false);
    } finally {
      await turning.close();
    }
  });
});
