// A login whose answer is the user and no token (the session is the cookie it sets) becomes an
// actor of its own at import, used by no operation; calibrate tries an operation that fails as
// its actor (400 "User id is missing", a 403, a 500) as each other actor once, with what the
// search found it needs (a body) or goes on to find as that actor (a field), and proposes the
// one it passes as where its own actor still fails in the same try (not a 503 of the moment);
// the run is then green: the user's token made as the session is removed as the session, the
// session logs in once per command, a logout is never tried, and no credential shows in any
// output.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli/main.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { SESSION_API_KEY, SESSION_OPENAPI, SESSION_PASSWORD, SESSION_USER, startSessionApi, type SessionApi } from '../helpers/session-api.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let api: SessionApi;
let dir: string;
beforeAll(async () => {
  api = await startSessionApi();
  dir = await writeProject({ 'openapi.json': JSON.stringify(SESSION_OPENAPI) });
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

const outputs: string[] = [];
async function flow(args: string[]) {
  const rec = recordedIO({
    cwd: dir,
    env: {
      FLOW_VAR_baseUrl: api.url,
      FLOW_SECRET_API_KEY_KEY: SESSION_API_KEY,
      FLOW_VAR_auth_username: SESSION_USER,
      FLOW_SECRET_AUTH_PASSWORD: SESSION_PASSWORD,
    },
  });
  const code = await main(args, rec.io);
  outputs.push(rec.out(), rec.err());
  return { code, stdout: rec.out(), stderr: rec.err() };
}

const sessionLogins = () => api.logins.filter((l) => !l.withKey).length;
const actorOf = async (file: string, op: string) =>
  (parse(await readFile(path.join(dir, 'project', 'resources', file), 'utf8')) as { operations: Record<string, { actor?: string }> }).operations[op].actor;

it('import: the token-less login is a second actor, its session assumed to be a cookie; operations keep the described scheme', async () => {
  const imported = await flow(['import', 'openapi.json', '--out', 'project']);
  expect(imported.code, imported.stderr).toBe(0);
  const actor = parse(await readFile(path.join(dir, 'project/actors/session.yaml'), 'utf8')) as Record<string, unknown>;
  // the login operation's own user and password: one user to give
  expect(actor.auth).toEqual({
    strategy: 'simple',
    method: 'POST',
    path: '/auth/login',
    body: { username: '{{env.auth_username}}', password: '{{secret.AUTH_PASSWORD}}' },
    expect_status: 200,
  });
  expect(actor).not.toHaveProperty('inject');
  // the plan (stdout) says what is assumed
  expect(imported.stdout).toMatch(
    /Actor session: POST \/auth\/login takes a password and its answer has no token: the session is assumed to be the cookie\(s\) it sets/,
  );
  expect(await actorOf('users.yaml', 'profile')).toBe('api_key');
  expect(await actorOf('tokens.yaml', 'create')).toBe('api_key');
});

it('calibrate proposes the session where the key fails, the run is green, and the session logs in once per command', async () => {
  const calibrated = await flow(['calibrate', '-p', 'project', '--writes', '--destructive', '--apply', '--openapi', 'openapi.json']);
  expect(calibrated.stderr).not.toMatch(/E_INTERNAL/);
  expect(calibrated.stdout).toContain('answered 400 as api_key, and 200 as session; as api_key in the same try, 400');
  // refused as the key, a 400 naming a field as the session: the search goes on as the session
  expect(calibrated.stdout).toMatch(/answered 403 as api_key, and 400 as session; answered 400 naming `expiresAt`; then 201; as api_key in the same try, 403/);
  // the body a 415 asked for, then a 500 as the key: the session with that body
  expect(calibrated.stdout).toMatch(/answered 500 as api_key \(answered 415 to a POST without a body\), and 200 as session; as api_key in the same try, 500/);
  // a 503 the first time, whoever asks: the same try as its own actor passes, so no actor is proposed
  expect(calibrated.stdout).toContain('try stat.list as api_key again');
  expect(calibrated.stdout).not.toMatch(/### \d+\. stat\.list: actor/);
  expect(sessionLogins()).toBe(1);
  for (const [file, op] of [
    ['users.yaml', 'profile'],
    ['tokens.yaml', 'list'],
    ['tokens.yaml', 'create'],
    ['tokens.yaml', 'delete'],
    ['users.yaml', 'star'],
  ])
    expect(await actorOf(file, op), op).toBe('session');
  // what the key can do stays on the key
  expect(await actorOf('projects.yaml', 'list')).toBe('api_key');
  expect(await actorOf('stats.yaml', 'list')).toBe('api_key');
  // what the tries and rounds made as the session is gone
  expect([...api.tokens.keys()]).toEqual([]);

  const run = await flow(['run', '-p', 'project', '--all', '--reporter', 'json']);
  const report = JSON.parse(run.stdout) as { operations: Array<{ id: string; status: string }> };
  // a logout is never tried as another actor: it would end the session every try shares
  expect(report.operations.filter((o) => o.status !== 'passed').map((o) => o.id)).toEqual(['auth.logout']);
  expect(report.operations.length).toBe(9);
  expect(api.logouts).toBe(0);
  expect(sessionLogins()).toBe(2);
  expect([...api.tokens.keys()]).toEqual([]);
  // a second calibrate has nothing left to propose
  const again = await flow(['calibrate', '-p', 'project', '--writes', '--destructive']);
  expect(again.stdout).toContain('None: no answer contradicts an expectation.');
});

it('no credential in any output: the key, the password, the session cookies', () => {
  expect(api.sids.length).toBeGreaterThan(0);
  for (const text of outputs) {
    for (const secret of [SESSION_API_KEY, SESSION_PASSWORD, ...api.sids]) expect(text).not.toContain(secret);
  }
});
