// The HTTP client against a real node:http server that records what it received.
import { gzipSync } from 'node:zlib';

const BOMB_BYTES = 4 * 1024 * 1024;
const BOMB = gzipSync(Buffer.alloc(BOMB_BYTES, 'a'));
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HTTP_METHODS } from '../../src/project/types.js';
import { buildBody, buildUrl, CookieJar, createHttpClient, type HttpClient } from '../../src/http/index.js';
import { closedPort, json, startServer, text, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let srv: TestServer;
let client: HttpClient;
const attempts = new Map<string, number[]>(); // route -> attempt times (ms)

function attempt(key: string): number {
  const list = attempts.get(key) ?? [];
  list.push(performance.now());
  attempts.set(key, list);
  return list.length;
}

beforeAll(async () => {
  srv = await startServer({
    '/echo': (req, res) => json(res, 200, { method: req.method, query: Object.fromEntries(req.query), headers: req.headers, body: req.text() }),
    'HEAD /echo': (_req, res) => {
      res.writeHead(200, { 'x-head': 'yes' });
      res.end();
    },
    '/text': (_req, res) => text(res, 200, '<html>not json</html>', { 'content-type': 'text/html' }),
    '/empty': (_req, res) => text(res, 204, ''),
    '/bad-utf8': (_req, res) => text(res, 200, Buffer.from([0x61, 0xff, 0xfe, 0x62])),
    '/latin1': (_req, res) => text(res, 200, Buffer.from([0x63, 0x61, 0x66, 0xe9]), { 'content-type': 'text/plain; charset=iso-8859-1' }),
    '/gzip': (_req, res) => {
      const body = gzipSync(JSON.stringify({ zipped: true }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
    },
    '/gzip-bomb': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': BOMB.length });
      res.end(BOMB);
    },
    '/bad-gzip': (_req, res) => text(res, 200, 'not gzip at all', { 'content-type': 'text/plain', 'content-encoding': 'gzip' }),
    '/odd-encoding': (req, res) => text(res, 200, '{"plain":true}', { 'content-type': 'application/json', 'content-encoding': String(req.query.get('name')) }),
    '/never': () => {}, // accepts, never answers
    '/stall-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 });
      res.write('{"partial":'); // then nothing
    },
    '/reset-mid-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
      res.write('{"a":"'.padEnd(200, 'x'), () => setTimeout(() => res.socket?.resetAndDestroy(), 20));
    },
    '/flaky': (req, res) => {
      const n = attempt(`flaky-${req.query.get('id')}`);
      if (n <= Number(req.query.get('fail') ?? 2)) return json(res, 503, { attempt: n });
      json(res, 200, { attempt: n, body: req.text() });
    },
    '/limited': (req, res) => {
      const n = attempt(`limited-${req.query.get('id')}`);
      if (n === 1) return json(res, 429, { attempt: n }, { 'retry-after': '1' });
      json(res, 200, { attempt: n });
    },
    '/hang-once': (req, res) => {
      const n = attempt(`hang-${req.query.get('id')}`);
      if (n > 1) json(res, 200, { attempt: n });
    },
    '/redirect': (req, res) => {
      res.writeHead(Number(req.query.get('status')), { location: '/echo?from=redirect' });
      res.end();
    },
    '/loop-a': (_req, res) => {
      res.writeHead(302, { location: '/loop-b' });
      res.end();
    },
    '/loop-b': (_req, res) => {
      res.writeHead(302, { location: '/loop-a' });
      res.end();
    },
    '/forever': (req, res) => {
      res.writeHead(302, { location: `/forever?n=${Number(req.query.get('n') ?? 0) + 1}` });
      res.end();
    },
    'POST /login': (_req, res) => json(res, 200, { ok: true }, { 'set-cookie': ['sid=abc123; Path=/; HttpOnly', 'theme=dark; Path=/'] }),
    '/logout': (_req, res) => json(res, 200, { ok: true }, { 'set-cookie': 'sid=; Path=/; Max-Age=0' }),
    '/set-and-redirect': (_req, res) => {
      res.writeHead(302, { location: '/echo?after=cookie', 'set-cookie': 'hop=1; Path=/' });
      res.end();
    },
    '/big': (req, res) => streamBytes(res, Number(req.query.get('mb')) * 1024 * 1024, req.query.get('chunked') !== '1'),
  });
  client = createHttpClient();
});

afterAll(async () => {
  await client.close();
  await srv.close();
  await cleanProjects();
});

/** Stream `total` bytes of JSON-ish filler without holding them: one 64 KiB chunk, reused, with back-pressure. */
function streamBytes(res: import('node:http').ServerResponse, total: number, withLength: boolean): void {
  res.writeHead(200, { 'content-type': 'application/json', ...(withLength ? { 'content-length': total } : {}) });
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const pump = (): void => {
    while (sent < total) {
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => (sent = total)); // the client went away: stop
  pump();
}

const get = (path: string, extra: Partial<Parameters<HttpClient['send']>[0]> = {}) =>
  client.send({ method: 'GET', url: `${srv.url}${path}`, headers: {}, ...extra });

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected the request to fail');
}

describe('request shape', () => {
  test.each(HTTP_METHODS.filter((m) => m !== 'HEAD'))('%s reaches the server with its method', async (method) => {
    const res = await client.send({ method, url: `${srv.url}/echo`, headers: {} });
    expect(res.status).toBe(200);
    expect((res.json() as { method: string }).method).toBe(method);
  });

  test('HEAD gets headers and an empty body', async () => {
    const res = await client.send({ method: 'HEAD', url: `${srv.url}/echo`, headers: {} });
    expect(res.status).toBe(200);
    expect(res.headers['x-head']).toBe('yes');
    expect(res.body.length).toBe(0);
  });

  test('headers are sent as given, with a default User-Agent unless one is set', async () => {
    const a = (await get('/echo', { headers: { 'X-Trace': 't-1', Accept: 'application/json' } })).json() as { headers: Record<string, string> };
    expect(a.headers['x-trace']).toBe('t-1');
    expect(a.headers.accept).toBe('application/json');
    expect(a.headers['user-agent']).toBe('reqflow');
    const b = (await get('/echo', { headers: { 'User-Agent': 'mine/1' } })).json() as { headers: Record<string, string> };
    expect(b.headers['user-agent']).toBe('mine/1');
  });

  test('query parameters built by buildUrl arrive decoded as sent', async () => {
    const url = buildUrl(`${srv.url}/`, '/echo?fixed=1', { q: 'a b&c', tag: ['x', 'y'], n: 5, skip: null });
    const res = await client.send({ method: 'GET', url, headers: {} });
    const last = srv.requests.at(-1)!;
    expect(last.query.get('fixed')).toBe('1');
    expect(last.query.get('q')).toBe('a b&c');
    expect(last.query.getAll('tag')).toEqual(['x', 'y']);
    expect(last.query.get('n')).toBe('5');
    expect(last.query.has('skip')).toBe(false);
    expect(res.url).toBe(url);
  });

  test('response headers have lower-case names; repeated ones are lists', async () => {
    const res = await client.send({ method: 'POST', url: `${srv.url}/login`, headers: {} });
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['set-cookie']).toEqual(['sid=abc123; Path=/; HttpOnly', 'theme=dark; Path=/']);
    expect(res.cookies).toEqual({ sid: 'abc123', theme: 'dark' });
    expect(res.statusText).toBe('OK');
    expect(res.ms).toBeGreaterThan(0);
  });
});

describe('request bodies', () => {
  test('a JSON body is sent as JSON with its Content-Type', async () => {
    const built = await buildBody({ body: { name: 'Ann', tags: ['a'], n: 1.5 }, headers: { 'X-A': '1' } }, '/nowhere');
    await client.send({ method: 'POST', url: `${srv.url}/echo`, headers: built.headers, body: built.body });
    const got = srv.requests.at(-1)!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-a']).toBe('1');
    expect(got.json()).toEqual({ name: 'Ann', tags: ['a'], n: 1.5 });
  });

  test("a user's Content-Type is kept, and a string body with a non-JSON type goes as it is", async () => {
    const built = await buildBody({ body: '<a>1</a>', headers: { 'Content-Type': 'application/xml' } }, '/nowhere');
    await client.send({ method: 'PUT', url: `${srv.url}/echo`, headers: built.headers, body: built.body });
    const got = srv.requests.at(-1)!;
    expect(got.headers['content-type']).toBe('application/xml');
    expect(got.text()).toBe('<a>1</a>');
  });

  test('body_form without files is urlencoded', async () => {
    const built = await buildBody({ bodyForm: { user: 'ann lee', n: 3, tags: ['a', 'b'], empty: null }, headers: {} }, '/nowhere');
    await client.send({ method: 'POST', url: `${srv.url}/echo`, headers: built.headers, body: built.body });
    const got = srv.requests.at(-1)!;
    expect(got.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(got.text()).toBe('user=ann+lee&n=3&tags=a&tags=b&empty=');
  });

  test('body_form with @./file is multipart; the server gets the file bytes and the fields', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10, 0x0a]);
    const dir = await writeProject({ 'files/logo.png': bytes, 'flow.yaml': 'version: 1\n' });
    const built = await buildBody({ bodyForm: { title: 'Logo', file: '@./files/logo.png' }, headers: { 'Content-Type': 'multipart/form-data' } }, dir);
    expect(Object.keys(built.headers)).not.toContain('Content-Type'); // the boundary is ours to set
    const res = await client.send({ method: 'POST', url: `${srv.url}/echo`, headers: built.headers, body: built.body, retry: { max: 1, backoffMs: 1 } });
    expect(res.status).toBe(200);
    const got = srv.requests.at(-1)!;
    expect(String(got.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    const form = await got.formData();
    expect(form.get('title')).toBe('Logo');
    const file = form.get('file') as File;
    expect(file.name).toBe('logo.png');
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
  });
});

describe('responses', () => {
  test('text() replaces invalid UTF-8; body keeps the bytes', async () => {
    const res = await get('/bad-utf8');
    expect(res.text()).toBe('a\uFFFD\uFFFDb');
    expect([...res.body]).toEqual([0x61, 0xff, 0xfe, 0x62]);
  });

  test('text() honours a charset in Content-Type', async () => {
    expect((await get('/latin1')).text()).toBe('café');
  });

  test('json() on a non-JSON body throws E_NOT_JSON with a short excerpt', async () => {
    const res = await get('/text');
    expect(res.status).toBe(200);
    const err = (() => {
      try {
        res.json();
      } catch (e) {
        return e as { code: string; message: string; details: { excerpt: string } };
      }
    })();
    expect(err?.code).toBe('E_NOT_JSON');
    expect(err?.message).toContain('text/html');
    expect(err?.details.excerpt).toBe('<html>not json</html>');
  });

  test('an empty body is not JSON either', async () => {
    const res = await get('/empty');
    expect(res.status).toBe(204);
    expect(() => res.json()).toThrow(expect.objectContaining({ code: 'E_NOT_JSON' }));
  });

  test('a gzip body is decoded', async () => {
    expect((await get('/gzip')).json()).toEqual({ zipped: true });
  });

  test('a body over the limit once decoded is cut at the limit and marked truncated; under it, whole', async () => {
    // 4 MiB of `a` in ~4 KB of gzip: the cap counts decoded bytes, not the bytes on the wire
    const small = createHttpClient({ maxBodyBytes: 64 * 1024, proxyFromEnv: false });
    const roomy = createHttpClient({ maxBodyBytes: 8 * 1024 * 1024, proxyFromEnv: false });
    try {
      const cut = await small.send({ method: 'GET', url: `${srv.url}/gzip-bomb`, headers: {} });
      expect(cut.truncated).toBe(true);
      expect(cut.body.length).toBe(64 * 1024);
      expect(cut.body.every((b) => b === 0x61)).toBe(true);
      expect(() => cut.text()).not.toThrow();
      const whole = await roomy.send({ method: 'GET', url: `${srv.url}/gzip-bomb`, headers: {} });
      expect(whole.truncated).toBe(false);
      expect(whole.body.length).toBe(BOMB_BYTES);
    } finally {
      await Promise.all([small.close(), roomy.close()]);
    }
  });

  test('a body not valid for its encoding is kept as received', async () => {
    expect((await get('/bad-gzip')).text()).toBe('not gzip at all');
  });

  test.each(['__proto__', 'constructor', 'toString'])('an encoding named %s (no decoder of ours) leaves the body as received', async (name) => {
    expect((await get(`/odd-encoding?name=${name}`, { timeoutMs: 2000 })).json()).toEqual({ plain: true });
  });
});

describe('faults become coded errors', () => {
  test('a server that never answers: E_TIMEOUT after the timeout', async () => {
    const t0 = performance.now();
    const err = await failure(get('/never', { timeoutMs: 300 }));
    expect(err.code).toBe('E_TIMEOUT');
    expect(err.details?.timeoutMs).toBe(300);
    expect(err.message).toContain('300 ms');
    const took = performance.now() - t0;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(2000);
  });

  test('headers then a stalled body: E_TIMEOUT too', async () => {
    const t0 = performance.now();
    const err = await failure(get('/stall-body', { timeoutMs: 300 }));
    expect(err.code).toBe('E_TIMEOUT');
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  test('a closed port: E_CONNECTION_REFUSED', async () => {
    const port = await closedPort();
    const err = await failure(client.send({ method: 'GET', url: `http://127.0.0.1:${port}/x?token=secret`, headers: {} }));
    expect(err.code).toBe('E_CONNECTION_REFUSED');
    expect(err.message).toBe(`connection refused by http://127.0.0.1:${port}`); // no path, no query
  });

  test('a reset in the middle of the body: E_HTTP naming the cause', async () => {
    const err = await failure(get('/reset-mid-body'));
    expect(err.code).toBe('E_HTTP');
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(err.details?.cause);
    expect(err.message).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
  });

  test('an unknown host: E_HTTP with the DNS code', async () => {
    const err = await failure(client.send({ method: 'GET', url: 'http://no-such-host.invalid/', headers: {}, timeoutMs: 5000 }));
    expect(err.code).toBe('E_HTTP');
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(err.details?.cause);
  });

  test('a bad URL: E_HTTP, not a throw', async () => {
    expect((await failure(client.send({ method: 'GET', url: 'not a url', headers: {} }))).code).toBe('E_HTTP');
    expect((await failure(client.send({ method: 'GET', url: 'ftp://x/', headers: {} }))).code).toBe('E_HTTP');
  });

  test('an invalid header value: E_HTTP, without the value in the message', async () => {
    const err = await failure(get('/echo', { headers: { 'X-Bad': 'line\r\nbreak-secret' } }));
    expect(err.code).toBe('E_HTTP');
    expect(err.message).not.toContain('secret');
  });

  test('close() with a request in flight: it ends with E_ABORTED, and close does not wait for it', async () => {
    const own = createHttpClient();
    const pending = failure(own.send({ method: 'GET', url: `${srv.url}/never`, headers: {} }));
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    await own.close();
    expect(performance.now() - t0).toBeLessThan(1000);
    expect((await pending).code).toBe('E_ABORTED');
    expect((await failure(own.send({ method: 'GET', url: `${srv.url}/echo`, headers: {} }))).code).toBe('E_HTTP');
  });

  test('an aborted signal: E_ABORTED', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    expect((await failure(get('/never', { signal: ac.signal }))).code).toBe('E_ABORTED');
  });
});

describe('retry', () => {
  test('503 twice then 200: three attempts, backoff doubling', async () => {
    const res = await get('/flaky?id=a&fail=2', { retry: { max: 3, backoffMs: 100 } });
    expect(res.status).toBe(200);
    const times = attempts.get('flaky-a')!;
    expect(times).toHaveLength(3);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(90);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(190);
  });

  test('POST is retried when the operation has retry, with its body each time', async () => {
    const res = await client.send({
      method: 'POST',
      url: `${srv.url}/flaky?id=b&fail=1`,
      headers: { 'content-type': 'application/json' },
      body: '{"x":1}',
      retry: { max: 2, backoffMs: 10 },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ attempt: 2, body: '{"x":1}' });
    expect(srv.requests.filter((r) => r.url === '/flaky?id=b&fail=1').map((r) => r.text())).toEqual(['{"x":1}', '{"x":1}']);
  });

  test('without retry: one attempt, the 503 is the answer', async () => {
    const res = await client.send({ method: 'POST', url: `${srv.url}/flaky?id=c&fail=1`, headers: {} });
    expect(res.status).toBe(503);
    expect(attempts.get('flaky-c')).toHaveLength(1);
  });

  test('retries used up: the last 503 is returned (for expect_status), after max + 1 attempts', async () => {
    const res = await get('/flaky?id=d&fail=9', { retry: { max: 2, backoffMs: 10 } });
    expect(res.status).toBe(503);
    expect(res.json()).toEqual({ attempt: 3 });
    expect(attempts.get('flaky-d')).toHaveLength(3);
  });

  test('a multipart upload is sent whole again on a retry', async () => {
    const dir = await writeProject({ 'f.bin': Buffer.from([1, 2, 3, 250]) });
    const built = await buildBody({ bodyForm: { f: '@./f.bin' }, headers: {} }, dir);
    const res = await client.send({
      method: 'POST',
      url: `${srv.url}/flaky?id=m&fail=1`,
      headers: built.headers,
      body: built.body,
      retry: { max: 1, backoffMs: 1 },
    });
    expect(res.status).toBe(200);
    const sent = srv.requests.filter((r) => r.url === '/flaky?id=m&fail=1');
    expect(sent).toHaveLength(2);
    for (const r of sent) expect(Buffer.from(await ((await r.formData()).get('f') as File).arrayBuffer())).toEqual(Buffer.from([1, 2, 3, 250]));
  });

  test('429 with Retry-After: 1 waits a second', async () => {
    const res = await get('/limited?id=a', { retry: { max: 2, backoffMs: 10 } });
    expect(res.status).toBe(200);
    const [first, second] = attempts.get('limited-a')!;
    expect(second - first).toBeGreaterThanOrEqual(950);
  });

  test('a timed-out attempt is retried', async () => {
    const res = await get('/hang-once?id=a', { timeoutMs: 200, retry: { max: 1, backoffMs: 10 } });
    expect(res.json()).toEqual({ attempt: 2 });
  });

  test('connection refused is retried, then reported', async () => {
    const port = await closedPort();
    const t0 = performance.now();
    const err = await failure(client.send({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {}, retry: { max: 2, backoffMs: 50 } }));
    expect(err.code).toBe('E_CONNECTION_REFUSED');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140); // 50 + 100
  });
});

describe('redirects', () => {
  test.each([
    [302, 'GET', ''],
    [303, 'GET', ''],
    [301, 'GET', ''],
    [307, 'POST', '{"keep":true}'],
    [308, 'POST', '{"keep":true}'],
  ])('POST answered %i: the target gets %s', async (status, method, body) => {
    const res = await client.send({
      method: 'POST',
      url: `${srv.url}/redirect?status=${status}`,
      headers: { 'content-type': 'application/json' },
      body: '{"keep":true}',
    });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${srv.url}/echo?from=redirect`);
    const got = srv.requests.at(-1)!;
    expect(got.url).toBe('/echo?from=redirect');
    expect(got.method).toBe(method);
    expect(got.text()).toBe(body);
  });

  test('a redirect to another origin: refused unless its host is allowed; there credentials do not follow, other headers do, and same-origin hops keep them', async () => {
    const other = await startServer({ '/echo': (req, res) => json(res, 200, { headers: req.headers }) });
    const away = await startServer({
      '/away': (req, res) => {
        res.writeHead(302, { location: req.query.get('to')! });
        res.end();
      },
    });
    try {
      const headers = { Authorization: 'Bearer t-1', 'X-Api-Key': 'k-1', 'X-Shop': 's-1', 'X-Trace': 'tr-1', Cookie: 'sid=1' };
      const redirectHosts = [new URL(other.url).host];
      const send = (to: string, allowed = redirectHosts) =>
        client.send({ method: 'GET', url: `${away.url}/away?to=${encodeURIComponent(to)}`, headers, credentialHeaders: ['x-shop'], redirectHosts: allowed });
      // a host not allowed: not followed at all
      expect((await failure(send(`${other.url}/echo`, []))).code).toBe('E_REDIRECT_ORIGIN');
      expect(other.requests).toEqual([]);
      await send(`${other.url}/echo`);
      const there = other.requests.at(-1)!.headers;
      expect(there['x-trace']).toBe('tr-1');
      for (const name of ['authorization', 'x-api-key', 'x-shop', 'cookie']) expect(there[name], name).toBeUndefined();
      expect(away.requests.at(-1)!.headers['x-shop']).toBe('s-1'); // the first hop had them all
      await send('/away?to=/nowhere'); // same origin: a 404 at the end, with every header
      expect(away.requests.at(-1)!.headers).toMatchObject({ authorization: 'Bearer t-1', 'x-api-key': 'k-1', 'x-shop': 's-1' });
    } finally {
      await other.close();
      await away.close();
    }
  });

  test('a loop A -> B -> A: E_REDIRECT_LOOP', async () => {
    expect((await failure(get('/loop-a'))).code).toBe('E_REDIRECT_LOOP');
  });

  test('more redirects than the limit: E_REDIRECT_LOOP', async () => {
    const err = await failure(get('/forever'));
    expect(err.code).toBe('E_REDIRECT_LOOP');
    expect(err.message).toContain('more than 10 redirects');
    expect(srv.count('/forever')).toBe(11);
  });

  test('with retry configured: redirects are followed, loops still caught', async () => {
    const retry = { max: 2, backoffMs: 1 };
    const res = await client.send({ method: 'POST', url: `${srv.url}/redirect?status=307`, headers: {}, body: 'x', retry });
    expect(res.url).toBe(`${srv.url}/echo?from=redirect`);
    expect(srv.requests.at(-1)!.text()).toBe('x');
    expect((await failure(get('/loop-a', { retry }))).code).toBe('E_REDIRECT_LOOP');
    expect((await failure(get('/forever', { retry }))).code).toBe('E_REDIRECT_LOOP');
  });

  test('maxRedirections: 0 returns the 3xx itself', async () => {
    const raw = createHttpClient({ maxRedirections: 0 });
    try {
      const res = await raw.send({ method: 'GET', url: `${srv.url}/redirect?status=302`, headers: {} });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/echo?from=redirect');
    } finally {
      await raw.close();
    }
  });
});

describe('cookies', () => {
  test('a cookie set at login is sent on the next request of the same jar only', async () => {
    const jar = new CookieJar();
    await client.send({ method: 'POST', url: `${srv.url}/login`, headers: {}, cookieJar: jar });
    await get('/echo?n=1', { cookieJar: jar });
    expect(srv.requests.at(-1)!.headers.cookie).toBe('sid=abc123; theme=dark');
    await get('/echo?n=2', { cookieJar: new CookieJar() });
    expect(srv.requests.at(-1)!.headers.cookie).toBeUndefined();
    await get('/echo?n=3', { cookieJar: jar, headers: { Cookie: 'own=1' } });
    expect(srv.requests.at(-1)!.headers.cookie).toBe('own=1; sid=abc123; theme=dark');
  });

  test('cookies are per host: 127.0.0.1 cookies do not go to localhost', async () => {
    const jar = new CookieJar();
    await client.send({ method: 'POST', url: `${srv.url}/login`, headers: {}, cookieJar: jar });
    await client.send({ method: 'GET', url: `http://localhost:${srv.port}/echo`, headers: {}, cookieJar: jar });
    expect(srv.requests.at(-1)!.headers.cookie).toBeUndefined();
  });

  test('an expired cookie (Max-Age=0) is removed', async () => {
    const jar = new CookieJar();
    await client.send({ method: 'POST', url: `${srv.url}/login`, headers: {}, cookieJar: jar });
    await get('/logout', { cookieJar: jar });
    await get('/echo', { cookieJar: jar });
    expect(srv.requests.at(-1)!.headers.cookie).toBe('theme=dark');
  });

  test('a cookie set by a redirect is sent on the next hop and kept in the jar', async () => {
    const jar = new CookieJar();
    const res = await get('/set-and-redirect', { cookieJar: jar });
    expect(res.url).toBe(`${srv.url}/echo?after=cookie`);
    expect(srv.requests.at(-1)!.headers.cookie).toBe('hop=1');
    expect(res.cookies).toEqual({ hop: '1' });
    expect(jar.valuesFor(srv.url)).toEqual({ hop: '1' });
  });
});

describe('large bodies', () => {
  /** Track the peak of Buffer memory while `fn` runs. */
  async function peakBuffers<T>(fn: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
    globalThis.gc?.();
    const base = process.memoryUsage().arrayBuffers;
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 2);
    try {
      const value = await fn();
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      return { value, peakMb: (peak - base) / 1024 / 1024 };
    } finally {
      clearInterval(timer);
    }
  }

  test('a 50 MB body is cut at the 10 MiB default: truncated, not read further, json() says why', async () => {
    const { value: res, peakMb } = await peakBuffers(() => get('/big?mb=50'));
    expect(res.status).toBe(200);
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(10 * 1024 * 1024);
    expect(() => res.json()).toThrow(expect.objectContaining({ code: 'E_BODY_TRUNCATED' }));
    expect(peakMb).toBeLessThan(30); // 10 MiB kept, plus chunks not yet collected; never the 50 MB
  });

  test('chunked (no Content-Length) 50 MB body: cut the same way', async () => {
    const res = await get('/big?mb=50&chunked=1');
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(10 * 1024 * 1024);
  });

  test('with a higher limit the 50 MB body is read whole, held once', async () => {
    const big = createHttpClient({ maxBodyBytes: 64 * 1024 * 1024 });
    try {
      const { value: res, peakMb } = await peakBuffers(() => big.send({ method: 'GET', url: `${srv.url}/big?mb=50`, headers: {} }));
      expect(res.truncated).toBe(false);
      expect(res.body.length).toBe(50 * 1024 * 1024);
      expect(peakMb).toBeLessThan(80); // 50 MB once, plus socket buffers in flight; not twice
    } finally {
      await big.close();
    }
  });
});
