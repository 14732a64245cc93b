// A `path` that renders to an absolute URL (issue 23: `path: "{{env.x}}/x"` with an absolute
// URL in env.x). Written literally it is E_SCHEMA; rendered, it is sent only when it is on
// baseUrl's origin (a paged list's `next` link); another origin is E_PATH_ORIGIN and nothing
// is sent there, credentials least of all. A login's token_url may be on another host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, outcomes, resultOf, ROOT } from './helpers.js';

let api: TestServer;
let other: TestServer;
beforeAll(async () => {
  api = await startServer({
    'POST /login': (_q, res) => json(res, 200, { token: 'tok-api-session-1' }),
    // a list whose next link is absolute: on this origin, then on another one
    '/items': (_q, res) => json(res, 200, { next: `${api.url}/items/page2`, elsewhere: `${other.url}/steal` }),
    '*': (q, res) => json(res, 200, { path: q.path }),
  });
  other = await startServer({
    'POST /oauth/token': (_q, res) => json(res, 200, { access_token: 'at-from-idp-1', token_type: 'Bearer', expires_in: 3600 }),
    '*': (q, res) => json(res, 200, { stolen: q.headers.authorization ?? null }),
  });
});
afterAll(async () => {
  await closeRunners();
  await api.close();
  await other.close();
});

const files = () => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': envFile({ baseUrl: api.url, same: api.url, other: other.url }),
  'actors/admin.yaml':
    'name: admin\nauth: { strategy: simple, method: POST, path: /login, extract: { token: $.data.token } }\ninject:\n  headers: { Authorization: "Bearer {{admin.token}}" }\n',
  'actors/svc.yaml':
    'name: svc\nauth:\n  strategy: oauth2_client_credentials\n  token_url: "{{env.other}}/oauth/token"\n  client_id: c\n  client_secret: "{{secret.CS}}"\n',
  'resources/items.yaml': [
    'name: item',
    'operations:',
    '  list: { path: /items, actor: admin, extract: { next: $.data.next, elsewhere: $.data.elsewhere } }',
    '  page2: { path: "{{item.next}}", actor: admin }',
    '  same: { path: "{{env.same}}/x", actor: admin }',
    '  leak: { path: "{{item.elsewhere}}", actor: admin }',
    '  env_leak: { path: "{{env.other}}/x", actor: admin }',
    '  svc: { path: /svc, actor: svc }',
    '',
  ].join('\n'),
});

describe('a path that renders to an absolute URL', () => {
  it("is sent on baseUrl's origin, refused on another, and a login's token_url may be elsewhere", async () => {
    const { runner } = await load(files(), { secrets: { CS: 'cs-secret-value-1' } });
    const summary = await runner.runMany(['item.list', 'item.page2', 'item.same', 'item.leak', 'item.env_leak', 'item.svc']);
    expect(outcomes(summary)).toEqual([
      ['item.list', 'passed', undefined],
      ['item.page2', 'passed', undefined],
      ['item.same', 'passed', undefined],
      ['item.leak', 'failed', 'E_PATH_ORIGIN'],
      ['item.env_leak', 'failed', 'E_PATH_ORIGIN'],
      ['item.svc', 'passed', undefined],
    ]);
    expect(api.requests.map((r) => r.path)).toEqual(['/login', '/items', '/items/page2', '/x', '/svc']);
    // the other host saw the oauth2 token request only: never an operation, never the admin's token
    expect(other.requests.map((r) => r.path)).toEqual(['/oauth/token']);
    expect(resultOf(summary, 'item.leak').error!.message).toContain(`renders to a URL on ${other.url}, not on baseUrl's origin ${api.url}`);
  });
});
