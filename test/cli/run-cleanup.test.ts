// `flow run` that fails midway leaves nothing behind, and says so: the create answers 201 where
// the project expects 200 (the run fails, the flag exists all the same); its clean-up archives
// the flag, then removes the archived flag, and prints both steps; a clone the run did not
// record is named by the name it was sent. Checked on the server's side.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let srv: TestServer;
/** name -> archived */
const flags = new Map<string, boolean>([['theirs', false]]);

beforeAll(async () => {
  srv = await startServer({
    'POST /flags': (req, res) => {
      const { name } = req.json() as { name: string };
      flags.set(name, false);
      json(res, 201, { name });
    },
    '*': (req, res) => {
      const archive = /^\/archive\/([^/]+)$/.exec(req.path);
      if (archive && req.method === 'DELETE') {
        if (flags.get(archive[1])) flags.delete(archive[1]);
        return void res.writeHead(200).end();
      }
      const clone = /^\/flags\/([^/]+)\/clone$/.exec(req.path);
      if (clone && req.method === 'POST' && flags.has(clone[1])) {
        const { name } = req.json() as { name: string };
        flags.set(name, false);
        return json(res, 201, { name });
      }
      const flag = /^\/flags\/([^/]+)$/.exec(req.path);
      if (flag && req.method === 'DELETE' && flags.has(flag[1])) {
        flags.set(flag[1], true);
        return void res.writeHead(202).end();
      }
      json(res, 404, { error: 'no route' });
    },
  });
});
afterAll(async () => {
  await srv.close();
  await cleanProjects();
});

it('a failed run: what its create and a clone made is archived, then removed; each step is printed', async () => {
  const dir = await writeProject({
    'flow.yaml': 'version: 1\nname: run-cleanup\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n',
    'environments/test.yaml': `name: test\nvariables:\n  baseUrl: ${JSON.stringify(srv.url)}\n`,
    'resources/flag.yaml': [
      'name: flag',
      'operations:',
      '  create: { method: POST, path: /flags, body: { name: mine }, expect_status: 201, extract: { name: $.data.name } }',
      '  create_strict: { method: POST, path: /flags, body: { name: strict }, expect_status: 200, extract: { name: $.data.name } }',
      '  clone: { method: POST, path: "/flags/{{flag.name}}/clone", body: { name: copy }, expect_status: 201 }',
      '  delete: { method: DELETE, path: "/flags/{{flag.name}}", expect_status: 202 }',
      '',
    ].join('\n'),
    'resources/archive.yaml': 'name: archive\noperations:\n  delete: { method: DELETE, path: "/archive/{{flag.name}}", expect_status: 200 }\n',
  });
  const rec = recordedIO({ cwd: dir, env: {} });
  const code = await main(['run', '-p', dir, 'flag.clone', 'flag.create_strict'], rec.io);
  expect(code).toBe(1);
  expect(rec.out()).toContain('flow run: clean-up of what this run created: 3 deleted, 0 left\n');
  expect(rec.out()).toContain('  deleted flag strict (flag.delete 202, archive.delete 200)\n');
  expect(rec.out()).toContain('  deleted flag copy (flag.delete 202, archive.delete 200)\n');
  expect(rec.out()).toContain('  deleted flag mine (flag.delete 202, archive.delete 200)\n');
  expect([...flags]).toEqual([['theirs', false]]);
});
