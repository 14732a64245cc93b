// api_key: a header (default X-API-Key), a query parameter or a cookie, checked on the server.
import { describe, expect, test } from 'vitest';
import { strategyFor } from '../../src/auth/index.js';
import type { PreparedRequest } from '../../src/http/index.js';
import type { RecordedRequest } from '../helpers/http-server.js';
import { loadActor, loginAndSend, makeAuthContext, meServer, rejection } from './context.js';

const srv = meServer();

interface Case {
  name: string;
  auth: string;
  secrets?: Record<string, string>;
  /** path and query to call */
  path?: string;
  seen?: (req: RecordedRequest) => void;
  error?: RegExp;
}

const KEY = 'k3y/with spaces&=+';
const cases: Case[] = [
  {
    name: 'header by default, named X-API-Key',
    auth: 'key: "{{secret.KEY}}"',
    seen: (r) => expect(r.headers['x-api-key']).toBe(KEY),
  },
  {
    name: 'header with its own name (rendered)',
    auth: 'key: "{{secret.KEY}}"\n  location: header\n  name: "X-{{secret.SUFFIX}}-Token"',
    secrets: { SUFFIX: 'Acme' },
    seen: (r) => {
      expect(r.headers['x-acme-token']).toBe(KEY);
      expect(r.headers['x-api-key']).toBeUndefined();
    },
  },
  {
    name: 'location is read without case',
    auth: 'key: "{{secret.KEY}}"\n  location: Header\n  name: Api-Key',
    seen: (r) => expect(r.headers['api-key']).toBe(KEY),
  },
  {
    name: 'query parameter, encoded, next to the query already there',
    auth: 'key: "{{secret.KEY}}"\n  location: query\n  name: api_key',
    path: '/me?page=2',
    seen: (r) => {
      expect(r.query.get('api_key')).toBe(KEY);
      expect(r.query.get('page')).toBe('2');
      expect(r.headers['x-api-key']).toBeUndefined();
    },
  },
  {
    name: 'query parameter replaces one of the same name',
    auth: 'key: "{{secret.KEY}}"\n  location: query\n  name: key',
    path: '/me?key=stale',
    seen: (r) => expect(r.query.getAll('key')).toEqual([KEY]),
  },
  {
    name: 'cookie',
    auth: 'key: plain-key-1\n  location: cookie\n  name: session_key',
    seen: (r) => expect(r.headers.cookie).toBe('session_key=plain-key-1'),
  },
  { name: 'unknown location', auth: 'key: k\n  location: body', error: /location "body"; it must be header, query or cookie/ },
  { name: 'query needs a name', auth: 'key: k\n  location: query', error: /with location query needs a `name`/ },
  { name: 'cookie needs a name', auth: 'key: k\n  location: cookie', error: /with location cookie needs a `name`/ },
  { name: 'no key', auth: 'location: header', error: /api_key auth of actor svc has no `key`/ },
  { name: 'a cookie cannot carry ";"', auth: 'key: "a;b"\n  location: cookie\n  name: k', error: /cannot be sent in a cookie/ },
];

describe('api_key', () => {
  test.each(cases)('$name', async (c) => {
    const actor = await loadActor(`name: svc\nauth:\n  strategy: api_key\n  ${c.auth}\n`);
    const t = makeAuthContext({ baseUrl: srv().url, actor, secrets: { KEY, ...c.secrets } });
    if (c.error) {
      const err = await rejection(loginAndSend(actor.auth!, t, `${srv().url}/me`));
      expect(err.code).toBe('E_AUTH');
      expect(err.message).toMatch(c.error);
      return;
    }
    const { status } = await loginAndSend(actor.auth!, t, `${srv().url}${c.path ?? '/me'}`);
    expect(status).toBe(200);
    c.seen!(srv().requests.at(-1)!);
    const key = actor.auth!.options.key;
    expect(t.redacted).toContain(key === '{{secret.KEY}}' ? KEY : key);
  });

  test('a cookie joins the Cookie header already on the request', async () => {
    const actor = await loadActor('name: svc\nauth:\n  strategy: api_key\n  key: kk\n  location: cookie\n  name: ak\n');
    const t = makeAuthContext({ baseUrl: srv().url, actor });
    const strategy = strategyFor('api_key');
    const session = await strategy.login(actor.auth!, t.ctx);
    const req: PreparedRequest = { method: 'GET', url: new URL(`${srv().url}/me`), headers: { cookie: 'theme=dark' } };
    await strategy.apply(req, actor.auth!, session, t.ctx);
    expect(req.headers).toEqual({ Cookie: 'theme=dark; ak=kk' });
  });
});
