// The probe seam (Runner.fork, Runner.probe): what explore and calibrate send through. Checked
// on the server side: what each probe sent, how many logins a run made, what was retried.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, ROOT } from './helpers.js';

const PW = 'probe-pw-secret';
let srv: TestServer;
let items: Map<string, Record<string, unknown>>;
let next = 0;

beforeEach(async () => {
  await srv?.close();
  items = new Map();
  next = 0;
  let failures = 0;
  srv = await startServer({
    'POST /login': (req, res) => {
      const body = req.json() as { user?: string; password?: string };
      if (body.password !== PW) return json(res, 401, { error: 'bad password' });
      json(res, 200, { token: `tok-${body.user}` });
    },
    'POST /items': (req, res) => {
      if (!req.headers.authorization) return json(res, 401, { error: 'who are you' });
      const body = req.json() as Record<string, unknown>;
      if (typeof body.name !== 'string') return json(res, 400, { error: 'name is required' });
      const id = `i${++next}`;
      items.set(id, { id, ...body, owner: req.headers.authorization });
      json(res, 201, { id });
    },
    'POST /boom': (_req, res) => json(res, 503, { failures: ++failures }),
    '/slow': () => {},
    '*': (req, res) => {
      const m = /^\/items\/([^/]+)$/.exec(req.path);
      const item = m && items.get(decodeURIComponent(m[1]));
      if (!item) return json(res, 404, { error: 'no such item' });
      if (req.method === 'DELETE') {
        items.delete(String(item.id));
        return void res.writeHead(204).end();
      }
      json(res, 200, item);
    },
  });
});

afterAll(async () => {
  await closeRunners();
  await srv?.close();
});

const FILES = {
  'flow.yaml': ROOT,
  'environments/test.yaml': `${envFile({ baseUrl: '<SET_VIA_--var>', password: `!secret PW` })}`,
  'actors/admin.yaml': [
    'name: admin',
    'auth:',
    '  strategy: simple',
    '  method: POST',
    '  path: /login',
    '  body: { user: admin, password: "{{env.password}}" }',
    '  extract: { token: $.data.token }',
    'inject:',
    '  headers: { Authorization: "Bearer {{admin.token}}" }',
    '',
  ].join('\n'),
  'actors/guest.yaml': [
    'name: guest',
    'auth:',
    '  strategy: simple',
    '  method: POST',
    '  path: /login',
    '  body: { user: guest, password: "{{env.password}}" }',
    '  extract: { token: $.data.token }',
    'inject:',
    '  headers: { Authorization: "Bearer {{guest.token}}" }',
    '',
  ].join('\n'),
  'resources/item.yaml': [
    'name: item',
    'operations:',
    '  create:',
    '    method: POST',
    '    path: /items',
    '    actor: admin',
    '    body: { name: widget, tag: "{{env.password}}" }',
    '    expect_status: 201',
    '    extract: { id: $.data.id }',
    '  get:',
    '    path: /items/{{item.id}}',
    '    actor: admin',
    '    query_params: { view: full }',
    '    expect_status: 200',
    '    assert: [ $.data.name == "never" ]',
    '    extract: { name: $.data.name }',
    '  delete:',
    '    method: DELETE',
    '    path: /items/{{item.id}}',
    '    actor: admin',
    '    expect_status: 204',
    '  boom:',
    '    method: POST',
    '    path: /boom',
    '    actor: admin',
    '    retry: { max: 3, backoff: 1 }',
    '  slow:',
    '    path: /slow',
    '    timeout: 20000',
    '',
  ].join('\n'),
};

const open = (opts: Parameters<typeof load>[1] = {}) => load(FILES, { vars: { baseUrl: srv.url }, secrets: { PW }, ...opts });
const sent = (path: string) => srv.requests.filter((r) => r.path === path);

describe('probe', () => {
  it('accepts any status, asserts nothing, extracts nothing without record', async () => {
    const { runner } = await open();
    await runner.run('item.create');
    const { result, response } = await runner.probe('item.get');
    expect(result.status).toBe('passed'); // its expect_status and its assert would fail it in a run
    expect(result.asserts).toEqual([]);
    expect(result.extracted).toEqual({});
    expect(response?.status).toBe(200);
    expect(runner.values('item')).toEqual({ id: 'i1' }); // `name` not extracted
    const missing = await runner.probe('item.get', { instance: 1, query: { view: 'x' } });
    expect(missing.result.status).toBe('passed');
    expect(sent('/items/i1').at(-1)?.query.get('view')).toBe('x');
  });

  it('sends a 5xx once: no retry', async () => {
    const { runner } = await open();
    const { result, response } = await runner.probe('item.boom');
    expect(response?.status).toBe(503);
    expect(result.status).toBe('passed');
    expect(sent('/boom')).toHaveLength(1);
  });

  it('renders nothing in a body or query override: "{{secret.X}}" and "{{env.baseUrl}}" are sent as they are', async () => {
    const { runner } = await open();
    const body = { name: '{{env.baseUrl}}', tag: '{{secret.PW}}', deep: { x: '{{env.password}}' } };
    const { response } = await runner.probe('item.create', { body, query: { q: '{{secret.PW}}' } });
    expect(response?.status).toBe(201);
    const req = sent('/items').at(-1)!;
    expect(req.json()).toEqual(body);
    expect(req.query.get('q')).toBe('{{secret.PW}}');
    expect(req.headers['content-type']).toBe('application/json');
  });

  it('keepWritten keeps, rendered, the top-level fields the operation writes with a {{…}}', async () => {
    const { runner } = await open();
    const { result } = await runner.probe('item.create', { body: { name: 'drawn', tag: 'drawn', more: 1 }, keepWritten: true });
    expect(sent('/items').at(-1)!.json()).toEqual({ name: 'drawn', tag: PW, more: 1 });
    // the secret it rendered is hidden in the record
    expect(JSON.stringify(result.exchanges)).not.toContain(PW);
  });

  it('record: a create stands as run (its dependents reuse it); without record it does not', async () => {
    const { runner } = await open();
    await runner.probe('item.create', { body: { name: 'first' } });
    expect(runner.values('item')).toBeUndefined();
    const created = await runner.probe('item.create', { body: { name: 'second' }, record: true });
    expect(created.result.extracted).toEqual({ id: 'i2' });
    await runner.probe('item.get');
    expect(srv.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /login', 'POST /items', 'POST /items', 'GET /items/i2']);
    // a refused create records nothing
    await runner.probe('item.create', { body: { nope: 1 }, record: true });
    expect(runner.values('item')).toEqual({ id: 'i2' });
  });

  it('instance: the own references read that instance (from 1); one not in the state fails the probe', async () => {
    const { runner } = await open();
    await runner.probe('item.create', { record: true });
    await runner.probe('item.create', { record: true });
    const first = await runner.probe('item.delete', { instance: 1 });
    expect(first.result.error).toBeUndefined();
    expect(first.response?.status).toBe(204);
    expect(sent('/items/i1')).toHaveLength(1);
    const absent = await runner.probe('item.delete', { instance: 3 });
    expect(absent.result.status).toBe('failed');
    expect(absent.result.error?.code).toBe('E_VAR_UNRESOLVED');
    expect(absent.response).toBeUndefined();
  });

  it('actor: another actor, or null for no credentials at all', async () => {
    const { runner } = await open();
    await runner.probe('item.create', { actor: 'guest', body: { name: 'g' } });
    expect(sent('/items').at(-1)!.headers.authorization).toBe('Bearer tok-guest');
    const anonymous = await runner.probe('item.create', { actor: null, body: { name: 'a' } });
    expect(anonymous.response?.status).toBe(401);
    expect(sent('/items').at(-1)!.headers.authorization).toBeUndefined();
    expect(sent('/login').map((r) => (r.json() as { user: string }).user)).toEqual(['guest']);
    const unknown = await runner.probe('item.create', { actor: 'nobody' });
    expect(unknown.result.error?.code).toBe('E_REF_UNDEFINED');
  });

  it('a timeout: no answer is a failed probe, not a throw', async () => {
    const { runner } = await open();
    const { result, response } = await runner.probe('item.slow', { timeoutMs: 100 });
    expect(response).toBeUndefined();
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('E_TIMEOUT');
  });

  it('a prerequisite that fails skips the probe; an unknown operation fails it', async () => {
    const { runner } = await open({ vars: { baseUrl: srv.url }, secrets: { PW: 'wrong' } });
    const { result } = await runner.probe('item.get');
    expect(result.status).toBe('skipped');
    expect((await runner.probe('item.nothing')).result.error?.code).toBe('E_REF_UNDEFINED');
  });
});

describe('fork', () => {
  it('shares the logins: each actor logs in once however many forks send as it', async () => {
    const { runner } = await open();
    const forks = Array.from({ length: 6 }, () => runner.fork());
    await Promise.all(forks.map((f) => f.probe('item.create', { record: true })));
    await Promise.all(forks.map((f) => f.probe('item.create', { actor: 'guest', body: { name: 'g' } })));
    expect(sent('/login')).toHaveLength(2);
    await Promise.all(forks.map((f) => f.close()));
    // closing the forks released nothing shared: the root still sends
    expect((await runner.probe('item.boom')).response?.status).toBe(503);
  });

  it('has its own instances and memo: a fork never reads what another created', async () => {
    const { runner } = await open();
    const a = runner.fork();
    const b = runner.fork();
    await a.probe('item.create', { record: true });
    await b.probe('item.create', { record: true });
    expect(a.values('item')).toEqual({ id: 'i1' });
    expect(b.values('item')).toEqual({ id: 'i2' });
    expect(runner.values('item')).toBeUndefined();
    // a read in a fresh fork runs its own create first
    const c = runner.fork();
    await c.probe('item.get');
    expect(c.values('item')).toEqual({ id: 'i3' });
    expect(sent('/login')).toHaveLength(1);
  });

  it('keepAnswers: a run keeps each operation latest answer, a failed one too; without it, none', async () => {
    const { runner } = await open();
    const keeping = runner.fork({ keepAnswers: true });
    const get = await keeping.run('item.get');
    expect(get.status).toBe('failed'); // its assert: the answer is kept all the same
    expect(keeping.answer('item.get')?.json()).toMatchObject({ id: 'i1', name: 'widget' });
    expect(keeping.answer('item.create')?.status).toBe(201);
    expect((await keeping.run('item.boom')).status).toBe('failed');
    expect(keeping.answer('item.boom')?.status).toBe(503);
    expect(keeping.answer('item.delete')).toBeUndefined(); // never sent
    const plain = runner.fork();
    await plain.run('item.get');
    expect(plain.answer('item.get')).toBeUndefined();
    expect(runner.answer('item.get')).toBeUndefined(); // a fork's answers are its own
  });

  it('its events are its own', async () => {
    const { runner, events } = await open();
    const seen: string[] = [];
    const f = runner.fork({ onEvent: (e) => e.type === 'request' && seen.push(e.purpose) });
    await f.probe('item.create', { record: true });
    expect(seen).toEqual(['login (actor admin)', 'item.create']);
    expect(events).toEqual([]);
  });
});

describe('instance origin', () => {
  it('each instance names the operation whose answer made it and the actor it ran as', async () => {
    const { RunState } = await import('../../src/runner/state.js');
    const state = new RunState(['item']);
    state.record('item', 'item.create', { id: 1 }, {}, undefined, { operation: 'item.create', actor: 'admin', creates: true });
    state.record('item', 'item.get', { name: 'x' });
    state.record('item', 'item.list', {}, { id: [2, 3] });
    expect(state.instances('item')!.map((i) => i.origin)).toEqual([
      { operation: 'item.create', actor: 'admin' },
      { operation: 'item.list' },
      { operation: 'item.list' },
    ]);
  });
});
