// jwt: we sign, the server verifies (jose on the server side too, with the secret or the public key).
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { strategyFor } from '../../src/auth/index.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects } from '../helpers/project.js';
import { loadActor, loginAndSend, makeAuthContext, rejection } from './context.js';

const HS_SECRET = 'a-long-shared-secret-for-hmac-signing-0123456789';
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC = createPublicKey(privateKey);

let srv: TestServer;
beforeAll(async () => {
  // verifies with the key named by the request's path, answers with the claims it accepted
  srv = await startServer({
    '*': async (req, res) => {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const key = req.path === '/rs' ? PUBLIC : new TextEncoder().encode(HS_SECRET);
      try {
        const { payload } = await jwtVerify(token, key);
        json(res, 200, payload);
      } catch (err) {
        json(res, 401, { error: String(err) });
      }
    },
  });
});
afterAll(async () => {
  await srv.close();
  await cleanProjects();
});

const actorYaml = (keys: string) => `name: svc\nauth:\n  strategy: jwt\n${keys}`;

describe('jwt', () => {
  test.each([
    {
      name: 'HS256 by default; claims rendered; exp from {{$.now + 1h}}',
      keys: '  secret: "{{secret.JWT}}"\n  payload:\n    sub: "{{secret.USER}}"\n    role: admin\n    exp: "{{$.now + 1h}}"\n',
      path: '/hs',
      alg: 'HS256',
      claims: { sub: 'user-7', role: 'admin' },
      expIn: 3600,
    },
    {
      name: 'HS512 written in lower case',
      keys: '  secret: "{{secret.JWT}}"\n  algorithm: hs512\n  payload: { sub: a }\n',
      path: '/hs',
      alg: 'HS512',
      claims: { sub: 'a' },
    },
    {
      name: 'RS256 with a PKCS#8 private key; numeric exp',
      keys: '  secret: "{{secret.PEM}}"\n  algorithm: RS256\n  payload: { iss: reqflow, exp: 4102444800 }\n',
      path: '/rs',
      alg: 'RS256',
      claims: { iss: 'reqflow', exp: 4102444800 },
    },
  ])('$name', async ({ keys, path, alg, claims, expIn }) => {
    const actor = await loadActor(actorYaml(keys));
    const t = makeAuthContext({ baseUrl: srv.url, actor, secrets: { JWT: HS_SECRET, USER: 'user-7', PEM } });
    const now = Math.floor(Date.now() / 1000);
    const { session, status, body } = await loginAndSend(actor.auth!, t, `${srv.url}${path}`);
    expect(status).toBe(200); // the server verified the signature
    const payload = JSON.parse(body);
    expect(payload).toMatchObject(claims);
    expect(Math.abs(payload.iat - now)).toBeLessThanOrEqual(2);
    const token = session.values.token as string;
    expect(decodeProtectedHeader(token)).toEqual({ alg, typ: 'JWT' });
    expect(t.redacted).toContain(token);
    if (expIn) expect(Math.abs(payload.exp - (now + expIn))).toBeLessThanOrEqual(2);
    // the session ends 30 s before the token does: the next request gets a new one
    expect(session.expiresAt).toBe(payload.exp * 1000 - 30_000);
  });

  test.each([
    { name: 'an unknown algorithm', keys: '  secret: s\n  algorithm: none\n', message: /has algorithm "none"; use one of HS256/ },
    { name: 'no secret', keys: '  payload: { sub: a }\n', message: /has no `secret`/ },
    {
      name: 'a secret that is no private key, not shown',
      keys: '  secret: "{{secret.JWT}}"\n  algorithm: ES256\n',
      message: /has a `secret` that is not a PKCS#8 PEM private key for ES256$/,
    },
    { name: 'a date claim that is no date', keys: '  secret: s\n  payload: { exp: soon }\n', message: /`payload.exp` that is neither seconds nor a date/ },
    { name: 'a payload that is no map', keys: '  secret: s\n  payload: [a]\n', message: /`payload` that is not a map/ },
  ])('$name', async ({ keys, message }) => {
    const actor = await loadActor(actorYaml(keys));
    const t = makeAuthContext({ baseUrl: srv.url, actor, secrets: { JWT: HS_SECRET } });
    const err = await rejection(strategyFor('jwt').login(actor.auth!, t.ctx));
    expect(err.code).toBe('E_AUTH');
    expect(err.message).toMatch(message);
    expect(err.message).not.toContain(HS_SECRET);
  });
});
