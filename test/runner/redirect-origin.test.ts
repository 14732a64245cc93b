// A redirect to another origin (issue: a 307 re-sent the body, a rendered {{secret.API_TOKEN}}
// included, to the other host). Refused with E_REDIRECT_ORIGIN, nothing sent there, unless
// the environment allows that host in `redirect_hosts`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, load, resultOf, ROOT } from './helpers.js';

const TOKEN = 'tok-redirect-secret-1';
let api: TestServer;
let other: TestServer;
beforeAll(async () => {
  other = await startServer({ '*': (q, res) => json(res, 200, { got: q.text() }) });
  api = await startServer({
    'POST /items': (_q, res) => {
      res.writeHead(307, { location: `${other.url}/items` });
      res.end();
    },
    'GET /local': (_q, res) => {
      res.writeHead(302, { location: '/here' });
      res.end();
    },
    '*': (q, res) => json(res, 200, { path: q.path }),
  });
});
afterAll(async () => {
  await closeRunners();
  await api.close();
  await other.close();
});

const files = (extra = '') => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': `name: test\nvariables:\n  baseUrl: "${api.url}"\n${extra}`,
  'resources/items.yaml':
    'name: item\noperations:\n  create: { method: POST, path: /items, body: { token: "{{secret.API_TOKEN}}" } }\n  local: { path: /local }\n',
});

describe('a redirect to another origin', () => {
  it('is refused with E_REDIRECT_ORIGIN: the other host gets neither the body nor the token', async () => {
    const { runner } = await load(files(), { secrets: { API_TOKEN: TOKEN } });
    const summary = await runner.runMany(['item.create', 'item.local']);
    const err = resultOf(summary, 'item.create').error!;
    expect(err.code).toBe('E_REDIRECT_ORIGIN');
    expect(err.message).toContain(`redirect_hosts: [${new URL(other.url).host}]`);
    expect(other.requests).toEqual([]);
    // a redirect on the same origin is followed as before
    expect(resultOf(summary, 'item.local').status).toBe('passed');
    expect(api.requests.map((r) => r.path)).toContain('/here');
  });

  it('is followed to a host the environment allows in redirect_hosts', async () => {
    const { runner } = await load(files(`redirect_hosts: ["${new URL(other.url).host}"]\n`), { secrets: { API_TOKEN: TOKEN } });
    const summary = await runner.runMany(['item.create']);
    expect(resultOf(summary, 'item.create').status).toBe('passed');
    expect(other.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /items']);
  });
});
