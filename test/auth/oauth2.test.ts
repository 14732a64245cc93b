// oauth2_client_credentials and oauth2_password against oauth2-mock-server (made strict about
// client and user credentials, as shared/targets.md §3), and a recording server for the
// exact bytes of the token request.
import { decodeJwt } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { strategyFor } from '../../src/auth/index.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects } from '../helpers/project.js';
import { loadActor, loginAndSend, makeAuthContext, rejection } from './context.js';

const CLIENTS: Record<string, string | undefined> = { myclient: 'mysecret', 'public-app': undefined };
const USERS: Record<string, string> = { alice: 'pw' };

let oauth: OAuth2Server;
let tokenUrl: string;
let api: TestServer;
const seen: Array<{ body: Record<string, string>; authorization?: string }> = [];

beforeAll(async () => {
  oauth = new OAuth2Server();
  await oauth.issuer.keys.generate('RS256');
  oauth.service.on('beforeResponse', (resp: { statusCode: number; body: unknown }, req: { body: Record<string, string>; headers: Record<string, string> }) => {
    seen.push({ body: { ...req.body }, authorization: req.headers.authorization });
    const basic = req.headers.authorization?.startsWith('Basic ') ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString('utf8') : undefined;
    const [name, pass] = basic ? [basic.slice(0, basic.indexOf(':')), basic.slice(basic.indexOf(':') + 1)] : [req.body.client_id, undefined];
    if (!(name in CLIENTS) || CLIENTS[name] !== pass) {
      resp.statusCode = 401;
      resp.body = { error: 'invalid_client' };
      return;
    }
    if (req.body.grant_type === 'password' && USERS[req.body.username] !== req.body.password) {
      resp.statusCode = 400;
      resp.body = { error: 'invalid_grant' };
    }
  });
  await oauth.start(0, '127.0.0.1');
  tokenUrl = `http://127.0.0.1:${oauth.address().port}/token`;
  api = await startServer({ '/me': (_req, res) => json(res, 200, { ok: true }) });
});
afterAll(async () => {
  await oauth.stop();
  await api.close();
  await cleanProjects();
});

const actorYaml = (strategy: string, keys: string) => `name: svc\nauth:\n  strategy: ${strategy}\n  token_url: "{{env.tokenUrl}}"\n${keys}`;

describe('oauth2_client_credentials', () => {
  test.each([
    {
      name: 'Basic client auth, a scope list, the token applied, expiry from expires_in',
      keys: '  client_id: myclient\n  client_secret: "{{secret.CS}}"\n  scope: [read, write]\n',
      body: { grant_type: 'client_credentials', scope: 'read write' },
      basic: 'myclient:mysecret',
    },
    {
      name: 'a public client (no secret) names itself in the body',
      keys: '  client_id: public-app\n',
      body: { grant_type: 'client_credentials', client_id: 'public-app' },
    },
  ])('$name', async ({ keys, body, basic }) => {
    const actor = await loadActor(actorYaml('oauth2_client_credentials', keys).replace('{{env.tokenUrl}}', tokenUrl));
    const t = makeAuthContext({ baseUrl: api.url, actor, secrets: { CS: 'mysecret' } });
    const started = Date.now();
    const { session, status } = await loginAndSend(actor.auth!, t, `${api.url}/me`);
    expect(status).toBe(200);
    const sent = seen.at(-1)!;
    expect(sent.body).toEqual(body);
    expect(sent.authorization).toBe(basic ? `Basic ${Buffer.from(basic).toString('base64')}` : undefined);
    const token = session.values.access_token as string;
    expect(session.values).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(session.expiresAt).toBeGreaterThanOrEqual(started + 3600_000);
    expect(session.expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${token}`);
    expect(t.redacted).toContain(token);
    if (body.scope) expect(decodeJwt(token).scope).toBe('read write');
  });

  test('a wrong client secret is E_AUTH with the status, without the secret', async () => {
    const actor = await loadActor(
      actorYaml('oauth2_client_credentials', '  client_id: myclient\n  client_secret: "{{secret.CS}}"\n').replace('{{env.tokenUrl}}', tokenUrl),
    );
    const t = makeAuthContext({ baseUrl: api.url, actor, secrets: { CS: 'not-the-secret' } });
    const err = await rejection(strategyFor('oauth2_client_credentials').login(actor.auth!, t.ctx));
    expect(err.code).toBe('E_AUTH');
    expect(err.message).toBe('login of actor svc failed: E_STATUS_MISMATCH expected 200, got 401');
    expect(t.purposes).toEqual(['login (token request)']);
  });

  test('client credentials are form-encoded before Basic encoding (RFC 6749 2.3.1); a relative token_url follows baseUrl', async () => {
    const idp = await startServer({ 'POST /oauth/token': (_req, res) => json(res, 200, { access_token: 'at-1', token_type: 'bearer' }) });
    try {
      const actor = await loadActor(
        'name: svc\nauth:\n  strategy: oauth2_client_credentials\n  token_url: /oauth/token\n  client_id: "app 1"\n  client_secret: "p@ss word:1"\n  scope: "a:b"\n',
      );
      const t = makeAuthContext({ baseUrl: idp.url, actor });
      const session = await strategyFor('oauth2_client_credentials').login(actor.auth!, t.ctx);
      const req = idp.requests[0];
      expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(req.headers.authorization).toBe(`Basic ${Buffer.from('app+1:p%40ss+word%3A1').toString('base64')}`);
      expect(Object.fromEntries(new URLSearchParams(req.text()))).toEqual({ grant_type: 'client_credentials', scope: 'a:b' });
      expect(session.expiresAt).toBeUndefined(); // no expires_in: the actor's session.ttl decides
      expect(t.redacted).toContain('p@ss word:1');
    } finally {
      await idp.close();
    }
  });

  test.each([
    { name: 'no token_url', keys: 'client_id: a', message: /has no `token_url`/ },
    { name: 'no client_id', keys: 'token_url: http://127.0.0.1:9/token', message: /has no `client_id`/ },
  ])('$name', async ({ keys, message }) => {
    const actor = await loadActor(`name: svc\nauth:\n  strategy: oauth2_client_credentials\n  ${keys}\n`);
    const err = await rejection(strategyFor('oauth2_client_credentials').login(actor.auth!, makeAuthContext({ baseUrl: api.url, actor }).ctx));
    expect(err.code).toBe('E_AUTH');
    expect(err.message).toMatch(message);
  });
});

describe('oauth2_password', () => {
  const keys = '  client_id: myclient\n  client_secret: mysecret\n  scope: openid\n  username: alice\n  password: "{{secret.PW}}"\n';

  test('the user’s credentials in the form; the token is the user’s; refresh uses the refresh_token', async () => {
    const actor = await loadActor(actorYaml('oauth2_password', keys).replace('{{env.tokenUrl}}', tokenUrl));
    const t = makeAuthContext({ baseUrl: api.url, actor, secrets: { PW: 'pw' } });
    const strategy = strategyFor('oauth2_password');
    const session = await strategy.login(actor.auth!, t.ctx);
    expect(seen.at(-1)!.body).toEqual({ grant_type: 'password', scope: 'openid', username: 'alice', password: 'pw' });
    expect(decodeJwt(session.values.access_token as string)).toMatchObject({ sub: 'alice', amr: ['pwd'] });
    expect(typeof session.values.refresh_token).toBe('string');
    expect(t.redacted).toEqual(expect.arrayContaining(['pw', session.values.access_token, session.values.refresh_token, session.values.id_token]));

    const renewed = await strategy.refresh!(actor.auth!, session, t.ctx);
    expect(seen.at(-1)!.body).toEqual({ grant_type: 'refresh_token', refresh_token: session.values.refresh_token });
    expect(renewed.values.access_token).not.toBe(session.values.access_token);
    expect(renewed.expiresAt).toBeGreaterThan(Date.now());
    expect(t.purposes).toEqual(['login (token request)', 'refresh (token request)']);
  });

  test('a wrong password is E_AUTH 400, without the password', async () => {
    const actor = await loadActor(actorYaml('oauth2_password', keys).replace('{{env.tokenUrl}}', tokenUrl));
    const t = makeAuthContext({ baseUrl: api.url, actor, secrets: { PW: 'wrong-pass' } });
    const err = await rejection(strategyFor('oauth2_password').login(actor.auth!, t.ctx));
    expect(err.message).toBe('login of actor svc failed: E_STATUS_MISMATCH expected 200, got 400');
    expect(t.redacted).toContain('wrong-pass');
  });

  test('no password', async () => {
    const actor = await loadActor(actorYaml('oauth2_password', '  client_id: myclient\n  username: alice\n').replace('{{env.tokenUrl}}', tokenUrl));
    const err = await rejection(strategyFor('oauth2_password').login(actor.auth!, makeAuthContext({ baseUrl: api.url, actor }).ctx));
    expect(err.message).toBe('oauth2_password auth of actor svc has no `password`');
  });
});
