// Auth through the runner (spec 5, docs/format.md#run-sessions): every strategy of this issue, checked
// on the server side (what it received), sessions shared, expired, refreshed, and failed.
import { afterAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { freshShopApi } from '../helpers/shop-api.js';
import { SHOP_FILES, SHOP_SECRET } from '../helpers/shop-project.js';
import { closeRunners, envFile, load, outcomes, resultOf, ROOT } from './helpers.js';

const api = freshShopApi();
let echo: TestServer;

afterAll(async () => {
  await closeRunners();
  await echo?.close();
});

/** The shop project with the base URL filled in and `files` replacing or adding files. */
function shop(files: Record<string, string> = {}, options: Parameters<typeof load>[1] = {}) {
  return load({ ...SHOP_FILES, ...files }, { vars: { baseUrl: api().url }, secrets: { SHOP_PW: SHOP_SECRET }, ...options });
}

const bearerOf = (auth: unknown) => /^Bearer (.+)$/.exec(String(auth ?? ''))?.[1];

describe('simple and chain logins', () => {
  it('simple: one login, its token carried by inject.headers on every request of the actor', async () => {
    const { runner } = await shop();
    const r = await runner.run('order.get');
    expect(r.status).toBe('passed');
    const login = api().requests.filter((q) => q.path === '/login');
    expect(login).toHaveLength(1);
    expect(login[0].json()).toEqual({ user: 'admin', password: SHOP_SECRET });
    const rest = api().requests.filter((q) => q.path !== '/login');
    expect(rest.map((q) => bearerOf(q.headers.authorization))).toEqual(Array(4).fill(api().tokens[0]));
    expect(runner.values('admin')).toEqual({ token: '***', user_id: 'u-admin' });
  });

  it("an operation that reads another actor's session value logs that actor in first", async () => {
    const { runner } = await shop({
      'resources/audit.yaml': 'name: audit\noperations:\n  peek: { path: /products, headers: { X-Admin: "{{admin.token}}" }, expect_status: 401 }\n',
    });
    const r = await runner.run('audit.peek');
    expect(r.status, JSON.stringify(r.error)).toBe('passed');
    expect(api().requests.map((q) => q.path)).toEqual(['/login', '/products']);
    expect(api().requests[1].headers['x-admin']).toBe(api().tokens[0]);
    expect(api().requests[1].headers.authorization).toBeUndefined(); // no actor: no credentials of its own
  });

  it('chain: two steps, the second reads what the first extracted; the token of the last step is injected', async () => {
    const { runner } = await shop(
      {
        'actors/otp.yaml': [
          'name: otp',
          'auth:',
          '  strategy: chain',
          '  steps:',
          '    - { id: start, method: POST, path: /login/start, body: { user: otp }, extract: { challenge: $.data.challenge } }',
          '    - id: verify',
          '      method: POST',
          '      path: /login/otp',
          '      body: { challenge: "{{otp.challenge}}", code: "{{secret.OTP_CODE}}" }',
          '      expect_status: 200',
          '      extract: { token: $.data.token }',
          'inject:',
          '  headers: { Authorization: "Bearer {{otp.token}}" }',
          '',
        ].join('\n'),
        'resources/me.yaml': 'name: me\noperations:\n  whoami: { path: /whoami, actor: otp }\n',
      },
      { secrets: { SHOP_PW: SHOP_SECRET, OTP_CODE: '123456' } },
    );
    const r = await runner.run('me.whoami');
    expect(r.error).toBeUndefined();
    expect(api().log).toEqual(['POST /login/start', 'POST /login/otp', 'GET /whoami']);
    expect(api().requests[1].json()).toEqual({ challenge: 'ch-42', code: '123456' });
    expect(bearerOf(api().requests[2].headers.authorization)).toBe(api().tokens[0]);
    expect(r.exchanges.map((e) => e.purpose)).toEqual(['login step start (actor otp)', 'login step verify (actor otp)', 'me.whoami']);
  });

  it('one login is shared by concurrent operations of the actor', async () => {
    api().slow.set('/login', 80);
    const { runner } = await shop(
      { 'resources/checks.yaml': 'name: check\noperations:\n' + [1, 2, 3, 4].map((i) => `  c${i}: { path: /whoami, actor: admin }\n`).join('') },
      { concurrency: 4 },
    );
    const summary = await runner.runMany(['check.c1', 'check.c2', 'check.c3', 'check.c4']);
    expect(summary.passed).toBe(4);
    expect(api().count('POST /login')).toBe(1);
    expect(api().count('GET /whoami')).toBe(4);
  });

  it('a failed login fails every operation of the actor with E_AUTH, is tried once, and others go on', async () => {
    const { runner } = await shop(
      {
        'resources/checks.yaml':
          'name: check\noperations:\n  a: { path: /whoami, actor: admin }\n  b: { path: /whoami, actor: admin }\n  public: { method: POST, path: /login/start }\n',
      },
      { secrets: { SHOP_PW: 'not-the-password' } },
    );
    const summary = await runner.runMany(['check.a', 'check.b', 'order.list', 'check.public']);
    // schedule order: declaration order (checks.yaml loads before orders.yaml)
    expect(outcomes(summary)).toEqual([
      ['check.a', 'failed', 'E_AUTH'],
      ['check.b', 'failed', 'E_AUTH'],
      ['check.public', 'passed', undefined],
      ['order.list', 'failed', 'E_AUTH'],
    ]);
    expect(api().count('POST /login')).toBe(1);
    expect(api().count('GET /whoami')).toBe(0);
    const error = resultOf(summary, 'check.a').error!;
    expect(error.message).toMatch(/^login of actor admin failed: E_STATUS_MISMATCH expected a 2xx status, got 401/);
    expect(error.details).toMatchObject({ cause: 'E_STATUS_MISMATCH' });
    // later runs of the same runner do not try again either
    expect((await runner.run('check.b')).error?.code).toBe('E_AUTH');
    expect(api().count('POST /login')).toBe(1);
  });
});

describe('session.ttl', () => {
  const REFRESH = [
    'session:',
    '  ttl: 15m',
    '  refresh:',
    '    method: POST',
    '    path: /refresh',
    '    body: { refresh_token: "{{admin.token}}" }',
    '    extract: { token: $.data.token }',
    '',
  ];
  const actor = (session: string[]) => `${SHOP_FILES['actors/admin.yaml']}${session.join('\n')}`;

  async function timed(session: string[]) {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const loaded = await shop({ 'actors/admin.yaml': actor(session) }, { clock: () => now });
    return { ...loaded, advance: (minutes: number) => void (now += minutes * 60_000) };
  }

  it('within the ttl the session is reused: no refresh, no new login', async () => {
    const { runner, advance } = await timed(REFRESH);
    await runner.run('order.list');
    advance(14);
    expect((await runner.run('order.list')).status).toBe('passed');
    expect(api().log).toEqual(['POST /login', 'GET /orders', 'GET /orders']);
  });

  it('after the ttl, session.refresh is sent (not a new login) and its token is used from then on', async () => {
    const { runner, advance } = await timed(REFRESH);
    await runner.run('order.list');
    advance(16);
    const r = await runner.run('order.list');
    expect(r.status).toBe('passed');
    expect(api().log).toEqual(['POST /login', 'GET /orders', 'POST /refresh', 'GET /orders']);
    expect(api().requests[2].json()).toEqual({ refresh_token: api().tokens[0] });
    expect(bearerOf(api().requests[3].headers.authorization)).toBe(api().tokens[1]);
    expect(r.exchanges.map((e) => e.purpose)).toEqual(['refresh of admin (actor admin)', 'order.list']);
    // the refreshed session lives another ttl from the refresh
    advance(10);
    await runner.run('order.list');
    expect(api().count('POST /refresh')).toBe(1);
    advance(6);
    await runner.run('order.list');
    expect(api().count('POST /refresh')).toBe(2);
    expect(api().count('POST /login')).toBe(1);
  });

  it('after the ttl, without session.refresh, the actor logs in again', async () => {
    const { runner, advance } = await timed(['session:', '  ttl: 15m', '']);
    await runner.run('order.list');
    advance(16);
    await runner.run('order.list');
    expect(api().log).toEqual(['POST /login', 'GET /orders', 'POST /login', 'GET /orders']);
    expect(bearerOf(api().requests[3].headers.authorization)).toBe(api().tokens[1]);
  });
});

describe('session.refresh of an oauth2 actor', () => {
  // A token server whose tokens are numbered: login AT1 (expires_in 1 s); each refresh the next.
  async function oauth(refreshAnswer: (n: number) => Record<string, unknown>, session: string[]) {
    let issued = 1;
    const srv = await startServer({
      'POST /token': (_req, res) => json(res, 200, { access_token: 'AT1', token_type: 'Bearer', expires_in: 1, refresh_token: 'RT1' }),
      'POST /refresh': (_req, res) => json(res, 200, refreshAnswer(++issued)),
      '*': (_req, res) => json(res, 200, { ok: true }),
    });
    let now = Date.parse('2026-01-01T00:00:00Z');
    const actor = [
      'name: svc',
      'auth: { strategy: oauth2_client_credentials, token_url: /token, client_id: app, client_secret: "{{secret.CS}}" }',
      ...session,
      '',
    ];
    const loaded = await load(
      {
        'flow.yaml': ROOT,
        'environments/test.yaml': envFile({ baseUrl: srv.url }),
        'actors/svc.yaml': actor.join('\n'),
        'resources/calls.yaml': 'name: call\noperations:\n  me: { path: /me, actor: svc }\n',
      },
      { secrets: { CS: 'client-secret' }, clock: () => now },
    );
    const log = () => srv.requests.map((r) => `${r.method} ${r.path}${r.headers.authorization?.startsWith('Bearer') ? ` ${r.headers.authorization}` : ''}`);
    return { ...loaded, srv, log, advance: (ms: number) => void (now += ms) };
  }
  const refresh = (extract: string) => [
    'session:',
    '  refresh:',
    '    method: POST',
    '    path: /refresh',
    '    body: { refresh_token: "{{svc.refresh_token}}" }',
    `    extract: ${extract}`,
  ];

  it('sends the refreshed access_token, and expires again by the expires_in of the refresh (no ttl)', async () => {
    const t = await oauth((n) => ({ access_token: `AT${n}`, expires_in: 60 }), refresh('{ access_token: $.data.access_token, expires_in: $.data.expires_in }'));
    try {
      await t.runner.run('call.me');
      t.advance(2_000); // AT1 has expired
      expect((await t.runner.run('call.me')).status).toBe('passed');
      t.advance(30_000); // AT2 lives 60 s
      await t.runner.run('call.me');
      t.advance(31_000);
      await t.runner.run('call.me');
      expect(t.log()).toEqual([
        'POST /token',
        'GET /me Bearer AT1',
        'POST /refresh',
        'GET /me Bearer AT2',
        'GET /me Bearer AT2',
        'POST /refresh',
        'GET /me Bearer AT3',
      ]);
      expect(t.srv.requests[2].json()).toEqual({ refresh_token: 'RT1' });
      expect(t.runner.values('svc')).toMatchObject({ access_token: '***', refresh_token: '***', expires_in: 60 });
    } finally {
      await t.srv.close();
    }
  });

  it('the refresh_token of a refresh answer is hidden wherever it is sent back, like the first one', async () => {
    // sent back in the query, where only knowing the value hides it: the answer's credential
    // fields are registered as it arrives (sessions.ts), a refresh's as a login's
    const session = [
      'session:',
      '  refresh:',
      '    method: POST',
      '    path: "/refresh?r={{svc.refresh_token}}"',
      '    extract: { access_token: $.data.access_token }',
    ];
    const t = await oauth((n) => ({ access_token: `AT${n}`, refresh_token: `fresh-refresh-${n}`, id_token: `fresh-id-${n}`, expires_in: 60 }), session);
    try {
      await t.runner.run('call.me');
      t.advance(2_000);
      const first = await t.runner.run('call.me');
      t.advance(61_000);
      const second = await t.runner.run('call.me'); // sends back the refresh_token of the first refresh
      expect([first.status, second.status]).toEqual(['passed', 'passed']);
      expect(t.srv.requests.filter((r) => r.path === '/refresh').map((r) => r.url)).toEqual(['/refresh?r=RT1', '/refresh?r=fresh-refresh-2']);
      const shown = JSON.stringify([first.exchanges, second.exchanges, t.runner.values('svc')]);
      expect(shown).toContain('/refresh?r=***');
      expect(shown).not.toMatch(/fresh-(refresh|id)-/);
    } finally {
      await t.srv.close();
    }
  });

  it('a refresh that names it `token` and gives no expires_in: that token is sent, for the ttl', async () => {
    const t = await oauth((n) => ({ data: { token: `AT${n}` } }), [...refresh('{ token: $.data.data.token }'), '  ttl: 10m']);
    try {
      await t.runner.run('call.me');
      t.advance(2_000);
      await t.runner.run('call.me');
      t.advance(9 * 60_000);
      await t.runner.run('call.me');
      t.advance(60_000);
      await t.runner.run('call.me');
      expect(t.log()).toEqual([
        'POST /token',
        'GET /me Bearer AT1',
        'POST /refresh',
        'GET /me Bearer AT2',
        'GET /me Bearer AT2',
        'POST /refresh',
        'GET /me Bearer AT3',
      ]);
    } finally {
      await t.srv.close();
    }
  });
});

describe('keys a login does not read (spec 5, 2.6)', () => {
  it('a simple login and a chain step send neither query_params nor body_form', async () => {
    const srv = await startServer({ '*': (_req, res) => json(res, 200, { token: 'tok-1' }) });
    const ignored = 'query_params: { q: "1" }, body_form: { f: "2" }';
    try {
      const { runner } = await load({
        'flow.yaml': ROOT,
        'environments/test.yaml': envFile({ baseUrl: srv.url }),
        'actors/one.yaml': `name: one\nauth: { strategy: simple, method: POST, path: /login, body: { u: one }, ${ignored}, extract: { token: $.data.token } }\n`,
        'actors/two.yaml': `name: two\nauth:\n  strategy: chain\n  steps:\n    - { id: s1, method: POST, path: /step, ${ignored}, extract: { token: $.data.token } }\n`,
        'resources/calls.yaml': 'name: call\noperations:\n  a: { path: /a, actor: one }\n  b: { path: /b, actor: two }\n',
      });
      expect((await runner.runMany(['call.a', 'call.b'])).passed).toBe(2);
      const login = srv.requests.find((r) => r.path === '/login')!;
      const step = srv.requests.find((r) => r.path === '/step')!;
      expect([login.url, step.url]).toEqual(['/login', '/step']);
      expect(login.json()).toEqual({ u: 'one' }); // the JSON body, not the form
      expect(step.body.length).toBe(0);
      for (const r of [login, step]) expect(r.headers['content-type'] ?? '').not.toMatch(/form/);
    } finally {
      await srv.close();
    }
  });
});

describe('credentials issued in advance, inline auth, and no actor', () => {
  const SECRETS = { BASIC_PW: 'b4sic-pass-word', API_KEY: 'key-0f-the-api', BOT_TOKEN: 'tok-of-the-bot', INLINE_PW: 'inl1ne-pass' };

  async function project() {
    echo ??= await startServer({ '*': (_req, res) => json(res, 200, { ok: true }) });
    const ops = ['basic', 'header', 'query', 'cookie', 'bot'].map((a) => `  as_${a}: { path: /echo/${a}, actor: ${a}, query_params: { q: "1" } }`);
    return load(
      {
        'flow.yaml': ROOT,
        'environments/test.yaml': envFile({ baseUrl: echo.url }),
        'actors/basic.yaml': 'name: basic\nauth: { strategy: basic, username: alice, password: "{{secret.BASIC_PW}}" }\n',
        'actors/header.yaml': 'name: header\nauth: { strategy: api_key, key: "{{secret.API_KEY}}", location: header, name: X-Api-Key }\n',
        'actors/query.yaml': 'name: query\nauth: { strategy: api_key, key: "{{secret.API_KEY}}", location: query, name: api_key }\n',
        'actors/cookie.yaml': 'name: cookie\nauth: { strategy: api_key, key: "{{secret.API_KEY}}", location: cookie, name: apikey }\n',
        'actors/bot.yaml': 'name: bot\nauth: { strategy: bearer, token: "{{secret.BOT_TOKEN}}" }\n',
        'resources/calls.yaml': [
          'name: call',
          'operations:',
          ...ops,
          '  inline: { path: /echo/inline, auth: { strategy: basic, username: bob, password: "{{secret.INLINE_PW}}" } }',
          '  anonymous: { path: /echo/anonymous, headers: { X-Trace: t-1 } }',
          '',
        ].join('\n'),
      },
      { secrets: SECRETS },
    );
  }

  it('sends each credential where its strategy puts it, and none without an actor', async () => {
    const { runner } = await project();
    const asked = ['call.as_basic', 'call.as_header', 'call.as_query', 'call.as_cookie', 'call.as_bot', 'call.inline', 'call.anonymous'];
    const summary = await runner.runMany(asked);
    expect(summary.passed).toBe(asked.length);
    const got = (p: string) => echo.requests.filter((r) => r.path === `/echo/${p}`).at(-1)!;
    const basic = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;
    expect(got('basic').headers.authorization).toBe(basic('alice', SECRETS.BASIC_PW));
    expect(got('header').headers['x-api-key']).toBe(SECRETS.API_KEY);
    expect(got('query').query.get('api_key')).toBe(SECRETS.API_KEY);
    expect(got('query').query.get('q')).toBe('1');
    expect(got('cookie').headers.cookie).toBe(`apikey=${SECRETS.API_KEY}`);
    expect(got('bot').headers.authorization).toBe(`Bearer ${SECRETS.BOT_TOKEN}`);
    expect(got('inline').headers.authorization).toBe(basic('bob', SECRETS.INLINE_PW));

    const anonymous = got('anonymous');
    expect(anonymous.headers['x-trace']).toBe('t-1');
    for (const h of ['authorization', 'cookie', 'x-api-key']) expect(anonymous.headers[h]).toBeUndefined();
    expect(anonymous.url).toBe('/echo/anonymous');
    // an actor's credential goes to that actor only
    expect(got('header').headers.authorization).toBeUndefined();
    expect(got('bot').headers['x-api-key']).toBeUndefined();
  });

  it("a redirect to another origin carries none of the actor's credentials, whatever their header names", async () => {
    const other = await startServer({ '*': (_req, res) => json(res, 200, { ok: true }) });
    const home = await startServer({
      '/go': (_req, res) => {
        res.writeHead(302, { location: `${other.url}/landed` });
        res.end();
      },
    });
    try {
      const { runner } = await load(
        {
          'flow.yaml': ROOT,
          // allowed, or the redirect is not followed at all (E_REDIRECT_ORIGIN: test/runner/redirect-origin.test.ts)
          'environments/test.yaml': `${envFile({ baseUrl: home.url })}redirect_hosts: ["${new URL(other.url).host}"]\n`,
          'actors/shop.yaml': [
            'name: shop',
            'auth: { strategy: api_key, key: "{{secret.API_KEY}}", location: header, name: X-Shop }',
            'inject:',
            '  headers: { X-Tenant-Auth: "t-{{secret.API_KEY}}" }',
            '',
          ].join('\n'),
          'resources/calls.yaml': 'name: call\noperations:\n  go: { path: /go, actor: shop, headers: { X-Trace: t-2 } }\n',
        },
        { secrets: SECRETS },
      );
      expect((await runner.run('call.go')).status).toBe('passed');
      expect(home.requests.at(-1)!.headers).toMatchObject({ 'x-shop': SECRETS.API_KEY, 'x-tenant-auth': `t-${SECRETS.API_KEY}` });
      const landed = other.requests.at(-1)!;
      expect(landed.path).toBe('/landed');
      expect(landed.headers['x-trace']).toBe('t-2');
      expect(landed.headers['x-shop']).toBeUndefined();
      expect(landed.headers['x-tenant-auth']).toBeUndefined();
    } finally {
      await other.close();
      await home.close();
    }
  });

  it('an unset secret of a strategy fails its actor with E_AUTH naming the cause, and sends nothing for it', async () => {
    echo ??= await startServer({ '*': (_req, res) => json(res, 200, { ok: true }) });
    const before = echo.requests.length;
    const { runner } = await load({
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: echo.url }),
      'actors/bot.yaml': 'name: bot\nauth: { strategy: bearer, token: "{{secret.REQFLOW_TEST_UNSET_TOKEN}}" }\n',
      'resources/calls.yaml': 'name: call\noperations:\n  as_bot: { path: /echo/bot, actor: bot }\n  public: { path: /echo/public }\n',
    });
    const summary = await runner.runMany(['call.as_bot', 'call.public']);
    expect(outcomes(summary)).toEqual([
      ['call.as_bot', 'failed', 'E_AUTH'],
      ['call.public', 'passed', undefined],
    ]);
    const error = resultOf(summary, 'call.as_bot').error!;
    expect(error.details).toMatchObject({ cause: 'E_SECRET_MISSING' });
    // `flow secret set` is named only where a keychain is reachable (test/runtime/secrets)
    expect(error.message).toContain('FLOW_SECRET_REQFLOW_TEST_UNSET_TOKEN');
    expect(echo.requests.slice(before).map((r) => r.path)).toEqual(['/echo/public']);
  });
});
