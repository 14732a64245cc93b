// What ownership holds back in a calibration (docs/format.md#ownership) is a person's call, and
// the report says so by name: a write on an item a list gave (E_NOT_OWNED) and a switch nobody
// named (E_SWITCH_NOT_NAMED) are listed under "Held back" with why, apart from the operations
// skipped because a prerequisite failed. Neither is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    'GET /items': (_req, res) => json(res, 200, [{ id: 'theirs-1' }]),
    'GET /settings': (_req, res) => json(res, 200, { mode: 'on' }),
    'PUT /settings': (_req, res) => json(res, 200, { mode: 'on' }),
    'GET /broken': (_req, res) => json(res, 500, {}),
    '*': (_req, res) => json(res, 200, {}),
  });
});
afterAll(async () => {
  await server.close();
  await cleanProjects();
});

const PROJECT = {
  'flow.yaml': 'version: 1\nname: held\nimports: [environments/*.yaml, resources/*.yaml]\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'resources/items.yaml': [
    'name: item',
    'operations:',
    '  list: { path: /items, extract: { id: "$.data[*].id" } }',
    '  rename: { method: PUT, path: "/items/{{item.id}}", body: { name: x } }',
    '  broken: { path: /broken, extract: { id: $.data.id } }',
    '  after_broken: { path: "/items/{{item.id}}/x", depends_on: [item.broken] }',
    '',
  ].join('\n'),
  'resources/settings.yaml': [
    'name: setting',
    'operations:',
    '  get: { path: /settings }',
    '  put: { method: PUT, path: /settings, body: { mode: off } }',
    '',
  ].join('\n'),
};

describe('flow calibrate: what ownership holds back', () => {
  it('is listed under "Held back" with why, apart from what a failed prerequisite skipped, and nothing of it is sent', async () => {
    const dir = await writeProject(PROJECT);
    const rec = recordedIO({ cwd: dir, env: {} });
    const code = await main(['calibrate', '--writes', '--destructive', '--var', `baseUrl=${server.url}`], rec.io);
    const out = rec.out();
    expect(code, out + rec.err()).not.toBe(70);
    expect(out).toMatch(/, 2 held back \(below\), 1 skipped \(a prerequisite failed\);/);
    const held = out.slice(out.indexOf('## Held back'), out.indexOf('## Not run'));
    expect(held).toMatch(
      /- \*\*item\.rename\*\* \(E_NOT_OWNED\): PUT would act on item\[1\] \(id theirs-1\), which this run did not create .*acts_on: existing/,
    );
    expect(held).toMatch(/- \*\*setting\.put\*\* \(E_SWITCH_NOT_NAMED\): PUT \/settings names no instance/);
    expect(held).not.toContain('after_broken');
    expect(server.requests.filter((r) => r.method === 'PUT')).toEqual([]);
  });
});
