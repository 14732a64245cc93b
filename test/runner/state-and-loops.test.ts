import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProject } from '../../src/project/index.js';
import { createRunner, type Runner } from '../../src/runner/index.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let server: TestServer;
const runners: Runner[] = [];
let reportPolls = 0;
const items = [
  { id: 'a1', name: 'first' },
  { id: 'b2', name: 'second' },
  { id: 'c3', name: 'third' },
];

beforeAll(async () => {
  server = await startServer({
    'GET /items': (_req, res) => json(res, 200, items),
    '*': (req, res) => {
      const m = /^\/items\/(\w+)$/.exec(req.path);
      if (m && req.method === 'GET') return json(res, 200, { ...items.find((i) => i.id === m[1]), seen: true });
      if (m && req.method === 'PATCH') return json(res, 200, { id: m[1], patched: true, etag: `e-${m[1]}` });
      if (req.path === '/reports' && req.method === 'POST') {
        reportPolls = 0;
        return json(res, 202, { id: 77, state: 'pending' });
      }
      if (req.path === '/reports/77') {
        reportPolls++;
        return json(res, reportPolls < 3 ? 202 : 200, { id: 77, state: reportPolls < 3 ? 'pending' : 'done' });
      }
      if (req.path === '/things' && req.method === 'POST') return json(res, 201, { id: server.count('POST /things') });
      if (req.path === '/upload') return json(res, 200, { ok: true });
      if (req.path === '/comments' && req.method === 'POST') return json(res, 201, { id: 2 });
      if (req.path === '/comments') return json(res, 200, [{ id: 2 }, { id: 5 }]);
      const comment = /^\/comments\/(\d+)$/.exec(req.path);
      if (comment) return json(res, 200, { id: Number(comment[1]) });
      json(res, 404, {});
    },
  });
});
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  await server.close();
  await cleanProjects();
});

async function run(resources: string, ids: string[], extra: Record<string, string> = {}) {
  const dir = await writeProject({
    'flow.yaml': `version: 1\nname: t\nenvironment:\n  variables: { baseUrl: "${server.url}" }\nresources:\n${resources}`,
    ...extra,
  });
  const project = await loadProject(dir);
  expect(project.diagnostics).toEqual([]);
  const runner = createRunner(project, { processEnv: {} });
  runners.push(runner);
  return { runner, summary: await runner.runMany(ids), dir };
}

describe('resource instances (docs/format.md#run-state)', () => {
  it('create twice gives two instances; another operation merges into the newest', async () => {
    const { runner } = await run(
      '  thing:\n    operations:\n      create: { method: POST, path: /things, expect_status: 201, extract: { id: $.data.id } }\n      get: { path: "/items/a1", depends_on: [thing.create], extract: { name: $.data.name } }\n',
      ['thing.create'],
    );
    await runner.run('thing.create');
    await runner.run('thing.get');
    const first = server.count('POST /things') - 1;
    expect([runner.values('thing', 1), runner.values('thing', 2), runner.values('thing', 3)]).toEqual([
      { id: first },
      { id: first + 1, name: 'first' },
      undefined,
    ]);
  });

  it('fans a [*] extraction out into one instance per match, readable by index', async () => {
    const start = server.requests.length;
    const { runner, summary } = await run(
      [
        '  item:',
        '    operations:',
        '      list: { path: /items, extract: { id: "$.data[*].id", name: "$.data[*].name" } }',
        '      second: { path: "/items/{{item[2].id}}", depends_on: [item.list], assert: ["$.data.name == \'second\'"] }',
        '      newest: { path: "/items/{{item.id}}", depends_on: [item.list], assert: ["$.data.name == \'third\'"] }',
        '',
      ].join('\n'),
      ['item.list', 'item.second', 'item.newest'],
    );
    expect(summary.results.map((r) => [r.operation, r.status, r.error?.message])).toEqual([
      ['item.list', 'passed', undefined],
      ['item.second', 'passed', undefined],
      ['item.newest', 'passed', undefined],
    ]);
    expect([1, 2, 3].map((i) => runner.values('item', i)?.id)).toEqual(['a1', 'b2', 'c3']);
    const got = server.requests.slice(start).filter((r) => r.path.startsWith('/items/'));
    expect(got.map((r) => r.path)).toEqual(['/items/b2', '/items/c3']);
  });
});

describe('for_each', () => {
  it('runs once per instance, binding {{item.x}} to that instance, and merges into it', async () => {
    const before = server.count('/items/a1') + server.count('/items/b2') + server.count('/items/c3');
    const { runner, summary } = await run(
      [
        '  item:',
        '    operations:',
        '      list: { path: /items, extract: { id: "$.data[*].id" } }',
        '      patch: { method: PATCH, path: "/items/{{item.id}}", for_each: item, depends_on: [item.list], acts_on: existing, extract: { etag: $.data.etag } }',
        '',
      ].join('\n'),
      ['item.patch'],
    );
    expect(summary.results[0].status).toBe('passed');
    const patched = server.requests.filter((r) => r.method === 'PATCH').map((r) => r.path);
    expect(patched.slice(-3)).toEqual(['/items/a1', '/items/b2', '/items/c3']);
    expect(server.count('/items/a1') + server.count('/items/b2') + server.count('/items/c3') - before).toBe(3);
    expect([1, 2, 3].map((i) => runner.values('item', i))).toEqual([
      { id: 'a1', etag: 'e-a1' },
      { id: 'b2', etag: 'e-b2' },
      { id: 'c3', etag: 'e-c3' },
    ]);
  });

  it('visits each identity once: a created comment that the list returns too is one instance', async () => {
    const start = server.requests.length;
    const { summary } = await run(
      [
        '  comment:',
        '    operations:',
        '      create: { method: POST, path: /comments, expect_status: 201, extract: { id: $.data.id } }',
        '      list: { path: /comments, depends_on: [comment.create], extract: { id: "$.data[*].id" } }',
        '      get: { path: "/comments/{{comment.id}}", for_each: comment, depends_on: [comment.list], assert: ["$.data.id == {{comment.id}}"] }',
        '',
      ].join('\n'),
      ['comment.get'],
    );
    expect(summary.results[0]).toMatchObject({ status: 'passed', asserts: [{ pass: true }, { pass: true }] });
    const got = server.requests.slice(start).map((r) => `${r.method} ${r.path}`);
    expect(got).toEqual(['POST /comments', 'GET /comments', 'GET /comments/2', 'GET /comments/5']);
  });

  it('an operation that reads no field of the resource still runs once per instance', async () => {
    const start = server.requests.length;
    const { summary } = await run(
      [
        '  comment:',
        '    operations:',
        '      list: { path: /comments, extract: { id: "$.data[*].id" } }',
        '      ping: { path: /upload, for_each: comment, depends_on: [comment.list] }',
        '',
      ].join('\n'),
      ['comment.ping'],
    );
    expect(summary.results[0].status).toBe('passed');
    expect(server.requests.slice(start).filter((r) => r.path === '/upload')).toHaveLength(2);
  });
});

describe('poll_until', () => {
  it('repeats an asynchronous 202 until the condition holds', async () => {
    const { summary } = await run(
      [
        '  report:',
        '    operations:',
        '      start: { method: POST, path: /reports, expect_status: 202, extract: { id: $.data.id } }',
        "      wait: { path: '/reports/{{report.id}}', expect_status: [202, 200], poll_until: { condition: \"$.data.state == 'done'\", interval: 10, max_attempts: 5 } }",
        '',
      ].join('\n'),
      ['report.wait'],
    );
    expect(summary.results[0].status).toBe('passed');
    expect(summary.results[0].exchanges.map((e) => e.response?.status)).toEqual([202, 202, 200]);
    expect(server.count('GET /reports/77')).toBeGreaterThanOrEqual(3);
  });

  it('gives up with E_POLL_TIMEOUT and the last actual value', async () => {
    const { summary } = await run(
      [
        '  report:',
        '    operations:',
        '      start: { method: POST, path: /reports, expect_status: 202, extract: { id: $.data.id } }',
        "      wait: { path: '/reports/{{report.id}}', expect_status: [202, 200], poll_until: { condition: \"$.data.state == 'never'\", interval: 5, max_attempts: 2 } }",
        '',
      ].join('\n'),
      ['report.wait'],
    );
    const error = summary.results[0].error!;
    expect(error.code).toBe('E_POLL_TIMEOUT');
    expect(error.message).toMatch(/after 2 attempts/);
    expect(error.message).toMatch(/pending/);
  });
});

describe('body_form uploads', () => {
  /** Uploads fixtures/data.csv with a title; `headers` is the operation's own headers map. */
  async function uploadReport(headers = '') {
    const { summary } = await run(
      `  doc:\n    operations:\n      upload: { method: POST, path: /upload, ${headers}body_form: { title: report, file: '@./fixtures/data.csv' } }\n`,
      ['doc.upload'],
      { 'fixtures/data.csv': 'a,b\n1,2\n' },
    );
    expect(summary.results[0].status).toBe('passed');
    return server.requests.filter((r) => r.path === '/upload').at(-1)!;
  }

  it('sends a multipart upload of a file inside the project', async () => {
    const form = await (await uploadReport()).formData();
    expect(form.get('title')).toBe('report');
    const file = form.get('file') as File;
    expect(file.name).toBe('data.csv');
    expect(await file.text()).toBe('a,b\n1,2\n');
  });

  it('sends the multipart boundary even when the operation writes Content-Type: multipart/form-data (as curl users do)', async () => {
    const received = await uploadReport('headers: { Content-Type: multipart/form-data }, ');
    expect(received.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await received.formData();
    expect(form.get('title')).toBe('report');
    expect(await (form.get('file') as File).text()).toBe('a,b\n1,2\n');
  });

  it('refuses a file outside the project and sends nothing', async () => {
    const before = server.count('/upload');
    const { summary } = await run("  doc:\n    operations:\n      upload: { method: POST, path: /upload, body_form: { file: '@./../../etc/passwd' } }\n", [
      'doc.upload',
    ]);
    expect(summary.results[0].error?.code).toBe('E_FILE_OUTSIDE_PROJECT');
    expect(server.count('/upload')).toBe(before);
  });
});

describe('--record', () => {
  it('marks operations that passed as verified_against: live_capture, keeping comments', async () => {
    const { recordVerified } = await import('../../src/runner/record.js');
    const dir = await writeProject({
      'flow.yaml': `version: 1\nimports: [environments/*.yaml, resources/*.yaml]\n`,
      'environments/e.yaml': `variables: { baseUrl: "${server.url}" }\n`,
      'resources/items.yaml':
        '# items, listed\nname: item\noperations:\n  list: # the list\n    path: /items\n    _provenance: { source: ai_import, verified_against: synthetic }\n  missing:\n    path: /nope\n',
    });
    const project = await loadProject(dir);
    const runner = createRunner(project, { processEnv: {} });
    runners.push(runner);
    const summary = await runner.runMany(['item.list', 'item.missing']);
    const recorded = await recordVerified(project, summary.results);
    expect(recorded.operations).toEqual(['item.list']);
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(path.join(dir, 'resources/items.yaml'), 'utf8');
    expect(text).toContain('# items, listed');
    // the yaml library keeps a comment but may move it to the next line
    expect(text).toContain('# the list');
    expect(text).toMatch(/verified_against: live_capture/);
    expect(text).not.toMatch(/missing:[\s\S]*_provenance/);
    const again = await loadProject(dir);
    expect(again.operations.get('item.list')?.provenance?.verifiedAgainst).toBe('live_capture');
    void writeFile;
  });
});
