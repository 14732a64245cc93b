// `flow explore --out` writes a project to replay the findings in: the hook files its
// operations name come along, or every replay of an operation with a hook fails with E_HOOK.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { writeReplays } from '../../src/explore/index.js';
import { loadProject } from '../../src/project/index.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let server: TestServer;
beforeAll(async () => {
  // answers only a request the hook stamped
  server = await startServer({ 'GET /things': (req, res) => json(res, req.headers['x-stamp'] === 'thing.list' ? 200 : 400, []) });
});
afterAll(async () => {
  await server.close();
  await cleanProjects();
});

test('the hook files the operations name are copied, and the copy runs them', async () => {
  const dir = await writeProject({
    'flow.yaml': 'version: 1\nname: hooked\nimports: [resources/*.yaml]\n',
    'resources/things.yaml': 'name: thing\noperations:\n  list: { path: /things, pre_request: ./hooks/stamp.js, post_response: ../outside.js }\n',
    'hooks/stamp.js': "export default function (ctx) {\n  ctx.request.headers['x-stamp'] = ctx.operation;\n}\n",
  });
  const out = path.join(dir, 'found');
  await writeReplays(await loadProject(dir), [], out, () => undefined);
  expect(existsSync(path.join(out, 'hooks/stamp.js'))).toBe(true);
  // a hook outside the project is not copied (nor is the project left)
  expect(existsSync(path.join(dir, 'outside.js'))).toBe(false);
  const io = capturingIO({ cwd: out });
  await main(['run', '--all', '--no-cache', '--var', `baseUrl=${server.url}`], io);
  expect(io.out + io.err).not.toContain('E_HOOK: pre_request');
  expect(server.requests.filter((r) => r.path === '/things').map((r) => r.headers['x-stamp'])).toEqual(['thing.list']);
});
