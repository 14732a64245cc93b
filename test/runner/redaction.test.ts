// Redaction (README, "Secrets and redaction"): a run with secrets from FLOW_SECRET_*, a login token and Basic
// auth, against a server that echoes everything it receives. Every output is captured — the
// `flow run --verbose` terminal output, the results as JSON, error messages, session values —
// and grepped for every secret, every token (a login's, an oauth2 answer's) and the base64 of
// user:password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';
import { closeRunners, envFile, load, outcomes, resultOf, ROOT } from './helpers.js';

const SECRETS = { SHOP_PW: 'pw-Sesame-4711', API_KEY: 'ak-9c1e55f0d2', BASIC_PW: 'basic-Hunter-22', CLIENT_SECRET: 'cs-Orchid-3141' };
const ENV = Object.fromEntries(Object.entries(SECRETS).map(([k, v]) => [`FLOW_SECRET_${k}`, v]));
let server: TestServer;
const issued: string[] = [];

beforeAll(async () => {
  server = await startServer({
    'POST /login': (q, res) => {
      const body = q.json() as { password?: string };
      // a careless server that repeats the password it was given in its error
      if (body.password !== SECRETS.SHOP_PW) return json(res, 401, { error: `bad password "${body.password}"` });
      const token = `tok-${Math.random().toString(36).slice(2, 14)}`;
      issued.push(token);
      json(res, 200, { token, user_id: 'u-1' }, { 'set-cookie': `sid=${token}; Path=/` });
    },
    // an oauth2 token endpoint: the tokens arrive in a JSON answer that no `extract` names
    'POST /oauth/token': (_q, res) => {
      const access = `at-${Math.random().toString(36).slice(2, 14)}`;
      const refresh = `rt-${Math.random().toString(36).slice(2, 14)}`;
      issued.push(access, refresh);
      json(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh });
    },
    // a login whose token sits deeper than the actor's extract looks
    'POST /login-nested': (_q, res) => {
      const token = `nest-${Math.random().toString(36).slice(2, 14)}`;
      issued.push(token);
      json(res, 200, { data: { session: { token } } });
    },
    // an API token made by the run: the server issues its secret in the answer, and the token's
    // own paths take that secret as its id
    'POST /api-tokens': (_q, res) => {
      const secret = `issued-${Math.random().toString(36).slice(2, 14)}`;
      issued.push(secret);
      // and more no extraction names: in a list, and under another credential name
      const client = `cs-${Math.random().toString(36).slice(2, 14)}`;
      const password = `pw-${Math.random().toString(36).slice(2, 14)}`;
      issued.push(client, password);
      json(res, 201, { tokenName: 'ci', secret, clients: [{ client_secret: client }], initialPassword: password, key: 'flag-key', type: 'admin' });
    },
    // echoes everything: every credential comes back in a response body
    '*': (q, res) => json(res, q.path === '/created' ? 200 : 200, { url: q.url, headers: q.headers, body: q.text() }),
  });
});
afterAll(async () => {
  await closeRunners();
  await server.close();
});

const files = () => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': envFile({ baseUrl: server.url, password: '!secret SHOP_PW' }),
  'actors/admin.yaml': [
    'name: admin',
    'auth:',
    '  strategy: simple',
    '  method: POST',
    '  path: /login',
    '  body: { user: admin, password: "{{env.password}}" }',
    '  extract: { token: $.data.token, user_id: $.data.user_id }',
    'inject:',
    '  headers: { Authorization: "Bearer {{admin.token}}", X-Session: "{{admin.token}}" }',
    '',
  ].join('\n'),
  'actors/svc.yaml':
    'name: svc\nauth:\n  strategy: oauth2_client_credentials\n  token_url: "{{env.baseUrl}}/oauth/token"\n  client_id: svc-client\n  client_secret: "{{secret.CLIENT_SECRET}}"\n',
  'actors/alice.yaml': 'name: alice\nauth: { strategy: basic, username: alice, password: "{{secret.BASIC_PW}}" }\n',
  'resources/echoes.yaml': [
    'name: echo',
    'operations:',
    '  admin:',
    '    method: POST',
    '    path: /echo',
    '    actor: admin',
    '    headers: { X-Api-Key: "{{secret.API_KEY}}", X-Note: "key={{secret.API_KEY}}" }',
    '    query_params: { k: "{{secret.API_KEY}}" }',
    '    body: { note: "the key is {{secret.API_KEY}}", token: "{{admin.token}}" }',
    '    extract: { seen: $.data.headers.x-note }',
    '  alice: { method: POST, path: /echo, actor: alice, body: { hello: alice }, extract: { url: $.data.url } }',
    '  svc: { path: /echo, actor: svc }',
    '  mismatch: { method: POST, path: /echo, actor: admin, expect_status: 201, body: { k: "{{secret.API_KEY}}" }, extract: { url: $.data.url } }',
    '  asserted: { path: /echo, actor: alice, assert: ["$.data.headers.authorization == \'nope\'"] }',
    '',
  ].join('\n'),
});

const basic = `Basic ${Buffer.from(`alice:${SECRETS.BASIC_PW}`).toString('base64')}`;

/** Every value that must never be seen in an output. */
function forbidden(): string[] {
  const client = Buffer.from(`svc-client:${SECRETS.CLIENT_SECRET}`).toString('base64');
  return [...Object.values(SECRETS), ...issued, basic.slice('Basic '.length), client, encodeURIComponent(SECRETS.SHOP_PW)];
}

function expectClean(label: string, output: string): void {
  for (const value of forbidden()) expect(output.includes(value), `${label} shows ${value}`).toBe(false);
}

describe('redaction in every output', () => {
  it('flow run --verbose: terminal output, results JSON, errors and session values show no secret', async () => {
    // 1. the runner API: results as JSON, values, error messages
    const { runner } = await load(files(), { processEnv: ENV });
    const asked = ['echo.admin', 'echo.alice', 'echo.svc', 'echo.mismatch', 'echo.asserted'];
    const summary = await runner.runMany(asked);
    expect(outcomes(summary)).toEqual([
      ['echo.admin', 'passed', undefined],
      ['echo.alice', 'passed', undefined],
      ['echo.svc', 'passed', undefined],
      ['echo.mismatch', 'failed', 'E_STATUS_MISMATCH'],
      ['echo.asserted', 'failed', 'E_ASSERT_FAILED'],
    ]);
    // the server did receive the real values: the test is not vacuous
    const echoed = server.requests.filter((r) => r.path === '/echo');
    expect(echoed[0].headers['x-api-key']).toBe(SECRETS.API_KEY);
    expect(echoed[0].query.get('k')).toBe(SECRETS.API_KEY);
    expect(echoed[0].headers.authorization).toBe(`Bearer ${issued[0]}`);
    expect(echoed[1].headers.authorization).toBe(basic);
    expect(echoed[2].headers.authorization).toBe(`Bearer ${issued[1]}`);

    const resultsJson = JSON.stringify(summary);
    expectClean('results JSON', resultsJson);
    expect(resultsJson).toContain('Bearer ***');
    expect(resultsJson).toContain('Basic ***');
    expectClean('admin values', JSON.stringify(runner.values('admin')));
    expectClean('echo values', JSON.stringify(runner.values('echo')));
    for (const op of asked) expectClean(`${op} error`, JSON.stringify(runner.result(op)?.error ?? ''));
    expect(resultOf(summary, 'echo.mismatch').error?.details?.body).toMatch(/\*\*\*/);

    // 2. the CLI, --verbose, through main()
    const rec = recordedIO({ cwd: (await load(files())).dir, env: ENV });
    const code = await main(['run', ...asked, '--verbose'], rec.io);
    expect(code).toBe(1);
    expect(rec.out()).toContain('> X-Api-Key: ***');
    expect(rec.out()).toMatch(/< \{"url":"\/echo\?k=\*\*\*"/);
    expect(rec.out()).toContain('E_STATUS_MISMATCH');
    expect(issued.length).toBe(6); // both runs logged in: a login token, an access and a refresh token each
    expectClean('flow run stdout', rec.out());
    expectClean('flow run stderr', rec.err());
  });

  it("a failing login's error does not show the password, even when the server repeats it", async () => {
    const wrong = 'wrong-Pass-5150';
    const { runner } = await load(files(), { processEnv: { ...ENV, FLOW_SECRET_SHOP_PW: wrong } });
    const summary = await runner.runMany(['echo.admin', 'echo.alice']);
    expect(outcomes(summary)).toEqual([
      ['echo.admin', 'failed', 'E_AUTH'],
      ['echo.alice', 'passed', undefined],
    ]);
    const login = server.requests.filter((r) => r.path === '/login').at(-1)!;
    expect(login.json()).toEqual({ user: 'admin', password: wrong });
    const error = resultOf(summary, 'echo.admin').error!;
    expect(error.message).toBe('login of actor admin failed: E_STATUS_MISMATCH expected a 2xx status, got 401: {"error":"bad password \\"***\\""}');
    const all = JSON.stringify(summary);
    expect(all).not.toContain(wrong);

    const rec = recordedIO({ cwd: (await load(files())).dir, env: { ...ENV, FLOW_SECRET_SHOP_PW: wrong } });
    expect(await main(['run', 'echo.admin', '--verbose'], rec.io)).toBe(1);
    expect(rec.out()).toContain('E_AUTH');
    expect(rec.out() + rec.err()).not.toContain(wrong);
  });
  it('a login whose extraction misses its token: --verbose still shows the token nowhere', async () => {
    const before = issued.length;
    const project = {
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: server.url }),
      'actors/nested.yaml':
        'name: nested\nauth: { strategy: simple, method: POST, path: /login-nested, extract: { token: $.data.token } }\ninject:\n  headers: { Authorization: "Bearer {{nested.token}}" }\n',
      'resources/echoes.yaml': 'name: echo\noperations:\n  nested: { path: /echo, actor: nested }\n',
    };
    const rec = recordedIO({ cwd: (await load(project)).dir, env: {} });
    expect(await main(['run', 'echo.nested', '--verbose'], rec.io)).toBe(1);
    expect(issued.length).toBe(before + 1);
    expect(rec.out()).toContain('E_AUTH');
    expect(rec.out()).toContain('"token":"***"');
    expectClean('flow run stdout', rec.out() + rec.err());
  });
  it("a credential the server issues in an answer (an API token's secret) is hidden from that answer on, in paths too", async () => {
    const before = issued.length;
    const project = {
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: server.url }),
      'resources/tokens.yaml': [
        'name: api_token',
        'operations:',
        '  create: { method: POST, path: /api-tokens, body: { tokenName: ci }, extract: { name: $.data.tokenName, id: $.data.secret } }',
        '  get: { path: "/api-tokens/{{api_token.id}}", extract: { url: $.data.url } }',
        '',
      ].join('\n'),
    };
    const rec = recordedIO({ cwd: (await load(project)).dir, env: {} });
    expect(await main(['run', 'api_token.get', '--verbose'], rec.io)).toBe(0);
    expect(issued.length).toBe(before + 3);
    // the server did get the secret in the path: the test is not vacuous
    expect(server.requests.at(-1)?.path).toBe(`/api-tokens/${issued[before]}`);
    const out = rec.out() + rec.err();
    expect(out).toContain('"secret":"***","clients":[{"client_secret":"***"}],"initialPassword":"***"');
    expect(out).toContain('/api-tokens/***');
    expect(out).toContain('"key":"flag-key"'); // a bare key names an object: it stays
    expectClean('flow run output', out);
  });
});
