// Faults through the runner: each one is a coded error on its own operation, and the run goes
// on (an unaffected operation in the same runMany passes). What the server received is checked
// where it matters: a request that must not be sent is counted.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, json, startServer, text, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, outcomes, resultOf, ROOT } from './helpers.js';

const MB = 1024 * 1024;
let server: TestServer;
let deadUrl: string;
let hugeBytesWritten = 0;
let flaky = 0;

/** 50 MB announced and streamed from one reused 64 KB chunk (the test never holds 50 MB). */
function sendHuge(res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const total = 50 * MB;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': total });
  hugeBytesWritten = 0;
  const pump = () => {
    while (hugeBytesWritten < total && !res.destroyed) {
      hugeBytesWritten += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

beforeAll(async () => {
  server = await startServer({
    '/ok': (_q, res) => json(res, 200, { ok: true }),
    '/reset': (_q, res, raw) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
      res.write('{"partial": "only part of the body, then the socket is reset');
      setTimeout(() => raw.socket.resetAndDestroy(), 20);
    },
    '/hang': () => {},
    '/html': (_q, res) => text(res, 200, '<html><body>maintenance</body></html>', { 'content-type': 'text/html' }),
    '/huge': (_q, res) => sendHuge(res),
    '/latin1': (_q, res) => {
      const body = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
    },
    '/binary': (_q, res) => {
      const body = Buffer.from([0xff, 0xfe, 0xfd, 0x80, 0x81]);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
    },
    '/loop': (_q, res) => void res.writeHead(302, { location: '/loop' }).end(),
    '/flaky': (_q, res) => (++flaky === 1 ? json(res, 503, { error: 'warming up' }) : json(res, 200, { ok: true, attempt: flaky })),
    '/down': (_q, res) => json(res, 503, { error: 'down' }),
    '/widgets': (_q, res) => json(res, 404, { error: 'no such widget: w-17' }),
    '/count': (_q, res) => json(res, 200, { count: 2, state: 'open' }),
    '/empty': (_q, res) => json(res, 200, []),
    '*': (q, res) => {
      const code = /^\/code\/(\d+)$/.exec(q.path);
      if (code) return void res.writeHead(Number(code[1])).end();
      const hop = /^\/hop\/(\d+)$/.exec(q.path);
      if (hop) return void res.writeHead(302, { location: `/hop/${Number(hop[1]) + 1}` }).end();
      json(res, 404, {});
    },
  });
  deadUrl = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(async () => {
  await closeRunners();
  await server.close();
});

/** One resource `f` with the given operations, plus `f.ok`, which nothing can disturb. */
async function faults(ops: Record<string, string>, env: Record<string, string> = {}, options: Parameters<typeof load>[1] = {}) {
  const lines = Object.entries({ ok: '{ path: /ok }', ...ops }).map(([name, yaml]) => `  ${name}: ${yaml}`);
  return load(
    {
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: server.url, dead: deadUrl, ...env }),
      'resources/f.yaml': `name: f\noperations:\n${lines.join('\n')}\n`,
    },
    options,
  );
}

/** Run the faulty operation and f.ok; f.ok must pass whatever happened to the other. */
async function runBeside(op: string, yaml: string, env: Record<string, string> = {}) {
  const { runner } = await faults({ [op]: yaml }, env);
  const started = performance.now();
  const summary = await runner.runMany([`f.${op}`, 'f.ok']);
  const ms = performance.now() - started;
  expect(resultOf(summary, 'f.ok').status).toBe('passed');
  return { result: resultOf(summary, `f.${op}`), summary, ms, runner };
}

describe('network faults', () => {
  it('connection refused: E_CONNECTION_REFUSED naming the origin', async () => {
    // baseUrl is the dead origin (a path rendering to another origin than baseUrl is E_PATH_ORIGIN)
    const { runner } = await faults({ refused: '{ path: /x }' }, { baseUrl: deadUrl });
    const result = resultOf(await runner.runMany(['f.refused']), 'f.refused');
    expect(result.error).toMatchObject({ code: 'E_CONNECTION_REFUSED', message: `connection refused by ${deadUrl}` });
    expect(result.exchanges).toHaveLength(1);
    expect(result.exchanges[0].response).toBeUndefined();
  });

  it('a connection reset in the middle of the body: E_HTTP with the cause', async () => {
    const { result } = await runBeside('reset', '{ path: /reset }');
    expect(result.error?.code).toBe('E_HTTP');
    expect(result.error?.message).toMatch(new RegExp(`^connection (reset|closed) by ${server.url}`));
  });

  it('a server that never answers: E_TIMEOUT at the operation timeout, not the 30 s default', async () => {
    const { result, ms } = await runBeside('hang', '{ path: /hang, timeout: 300 }');
    expect(result.error).toMatchObject({ code: 'E_TIMEOUT', details: { timeoutMs: 300 } });
    expect(result.error?.message).toBe(`no complete response from ${server.url}/hang within 300 ms`);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(3000);
  });

  it('a redirect loop: E_REDIRECT_LOOP, whether the URL repeats or the chain never ends', async () => {
    const { runner } = await faults({ loop: '{ path: /loop }', endless: '{ path: /hop/1 }' });
    const summary = await runner.runMany(['f.loop', 'f.endless', 'f.ok']);
    expect(outcomes(summary)).toEqual([
      ['f.ok', 'passed', undefined],
      ['f.loop', 'failed', 'E_REDIRECT_LOOP'],
      ['f.endless', 'failed', 'E_REDIRECT_LOOP'],
    ]);
    // the messages name the request, not only the server
    expect(resultOf(summary, 'f.loop').error?.message).toMatch(new RegExp(`^redirect loop: ${server.url}/\\S+ redirected back to a URL already visited$`));
    expect(resultOf(summary, 'f.endless').error?.message).toBe(`more than 10 redirects, the last one from ${server.url}/hop/11`);
    expect(server.count('/hop/11')).toBe(1);
    expect(server.count('/hop/12')).toBe(0);
  });
});

describe('the default status check (no expect_status)', () => {
  it('is exactly 2xx: 200 and 299 pass; a 3xx that is not followed, and a 4xx, fail with E_STATUS_MISMATCH', async () => {
    const codes = [200, 299, 300, 304, 399, 404];
    const { runner } = await faults(Object.fromEntries(codes.map((c) => [`s${c}`, `{ path: /code/${c} }`])));
    const summary = await runner.runMany(codes.map((c) => `f.s${c}`));
    expect(outcomes(summary)).toEqual([
      ['f.s200', 'passed', undefined],
      ['f.s299', 'passed', undefined],
      ['f.s300', 'failed', 'E_STATUS_MISMATCH'],
      ['f.s304', 'failed', 'E_STATUS_MISMATCH'],
      ['f.s399', 'failed', 'E_STATUS_MISMATCH'],
      ['f.s404', 'failed', 'E_STATUS_MISMATCH'],
    ]);
    expect(resultOf(summary, 'f.s304').error).toMatchObject({ message: 'expected a 2xx status, got 304', details: { expected: '2xx', actual: 304 } });
  });
});

describe('bodies', () => {
  it('non-JSON where a JSON extraction is asked: E_NOT_JSON with the content type and an excerpt', async () => {
    const { result } = await runBeside('html', '{ path: /html, extract: { id: $.data.id } }');
    expect(result.error?.code).toBe('E_NOT_JSON');
    expect(result.error?.message).toContain('cannot extract "id" with $.data.id');
    expect(result.error?.message).toContain('(text/html)');
    expect(result.error?.details).toMatchObject({ variable: 'id', excerpt: '<html><body>maintenance</body></html>' });
  });

  it('a 50 MB body is cut at the limit (10 MiB), marked, and the rest is not read', async () => {
    const before = process.memoryUsage();
    const { runner } = await faults({ huge: '{ path: /huge }', hugeJson: '{ path: /huge, extract: { id: $.data.id } }' });
    const summary = await runner.runMany(['f.huge', 'f.ok']);
    expect(outcomes(summary)).toEqual([
      ['f.ok', 'passed', undefined],
      ['f.huge', 'passed', undefined],
    ]);
    // the connection was dropped soon after the limit: far less than 50 MB went out
    expect(hugeBytesWritten).toBeLessThan(30 * MB);
    const response = resultOf(summary, 'f.huge').exchanges[0].response!;
    expect(response.body).toMatch(/\(body cut at the size limit\)$/);
    expect(response.body.length).toBeLessThan(3000);
    const json = await runner.run('f.hugeJson');
    expect(json.error?.code).toBe('E_BODY_TRUNCATED');
    expect(json.error?.message).toMatch(/cut at the size limit of 10 MiB/);
    // nothing of the run keeps the bodies: memory grows by far less than the 100 MB sent
    expect(process.memoryUsage().rss - before.rss).toBeLessThan(90 * MB);
  });

  it('invalid UTF-8: read with replacement characters, so an assert fails with the actual value, and bytes that are no JSON give E_NOT_JSON', async () => {
    const { runner } = await faults({
      latin1: `{ path: /latin1, extract: { name: $.data.name }, assert: ["$.data.name == 'café'"] }`,
      binary: '{ path: /binary, extract: { id: $.data.id } }',
    });
    const summary = await runner.runMany(['f.latin1', 'f.binary', 'f.ok']);
    expect(outcomes(summary)).toEqual([
      ['f.ok', 'passed', undefined],
      ['f.latin1', 'failed', 'E_ASSERT_FAILED'],
      ['f.binary', 'failed', 'E_NOT_JSON'],
    ]);
    expect(resultOf(summary, 'f.latin1').error?.details).toMatchObject({ actual: 'caf\uFFFD' });
    // a failed assert keeps what the operation extracted and every assert record
    expect(resultOf(summary, 'f.latin1').extracted).toEqual({ name: 'caf\uFFFD' });
    expect(resultOf(summary, 'f.latin1').asserts).toEqual([
      {
        expr: "$.data.name == 'café'",
        pass: false,
        actual: 'caf\uFFFD',
        expected: '"café"',
        message: expect.any(String),
        loc: { file: expect.stringMatching(/f\.yaml$/), line: 4, col: 69 },
      },
    ]);
    expect(resultOf(summary, 'f.latin1').exchanges[0].response?.body).toBe('{"name":"caf\uFFFD"}');
  });
});

describe('checks', () => {
  it('retry: a 503 then a 200 passes on the second attempt', async () => {
    flaky = 0;
    const { result } = await runBeside('flaky', '{ path: /flaky, retry: { max: 2, backoff: 10 } }');
    expect(result.status).toBe('passed');
    expect(server.count('/flaky')).toBe(2);
    expect(result.exchanges[0].response?.body).toBe('{"ok":true,"attempt":2}');
  });

  it('retry gives up after max + 1 attempts: E_STATUS_MISMATCH on the last 503', async () => {
    const before = server.count('/down');
    const { result } = await runBeside('down', '{ path: /down, retry: { max: 2, backoff: 5 } }');
    expect(result.error).toMatchObject({ code: 'E_STATUS_MISMATCH', details: { actual: 503 } });
    expect(server.count('/down') - before).toBe(3);
  });

  it('E_STATUS_MISMATCH carries the expected and actual status and a body excerpt', async () => {
    const { result } = await runBeside('widget', '{ path: /widgets, expect_status: [200, 201] }');
    expect(result.error).toMatchObject({
      code: 'E_STATUS_MISMATCH',
      message: 'expected one of 200, 201, got 404: {"error":"no such widget: w-17"}',
      details: { expected: [200, 201], actual: 404, body: '{"error":"no such widget: w-17"}' },
    });
  });

  it('E_ASSERT_FAILED carries the expression and the actual value; every assert is reported', async () => {
    const { result } = await runBeside('count', `{ path: /count, assert: ["$.data.state == 'open'", "$.data.count == 3"] }`);
    expect(result.error).toMatchObject({ code: 'E_ASSERT_FAILED', details: { expr: '$.data.count == 3', actual: 2 } });
    // the expression and the actual value, once each
    expect(result.error?.message).toBe('$.data.count == 3 failed: expected 3, actual 2');
    expect(result.asserts.map((a) => [a.expr, a.pass])).toEqual([
      ["$.data.state == 'open'", true],
      ['$.data.count == 3', false],
    ]);
  });

  it('a failed assert record carries the reason when the actual value does not say it', async () => {
    const { result } = await runBeside('count', `{ path: /count, assert: ["$.data.missing == 1", "$.data.count == 3"] }`);
    expect(result.asserts).toEqual([
      {
        expr: '$.data.missing == 1',
        pass: false,
        message: '$.data.missing == 1 failed: nothing at $.data.missing',
        reason: 'nothing at $.data.missing',
        loc: { file: expect.stringMatching(/f\.yaml$/), line: 4, col: 35 },
      },
      {
        expr: '$.data.count == 3',
        pass: false,
        actual: 2,
        expected: '3',
        message: '$.data.count == 3 failed: expected 3, actual 2',
        loc: { file: expect.stringMatching(/f\.yaml$/), line: 4, col: 58 },
      },
    ]);
  });

  it('E_EXTRACT_FAILED names the variable and the path', async () => {
    const { result } = await runBeside('nofield', '{ path: /count, extract: { total: $.data.total } }');
    expect(result.error).toMatchObject({ code: 'E_EXTRACT_FAILED', details: { variable: 'total', path: '$.data.total' } });
  });
});

describe('values that cannot be resolved: nothing is sent', () => {
  it('E_VAR_UNRESOLVED names the variable and the operations that could produce it', async () => {
    const { runner } = await faults({
      list: '{ path: /empty, extract: { id: "$.data[*].id" } }',
      get: '{ path: "/items/{{f.id}}" }',
      typo: '{ path: "/items/{{f.idd}}", depends_on: [f.list] }',
    });
    const summary = await runner.runMany(['f.get', 'f.typo', 'f.ok']);
    const get = resultOf(summary, 'f.get');
    expect(get.error?.code).toBe('E_VAR_UNRESOLVED');
    expect(get.error?.message).toBe('{{f.id}}: nothing has produced f.id yet; produced by f.list');
    expect(get.error?.details).toMatchObject({ variable: 'f.id', producers: ['f.list'] });
    expect(resultOf(summary, 'f.typo').error?.message).toBe('{{f.idd}}: nothing has produced f.idd yet; no operation extracts f.idd');
    expect(resultOf(summary, 'f.ok').status).toBe('passed');
    expect(server.requests.filter((r) => r.path.startsWith('/items/'))).toEqual([]);
  });

  it('a <SET_VIA_--var> value not given: an error naming it and every way to give it, and no request', async () => {
    const { result } = await runBeside('tenant', '{ path: "/tenants/{{env.tenant}}" }', { tenant: '<SET_VIA_--var>' });
    expect(result.error?.code).toBe('E_VAR_UNRESOLVED');
    expect(result.error?.message).toContain('env.tenant is <SET_VIA_--var> and no value was given');
    // not only the CLI's flag: the runner also serves the Vitest plugin
    expect(result.error?.message).toContain("set it with --var tenant=… (flow run), FLOW_VAR_tenant, or the plugin's vars option");
    expect(result.exchanges).toEqual([]);
    expect(server.count('/tenants/')).toBe(0);
    expect(server.requests.filter((r) => r.path.startsWith('/tenants'))).toEqual([]);
  });

  it('a missing secret: E_SECRET_MISSING naming FLOW_SECRET_NAME; no request, also when the variable is empty', async () => {
    const op = '{ path: /secured, headers: { X-Key: "{{secret.REQFLOW_TEST_MISSING}}" } }';
    for (const processEnv of [{}, { FLOW_SECRET_REQFLOW_TEST_MISSING: '' }]) {
      const { runner } = await faults({ secured: op }, {}, { processEnv });
      const summary = await runner.runMany(['f.secured', 'f.ok']);
      const error = resultOf(summary, 'f.secured').error!;
      expect(error.code).toBe('E_SECRET_MISSING');
      expect(error.message).toContain('FLOW_SECRET_REQFLOW_TEST_MISSING');
      expect(resultOf(summary, 'f.ok').status).toBe('passed');
    }
    expect(server.count('/secured')).toBe(0);
  });
});

describe('mistakes a project that skipped lint can hold (the runner is a library too)', () => {
  it('each is a coded error on its own operation, with nothing sent, and the run goes on', async () => {
    const before = server.requests.length;
    const { runner } = await faults({
      template: '{ path: "/x/{{ nope }}" }',
      syntax: '{ path: /count, assert: ["$.data.count ===> 3"] }',
      a: '{ path: /a, depends_on: [f.b] }',
      b: '{ path: /b, depends_on: [f.a] }',
      ghost: '{ path: /ghost, actor: nobody }',
    });
    const summary = await runner.runMany(['f.template', 'f.syntax', 'f.a', 'f.ghost', 'f.missing', 'f.ok']);
    expect(outcomes(summary)).toEqual([
      ['f.ok', 'passed', undefined],
      ['f.template', 'failed', 'E_TEMPLATE_SYNTAX'],
      ['f.syntax', 'failed', 'E_ASSERT_SYNTAX'],
      ['f.ghost', 'failed', 'E_REF_UNDEFINED'],
      // the operations of a cycle come after every other one
      ['f.a', 'skipped', undefined],
      ['f.missing', 'failed', 'E_REF_UNDEFINED'],
    ]);
    expect(resultOf(summary, 'f.a').skippedBecause).toBe('circular dependency: f.a -> f.b -> f.a');
    expect(resultOf(summary, 'f.missing').error?.message).toBe('operation "f.missing" is not defined');
    // only f.ok and the assert-syntax operation (whose response the bad assert then read) reached the server
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(['/ok', '/count']);
  });
});
