// A small project run against Debian's httpbin: a third-party server, not one we wrote.
// Quirks (shared/targets.md §1): /status/500,503 is random (one code here), /delay is capped at 10 s.
import { afterAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/http-server.js';
import { describeHttpbin } from '../helpers/httpbin.js';
import { closeRunners, envFile, load, outcomes, resultOf, ROOT } from './helpers.js';

const BIN = [
  'name: bin',
  'operations:',
  '  post:',
  '    method: POST',
  '    path: /post',
  '    body: { x: 42, id: "{{$.uuid}}" }',
  '    extract: { x: $.data.json.x, id: $.data.json.id }',
  '    assert: ["$.data.headers.Content-Type == \'application/json\'"]',
  '  echo: { path: "/anything/{{bin.x}}", assert: ["$.data.url contains \'/anything/42\'"] }',
  '  set_cookie: { path: /cookies/set, query_params: { sess: abc }, extract: { sess: $.data.cookies.sess } }',
  '  cookies: { path: /cookies, depends_on: [bin.set_cookie], assert: ["$.data.cookies.sess == \'abc\'"] }',
  '  basic: { path: /basic-auth/u/p, actor: u, assert: ["$.data.authenticated == true", "$.data.user == \'u\'"] }',
  '  unavailable: { path: /status/503, retry: { max: 2, backoff: 10 } }',
  '  xml:',
  '    path: /xml',
  '    extract:',
  '      title: { path: "//slide[1]/title", source: xpath }',
  '      show: { path: "/slideshow/@title", source: xpath }',
  '      slides: { path: "count(//slide)", source: xpath }',
  '  slow: { path: /delay/3, timeout: 500 }',
  '  query:',
  '    path: /get',
  '    query_params: { q: "a b", plus: "x+y", amp: "c&d=e", tag: [one, two] }',
  '    extract: { url: $.data.url, args: $.data.args }',
  '',
].join('\n');

let front: TestServer | undefined;
afterAll(async () => {
  await closeRunners();
  await front?.close();
});

describeHttpbin('the runner against httpbin', (hb) => {
  const project = (baseUrl = hb().url) =>
    load(
      {
        'flow.yaml': ROOT,
        'environments/test.yaml': envFile({ baseUrl }),
        'actors/u.yaml': 'name: u\nauth: { strategy: basic, username: u, password: "{{secret.HB_PW}}" }\n',
        'resources/bin.yaml': BIN,
      },
      { secrets: { HB_PW: 'p' } },
    );

  test('JSON body and extraction, a redirect that sets a cookie, basic auth, xpath, and a timeout', async () => {
    const { runner } = await project();
    const started = performance.now();
    const summary = await runner.runMany(['bin.echo', 'bin.cookies', 'bin.basic', 'bin.xml', 'bin.slow']);
    expect(outcomes(summary)).toEqual([
      ['bin.echo', 'passed', undefined],
      ['bin.cookies', 'passed', undefined],
      ['bin.basic', 'passed', undefined],
      ['bin.xml', 'passed', undefined],
      ['bin.slow', 'failed', 'E_TIMEOUT'],
    ]);
    // $.data.json.x came back from httpbin's echo of our JSON body, and fed the next path
    const post = runner.result('bin.post')!;
    expect(post.extracted).toEqual({ x: 42, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(resultOf(summary, 'bin.echo').exchanges[0].request.url).toBe(`${hb().url}/anything/42`);
    // /cookies/set answers 302 to /cookies with Set-Cookie: the redirect is followed, the cookie kept
    const set = runner.result('bin.set_cookie')!;
    expect(set.extracted).toEqual({ sess: 'abc' });
    expect(set.exchanges[0].response?.status).toBe(200);
    expect(runner.values('bin', 1)).toMatchObject({ x: 42, sess: 'abc' });
    expect(resultOf(summary, 'bin.basic').exchanges[0].request.headers.Authorization).toBe('Basic ***');
    expect(resultOf(summary, 'bin.xml').extracted).toEqual({ title: 'Wake up to WonderWidgets!', show: 'Sample Slide Show', slides: 2 });
    expect(resultOf(summary, 'bin.slow').error?.details).toMatchObject({ timeoutMs: 500 });
    // /delay/3 was given up on at 500 ms
    expect(performance.now() - started).toBeLessThan(2500);
  });

  test('query_params are percent-encoded as encodeURIComponent does (a space is %20, never +) and arrive as written', async () => {
    const { runner } = await project();
    const r = await runner.run('bin.query');
    expect(r.status).toBe('passed');
    // httpbin echoes the URL as it got it (a space stays %20, a `+` would stay `+`) and the decoded args
    expect(r.extracted.url).toBe(`${hb().url}/get?q=a%20b&plus=x+y&amp=c%26d%3De&tag=one&tag=two`);
    expect(r.extracted.args).toEqual({ q: 'a b', plus: 'x+y', amp: 'c&d=e', tag: ['one', 'two'] });
    expect(r.exchanges[0].request.url).toBe(`${hb().url}/get?q=a%20b&plus=x%2By&amp=c%26d%3De&tag=one&tag=two`);
  });

  test('retry on /status/503 gives up after max + 1 attempts with E_STATUS_MISMATCH (counted in front of httpbin)', async () => {
    // a recording pass-through in front of httpbin, to count the attempts that reached it
    front = await startServer({
      '*': async (q, res) => {
        const upstream = await fetch(`${hb().url}${q.url}`, { method: q.method });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' });
        res.end(Buffer.from(await upstream.arrayBuffer()));
      },
    });
    const { runner } = await project(front.url);
    const r = await runner.run('bin.unavailable');
    expect(r.error).toMatchObject({ code: 'E_STATUS_MISMATCH', details: { actual: 503, expected: '2xx' } });
    expect(front.count('GET /status/503')).toBe(3);
  });
});
