// simple: one login request; what it extracts becomes the actor's session.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { strategyFor } from '../../src/auth/index.js';
import type { PreparedRequest } from '../../src/http/index.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects } from '../helpers/project.js';
import { loadActor, makeAuthContext, rejection } from './context.js';

const PASSWORD = 'correct horse battery';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer({
    'POST /auth/login': (req, res) => {
      const body = req.json() as { email?: string; password?: string };
      if (body.password !== PASSWORD) return json(res, 401, { error: 'bad credentials' });
      json(res, 200, { token: 'jwt-abc-123', user: { id: 42 } }, { 'x-session': 'sess-9' });
    },
  });
});
afterAll(async () => {
  await srv.close();
  await cleanProjects();
});

const LOGIN = `name: admin
auth:
  strategy: simple
  method: POST
  path: /auth/login
  body:
    email: admin@example.test
    password: "{{secret.ADMIN_PW}}"
  expect_status: 200
`;

interface Case {
  name: string;
  yaml: string;
  secrets?: Record<string, string>;
  values?: Record<string, unknown>;
  error?: RegExp;
}

const cases: Case[] = [
  {
    name: 'extracts body and header values into the session',
    yaml: `${LOGIN}  extract:\n    token: $.data.token\n    user_id: $.data.user.id\n    session: $.headers.X-Session\n`,
    secrets: { ADMIN_PW: PASSWORD },
    values: { token: 'jwt-abc-123', user_id: 42, session: 'sess-9' },
  },
  { name: 'a login without extract gives an empty session', yaml: LOGIN, secrets: { ADMIN_PW: PASSWORD }, values: {} },
  {
    name: 'a rejected login is E_AUTH with the cause, never the password',
    yaml: `${LOGIN}  extract:\n    token: $.data.token\n`,
    secrets: { ADMIN_PW: 'wrong password!' },
    error: /^login of actor admin failed: E_STATUS_MISMATCH expected 200, got 401$/,
  },
  {
    name: 'an extraction that finds nothing fails the login',
    yaml: `${LOGIN}  extract:\n    token: $.data.access_token\n`,
    secrets: { ADMIN_PW: PASSWORD },
    error: /^login of actor admin failed: E_EXTRACT_FAILED /,
  },
  {
    name: 'an unknown strategy (read as simple) without a path says so',
    yaml: 'name: admin\nauth:\n  strategy: oauth3\n  token: x\n',
    error: /^simple auth of actor admin has no login request: `path` is missing$/,
  },
];

describe('simple', () => {
  test.each(cases)('$name', async (c) => {
    const actor = await loadActor(c.yaml);
    const t = makeAuthContext({ baseUrl: srv.url, actor, secrets: c.secrets });
    const strategy = strategyFor(actor.auth!.strategy);
    expect(strategy.kind).toBe('simple');
    if (c.error) {
      const err = await rejection(strategy.login(actor.auth!, t.ctx));
      expect(err.code).toBe('E_AUTH');
      expect(err.message).toMatch(c.error);
      for (const secret of Object.values(c.secrets ?? {})) expect(err.message).not.toContain(secret);
      if (err.details?.cause) expect(err.details.actor).toBe('admin');
      return;
    }
    const session = await strategy.login(actor.auth!, t.ctx);
    expect(session.values).toEqual(c.values);
    expect(t.purposes).toEqual(['login']);
    const sent = srv.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.json()).toEqual({ email: 'admin@example.test', password: PASSWORD });
  });

  test('apply adds nothing (inject.headers are the runner’s), and the session renders {{admin.token}}', async () => {
    const actor = await loadActor(`${LOGIN}  extract:\n    token: $.data.token\ninject:\n  headers:\n    Authorization: "Bearer {{admin.token}}"\n`);
    const t = makeAuthContext({ baseUrl: srv.url, actor, secrets: { ADMIN_PW: PASSWORD } });
    const strategy = strategyFor('simple');
    const session = await strategy.login(actor.auth!, t.ctx);
    const req: PreparedRequest = { method: 'GET', url: new URL(`${srv.url}/x`), headers: { a: '1' } };
    await strategy.apply(req, actor.auth!, session, t.ctx);
    expect(req.headers).toEqual({ a: '1' });
    expect(await t.ctx.render(actor.inject.headers.Authorization)).toBe('Bearer jwt-abc-123');
  });
});
