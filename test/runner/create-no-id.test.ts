// A create that answers no id (docs/format.md#ownership): `POST /flags/{{flag.name}}/link` answers
// 204, and the link shows only in its flag's read, `links: [{id, url}]`, beside a link the server
// put there itself. A read that lists them (`$.data.links[*].id`) finds the run's own as the item
// that carries the run-unique url the create sent: the PUT and DELETE act on it, and the
// server's link is never touched. A url sent without a run-unique part proves nothing: the listed
// links stay the server's, and the writes are not sent. Checked on the server's side.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, outcomes, ROOT } from './helpers.js';

let srv: TestServer;
/** flag name -> its links */
let flags: Map<string, Array<{ id: string; url: string; title?: string }>>;
const THEIRS = { id: 'l-theirs', url: 'https://docs.example.com/flags' };

beforeEach(async () => {
  await srv?.close();
  flags = new Map();
  let n = 0;
  srv = await startServer({
    'POST /flags': (req, res) => {
      const { name } = req.json() as { name: string };
      // every new flag gets a link of the server's own (a project's link template)
      flags.set(name, [{ ...THEIRS }]);
      json(res, 201, { name });
    },
    '*': (req, res) => {
      const flag = /^\/flags\/([^/]+)(?:\/link(?:\/([^/]+))?)?$/.exec(req.path);
      const links = flag && flags.get(decodeURIComponent(flag[1]));
      if (!flag || !links) return json(res, 404, {});
      const linkId = flag[2] && decodeURIComponent(flag[2]);
      const link = linkId ? links.find((l) => l.id === linkId) : undefined;
      if (req.method === 'GET' && !req.path.includes('/link')) return json(res, 200, { name: flag[1], links });
      if (req.method === 'DELETE' && !req.path.includes('/link')) return json(res, flags.delete(decodeURIComponent(flag[1])) ? 200 : 404, {});
      if (req.method === 'POST' && !linkId) {
        links.push({ id: `l${++n}`, ...(req.json() as { url: string }) });
        return void res.writeHead(204).end();
      }
      if (!link) return json(res, 404, {});
      if (req.method === 'PUT') {
        Object.assign(link, req.json());
        return void res.writeHead(204).end();
      }
      if (req.method === 'DELETE') {
        links.splice(links.indexOf(link), 1);
        return void res.writeHead(204).end();
      }
      json(res, 405, {});
    },
  });
});

afterAll(async () => {
  await closeRunners();
  await srv?.close();
});

function files(url: string): Record<string, string> {
  const flag = [
    'name: flag',
    'operations:',
    '  create: { method: POST, path: /flags, body: { name: "f-{{$.uuid}}" }, extract: { name: $.data.name } }',
    '  delete: { method: DELETE, path: "/flags/{{flag.name}}" }',
    '',
  ];
  const link = [
    'name: link',
    'operations:',
    `  create: { method: POST, path: "/flags/{{flag.name}}/link", body: { url: "${url}", title: docs }, expect_status: 204 }`,
    '  find: { path: "/flags/{{flag.name}}", depends_on: [link.create], extract: { id: "$.data.links[*].id" } }',
    '  update: { method: PUT, path: "/flags/{{flag.name}}/link/{{link.id}}", body: { url: "https://example.com/changed" }, expect_status: 204 }',
    '  delete: { method: DELETE, path: "/flags/{{flag.name}}/link/{{link.id}}", expect_status: 204 }',
    '',
  ];
  return {
    'flow.yaml': ROOT,
    'environments/test.yaml': envFile({ baseUrl: srv.url }),
    'resources/flag.yaml': flag.join('\n'),
    'resources/link.yaml': link.join('\n'),
  };
}

const writes = () => srv.requests.filter((r) => r.method === 'PUT' || r.method === 'DELETE').map((r) => `${r.method} ${r.path.replace(/f-[0-9a-f-]+/, 'F')}`);
const RUN_UNIQUE = 'https://example.com/docs#{{$.uuid}}';

describe('a create that answers no id, found in its parent read by the run-unique value it sent', () => {
  it('its PUT and DELETE act on the run own link; the server link of the same flag is never touched', async () => {
    const { runner } = await load(files(RUN_UNIQUE));
    const summary = await runner.runMany(['flag.create', 'link.create', 'link.find', 'link.update', 'link.delete']);
    expect(outcomes(summary)).toEqual([
      ['flag.create', 'passed', undefined],
      ['link.create', 'passed', undefined],
      ['link.find', 'passed', undefined],
      ['link.update', 'passed', undefined],
      ['link.delete', 'passed', undefined],
    ]);
    expect(writes()).toEqual(['PUT /flags/F/link/l1', 'DELETE /flags/F/link/l1']);
    expect([...flags.values()]).toEqual([[THEIRS]]);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(writes()).toEqual(['PUT /flags/F/link/l1', 'DELETE /flags/F/link/l1', 'DELETE /flags/F']);
  });

  it('the clean-up removes the link it found, before its flag', async () => {
    const { runner } = await load(files(RUN_UNIQUE));
    await runner.runMany(['link.find']);
    const report = await runner.cleanUp();
    expect(report.deleted.map((d) => [d.resource, d.id, d.via])).toEqual([
      ['link', 'l1', 'link.delete'],
      ['flag', expect.stringMatching(/^f-/), 'flag.delete'],
    ]);
    expect(report.left).toEqual([]);
    expect(writes()).toEqual(['DELETE /flags/F/link/l1', 'DELETE /flags/F']);
  });

  it('not found (no read ran), it is reported left, with why; its flag is removed all the same', async () => {
    const { runner } = await load(files(RUN_UNIQUE));
    await runner.runMany(['link.create']);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([
      {
        resource: 'link',
        createdBy: 'link.create',
        via: 'link.delete',
        why: 'the instance has no id for /flags/{{flag.name}}/link/{{link.id}} (nothing named it)',
      },
    ]);
    expect(writes()).toEqual(['DELETE /flags/F']);
  });

  it('a url sent as it is proves nothing: the listed links stay the server own, and no write is sent to them', async () => {
    const { runner } = await load(files('https://example.com/docs'));
    const summary = await runner.runMany(['link.update', 'link.delete']);
    expect(outcomes(summary)).toEqual([
      ['link.update', 'skipped', 'E_NOT_OWNED'],
      ['link.delete', 'skipped', 'E_NOT_OWNED'],
    ]);
    await runner.cleanUp();
    // the flag goes, and its links with it; no link was written to
    expect(writes()).toEqual(['DELETE /flags/F']);
  });
});
