// The clean-up removes what the run made even where its state holds no readable instance of
// it (docs/format.md#ownership): a create that answered another 2xx than expected, a clone
// (a POST that answered 201 with the name it was sent), a probe's create; and it follows a
// DELETE that only archives with the DELETE that removes what is archived. A server like a
// feature-flag service: DELETE /flags/{name} archives, DELETE /archive/{name} removes an
// archived flag (and does nothing to one that is not). Checked on the server's side.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, outcomes, ROOT } from './helpers.js';

let srv: TestServer;
let flags: Map<string, { name: string; archived: boolean; tags?: string[] }>;
const THEIRS = { name: 'theirs-1', archived: false };

beforeEach(async () => {
  await srv?.close();
  flags = new Map([[THEIRS.name, { ...THEIRS }]]);
  srv = await startServer({
    'GET /flags': (_req, res) => json(res, 200, { flags: [...flags.values()].filter((f) => !f.archived) }),
    'POST /flags': (req, res) => {
      const sent = req.json() as { name?: string };
      // without a name the server makes one up, and says nothing
      const name = sent.name ?? `anon-${flags.size}`;
      if (flags.has(name)) return json(res, 409, { error: 'name taken' });
      flags.set(name, { name, archived: false });
      // some servers answer a create with nothing in it
      if (!sent.name || name.startsWith('quiet-')) return void res.writeHead(201).end();
      json(res, 201, { name, archived: false });
    },
    '*': (req, res) => {
      const archive = /^\/archive\/([^/]+)$/.exec(req.path);
      if (archive && req.method === 'DELETE') {
        const f = flags.get(decodeURIComponent(archive[1]));
        if (f?.name.startsWith('stuck-')) return json(res, 500, { error: 'stuck' });
        if (f?.archived) flags.delete(f.name);
        return void res.writeHead(200).end();
      }
      const m = /^\/(?:flags|keyed)\/([^/]+)(\/[a-z]+)?$/.exec(req.path);
      const flag = m && flags.get(decodeURIComponent(m[1]));
      if (!m || !flag) return json(res, 404, { error: 'no such flag' });
      const sent = (req.method === 'POST' ? req.json() : {}) as { name?: string };
      if (m[2] === '/clone' && req.method === 'POST') {
        if (!sent.name || flags.has(sent.name)) return json(res, 409, { error: 'name taken' });
        flags.set(sent.name, { name: sent.name, archived: false });
        return json(res, 201, { name: sent.name, archived: false });
      }
      // a comment on a flag: 201, and its answer names the flag it is on, not the name it was sent
      if (m[2] === '/comments' && req.method === 'POST') return json(res, 201, { id: 7, name: flag.name });
      if (m[2] === '/tags' && req.method === 'DELETE') {
        flag.tags = [];
        return void res.writeHead(204).end();
      }
      // only the flag's maker may delete it
      if (!m[2] && req.method === 'DELETE' && req.headers['x-key'] !== undefined && req.headers['x-key'] !== 'maker-key') return json(res, 403, {});
      if (!m[2] && req.method === 'DELETE') {
        flag.archived = true;
        return void res.writeHead(202).end();
      }
      json(res, 200, flag);
    },
  });
});

afterAll(async () => {
  await closeRunners();
  await srv?.close();
});

const CREATE = 'create: { method: POST, path: /flags, body: { name: "mine-{{$.uuid}}" }, expect_status: 201, extract: { name: $.data.name } }';
const DELETE = 'delete: { method: DELETE, path: "/flags/{{flag.name}}", expect_status: 202 }';
const ARCHIVE = ['name: archive', 'operations:', '  delete: { method: DELETE, path: "/archive/{{flag.name}}", expect_status: 200 }', ''].join('\n');

function files(flagOps: string[], more: Record<string, string> = {}): Record<string, string> {
  return {
    'flow.yaml': ROOT,
    'environments/test.yaml': envFile({ baseUrl: srv.url }),
    'resources/flag.yaml': ['name: flag', 'operations:', ...flagOps.map((l) => `  ${l}`), ''].join('\n'),
    ...more,
  };
}

/** Every flag on the server, archived or not: only someone else's is to be left. */
const onlyTheirs = () => expect([...flags.values()]).toEqual([THEIRS]);

describe('what the state does not record is cleaned up too', () => {
  it('a create that answered 201 where 200 was expected: it failed, and what it made is deleted', async () => {
    const { runner } = await load(files([CREATE.replace('expect_status: 201', 'expect_status: 200'), DELETE], { 'resources/archive.yaml': ARCHIVE }));
    const summary = await runner.runMany(['flag.create']);
    expect(outcomes(summary)).toEqual([['flag.create', 'failed', 'E_STATUS_MISMATCH']]);
    expect(flags.size).toBe(2);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([
      {
        resource: 'flag',
        id: expect.stringMatching(/^mine-/) as string,
        createdBy: 'flag.create',
        via: 'flag.delete',
        status: 202,
        then: [{ via: 'archive.delete', status: 200 }],
      },
    ]);
    expect(report.left).toEqual([]);
    onlyTheirs();
  });

  it('a clone (a POST on a flag that answered 201 with the name it was sent) is deleted, and its original', async () => {
    const { runner } = await load(
      files([CREATE, DELETE, 'clone: { method: POST, path: "/flags/{{flag.name}}/clone", body: { name: "copy-{{$.uuid}}" }, expect_status: 201 }'], {
        'resources/archive.yaml': ARCHIVE,
      }),
    );
    const summary = await runner.runMany(['flag.clone']);
    expect(outcomes(summary)).toEqual([['flag.clone', 'passed', undefined]]);
    expect([...flags.keys()].map((n) => n.replace(/-[0-9a-f-]{36}$/, ''))).toEqual(['theirs-1', 'mine', 'copy']);
    const report = await runner.cleanUp();
    // newest first: the copy, then the flag it was cloned from
    expect(report.deleted.map((d) => [d.id?.replace(/-[0-9a-f-]{36}$/, ''), d.createdBy, d.index])).toEqual([
      ['copy', 'flag.clone', undefined],
      ['mine', 'flag.create', 1],
    ]);
    expect(report.left).toEqual([]);
    onlyTheirs();
    // the clone did not take the original's place: what ran after it still read the original
    expect(runner.values('flag')?.name).toMatch(/^mine-/);
  });

  it('a POST whose 201 names another flag than the name it sent (a comment) makes nothing of the run’s: theirs stays', async () => {
    const { runner } = await load(
      files(['comment: { method: POST, path: /flags/theirs-1/comments, body: { name: mine, text: hi }, expect_status: 201 }', DELETE]),
    );
    expect(outcomes(await runner.runMany(['flag.comment']))).toEqual([['flag.comment', 'passed', undefined]]);
    expect(await runner.cleanUp()).toMatchObject({ deleted: [], left: [] });
    expect(srv.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    onlyTheirs();
  });

  it('a probe’s create, not recorded, is deleted', async () => {
    const { runner } = await load(files([CREATE, DELETE], { 'resources/archive.yaml': ARCHIVE }));
    const { response } = await runner.probe('flag.create');
    expect(response?.status).toBe(201);
    expect(runner.values('flag')).toBeUndefined();
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => [d.createdBy, d.via, d.then])).toEqual([['flag.create', 'flag.delete', [{ via: 'archive.delete', status: 200 }]]]);
    onlyTheirs();
  });

  it('a create whose answer echoes nothing is named by the name it sent', async () => {
    const { runner } = await load(
      files([CREATE.replace('mine-', 'quiet-').replace('expect_status: 201', 'expect_status: 200'), DELETE], { 'resources/archive.yaml': ARCHIVE }),
    );
    await runner.runMany(['flag.create']);
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => d.id)).toEqual([expect.stringMatching(/^quiet-/)]);
    onlyTheirs();
  });

  it('what nothing names is left, and the report says why', async () => {
    const { runner } = await load(files([CREATE, DELETE]));
    // the server names it itself and answers nothing: neither the answer nor the request names it
    await runner.probe('flag.create', { body: { description: 'x' } });
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([]);
    expect(report.left).toEqual([
      { resource: 'flag', createdBy: 'flag.create', via: 'flag.delete', why: 'the instance has no name for /flags/{{flag.name}} (nothing named it)' },
    ]);
  });
});

describe('removals', () => {
  it('a run that deleted (archived) its flag: the clean-up removes what is archived', async () => {
    const { runner } = await load(
      files([CREATE, 'delete: { method: DELETE, path: "/flags/{{flag.name}}", expect_status: 202, depends_on: [flag.create] }'], {
        'resources/archive.yaml': ARCHIVE,
      }),
    );
    expect(outcomes(await runner.runMany(['flag.delete']))).toEqual([['flag.delete', 'passed', undefined]]);
    expect([...flags.values()].map((f) => f.archived)).toEqual([false, true]);
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => [d.via, d.status, d.then])).toEqual([['archive.delete', 200, undefined]]);
    onlyTheirs();
    // once removed, nothing more to do
    expect((await runner.cleanUp()).deleted).toEqual([]);
  });

  it('a DELETE under the flag (its tags) is not the flag’s removal: the clean-up still removes the flag', async () => {
    const { runner } = await load(
      files([CREATE, DELETE, 'untag: { method: DELETE, path: "/flags/{{flag.name}}/tags", depends_on: [flag.create], expect_status: 204 }'], {
        'resources/archive.yaml': ARCHIVE,
      }),
    );
    expect(outcomes(await runner.runMany(['flag.untag']))).toEqual([['flag.untag', 'passed', undefined]]);
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => [d.via, d.then])).toEqual([['flag.delete', [{ via: 'archive.delete', status: 200 }]]]);
    onlyTheirs();
  });

  it('another resource’s DELETE that also names something else (a group’s member) is not a removal of the flag', async () => {
    const { runner } = await load(
      files([CREATE, DELETE], {
        'resources/archive.yaml': ARCHIVE,
        'resources/group.yaml': [
          'name: group',
          'operations:',
          '  list: { path: /flags, extract: { id: "$.data.flags[*].name" } }',
          '  remove_member: { method: DELETE, path: "/groups/{{group.id}}/members/{{flag.name}}", depends_on: [group.list], acts_on: existing }',
          '',
        ].join('\n'),
      }),
    );
    await runner.runMany(['flag.create']);
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => [d.via, d.then?.map((t) => t.via)])).toEqual([['flag.delete', ['archive.delete']]]);
    expect(srv.requests.filter((r) => r.path.startsWith('/groups'))).toEqual([]);
    onlyTheirs();
  });

  it('two removals that read different fields: each instance goes by the one it has a value for', async () => {
    const { runner } = await load(
      files([
        CREATE,
        'create_keyed: { method: POST, path: /flags, body: { name: "keyed-{{$.uuid}}" }, expect_status: 201, extract: { key: $.data.name } }',
        'delete_keyed: { method: DELETE, path: "/keyed/{{flag.key}}", expect_status: 202 }',
        DELETE,
      ]),
    );
    await runner.runMany(['flag.create', 'flag.create_keyed']);
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => [d.id?.slice(0, 5), d.via, d.then])).toEqual([
      ['keyed', 'flag.delete_keyed', undefined],
      ['mine-', 'flag.delete', undefined],
    ]);
    expect(report.left).toEqual([]);
    expect([...flags.values()].map((f) => f.archived)).toEqual([false, true, true]);
  });

  it('a run’s DELETE that answered 202 where 200 was expected removed the flag all the same: the clean-up does not send it again', async () => {
    const { runner } = await load(
      files([CREATE, 'delete: { method: DELETE, path: "/flags/{{flag.name}}", expect_status: 200, depends_on: [flag.create] }'], {
        'resources/archive.yaml': ARCHIVE,
      }),
    );
    expect(outcomes(await runner.runMany(['flag.delete']))).toEqual([['flag.delete', 'failed', 'E_STATUS_MISMATCH']]);
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => [d.via, d.then])).toEqual([['archive.delete', undefined]]);
    expect(srv.requests.filter((r) => r.method === 'DELETE' && r.path.startsWith('/flags/'))).toHaveLength(1);
    onlyTheirs();
  });

  it('a removal refused (401, 403) is sent again as the actor that made the instance', async () => {
    const { runner } = await load(
      files([CREATE.replace('create: {', 'create: { actor: maker,'), DELETE.replace('delete: {', 'delete: { actor: other,')], {
        'resources/archive.yaml': ARCHIVE.replace('delete: {', 'delete: { actor: maker,'),
        'actors/maker.yaml': 'name: maker\nauth: { strategy: api_key, key: "{{secret.MAKER}}", location: header, name: x-key }\n',
        'actors/other.yaml': 'name: other\nauth: { strategy: api_key, key: "{{secret.OTHER}}", location: header, name: x-key }\n',
      }),
      { secrets: { MAKER: 'maker-key', OTHER: 'other-key' } },
    );
    await runner.runMany(['flag.create']);
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => [d.via, d.actor, d.status, d.then])).toEqual([['flag.delete', 'maker', 202, [{ via: 'archive.delete', status: 200 }]]]);
    expect(srv.requests.filter((r) => r.method === 'DELETE').map((r) => `${r.path.split('/')[1]} ${String(r.headers['x-key'])}`)).toEqual([
      'flags other-key',
      'flags maker-key',
      'archive maker-key',
    ]);
    onlyTheirs();
  });

  it('a removal that fails is reported with its answer and what was sent before it', async () => {
    const { runner } = await load(files([CREATE.replace('mine-', 'stuck-'), DELETE], { 'resources/archive.yaml': ARCHIVE }));
    await runner.runMany(['flag.create']);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([]);
    expect(report.left).toEqual([
      {
        resource: 'flag',
        index: 1,
        id: expect.stringMatching(/^stuck-/) as string,
        createdBy: 'flag.create',
        via: 'archive.delete',
        status: 500,
        why: 'archive.delete answered 500 (after flag.delete 202)',
      },
    ]);
  });
});
