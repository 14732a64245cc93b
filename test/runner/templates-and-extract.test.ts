// Templates and extraction through the runner, checked on the server side: every builtin of
// spec 2.8 as the server receives it, environments (default, chosen, overridden by vars), and
// every extraction form of spec 2.7 feeding a later request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, text, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, outcomes, ROOT } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    '/source': (_q, res) => json(res, 200, { id: 5, name: 'five' }, { 'x-request-id': 'req-77', 'set-cookie': 'session=s-99; Path=/' }),
    '/text': (_q, res) => text(res, 202, 'Thanks. Your order number is ORD-1234, ready soon.'),
    '/feed': (_q, res) => text(res, 200, '<feed><entry id="e1"><name>alpha</name></entry></feed>', { 'content-type': 'application/xml' }),
    '*': (q, res) => json(res, 200, { path: q.path }),
  });
});
afterAll(async () => {
  await closeRunners();
  await server.close();
});

describe('builtins, as the server receives them', () => {
  it('$.uuid, $.now (with offsets), $.faker.email/phone, $.base64/$.hex/$.url encode (nested), typed single references', async () => {
    const { runner } = await load({
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: server.url, user: 'ann', count: '3' }),
      'resources/gen.yaml': [
        'name: gen',
        'operations:',
        '  send:',
        '    method: POST',
        '    path: "/gen/{{$.url.encode(\'a b/c\')}}"',
        '    headers: { X-Id: "{{$.uuid}}", X-Auth: "Basic {{$.base64.encode(\'{{env.user}}:pw\')}}" }',
        '    body:',
        '      now: "{{$.now}}"',
        '      later: "{{$.now + 1h}}"',
        '      earlier: "{{ $.now - 30m }}"',
        '      email: "{{$.faker.email}}"',
        '      phone: "{{$.faker.phone}}"',
        '      hex: "{{$.hex.encode(\'hi!\')}}"',
        '      two: ["{{$.uuid}}", "{{$.uuid}}"]',
        '      count: "{{env.count}}"',
        '      text: "n={{env.count}}"',
        '',
      ].join('\n'),
    });
    const before = Date.now();
    const r = await runner.run('gen.send');
    const after = Date.now();
    expect(r.error).toBeUndefined();
    const got = server.requests.at(-1)!;
    expect(got.url).toBe('/gen/a%20b%2Fc');
    const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(got.headers['x-id']).toMatch(UUID4);
    expect(got.headers['x-auth']).toBe(`Basic ${Buffer.from('ann:pw').toString('base64')}`);
    const body = got.json() as Record<string, unknown>;
    const at = (k: string) => Date.parse(String(body[k]));
    expect(String(body.now)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(at('now')).toBeGreaterThanOrEqual(before);
    expect(at('now')).toBeLessThanOrEqual(after);
    expect(Math.abs(at('later') - at('now') - 3_600_000)).toBeLessThan(1000);
    expect(Math.abs(at('now') - at('earlier') - 1_800_000)).toBeLessThan(1000);
    expect(body.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/i);
    expect(String(body.phone).replace(/\D/g, '').length).toBeGreaterThanOrEqual(7);
    expect(body.hex).toBe(Buffer.from('hi!').toString('hex'));
    const [u1, u2] = body.two as string[];
    expect(u1).toMatch(UUID4);
    expect(u1).not.toBe(u2);
    // a value that is one reference keeps its type only when it is not text: env values are text
    expect(body.count).toBe('3');
    expect(body.text).toBe('n=3');
  });
});

describe('environments', () => {
  const files = () => ({
    'flow.yaml': `${ROOT}default_environment: dev\n`,
    'environments/dev.yaml': envFile({ baseUrl: server.url, label: 'dev-label' }, 'dev'),
    'environments/staging.yaml': envFile({ baseUrl: server.url, label: 'staging-label' }, 'staging'),
    'resources/e.yaml': 'name: e\noperations:\n  call: { path: /env, headers: { X-Env: "{{env.label}}" } }\n',
  });
  const sent = () => server.requests.filter((r) => r.path === '/env').at(-1)!.headers['x-env'];

  it('default_environment, --env, and a given var over the file', async () => {
    await (await load(files())).runner.run('e.call');
    expect(sent()).toBe('dev-label');
    await (await load(files(), { env: 'staging' })).runner.run('e.call');
    expect(sent()).toBe('staging-label');
    await (await load(files(), { env: 'staging', vars: { label: 'given' } })).runner.run('e.call');
    expect(sent()).toBe('given');
    await (await load(files(), { processEnv: { FLOW_VAR_label: 'from-env-var' } })).runner.run('e.call');
    expect(sent()).toBe('from-env-var');
  });

  it('an environment that is not defined: E_ENV_UNDEFINED naming the ones that are', async () => {
    const err = await load(files(), { env: 'prod' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_ENV_UNDEFINED', message: 'environment "prod" is not defined (defined: dev, staging)' });
  });
});

describe('extraction forms feeding a later request', () => {
  it('JSON body, a header (any case), a cookie, the status code, regex and xpath', async () => {
    const { runner } = await load({
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: server.url }),
      'resources/src.yaml': [
        'name: src',
        'operations:',
        '  json:',
        '    path: /source',
        '    extract: { id: $.data.id, req: $.headers.X-REQUEST-ID, session: $.cookies.session, status: $.status_code }',
        '  text:',
        '    path: /text',
        '    expect_status: 202',
        '    extract: { order: { path: "ORD-(\\\\d+)", source: regex }, code: $.status_code }',
        '  feed: { path: /feed, extract: { entry: { path: "//entry/@id", source: xpath }, name: { path: "//entry/name", source: xpath } } }',
        '  use:',
        '    path: /use/{{src.id}}',
        '    headers:',
        '      X-Req: "{{src.req}}"',
        '      X-Session: "{{src.session}}"',
        '      X-Status: "{{src.status}}/{{src.code}}"',
        '      X-Order: "{{src.order}}"',
        '      X-Entry: "{{src.entry}}:{{src.name}}"',
        '',
      ].join('\n'),
    });
    const summary = await runner.runMany(['src.use']);
    expect(outcomes(summary)).toEqual([['src.use', 'passed', undefined]]);
    const use = server.requests.at(-1)!;
    expect(use.path).toBe('/use/5');
    expect(use.headers).toMatchObject({ 'x-req': 'req-77', 'x-session': 's-99', 'x-status': '200/202', 'x-order': '1234', 'x-entry': 'e1:alpha' });
    // the cookie is also in the (actor-less) jar, sent back to the same origin
    expect(use.headers.cookie).toBe('session=s-99');
    expect(server.count('/source') + server.count('/text') + server.count('/feed')).toBe(3);
  });
});
