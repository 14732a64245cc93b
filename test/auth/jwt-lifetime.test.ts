// jwt lifetimes and protected headers, through the runner, against a resource server that
// verifies with jose and requires iat, exp and aud (HS256, RS256 and ES256, PEM keys as secrets).
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_LIFETIME_MS } from '../../src/auth/jwt.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, ROOT } from '../runner/helpers.js';

const HS = 'hs256-shared-secret-for-the-resource-server-0123';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pem = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }).toString();
const KEYS: Record<string, { verify: KeyObject | Uint8Array; secret: string }> = {
  HS256: { verify: new TextEncoder().encode(HS), secret: HS },
  RS256: { verify: rsa.publicKey, secret: pem(rsa.privateKey) },
  ES256: { verify: ec.publicKey, secret: pem(ec.privateKey) },
};

let srv: TestServer;
/** every token the server accepted or refused, in order */
const seen: Array<{ token: string; ok: boolean }> = [];
beforeAll(async () => {
  srv = await startServer({
    // /<alg>: verified with that algorithm's key; iat, exp and aud are required
    '*': async (req, res) => {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const alg = req.path.slice(1);
      try {
        const { payload, protectedHeader } = await jwtVerify(token, KEYS[alg].verify, {
          algorithms: [alg],
          audience: 'orders-api',
          requiredClaims: ['iat', 'exp', 'aud'],
        });
        seen.push({ token, ok: true });
        json(res, 200, { payload, header: protectedHeader });
      } catch (err) {
        seen.push({ token, ok: false });
        json(res, 401, { error: (err as { code?: string }).code });
      }
    },
  });
});
afterAll(async () => {
  await srv.close();
  await closeRunners();
});

const actor = (alg: string, extra = '') =>
  [
    'name: svc',
    'auth:',
    '  strategy: jwt',
    `  algorithm: ${alg}`,
    '  secret: "{{secret.JWT_KEY}}"',
    '  kid: key-2026-11',
    '  headers: { x5t: thumb, alg: none }',
    '  payload: { sub: svc-1, aud: orders-api }',
    extra,
  ].join('\n');

function project(alg: string, extra = '', clock?: () => number) {
  const ops = `name: api\noperations:\n  call: { path: /${alg}, actor: svc }\n`;
  return load(
    { 'flow.yaml': ROOT, 'environments/test.yaml': envFile({ baseUrl: srv.url }), 'actors/svc.yaml': actor(alg, extra), 'resources/api.yaml': ops },
    { secrets: { JWT_KEY: KEYS[alg].secret }, ...(clock ? { clock } : {}) },
  );
}

describe('jwt against a jose resource server requiring iat, exp and aud', () => {
  test.each(['HS256', 'RS256', 'ES256'])('%s: exp added (5 minutes by default), kid and headers in the protected header; alg not overridable', async (alg) => {
    const { runner, events } = await project(alg);
    const before = Math.floor(Date.now() / 1000);
    const r = await runner.run('api.call');
    expect(r.status, JSON.stringify(r.error)).toBe('passed');
    const token = seen.at(-1)!.token;
    expect(decodeProtectedHeader(token)).toEqual({ alg, typ: 'JWT', kid: 'key-2026-11', x5t: 'thumb' });
    const { exp, iat } = decodeJwt(token);
    expect(exp! - iat!).toBe(DEFAULT_LIFETIME_MS / 1000);
    expect(Math.abs(iat! - before)).toBeLessThanOrEqual(2);
    expect(JSON.stringify(events)).not.toContain(token);
    expect(JSON.stringify(events)).not.toContain(KEYS[alg].secret.slice(40, 80));
  });

  test('exp from session.ttl; the token is signed again before it expires (clock moved), never sent expired', async () => {
    let now = Date.now();
    const { runner } = await project('ES256', 'session:\n  ttl: 10m\n', () => now);
    const first = seen.length;
    expect((await runner.run('api.call')).status).toBe('passed');
    const t1 = decodeJwt(seen.at(-1)!.token);
    expect(t1.exp! - t1.iat!).toBe(600);
    now += 600_000 - 20_000; // 20 s before exp: inside the margin
    expect((await runner.run('api.call')).status).toBe('passed');
    const t2 = decodeJwt(seen.at(-1)!.token);
    expect(t2.iat).toBeGreaterThan(t1.iat!);
    expect(t2.exp! - t2.iat!).toBe(600);
    expect(seen.slice(first).map((s) => s.ok)).toEqual([true, true]);
  });

  test('a payload exp is kept as given', async () => {
    const { runner } = await project('HS256');
    await runner.run('api.call');
    const yaml = actor('HS256').replace('payload: { sub: svc-1, aud: orders-api }', 'payload: { sub: svc-1, aud: orders-api, exp: "{{$.now + 2h}}" }');
    const ops = 'name: api\noperations:\n  call: { path: /HS256, actor: svc }\n';
    const { runner: r2 } = await load(
      { 'flow.yaml': ROOT, 'environments/test.yaml': envFile({ baseUrl: srv.url }), 'actors/svc.yaml': yaml, 'resources/api.yaml': ops },
      { secrets: { JWT_KEY: HS } },
    );
    expect((await r2.run('api.call')).status).toBe('passed');
    const t = decodeJwt(seen.at(-1)!.token);
    expect(Math.abs(t.exp! - t.iat! - 7200)).toBeLessThanOrEqual(1);
  });

  test('without aud the resource server refuses: 401 -> E_STATUS_MISMATCH', async () => {
    const yaml = actor('HS256').replace('aud: orders-api', 'role: x');
    const ops = 'name: api\noperations:\n  call: { path: /HS256, actor: svc }\n';
    const { runner } = await load(
      { 'flow.yaml': ROOT, 'environments/test.yaml': envFile({ baseUrl: srv.url }), 'actors/svc.yaml': yaml, 'resources/api.yaml': ops },
      { secrets: { JWT_KEY: HS } },
    );
    const r = await runner.run('api.call');
    expect([r.status, r.error?.code]).toEqual(['failed', 'E_STATUS_MISMATCH']);
  });
});
