// A few real calls to Debian's httpbin: a third-party server, not one we wrote.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { evaluateAssert, parseAssert } from '../../src/runtime/assert/index.js';
import { extractAll } from '../../src/runtime/extract/index.js';
import { buildBody, buildUrl, CookieJar, createHttpClient, type HttpClient } from '../../src/http/index.js';
import { describeHttpbin } from '../helpers/httpbin.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

describeHttpbin('httpbin', (hb) => {
  let client: HttpClient;
  beforeAll(() => {
    client = createHttpClient({ proxyFromEnv: false });
  });
  afterAll(async () => {
    await client.close();
    await cleanProjects();
  });

  test('GET /get with query parameters', async () => {
    const res = await client.send({ method: 'GET', url: buildUrl(hb().url, '/get', { q: 'a b', n: 2 }), headers: { 'X-Test': 'yes' } });
    expect(res.status).toBe(200);
    const body = res.json() as { args: Record<string, string>; headers: Record<string, string> };
    expect(body.args).toEqual({ q: 'a b', n: '2' });
    expect(body.headers['X-Test']).toBe('yes');
    expect(body.headers['User-Agent']).toBe('reqflow');
  });

  test('POST /post with form fields and a file (multipart)', async () => {
    const dir = await writeProject({ 'uploads/note.txt': 'hello from a file\n' });
    const built = await buildBody({ bodyForm: { name: 'Ann', doc: '@./uploads/note.txt' }, headers: {} }, dir);
    const res = await client.send({ method: 'POST', url: `${hb().url}/post`, headers: built.headers, body: built.body });
    expect(res.status).toBe(200);
    const body = res.json() as { form: Record<string, string>; files: Record<string, string> };
    expect(body.form).toEqual({ name: 'Ann' });
    expect(body.files).toEqual({ doc: 'hello from a file\n' });
  });

  test('POST /post with a JSON body', async () => {
    const built = await buildBody({ body: { a: [1, 2] }, headers: {} }, '/nowhere');
    const res = await client.send({ method: 'POST', url: `${hb().url}/post`, headers: built.headers, body: built.body });
    expect((res.json() as { json: unknown }).json).toEqual({ a: [1, 2] });
  });

  test('/cookies/set redirects to /cookies: the cookies go along and stay in the jar', async () => {
    const jar = new CookieJar();
    const res = await client.send({ method: 'GET', url: `${hb().url}/cookies/set?sess=abc&theme=dark`, headers: {}, cookieJar: jar });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${hb().url}/cookies`);
    expect(res.json()).toEqual({ cookies: { sess: 'abc', theme: 'dark' } });
    expect(res.cookies).toEqual({ sess: 'abc', theme: 'dark' });
    const again = await client.send({ method: 'GET', url: `${hb().url}/cookies`, headers: {}, cookieJar: jar });
    expect(again.json()).toEqual({ cookies: { sess: 'abc', theme: 'dark' } });
  });

  test('/status/503 with retry: retried with backoff, then the 503 is returned', async () => {
    const t0 = performance.now();
    const res = await client.send({ method: 'GET', url: `${hb().url}/status/503`, headers: {}, retry: { max: 2, backoffMs: 50 } });
    expect(res.status).toBe(503);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145); // 50 + 100 ms of waiting
  });

  test('/delay/3 with a 500 ms timeout: E_TIMEOUT well before 3 s', async () => {
    const t0 = performance.now();
    const err = await client.send({ method: 'GET', url: `${hb().url}/delay/3`, headers: {}, timeoutMs: 500 }).then(
      () => undefined,
      (e: { code: string }) => e,
    );
    expect(err?.code).toBe('E_TIMEOUT');
    expect(performance.now() - t0).toBeLessThan(2500);
  });

  test('/xml: xpath extraction and an assert on the status', async () => {
    const res = await client.send({ method: 'GET', url: `${hb().url}/xml`, headers: {} });
    const out = extractAll(
      [
        { name: 'title', source: 'xpath', path: '/slideshow/@title' },
        { name: 'slides', source: 'xpath', path: 'count(//slide)' },
        { name: 'firstSlide', source: 'xpath', path: '//slide[1]/title' },
      ],
      res,
    );
    expect(out).toEqual({ values: { title: 'Sample Slide Show', slides: 2, firstSlide: 'Wake up to WonderWidgets!' }, many: {}, errors: [] });
    expect(evaluateAssert(parseAssert("$.headers.Content-Type == 'application/xml'"), res).pass).toBe(true);
  });

  test('/gzip is decoded; /redirect/3 ends at /get', async () => {
    const gz = await client.send({ method: 'GET', url: `${hb().url}/gzip`, headers: {} });
    expect((gz.json() as { gzipped: boolean }).gzipped).toBe(true);
    const r = await client.send({ method: 'GET', url: `${hb().url}/redirect/3`, headers: {} });
    expect(r.status).toBe(200);
    expect(r.url).toBe(`${hb().url}/get`);
  });

  test('/response-headers: header extraction is case-insensitive', async () => {
    const res = await client.send({ method: 'GET', url: `${hb().url}/response-headers?X-Order-Id=ord_7`, headers: {} });
    expect(extractAll([{ name: 'order', source: 'jsonpath', path: '$.headers.x-order-id' }], res).values).toEqual({ order: 'ord_7' });
  });
});
