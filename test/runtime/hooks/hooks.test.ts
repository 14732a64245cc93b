// Hooks run isolated in worker threads: what a hook may do, how each failure is reported,
// the time limit, files confined to the project, and a pool that never holds the process.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHookRunner, isHookFile, type HookInput, type HookRunner } from '../../../src/runtime/hooks/index.js';
import { cleanProjects, writeProject } from '../../helpers/project.js';

const run = promisify(execFile);

let dir: string;
let elsewhere: string;
let hooks: HookRunner;

const preInput = (): HookInput => ({
  operation: 'order.create',
  request: {
    method: 'POST',
    url: 'http://api.test/orders?x=1',
    headers: { 'content-type': 'application/json', 'x-api-secret': 'sk_live_123' },
    body: '{"qty":2}',
  },
  vars: { id: 7 },
});
const postInput = (body: string, status = 201): HookInput => ({
  operation: 'order.create',
  response: { status, headers: { 'content-type': 'application/json', 'x-request-id': 'r-1' }, body },
  vars: { prev: 'p' },
});

beforeAll(async () => {
  dir = await writeProject({
    'hooks/sign.js': `import { createHmac } from 'node:crypto';
export default async function (ctx) {
  const secret = ctx.request.headers['x-api-secret'];
  delete ctx.request.headers['x-api-secret'];
  ctx.request.headers['x-signature'] = createHmac('sha256', secret).update(ctx.request.body).digest('hex');
}
`,
    'hooks/store.js': `export default (ctx) => ({ extract: { order_id: ctx.response.json.id, request_id: ctx.response.headers['x-request-id'], prev: ctx.vars.prev } });\n`,
    'hooks/fail.js': `export default function (ctx) {
  const total = ctx.response.json.total;
  if (total < 0) throw new Error('order total is negative');
}
`,
    'hooks/cjs.js': `module.exports = function (ctx) { return { extract: { kind: ctx.kind } }; };\n`,
    'hooks/no-default.js': 'export const hook = () => {};\n',
    'hooks/syntax.js': 'export default function (ctx) {\n  const a = 1;\n  const b = ;\n}\n',
    'hooks/edit.js': 'export default () => ({ extract: { version: 1 } });\n',
    'hooks/a+b.js': "export default () => ({ extract: { file: 'a+b' } });\n",
    'hooks/é.mjs': "export default () => ({ extract: { file: 'é' } });\n",
  });
  elsewhere = await mkdtemp(path.join(tmpdir(), 'reqflow-outside-'));
  await writeFile(path.join(elsewhere, 'evil.js'), 'export default () => ({ extract: { pwned: true } });\n');
  await symlink(path.join(elsewhere, 'evil.js'), path.join(dir, 'hooks', 'link.js'));
  hooks = createHookRunner({ projectDir: dir, timeoutMs: 2000, maxThreads: 2 });
});

afterAll(async () => {
  await hooks.close();
  await rm(elsewhere, { recursive: true, force: true });
  await cleanProjects();
});

async function waitFor(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function hookError(p: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown>; operation?: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('expected the hook to fail');
}

describe('pre_request', () => {
  test('an inline hook changes the request by mutating ctx.request; the whole request comes back', async () => {
    const out = await hooks.run(
      'pre_request',
      `ctx.request.headers['x-trace'] = ctx.operation + ':' + ctx.vars.id;
       ctx.request.url = ctx.request.url.replace('x=1', 'x=2');
       ctx.request.method = 'put';
       ctx.request.body = { qty: JSON.parse(ctx.request.body).qty + 1 };`,
      preInput(),
    );
    expect(out.request).toEqual({
      method: 'PUT',
      url: 'http://api.test/orders?x=2',
      headers: { 'content-type': 'application/json', 'x-api-secret': 'sk_live_123', 'x-trace': 'order.create:7' },
      body: '{"qty":3}',
    });
    expect(out.extract).toBeUndefined();
    // the body was an object: the runner adds a JSON content-type when the request has none
    expect(out.jsonBody).toBe(true);
  });

  test('a file hook signs the request with the real credential it was given', async () => {
    const out = await hooks.run('pre_request', './hooks/sign.js', preInput());
    expect(out.request!.headers).toEqual({
      'content-type': 'application/json',
      'x-signature': createHmac('sha256', 'sk_live_123').update('{"qty":2}').digest('hex'),
    });
  });

  test('a hook that changes nothing gives no request back', async () => {
    const out = await hooks.run('pre_request', 'const unused = ctx.request.url;', preInput());
    expect(out).toEqual({ logs: [] });
  });

  test('a request the hook broke is E_HOOK, not sent', async () => {
    const err = await hookError(hooks.run('pre_request', `ctx.request.url = 'ftp://nope'`, preInput()));
    expect(err.code).toBe('E_HOOK');
    expect(err.message).toBe('pre_request hook (inline) failed: ctx.request.url "ftp://nope" is not an http(s) URL');
  });
});

describe('post_response', () => {
  test('a file hook stores values with { extract }', async () => {
    const out = await hooks.run('post_response', './hooks/store.js', postInput('{"id":"ord_1"}'));
    expect(out.extract).toEqual({ order_id: 'ord_1', request_id: 'r-1', prev: 'p' });
    expect(out.request).toBeUndefined();
  });

  test('an inline hook may be async, and sees status and a non-JSON body as text', async () => {
    const out = await hooks.run(
      'post_response',
      `await new Promise((r) => setTimeout(r, 5));
       return { extract: { status: ctx.response.status, json: ctx.response.json ?? null, text: ctx.response.body } };`,
      postInput('plain text', 202),
    );
    expect(out.extract).toEqual({ status: 202, json: null, text: 'plain text' });
  });

  test('a CommonJS file hook works too', async () => {
    const out = await hooks.run('post_response', './hooks/cjs.js', postInput('{}'));
    expect(out.extract).toEqual({ kind: 'post_response' });
  });

  test('console output is captured for the runner (redacted there), not printed', async () => {
    const out = await hooks.run('post_response', `console.log('got', ctx.response.status, { a: 1 }); console.error('oops');`, postInput('{}'));
    expect(out.logs).toEqual(['got 201 { a: 1 }', 'oops']);
  });

  test('ctx.vars and ctx.response are read-only', async () => {
    const out = await hooks.run(
      'post_response',
      `'use strict'; let blocked = 0;
       try { ctx.vars.prev = 'x'; } catch { blocked++; }
       try { ctx.response.status = 500; } catch { blocked++; }
       return { extract: { blocked } };`,
      postInput('{}'),
    );
    expect(out.extract).toEqual({ blocked: 2 });
  });
});

describe('failures are E_HOOK and stay with their call', () => {
  test('a hook that throws: its message and line, no stack; a hook running beside it is unaffected', async () => {
    const [bad, good] = await Promise.allSettled([
      hooks.run('post_response', './hooks/fail.js', postInput('{"total":-1}')),
      hooks.run('post_response', './hooks/store.js', postInput('{"id":"ord_2"}')),
    ]);
    expect(bad.status).toBe('rejected');
    const err = (bad as PromiseRejectedResult).reason;
    expect(err.code).toBe('E_HOOK');
    expect(err.message).toBe('post_response hook ./hooks/fail.js failed at line 3: order total is negative');
    expect(err.operation).toBe('order.create');
    expect(good.status).toBe('fulfilled');
    expect((good as PromiseFulfilledResult<{ extract?: unknown }>).value.extract).toMatchObject({ order_id: 'ord_2' });
  });

  test.each([
    { name: 'inline throw keeps its own line', hook: '\n\nthrow new TypeError("bad type")', message: 'failed at line 3: TypeError: bad type' },
    { name: 'inline syntax error with its line', hook: 'const a = 1;\nconst b = ;', message: "failed at line 2: SyntaxError: Unexpected token ';'" },
    { name: 'a thrown string', hook: 'throw "nope"', message: 'failed: threw "nope"' },
    { name: 'a function in extract', hook: 'return { extract: { f: () => 1 } }', message: 'failed: extract.f is a function, which cannot be stored' },
    { name: 'a cycle in extract', hook: 'const a = {}; a.self = a; return { extract: { a } }', message: 'failed: extract.a.self refers to itself' },
    { name: 'a BigInt in extract', hook: 'return { extract: { n: 1n } }', message: 'failed: extract.n is a bigint' },
    { name: 'a Map in extract', hook: 'return { extract: { m: new Map() } }', message: 'failed: extract.m is a Map' },
    { name: 'a result that is not an object', hook: 'return "done"', message: 'failed: the hook returned a string' },
    { name: 'an unknown key in the result', hook: 'return { vars: { a: 1 } }', message: 'failed: the hook returned an unknown key "vars"' },
  ])('$name', async ({ hook, message }) => {
    const err = await hookError(hooks.run('post_response', hook, postInput('{}')));
    expect(err.code).toBe('E_HOOK');
    expect(err.message.startsWith(`post_response hook (inline) ${message}`)).toBe(true);
    expect(err.message).not.toMatch(/\n|file:\/\/|node:internal|hook-worker/);
  });

  test.each([
    { file: './hooks/syntax.js', message: "post_response hook ./hooks/syntax.js failed at line 3: SyntaxError: Unexpected token ';'" },
    { file: './hooks/no-default.js', message: 'post_response hook ./hooks/no-default.js failed: the file has no default export function' },
  ])('file $file', async ({ file, message }) => {
    const err = await hookError(hooks.run('post_response', file, postInput('{}')));
    expect(err.code).toBe('E_HOOK');
    expect(err.message.startsWith(message)).toBe(true);
  });

  test.each(['exit', 'abort'])('a hook calling process.%s() is E_HOOK at once, and the next call works', async (name) => {
    const started = Date.now();
    const err = await hookError(hooks.run('post_response', `process.${name}(3)`, postInput('{}')));
    expect(err.code).toBe('E_HOOK');
    expect(err.message).toBe(`post_response hook (inline) failed: a hook cannot call process.${name}(): throw an Error to fail the operation`);
    // well before the 5 s limit: the hook did not hang until it was stopped
    expect(Date.now() - started).toBeLessThan(3000);
    const next = await hooks.run('post_response', './hooks/store.js', postInput('{"id":"still"}'));
    expect(next.extract).toMatchObject({ order_id: 'still' });
  });

  test('an endless hook is stopped at the time limit, and the next call works', async () => {
    const limited = createHookRunner({ projectDir: dir, timeoutMs: 400, maxThreads: 1 });
    try {
      await limited.run('post_response', 'return { extract: { warm: true } }', postInput('{}')); // worker started
      const started = Date.now();
      const err = await hookError(limited.run('pre_request', 'while (true) {}', preInput()));
      const took = Date.now() - started;
      expect(err.code).toBe('E_HOOK');
      expect(err.message).toBe('pre_request hook (inline) did not finish within 400 ms');
      expect(took).toBeGreaterThanOrEqual(390);
      expect(took).toBeLessThan(3000);
      const next = await limited.run('post_response', './hooks/store.js', postInput('{"id":"after"}'));
      expect(next.extract).toMatchObject({ order_id: 'after' });
    } finally {
      await limited.close();
    }
  });
});

describe('hook files stay inside the project', () => {
  test.each([
    { name: 'a path above the project', hook: () => `../${path.basename(elsewhere)}/evil.js` },
    { name: 'an absolute path', hook: () => path.join(elsewhere, 'evil.js') },
    { name: 'a symbolic link that leads out', hook: () => './hooks/link.js' },
  ])('$name: E_FILE_OUTSIDE_PROJECT', async ({ hook }) => {
    const err = await hookError(hooks.run('pre_request', hook(), preInput()));
    expect(err.code).toBe('E_FILE_OUTSIDE_PROJECT');
    expect(err.message).toContain('is outside the project directory');
  });

  test.each([
    { hook: './hooks/a+b.js', file: 'a+b' },
    { hook: './hooks/é.mjs', file: 'é' },
  ])('$hook is a file whatever its characters (one token ending in .js/.mjs/.cjs)', async ({ hook, file }) => {
    expect((await hooks.run('post_response', hook, postInput('{}'))).extract).toEqual({ file });
  });

  test.each([
    { hook: './hooks/a+b.js', file: true },
    { hook: '  ./hooks/é.cjs\n', file: true },
    { hook: 'hooks/[x](y).mjs', file: true },
    { hook: 'return import("./a.js")', file: false },
    { hook: "console.log('a.js')", file: false },
    { hook: './hooks/a b.js', file: false },
    { hook: './hooks/a.json', file: false },
  ])('isHookFile($hook) is $file', ({ hook, file }) => {
    expect(isHookFile(hook)).toBe(file);
  });

  test('a missing file is E_HOOK naming it', async () => {
    const err = await hookError(hooks.run('post_response', './hooks/nope.js', postInput('{}')));
    expect(err.code).toBe('E_HOOK');
    expect(err.message).toBe('post_response hook file ./hooks/nope.js not found in the project directory');
  });

  test('an edited file is read again', async () => {
    const file = path.join(dir, 'hooks', 'edit.js');
    expect((await hooks.run('post_response', './hooks/edit.js', postInput('{}'))).extract).toEqual({ version: 1 });
    await writeFile(file, 'export default () => ({ extract: { version: 2 } });\n');
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    expect((await hooks.run('post_response', './hooks/edit.js', postInput('{}'))).extract).toEqual({ version: 2 });
  });
});

describe('the pool', () => {
  test('close() stops every worker, a hook in the middle of its work included', async () => {
    const beat = path.join(dir, 'heartbeat.txt');
    await writeFile(beat, '');
    const runner = createHookRunner({ projectDir: dir, timeoutMs: 60_000 });
    // a hook that works (a timer writing to a file) for a minute: only ending its thread stops it
    const busy = `const fs = require('node:fs');
      setInterval(() => fs.appendFileSync(${JSON.stringify(beat)}, 'x'), 10);
      await new Promise((r) => setTimeout(r, 60_000));`;
    const running = hookError(runner.run('post_response', busy, postInput('{}')));
    await waitFor(async () => (await readFile(beat, 'utf8')).length > 2);
    await runner.close();
    const err = await running;
    expect(err.code).toBe('E_HOOK');
    expect(err.message).toBe('post_response hook (inline) was stopped: the hook runner was closed');
    const size = (await readFile(beat, 'utf8')).length;
    await new Promise((r) => setTimeout(r, 100));
    expect((await readFile(beat, 'utf8')).length).toBe(size);
    await runner.close(); // idempotent
    const after = await hookError(runner.run('post_response', 'return', postInput('{}')));
    expect(after.code).toBe('E_HOOK');
    expect(after.message).toContain('closed');
  });

  test('a hook does not see FLOW_SECRET_* variables', async () => {
    process.env.FLOW_SECRET_HOOKTEST = 'should-not-leak';
    const runner = createHookRunner({ projectDir: dir });
    try {
      const out = await runner.run(
        'post_response',
        'return { extract: { s: process.env.FLOW_SECRET_HOOKTEST ?? null, path: typeof process.env.PATH } }',
        postInput('{}'),
      );
      expect(out.extract).toEqual({ s: null, path: 'string' });
    } finally {
      delete process.env.FLOW_SECRET_HOOKTEST;
      await runner.close();
    }
  });

  test('a process using hooks exits on its own, after close() and even without it', async () => {
    const hooksIndex = path.resolve(fileURLToPath(import.meta.url), '../../../../src/runtime/hooks/index.ts');
    const script = (close: boolean) => `
      import { createHookRunner } from ${JSON.stringify(hooksIndex)};
      const r = createHookRunner({ projectDir: ${JSON.stringify(dir)} });
      const out = await r.run('post_response', 'return { extract: { ok: ctx.response.status } }', { operation: 'a.b', response: { status: 200, headers: {}, body: '' }, vars: {} });
      console.log(JSON.stringify(out.extract));
      ${close ? 'await r.close();' : ''}`;
    for (const close of [true, false]) {
      const started = Date.now();
      const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(close)], { timeout: 10_000 });
      expect(stdout.trim()).toBe('{"ok":200}');
      expect(Date.now() - started).toBeLessThan(8000);
    }
  });
});
