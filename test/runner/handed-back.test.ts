// A create that hands back what was there: `POST /members {"email": …}` answers the user it
// found, made long before the run. That user is an instance in the run's state but not the
// run's own: a write on it is not sent (E_NOT_OWNED) and the clean-up leaves it. A user the
// request made (its creation time now) is the run's, and the clean-up removes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let server: TestServer;
/** the creation time the next POST /members answers */
let created = '';
beforeAll(async () => {
  server = await startServer({
    'POST /members': (_req, res) => json(res, 200, { id: 7, email: 'someone@example.com', createdAt: created }),
    'GET /users/7': (_req, res) => json(res, 200, { id: 7, createdAt: created }),
    'DELETE /users/7': (_req, res) => json(res, 200, {}),
    // a mock answers its examples: a create at its own collection made one, whatever date it says
    'POST /notes': (_req, res) => json(res, 201, { id: 3, createdAt: '2016-02-18T03:22:56.637Z' }),
    'DELETE /notes/3': (_req, res) => json(res, 200, {}),
  });
});
afterAll(async () => {
  await server.close();
  await cleanProjects();
});

const PROJECT = {
  'flow.yaml': 'version: 1\nname: members\nimports: [environments/*.yaml, resources/*.yaml]\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'resources/users.yaml': [
    'name: user',
    'operations:',
    '  add: { method: POST, path: /members, body: { email: someone@example.com }, extract: { id: $.data.id } }',
    '  get: { path: "/users/{{user.id}}" }',
    '  delete: { method: DELETE, path: "/users/{{user.id}}" }',
    '',
  ].join('\n'),
  'resources/notes.yaml': [
    'name: note',
    'operations:',
    '  create: { method: POST, path: /notes, body: { text: hi }, extract: { id: $.data.id } }',
    '  delete: { method: DELETE, path: "/notes/{{note.id}}" }',
    '',
  ].join('\n'),
};

async function run(args: string[]) {
  const dir = await writeProject(PROJECT);
  const rec = recordedIO({ cwd: dir, env: {} });
  const before = server.requests.length;
  const code = await main(['run', ...args, '--var', `baseUrl=${server.url}`], rec.io);
  return { code, out: rec.out() + rec.err(), sent: server.requests.slice(before).map((r) => `${r.method} ${r.path}`) };
}

describe('a create that answers what was made long before the run', () => {
  it("is not the run's: its DELETE is not sent, and the clean-up leaves it", async () => {
    created = '2020-03-01T10:00:00Z';
    const r = await run(['user.add', 'user.get', 'user.delete']);
    expect(r.sent).toEqual(['POST /members', 'GET /users/7']);
    expect(r.out).toMatch(/user\.delete\s+skipped: DELETE would act on user\[1\] \(id 7\), which this run did not create/);
  });

  it("made now, it is the run's: its DELETE is sent", async () => {
    created = new Date().toISOString();
    const r = await run(['user.add', 'user.delete']);
    expect(r.sent).toContain('DELETE /users/7');
    expect(r.code, r.out).toBe(0);
  });

  it('a create at its own collection made what it answers, whatever date it says (a mock answers its examples)', async () => {
    const r = await run(['note.create', 'note.delete']);
    expect(r.sent).toEqual(['POST /notes', 'DELETE /notes/3']);
    expect(r.code, r.out).toBe(0);
  });

  it('a time without its zone, from hours ago, is still of now: a zone may be 14 hours off', async () => {
    created = new Date(Date.now() - 13 * 3600_000)
      .toISOString()
      .replace(/\.\d+Z$/, '')
      .replace('T', ' ');
    const r = await run(['user.add', 'user.delete']);
    expect(r.sent).toContain('DELETE /users/7');
  });
});
