// oauth1 (RFC 5849): the base string and signature against the RFC's own examples, then
// through the runner against oauthlib's verifier (a real third-party server under gunicorn).
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, test } from 'vitest';
import { authorizationHeader, baseString, type OAuth1Keys } from '../../src/auth/oauth1.js';
import { describeOAuth1, OAUTH1 } from '../helpers/oauth1-server.js';
import { closeRunners, envFile, load, ROOT } from '../runner/helpers.js';

afterAll(() => closeRunners());

describe('RFC 5849 worked examples', () => {
  test('3.4.1.1: query, form body and oauth parameters in the base string (encoded twice, sorted by name then value)', () => {
    const url = new URL('http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b');
    const oauth = {
      oauth_consumer_key: '9djdj82h48djs9d2',
      oauth_token: 'kkk9d7dh3k39sjv7',
      oauth_signature_method: 'HMAC-SHA1',
      oauth_timestamp: '137131201',
      oauth_nonce: '7d8f3e4a',
    };
    const base = baseString({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'c2&a3=2+q' }, oauth);
    expect(base).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    );
  });

  test('1.2: the photos.example.net request signs to the RFC signature', () => {
    const keys: OAuth1Keys = {
      consumerKey: 'dpf43f3p2l4k3l03',
      consumerSecret: 'kd94hf93k423kf44',
      token: 'nnch734d00sl2jdk',
      tokenSecret: 'pfkkdhi9sl3r4s00',
      method: 'HMAC-SHA1',
      realm: 'Photos',
    };
    const url = new URL('http://photos.example.net/photos?file=vacation.jpg&size=original');
    const header = authorizationHeader(keys, { method: 'GET', url, headers: {} }, { nonce: 'chapoH', timestamp: '137131202', version: false });
    expect(header).toMatch(/^OAuth realm="Photos", /);
    expect(header).toContain('oauth_signature="MdpQcU8iPSUjWoN%2FUDMsK2sui9I%3D"');
  });

  test('a form body is signed only when its type says so', () => {
    const url = new URL('http://example.com/r');
    const base = (type: string) => baseString({ method: 'POST', url, headers: { 'content-type': type }, body: 'x=1' }, {});
    expect(base('application/x-www-form-urlencoded; charset=utf-8')).toContain('x%3D1');
    expect(base('application/json')).not.toContain('x%3D1');
  });
});

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const RSA_PEM = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const RSA_PUBLIC = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();

const actor = (extra = '') =>
  [
    'name: partner',
    'auth:',
    '  strategy: oauth1',
    '  consumer_key: ck-reqflow',
    '  consumer_secret: "{{secret.OAUTH1_CS}}"',
    '  token: "{{secret.OAUTH1_TOKEN}}"',
    '  token_secret: "{{secret.OAUTH1_TS}}"',
    '  realm: test',
    extra,
  ].join('\n');

const SECRETS = { OAUTH1_CS: OAUTH1.consumerSecret, OAUTH1_TOKEN: OAUTH1.token, OAUTH1_TS: OAUTH1.tokenSecret, RSA_PEM };

const OPS = [
  'name: api',
  'operations:',
  '  read:',
  '    path: /protected',
  '    actor: partner',
  '    query_params: { q: "a b&c=d+e", name: "Zoë ☃", tilde: "~x", "sp ace": "1" }',
  '    assert: [ "$.data.args.q == \'a b&c=d+e\'", "$.data.args.name == \'Zoë ☃\'" ]',
  '  write:',
  '    method: POST',
  '    path: /protected?from=query',
  '    actor: partner',
  '    body_form: { note: "x=1&y=2 ü", from: form }',
  '    assert: [ "$.data.form.note == \'x=1&y=2 ü\'" ]',
  '  json:',
  '    method: POST',
  '    path: /protected',
  '    actor: partner',
  '    body: { a: 1 }',
  '  retried:',
  '    path: /flaky',
  '    actor: partner',
  '    retry: { max: 2, backoff: 1 }',
  '',
].join('\n');

function project(actorYaml: string, url: string, secrets: Record<string, string> = SECRETS) {
  return load(
    { 'flow.yaml': ROOT, 'environments/test.yaml': envFile({ baseUrl: url }), 'actors/partner.yaml': actorYaml, 'resources/api.yaml': OPS },
    { secrets },
  );
}

describeOAuth1('oauth1 against oauthlib (gunicorn)', RSA_PUBLIC, (server) => {
  test.each(['HMAC-SHA1', 'HMAC-SHA256', 'PLAINTEXT', 'RSA-SHA1'])(
    '%s: a query with spaces, &, +, = and non-ASCII; a form body; a JSON body',
    async (method) => {
      const rsaKey = method === 'RSA-SHA1' ? '  consumer_secret: "{{secret.RSA_PEM}}"\n' : '';
      const yaml = actor(`  signature_method: ${method}\n`).replace(rsaKey ? /  consumer_secret: .*\n/ : /^$/, rsaKey);
      const { runner } = await project(yaml, server().url);
      const r = await runner.runMany(['api.read', 'api.write', 'api.json']);
      expect(r.results.map((x) => [x.operation, x.status, x.error?.message])).toEqual([
        ['api.read', 'passed', undefined],
        ['api.write', 'passed', undefined],
        ['api.json', 'passed', undefined],
      ]);
    },
  );

  test('a retry is signed anew: the verifier spent the first nonce, a copy would be a replay', async () => {
    await fetch(`${server().url}/flaky/arm/2`, { method: 'POST' });
    const { runner, events } = await project(actor(), server().url);
    const r = await runner.run('api.retried');
    expect(r.status, JSON.stringify(r.error)).toBe('passed');
    // two 503s then the 200, all verified by the server (a reused nonce is a 401)
    const statuses = events.flatMap((e) => (e.type === 'request' && e.response ? [e.response.status] : []));
    expect(statuses.at(-1)).toBe(200);
  });

  test('a wrong consumer secret: 401 -> E_STATUS_MISMATCH; no secret or signature in the result', async () => {
    const { runner, events } = await project(actor(), server().url, { ...SECRETS, OAUTH1_CS: 'wrong-consumer-secret' });
    const r = await runner.run('api.read');
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('E_STATUS_MISMATCH');
    const out = JSON.stringify([r, events]);
    for (const s of ['wrong-consumer-secret', OAUTH1.tokenSecret, OAUTH1.token, 'oauth_signature=']) expect(out).not.toContain(s);
  });

  test('a body changed after signing and a replayed nonce are refused by the verifier', async () => {
    const { oauth1 } = await import('../../src/auth/oauth1.js');
    const keys: OAuth1Keys = {
      consumerKey: OAUTH1.consumerKey,
      consumerSecret: OAUTH1.consumerSecret,
      token: OAUTH1.token,
      tokenSecret: OAUTH1.tokenSecret,
      method: 'HMAC-SHA1',
    };
    const url = new URL(`${server().url}/protected`);
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const authorization = authorizationHeader(keys, { method: 'POST', url, headers, body: 'a=1' });
    const post = (body: string, auth = authorization) =>
      fetch(url, { method: 'POST', headers: { ...headers, authorization: auth }, body }).then((r) => r.status);
    expect(await post('a=2')).toBe(401); // changed body
    const fresh = authorizationHeader(keys, { method: 'POST', url, headers, body: 'a=1' });
    expect(await post('a=1', fresh)).toBe(200);
    expect(await post('a=1', fresh)).toBe(401); // replay
    expect(oauth1.kind).toBe('oauth1');
  });
});
