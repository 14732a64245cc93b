// A value the run's own answer hands out in a link: an admin's reset of a user answers
// `{"resetPasswordUrl": "http://…/reset-password?token=…"}`, as a feature-flag server does, and
// the operations that take that token are red: the password change sends `{{secret.RESET_TOKEN}}`,
// which nobody has (E_SECRET_MISSING), and the token check sends no token (401 "Token was not
// valid"). Calibrate extracts the link's `token` from the reset's answer and sends it in their
// place, once a try proves it. The reset stays a write on the run's own user (its body names it),
// not a create: the run is green and leaves nothing. A 401 on a path that shares no word with the
// link gets nothing, nor does a parameter of the link that is no credential (`state`).
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { jsonBody, send, serveCrud, ANSWERED, type CrudServer } from '../helpers/crud-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

const users = new Map<number, { id: number; email: string }>();
/** reset token -> user id; a token is used up by the password change */
const tokens = new Map<string, number>();
let next = 1;
let api: CrudServer;
const INVALID = { name: 'InvalidTokenError', message: 'Token was not valid', details: [{ message: 'Token was not valid' }] };

beforeAll(async () => {
  api = await serveCrud((req, res, text) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = jsonBody(req, res, text);
    if (body === ANSWERED) return;
    const b = (body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && url.pathname === '/users') {
      const user = { id: next++, email: String(b.email) };
      users.set(user.id, user);
      return send(res, 201, user);
    }
    const one = /^\/users\/(\d+)$/.exec(url.pathname);
    if (one && req.method === 'DELETE') return send(res, users.delete(Number(one[1])) ? 200 : 404);
    if (req.method === 'POST' && url.pathname === '/users/reset-password') {
      const user = [...users.values()].find((u) => u.email === b.id);
      if (!user) return send(res, 404, { message: 'No user found' });
      // a bcrypt hash, as a feature-flag server hands it out: `$`, `/` and `.` in the link as they are
      const token = `$2b$10$${randomUUID().replace(/-/g, '')}/x.${next}`;
      tokens.set(token, user.id);
      return send(res, 200, { resetPasswordUrl: `http://ui.example/reset-password?token=${token}&state=ui-state-${next}` });
    }
    if (req.method === 'GET' && url.pathname === '/auth/reset/validate') {
      const id = tokens.get(url.searchParams.get('token') ?? '');
      return id === undefined ? send(res, 401, INVALID) : send(res, 200, { email: users.get(id)?.email });
    }
    if (req.method === 'POST' && url.pathname === '/auth/reset/password') {
      if (typeof b.password !== 'string' || !tokens.delete(String(b.token))) return send(res, 401, INVALID);
      return send(res, 200);
    }
    // a status page that wants the link's `state`: a parameter, no credential
    if (req.method === 'GET' && url.pathname === '/auth/reset/status')
      return url.searchParams.has('state') ? send(res, 200, {}) : send(res, 400, { message: 'state is required' });
    // a session check that wants a token of another kind: no link of the run's carries it
    if (req.method === 'GET' && url.pathname === '/auth/session/check') return send(res, 401, INVALID);
    send(res, 404, { message: 'no route' });
  });
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

const PROJECT = {
  'flow.yaml': 'version: 1\nname: resets\nimports: [environments/*.yaml, resources/*.yaml]\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'resources/users.yaml': [
    'name: user',
    'operations:',
    '  create: { method: POST, path: /users, body: { email: "u-{{$.uuid}}@example.com" }, expect_status: 201, extract: { id: $.data.id, email: $.data.email } }',
    '  reset_password: { method: POST, path: /users/reset-password, body: { id: "{{user.email}}" }, expect_status: 200 }',
    '  delete: { method: DELETE, path: "/users/{{user.id}}", expect_status: 200 }',
    '',
  ].join('\n'),
  'resources/resets.yaml': [
    'name: reset',
    'operations:',
    '  validate: { path: /auth/reset/validate, expect_status: 200 }',
    '  password: { method: POST, path: /auth/reset/password, body: { token: "{{secret.RESET_TOKEN}}", password: "{{secret.RESET_PASSWORD}}" }, expect_status: 200 }',
    '  session_check: { path: /auth/session/check, expect_status: 200 }',
    '  status: { path: /auth/reset/status, expect_status: 200 }',
    '',
  ].join('\n'),
};

async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd, env: { FLOW_SECRET_RESET_PASSWORD: 'n3w-Passw0rd!' } });
  const code = await main([...args, '--var', `baseUrl=${api.url}`], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

describe('flow calibrate: a token the run’s own answer carries in a link', () => {
  it('is extracted from that answer and sent where it is wanted by name; the run is green and leaves nobody', async () => {
    const dir = await writeProject(PROJECT);
    const r = await flow(dir, ['calibrate', '--writes', '--destructive', '--apply']);
    expect(r.stdout).toMatch(
      /`token` is \{\{secret\.RESET_TOKEN\}\}, E_SECRET_MISSING; user\.reset_password's answer holds a link with `\?token=` in `resetPasswordUrl`; then 200 with it/,
    );
    expect(r.stdout).toMatch(
      /answered 401, naming `token`; user\.reset_password's answer holds a link with `\?token=` in `resetPasswordUrl`; then 200 with it/,
    );
    // the session check's path shares no word with the link's: nothing is proposed for it
    expect(r.stdout).not.toMatch(/### reset\.session_check/);
    // the link's `state` is no credential: not taken, though the status page's 400 names it
    expect(r.stdout).not.toMatch(/### \d+\. reset\.status/);
    expect(r.stdout).not.toContain('reset_state');
    const written = {
      users: await readFile(path.join(dir, 'resources/users.yaml'), 'utf8'),
      resets: await readFile(path.join(dir, 'resources/resets.yaml'), 'utf8'),
    };
    expect(written.users).toContain('reset_token:');
    expect(written.users).toContain('source: regex');
    expect(written.resets).toContain('token: "{{user.reset_token}}"');
    expect(written.resets).toContain('query_params: { token: "{{user.reset_token}}" }');
    // no token is written anywhere, and calibrate's users are gone
    expect(JSON.stringify(written)).not.toContain('$2b$10$');
    expect(users.size).toBe(0);

    // the reset acts on the run's user and makes none: the clean-up has the one user to remove
    const run = await flow(dir, ['run', 'reset.validate', 'reset.password']);
    expect(run.stdout, run.stdout + run.stderr).toMatch(/^4 passed, 0 failed \(/m);
    expect(run.stdout + run.stderr).toMatch(/clean-up of what this run created: 1 deleted, 0 left/);
    expect(run.stdout + run.stderr).not.toContain('$2b$10$');
    expect(users.size).toBe(0);
    // settled: a second calibrate proposes nothing
    const again = await flow(dir, ['calibrate', '--writes', '--destructive']);
    expect(again.stdout).toContain('None: no answer contradicts an expectation.');

    // the extraction there already (an earlier calibrate proved it for the token check): the
    // password change that still sends the secret gets the reference alone
    const resets = path.join(dir, 'resources/resets.yaml');
    await writeFile(resets, written.resets.replace('body: { token: "{{user.reset_token}}"', 'body: { token: "{{secret.RESET_TOKEN}}"'));
    const later = await flow(dir, ['calibrate', '--writes', '--destructive', '--apply']);
    expect(later.stdout).toMatch(/### 1\. reset\.password: body token\n/);
    expect(later.stdout).not.toContain('extract reset_token');
    expect(await readFile(resets, 'utf8')).toContain('token: "{{user.reset_token}}", password');
    expect(await readFile(path.join(dir, 'resources/users.yaml'), 'utf8')).toContain(written.users.match(/reset_token: \{[^}]*\}/)![0]);
  });
});
