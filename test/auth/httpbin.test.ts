// The strategies against a real third-party server (httpbin, Debian package).
// /bearer strips leading B/e/a/r characters from the token (targets.md §1): tokens start with "t".
import { afterAll, expect, test } from 'vitest';
import { describeHttpbin } from '../helpers/httpbin.js';
import { cleanProjects } from '../helpers/project.js';
import { loadActor, loginAndSend, makeAuthContext } from './context.js';

afterAll(() => cleanProjects());

describeHttpbin('auth strategies against httpbin', (hb) => {
  test.each([
    { password: 'p', status: 200 },
    { password: 'wrong', status: 401 },
  ])('basic /basic-auth/u/p with password "$password" -> $status', async ({ password, status }) => {
    const actor = await loadActor('name: u\nauth:\n  strategy: basic\n  username: u\n  password: "{{secret.PW}}"\n');
    const t = makeAuthContext({ baseUrl: hb().url, actor, secrets: { PW: password } });
    const res = await loginAndSend(actor.auth!, t, `${hb().url}/basic-auth/u/p`);
    expect(res.status).toBe(status);
    if (status === 200) expect(JSON.parse(res.body)).toEqual({ authenticated: true, user: 'u' });
  });

  test('bearer /bearer', async () => {
    const actor = await loadActor('name: bot\nauth:\n  strategy: bearer\n  token: "{{secret.TOKEN}}"\n');
    const t = makeAuthContext({ baseUrl: hb().url, actor, secrets: { TOKEN: 'tok-123' } });
    const res = await loginAndSend(actor.auth!, t, `${hb().url}/bearer`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ authenticated: true, token: 'tok-123' });
  });

  test.each([
    { location: 'header', name: 'X-Api-Key', path: '/headers', read: (b: any) => b.headers['X-Api-Key'] },
    { location: 'query', name: 'api_key', path: '/get', read: (b: any) => b.args.api_key },
    { location: 'cookie', name: 'apikey', path: '/cookies', read: (b: any) => b.cookies.apikey },
  ])('api_key in a $location, echoed by httpbin $path', async ({ location, name, path, read }) => {
    const actor = await loadActor(`name: svc\nauth:\n  strategy: api_key\n  key: "{{secret.KEY}}"\n  location: ${location}\n  name: ${name}\n`);
    const t = makeAuthContext({ baseUrl: hb().url, actor, secrets: { KEY: 'key-789' } });
    const res = await loginAndSend(actor.auth!, t, `${hb().url}${path}`);
    expect(res.status).toBe(200);
    expect(read(JSON.parse(res.body))).toBe('key-789');
  });

  test('simple login through httpbin /anything: the rendered body comes back and is extracted', async () => {
    const actor = await loadActor(
      'name: admin\nauth:\n  strategy: simple\n  method: POST\n  path: /anything/login\n  body: { user: admin, password: "{{secret.PW}}" }\n  expect_status: 200\n  extract:\n    user: $.data.json.user\n    method: $.data.method\n',
    );
    const t = makeAuthContext({ baseUrl: hb().url, actor, secrets: { PW: 'pw-1' } });
    const { session } = await loginAndSend(actor.auth!, t, `${hb().url}/get`);
    expect(session.values).toEqual({ user: 'admin', method: 'POST' });
  });
});
