// pre_request / post_response hooks through the runner: they run isolated in workers; what
// they change reaches the server, what they return reaches later operations, and a hook that
// throws or never ends fails its own operation with E_HOOK, nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import type { RunnerOptions } from '../../src/runner/types.js';
import { closeRunners, envFile, load, outcomes, resultOf, ROOT } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    'POST /things': (_q, res) => json(res, 201, { id: 41 + server.count('POST /things') }),
    '*': (q, res) => json(res, 200, { path: q.path }),
  });
});
afterAll(async () => {
  await closeRunners();
  await server.close();
});

function project(operations: string[], extra: Record<string, string> = {}, options: number | RunnerOptions = {}) {
  return load(
    {
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: server.url }),
      'resources/things.yaml': ['name: thing', 'operations:', '  ok: { path: /ok }', ...operations, ''].join('\n'),
      ...extra,
    },
    typeof options === 'number' ? { hookTimeoutMs: options } : options,
  );
}

/** The things resource with these operations, and env.apiKey holding the secret API_KEY. */
function withSecretKey(key: string, operations: string[]) {
  return load(
    {
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: server.url, apiKey: '!secret API_KEY' }),
      'resources/things.yaml': ['name: thing', 'operations:', ...operations, ''].join('\n'),
    },
    { secrets: { API_KEY: key } },
  );
}

describe('hooks through the runner', () => {
  it('pre_request changes a header the server sees (inline and from a file of the project)', async () => {
    const { runner } = await project(
      [
        '  signed:',
        '    method: POST',
        '    path: /signed',
        '    headers: { X-Signature: unsigned }',
        '    body: { n: 1 }',
        "    pre_request: \"ctx.request.headers['X-Signature'] = 'sig-' + ctx.request.method + '-' + ctx.request.body.length\"",
        '  filed: { path: /filed, pre_request: ./hooks/stamp.js }',
      ],
      { 'hooks/stamp.js': "export default function (ctx) {\n  ctx.request.headers['x-stamp'] = ctx.operation;\n}\n" },
    );
    const summary = await runner.runMany(['thing.signed', 'thing.filed']);
    expect(outcomes(summary)).toEqual([
      ['thing.signed', 'passed', undefined],
      ['thing.filed', 'passed', undefined],
    ]);
    const signed = server.requests.filter((r) => r.path === '/signed').at(-1)!;
    expect(signed.headers['x-signature']).toBe('sig-POST-7');
    expect(signed.json()).toEqual({ n: 1 });
    expect(server.requests.filter((r) => r.path === '/filed').at(-1)!.headers['x-stamp']).toBe('thing.filed');
  });

  it('post_response stores a value that a later operation reads as {{resource.x}}', async () => {
    const { runner } = await project([
      '  create:',
      '    method: POST',
      '    path: /things',
      '    expect_status: 201',
      '    extract: { id: $.data.id }',
      "    post_response: \"return { extract: { slug: 'thing-' + ctx.response.json.id + '-' + ctx.vars.id } }\"",
      '  show: { path: "/things/{{thing.slug}}", depends_on: [thing.create] }',
    ]);
    const r = await runner.run('thing.show');
    expect(r.status).toBe('passed');
    const id = runner.values('thing')!.id as number;
    // the hook sees the extractions of its own operation in ctx.vars
    expect(server.requests.at(-1)!.path).toBe(`/things/thing-${id}-${id}`);
    expect(runner.result('thing.create')?.extracted).toEqual({ id, slug: `thing-${id}-${id}` });
  });

  it('a hook that throws fails its operation with E_HOOK (message and line), and the others pass', async () => {
    const { runner } = await project(['  broken: { path: /broken, pre_request: "const x = 1;\\nthrow new Error(\'no signing key\')" }']);
    const summary = await runner.runMany(['thing.broken', 'thing.ok']);
    expect(outcomes(summary)).toEqual([
      ['thing.ok', 'passed', undefined],
      ['thing.broken', 'failed', 'E_HOOK'],
    ]);
    const error = resultOf(summary, 'thing.broken').error!;
    expect(error.message).toBe('pre_request hook (inline) failed at line 2: no signing key');
    expect(server.count('/broken')).toBe(0);
  });

  it('an object body set by pre_request is sent as JSON, with a content-type unless the hook chose one', async () => {
    const { runner } = await project([
      '  objectBody: { method: POST, path: /object-body, pre_request: "ctx.request.body = { a: 1, list: [true] }" }',
      '  ownType:',
      '    method: PATCH',
      '    path: /own-type',
      "    pre_request: \"ctx.request.headers['Content-TYPE'] = 'application/merge-patch+json'; ctx.request.body = { b: null }\"",
    ]);
    const summary = await runner.runMany(['thing.objectBody', 'thing.ownType']);
    expect(outcomes(summary).map((o) => o[1])).toEqual(['passed', 'passed']);
    const sent = server.requests.filter((r) => r.path === '/object-body').at(-1)!;
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.json()).toEqual({ a: 1, list: [true] });
    const own = server.requests.filter((r) => r.path === '/own-type').at(-1)!;
    expect(own.headers['content-type']).toBe('application/merge-patch+json');
    expect(own.json()).toEqual({ b: null });
  });

  it("what hooks print goes with the operation's result, in order and redacted", async () => {
    const { runner } = await withSecretKey('k-very-secret-1', [
      '  logged:',
      '    path: /logged',
      '    headers: { X-Key: "{{env.apiKey}}" }',
      "    pre_request: \"console.log('signing with', ctx.request.headers['X-Key']); console.error('second line')\"",
      '    post_response: "console.info(\'status\', ctx.response.status)"',
      '  quiet: { path: /quiet, pre_request: "ctx.request.headers.a = 1" }',
    ]);
    const summary = await runner.runMany(['thing.logged', 'thing.quiet']);
    expect(resultOf(summary, 'thing.logged').hookLogs).toEqual([
      { hook: 'pre_request', lines: ['signing with ***', 'second line'] },
      { hook: 'post_response', lines: ['status 200'] },
    ]);
    expect(resultOf(summary, 'thing.quiet').hookLogs).toBeUndefined();
    expect(JSON.stringify(summary)).not.toContain('k-very-secret-1');
  });

  it("a failing hook's output goes with the failed result too, redacted", async () => {
    const { runner } = await withSecretKey('k-very-secret-2', [
      '  failing:',
      '    path: /failing',
      '    headers: { X-Key: "{{env.apiKey}}" }',
      "    pre_request: \"console.log('about to sign with', ctx.request.headers['X-Key'])\"",
      "    post_response: \"console.warn('checking', ctx.response.status); throw new Error('bad total')\"",
    ]);
    const r = await runner.run('thing.failing');
    expect(r.status).toBe('failed');
    expect(r.error?.message).toBe('post_response hook (inline) failed at line 1: bad total');
    expect(r.hookLogs).toEqual([
      { hook: 'pre_request', lines: ['about to sign with ***'] },
      { hook: 'post_response', lines: ['checking 200'] },
    ]);
    expect(JSON.stringify(r)).not.toContain('k-very-secret-2');
  });

  it('the time limit counts from when a worker takes the hook, not while it waits for one', async () => {
    // more hooks at once than the pool has threads (at most 4), each using 60% of the limit:
    // those that wait for a thread must not be charged for the wait
    const names = Array.from({ length: 8 }, (_, i) => `slow${i}`);
    const { runner } = await project(
      names.map((n) => `  ${n}: { path: /${n}, pre_request: "await new Promise((r) => setTimeout(r, 600))" }`),
      {},
      { hookTimeoutMs: 1000, concurrency: 8 },
    );
    const summary = await runner.runMany(names.map((n) => `thing.${n}`));
    expect(summary.results.filter((r) => r.status !== 'passed').map((r) => `${r.operation}: ${r.error?.message}`)).toEqual([]);
    expect(summary.results).toHaveLength(8);
  }, 20_000);

  it('a hook that never ends fails its operation with E_HOOK at the time limit, and the next operation runs', async () => {
    const { runner } = await project(['  endless: { path: /endless, post_response: "while (true) {}" }', '  after: { path: /after }'], {}, 300);
    const started = performance.now();
    const summary = await runner.runMany(['thing.endless', 'thing.after']);
    expect(outcomes(summary)).toEqual([
      ['thing.endless', 'failed', 'E_HOOK'],
      ['thing.after', 'passed', undefined],
    ]);
    expect(resultOf(summary, 'thing.endless').error?.message).toBe('post_response hook (inline) did not finish within 300 ms');
    expect(performance.now() - started).toBeLessThan(4000);
    expect(server.count('/after')).toBe(1);
  }, 15_000);
});
