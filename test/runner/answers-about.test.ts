// A POST that answers something about an instance its body names (docs/format.md#ownership):
// `POST /users/reset-password {"email": "{{user.email}}"}` answers a reset link for that user,
// and extracting the link's token does not make it a create of a user. It acts on the user its
// body names: sent for the run's own, not for a listed one (E_NOT_OWNED), and the clean-up has
// one user to remove, not a second it cannot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let server: TestServer;
const users = new Map<number, { id: number; email: string; token?: string }>();
let next = 1;
beforeAll(async () => {
  server = await startServer({
    'GET /users': (_req, res) =>
      json(
        res,
        200,
        [...users.values()].map(({ id, email }) => ({ id, email })),
      ),
    'POST /users': (req, res) => {
      const { email } = req.json() as { email: string };
      const user = { id: next++, email };
      users.set(user.id, user);
      json(res, 201, user);
    },
    'POST /users/reset-password': (req, res) => {
      const { email } = req.json() as { email: string };
      const user = [...users.values()].find((u) => u.email === email);
      if (!user) return json(res, 404, { message: 'No user found' });
      user.token = `tok${user.id}x${Date.now().toString(36)}`;
      json(res, 200, { resetUrl: `http://ui.example/reset?token=${user.token}&lang=en` });
    },
    'GET /reset/validate': (req, res) => {
      const user = [...users.values()].find((u) => u.token && u.token === req.query.get('token'));
      json(res, user ? 200 : 401, user ? { email: user.email } : { message: 'Token was not valid' });
    },
    '*': (req, res) => {
      const m = /^\/users\/(\d+)$/.exec(req.path);
      if (!m || !users.has(Number(m[1]))) return json(res, 404, {});
      if (req.method === 'DELETE') users.delete(Number(m[1]));
      json(res, 200, {});
    },
  });
});
afterAll(async () => {
  await server.close();
  await cleanProjects();
});

const RESET =
  '  reset: { method: POST, path: /users/reset-password, body: { email: "{{user.email}}" }, extract: { reset_token: { path: "[?&]token=([A-Za-z0-9]+)", source: regex } } }';
const project = (...more: string[]) => ({
  'flow.yaml': 'version: 1\nname: resets\nimports: [environments/*.yaml, resources/*.yaml]\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'resources/users.yaml': [
    'name: user',
    'operations:',
    '  create: { method: POST, path: /users, body: { email: "u-{{$.uuid}}@example.com" }, expect_status: 201, extract: { id: $.data.id, email: $.data.email } }',
    RESET,
    '  delete: { method: DELETE, path: "/users/{{user.id}}" }',
    ...more,
    '',
  ].join('\n'),
  'resources/resets.yaml': ['name: reset', 'operations:', '  validate: { path: "/reset/validate?token={{user.reset_token}}" }', ''].join('\n'),
});

async function run(files: Record<string, string>, args: string[]) {
  const dir = await writeProject(files);
  const rec = recordedIO({ cwd: dir, env: {} });
  const before = server.requests.length;
  const code = await main(['run', ...args, '--var', `baseUrl=${server.url}`], rec.io);
  return { code, out: rec.out() + rec.err(), stdout: rec.out(), sent: server.requests.slice(before).map((r) => `${r.method} ${r.path}`) };
}

describe('a POST that extracts what it answers about the instance its body names', () => {
  it('is no create: the token reaches its reader, and the clean-up removes the one user the run made', async () => {
    const r = await run(project(), ['reset.validate', '--reporter', 'json']);
    expect(r.code, r.out).toBe(0);
    expect(r.sent).toEqual(['POST /users', 'POST /users/reset-password', 'GET /reset/validate', `DELETE /users/${next - 1}`]);
    expect(r.out).toMatch(/clean-up of what this run created: 1 deleted, 0 left/);
    expect(users.size).toBe(0);
    // the token is a credential the answer issued: no output shows it, the report's bodies neither
    const report = JSON.parse(r.stdout) as { operations: Array<{ id: string; extracted: Record<string, unknown> }> };
    expect(report.operations.find((o) => o.id === 'user.reset')?.extracted).toEqual({ reset_token: '***' });
    expect(r.out).not.toMatch(/tok\d+x/);
  });

  it("acts on the user its body names: a listed user, not the run's, is not sent", async () => {
    users.set(100, { id: 100, email: 'someone@example.com' });
    const listed = project('  list: { path: /users, extract: { email: "$.data[*].email" } }');
    // no create: the e-mail comes from the list
    listed['resources/users.yaml'] = listed['resources/users.yaml'].replace(/^ {2}create: .*\n/m, '');
    const r = await run(listed, ['user.reset']);
    expect(r.sent).toEqual(['GET /users']);
    expect(r.out).toMatch(/user\.reset\s+skipped: POST would act on user\[1\] \(email someone@example\.com\), which this run did not create/);
    expect(users.get(100)?.token).toBeUndefined();
    users.clear();
  });
});
