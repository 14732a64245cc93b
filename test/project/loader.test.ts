import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProject, isSecretRef } from '../../src/project/index.js';
import { cleanProjects, codes, writeProject } from '../helpers/project.js';

afterAll(cleanProjects);

const ROOT = 'version: 1\nname: shop\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n';
const ORDERS =
  'name: order\noperations:\n  create:\n    method: POST\n    path: /orders\n    extract:\n      id: $.data.id\n  get:\n    path: /orders/{{order.id}}\n';

describe('directory layout (spec 2.1)', () => {
  it('reads the three prefixes and discards any other directory, with a warning at the import', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT + '  - shared/*.yaml\n',
      'resources/orders.yaml': ORDERS,
      'actors/admin.yaml': 'auth: { strategy: bearer, token: "{{secret.T}}" }\n',
      'environments/local.yaml': 'variables: { baseUrl: "http://x" }\n',
      'shared/common.yaml': 'name: common\noperations: { a: { path: /a } }\n',
    });
    const p = await loadProject(dir);
    expect([...p.resources.keys()]).toEqual(['order']);
    expect([...p.actors.keys()]).toEqual(['admin']);
    expect([...p.environments.keys()]).toEqual(['local']);
    expect(p.operations.has('common.a')).toBe(false);
    const w = p.diagnostics.find((d) => d.code === 'W_FILE_DISCARDED')!;
    expect(w.message).toContain('shared/common.yaml');
    expect(p.files.find((f) => f.path.endsWith('common.yaml'))?.kind).toBe('discarded');
  });

  it('is flat: a file one level deeper is discarded, and globs do not recurse', async () => {
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nimports: [resources/*.yaml, resources/sub/deep.yaml]\n',
      'resources/orders.yaml': ORDERS,
      'resources/sub/deep.yaml': 'name: deep\noperations: { a: { path: /a } }\n',
    });
    const p = await loadProject(dir);
    expect([...p.resources.keys()]).toEqual(['order']);
    expect(codes(p.diagnostics)).toEqual(['W_FILE_DISCARDED']);
  });

  it('takes the id from name:, else from the filename stem', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'resources/orders.yaml': ORDERS,
      'resources/products.yaml': 'operations: { list: { path: /products } }\n',
    });
    const p = await loadProject(dir);
    expect([...p.operations.keys()]).toEqual(['order.create', 'order.get', 'products.list']);
  });

  it('reports a second definition of the same id and keeps the first', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/a.yaml': ORDERS, 'resources/b.yaml': 'name: order\noperations: { x: { path: /x } }\n' });
    const p = await loadProject(dir);
    const d = p.diagnostics.find((x) => x.code === 'E_DUPLICATE_ID')!;
    expect(d.message).toMatch(/resource "order" is already defined at resources\/a\.yaml:1/);
    expect(d.file).toBe(path.join(dir, 'resources/b.yaml'));
    expect(p.operations.has('order.x')).toBe(false);
  });
});

describe('imports (spec 2.2)', () => {
  it('expands only a trailing *.yaml / *.yml; ** and ? match nothing', async () => {
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nimports:\n  - resources/*.yml\n  - resources/**/*.yaml\n  - resources/?.yaml\n',
      'resources/a.yml': 'operations: { x: { path: /x } }\n',
      'resources/b.yaml': 'operations: { y: { path: /y } }\n',
      'resources/c.yaml': 'operations: { z: { path: /z } }\n',
    });
    const p = await loadProject(dir);
    expect([...p.operations.keys()]).toEqual(['a.x']);
    const w = p.diagnostics.filter((d) => d.code === 'W_IMPORT_PATTERN');
    expect(w.map((d) => d.line)).toEqual([4, 5]);
  });

  it('a glob that matches no file is a warning; a * elsewhere is read literally, and a missing file is an error at its import line', async () => {
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nimports:\n  - resource/*.yaml\n  - resources/x*.yaml\n  - resources/*.yaml\n',
      'resources/b.yaml': 'operations: { y: { path: /y } }\n',
    });
    const p = await loadProject(dir);
    expect([...p.operations.keys()]).toEqual(['b.y']);
    const root = path.join(dir, 'flow.yaml');
    expect(p.diagnostics.map((d) => `${d.code}@${path.relative(dir, d.file)}:${d.line}`).sort()).toEqual(
      ['E_FILE_NOT_FOUND@flow.yaml:4', 'W_IMPORT_PATTERN@flow.yaml:3', 'W_IMPORT_PATTERN@flow.yaml:4'].sort(),
    );
    expect(p.diagnostics.find((d) => d.line === 3)!.message).toBe('import "resource/*.yaml" matches no file');
    expect(p.diagnostics.every((d) => d.file === root)).toBe(true);
  });

  it('a multi-file project without imports loads nothing and has no diagnostics', async () => {
    const dir = await writeProject({ 'flow.yaml': 'version: 1\n', 'resources/orders.yaml': ORDERS });
    const p = await loadProject(dir);
    expect(p.operations.size).toBe(0);
    expect(p.diagnostics).toEqual([]);
  });

  it('a literal import of a missing file is an error at the import line; one outside the project is refused', async () => {
    const dir = await writeProject({ 'flow.yaml': 'version: 1\nimports:\n  - resources/nope.yaml\n  - ../outside/*.yaml\n' });
    const p = await loadProject(dir);
    expect(p.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(['E_FILE_OUTSIDE_PROJECT@4', 'E_FILE_NOT_FOUND@3']);
  });

  it('the inline alternative works without imports', async () => {
    const dir = await writeProject({
      'flow.yaml': [
        'version: 1',
        'environment:',
        '  name: local',
        '  variables: { baseUrl: "http://localhost:1" }',
        'actors:',
        '  user:',
        '    auth: { strategy: basic, username: u, password: !secret PW }',
        'resources:',
        '  order:',
        '    operations:',
        '      create: { method: post, path: /orders, actor: user }',
        '',
      ].join('\n'),
    });
    const p = await loadProject(dir);
    expect(p.diagnostics).toEqual([]);
    expect([...p.environments.keys()]).toEqual(['local']);
    expect(p.actors.get('user')?.auth?.strategy).toBe('basic');
    const pw = p.actors.get('user')?.auth?.options.password;
    expect(isSecretRef(pw) && pw.name).toBe('PW');
    expect(p.operations.get('order.create')).toMatchObject({ method: 'POST', actor: 'user', loc: { line: 11, col: 7 } });
  });
});

describe('version (spec 9)', () => {
  it.each([
    ['version: 1', true],
    ['version: 3', true],
    ['version: 0', false],
    ['version: 4', false],
    ['version: "1"', false],
    ['name: x', false],
  ])('%s -> valid %s', async (line, ok) => {
    const dir = await writeProject({ 'flow.yaml': `${line}\n` });
    const p = await loadProject(dir);
    expect(codes(p.diagnostics)).toEqual(ok ? [] : ['E_SCHEMA_VERSION']);
  });

  it('points at the version value', async () => {
    const p = await loadProject(await writeProject({ 'flow.yaml': 'name: x\nversion: 7\n' }));
    expect(p.diagnostics[0]).toMatchObject({ line: 2, col: 10 });
  });
});

describe('values are normalized silently (spec 7); lint reports them', () => {
  it('unknown method -> GET, unknown strategy -> simple, non-sequence depends_on/assert ignored', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'actors/a.yaml': 'auth: { strategy: oauth2, path: /login, method: POST }\n',
      'resources/orders.yaml':
        'operations:\n  x: { method: FETCH, path: /x, depends_on: order.y, assert: "$.a == 1" }\n  y: { method: delete, path: /y, depends_on: [x.z], assert: ["$.a == 1"] }\n',
    });
    const p = await loadProject(dir);
    expect(p.diagnostics).toEqual([]);
    const [x, y] = [p.operations.get('orders.x')!, p.operations.get('orders.y')!];
    expect([x.method, x.dependsOn, x.assert]).toEqual(['GET', [], []]);
    expect([y.method, y.dependsOn, y.assert]).toEqual(['DELETE', ['x.z'], ['$.a == 1']]);
    expect(p.actors.get('a')?.auth).toMatchObject({ strategy: 'simple', rawStrategy: 'oauth2', login: { method: 'POST', path: '/login' } });
  });

  it('reads every operation key', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'resources/r.yaml': [
        'operations:',
        '  op:',
        '    method: PUT',
        '    path: /r/{{r.id}}',
        '    headers: { X-A: "1" }',
        '    query_params: { q: 2 }',
        '    body: { a: [1, 2] }',
        '    expect_status: [202, 200]',
        '    extract: { id: $.data.id, etag: { path: "v=(\\\\d+)", source: regex } }',
        '    poll_until: { condition: "$.data.state == \'done\'", interval: 10, max_attempts: 5 }',
        '    for_each: r',
        '    force: true',
        '    timeout: 1500',
        '    retry: { max: 2, backoff: 100 }',
        '    pre_request: ./hooks/pre.js',
        '    _provenance: { source: ai_import, evidence: { path: "GET /r" }, verified_against: synthetic }',
        '',
      ].join('\n'),
    });
    const p = await loadProject(dir);
    expect(p.diagnostics).toEqual([]);
    expect(p.operations.get('r.op')).toMatchObject({
      method: 'PUT',
      headers: { 'X-A': '1' },
      queryParams: { q: 2 },
      body: { a: [1, 2] },
      expectStatus: [202, 200],
      extract: [
        { name: 'id', path: '$.data.id', source: 'jsonpath', loc: { line: 9 } },
        { name: 'etag', path: 'v=(\\d+)', source: 'regex' },
      ],
      pollUntil: { condition: ["$.data.state == 'done'"], intervalMs: 10, maxAttempts: 5 },
      forEach: 'r',
      force: true,
      timeoutMs: 1500,
      retry: { max: 2, backoffMs: 100 },
      preRequest: './hooks/pre.js',
      provenance: { source: 'ai_import', evidence: { path: 'GET /r' }, verifiedAgainst: 'synthetic' },
    });
  });

  it("reads a resource's sharing: true, a map (access write by default), a sequence of maps, false or absent as not shared", async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'resources/a.yaml': 'shared: true\noperations: { x: { path: /a } }\n',
      'resources/b.yaml': 'shared: { with: [alice, bob], access: read }\noperations: { x: { path: /b } }\n',
      'resources/c.yaml': 'shared: { with: [alice] }\noperations: { x: { path: /c } }\n',
      'resources/d.yaml': 'shared: false\noperations: { x: { path: /d } }\n',
      'resources/e.yaml': 'operations: { x: { path: /e } }\n',
      'resources/f.yaml': 'shared: [{ with: [alice] }, { with: [bob], access: read }]\noperations: { x: { path: /f } }\n',
    });
    const p = await loadProject(dir);
    expect(Object.fromEntries([...p.resources].map(([id, r]) => [id, r.shared]))).toEqual({
      a: [{ access: 'write' }],
      b: [{ with: ['alice', 'bob'], access: 'read' }],
      c: [{ with: ['alice'], access: 'write' }],
      d: undefined,
      e: undefined,
      f: [
        { with: ['alice'], access: 'write', index: 0 },
        { with: ['bob'], access: 'read', index: 1 },
      ],
    });
  });

  it('reads actors: chain steps, session ttl and refresh, inject', async () => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'actors/u.yaml': [
        'auth:',
        '  strategy: chain',
        '  steps:',
        '    - { id: start, method: POST, path: /login, body: { u: x } }',
        '    - { id: otp, method: POST, path: /otp, extract: { token: $.data.token } }',
        'session:',
        '  ttl: 24h',
        '  refresh: { method: POST, path: /refresh, extract: { token: $.data.token } }',
        'inject: { headers: { Authorization: "Bearer {{u.token}}" } }',
        '',
      ].join('\n'),
    });
    const u = (await loadProject(dir)).actors.get('u')!;
    expect(u.auth?.steps?.map((s) => [s.id, s.path, s.extract.map((e) => e.name)])).toEqual([
      ['start', '/login', []],
      ['otp', '/otp', ['token']],
    ]);
    expect(u.session).toMatchObject({ ttlMs: 86_400_000, refresh: { path: '/refresh' } });
    expect(u.inject.headers).toEqual({ Authorization: 'Bearer {{u.token}}' });
  });

  it('!secret is the only tag; another tag is a warning and plain text', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT, 'environments/e.yaml': 'variables:\n  a: !secret TOKEN\n  b: !env HOME\n' });
    const p = await loadProject(dir);
    const vars = p.environments.get('e')!.variables;
    expect(isSecretRef(vars.a) && vars.a.name).toBe('TOKEN');
    expect(vars.b).toBe('HOME');
    expect(p.diagnostics.map((d) => `${d.code}@${d.line}:${d.col}`)).toEqual(['W_UNKNOWN_TAG@3:6']);
  });
});

describe('bad input: a coded diagnostic, never a throw or a hang', () => {
  it('a missing directory', async () => {
    const p = await loadProject('/nonexistent/reqflow/project');
    expect(codes(p.diagnostics)).toEqual(['E_PROJECT_NOT_FOUND']);
  });

  it('no flow.yaml', async () => {
    const p = await loadProject(await writeProject({ 'resources/a.yaml': ORDERS }));
    expect(codes(p.diagnostics)).toEqual(['E_NO_ROOT']);
  });

  it('malformed YAML names the file and the line', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/a.yaml': 'operations:\n  x:\n    path: "/x\n  y: 1\n' });
    const d = (await loadProject(dir)).diagnostics;
    expect(d[0]).toMatchObject({ code: 'E_YAML_PARSE', file: path.join(dir, 'resources/a.yaml') });
    expect(d[0].line).toBeGreaterThanOrEqual(3);
  });

  it.each([
    [
      'indented more than the key above',
      'name: item\noperations:\n  get:\n    path: /items\n     method: GET\n    expect_status: 200\n',
      {
        line: 5,
        col: 6,
        message: 'YAML: this line is indented more than the key "path" on line 4 (column 6, not 5): keys of one mapping start in the same column',
      },
    ],
    [
      'indented less than the key above',
      'name: item\noperations:\n  get:\n    path: /items\n   method: GET\n',
      { line: 5, col: 4, message: 'YAML: this line starts in column 4, the key "path" above it in column 5: keys of one mapping start in the same column' },
    ],
    [
      'a tab',
      'name: item\noperations:\n  get:\n\tpath: /items\n',
      { line: 4, col: 1, message: 'YAML: Tabs are not allowed as indentation: indent with spaces' },
    ],
    [
      'a tab before correct lines (the parser misreads every later key of the mapping)',
      'name: item\noperations:\n  get:\n\tpath: /items\n    method: GET\n    expect_status: 200\n  list:\n    path: /items\n',
      { line: 4, col: 1, message: 'YAML: Tabs are not allowed as indentation: indent with spaces' },
    ],
  ])('a mis-indented line (%s) is one E_YAML_PARSE at that line, saying how to fix it', async (_, text, expected) => {
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/a.yaml': text });
    const d = (await loadProject(dir)).diagnostics;
    expect(d).toEqual([{ code: 'E_YAML_PARSE', severity: 'error', file: path.join(dir, 'resources/a.yaml'), ...expected }]);
  });

  it('a binary file', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/a.yaml': Buffer.from([0, 1, 2, 3, 0xff]) });
    expect(codes((await loadProject(dir)).diagnostics)).toEqual(['E_FILE_BINARY']);
  });

  it('a 10 MB file', async () => {
    const dir = await writeProject({ 'flow.yaml': `version: 1\n#${'x'.repeat(10 * 1024 * 1024)}\n` });
    expect(codes((await loadProject(dir)).diagnostics)).toEqual(['E_FILE_TOO_LARGE']);
  });

  it('a YAML alias bomb', async () => {
    const lines = ['version: 1', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const p = await loadProject(await writeProject({ 'flow.yaml': lines.join('\n') }));
    expect(p.diagnostics[0]).toMatchObject({ code: 'E_YAML_PARSE' });
    expect(p.diagnostics[0].message).toMatch(/alias/);
  });

  it('exactly 100 aliases of one anchor are read; 101 are refused, at 1:1 (the library gives no position)', async () => {
    const aliases = (n: number) => `version: 1\na: &a x\nb: [${Array(n).fill('*a').join(', ')}]\n`;
    const ok = await loadProject(await writeProject({ 'flow.yaml': aliases(100) }));
    expect(ok.diagnostics).toEqual([]);
    const bomb = await loadProject(await writeProject({ 'flow.yaml': aliases(101) }));
    expect(bomb.diagnostics).toEqual([
      expect.objectContaining({ code: 'E_YAML_PARSE', line: 1, col: 1, message: expect.stringMatching(/more than 100 expansions/) }),
    ]);
  });

  it('a root that is not a mapping', async () => {
    const p = await loadProject(await writeProject({ 'flow.yaml': '- a\n- b\n' }));
    expect(codes(p.diagnostics)).toEqual(['E_ROOT_NOT_MAPPING']);
  });

  it.each([
    ['flow sequences', `version: 1\nx: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`],
    ['block maps', `version: 1\nx:\n${Array.from({ length: 100 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:\n`).join('')}`],
  ])('very deep nesting (%s)', async (_, text) => {
    const p = await loadProject(await writeProject({ 'flow.yaml': text }));
    expect(p.diagnostics[0]).toMatchObject({ code: 'E_YAML_PARSE' });
    expect(p.diagnostics[0].message).toMatch(/nesting/);
  });

  it('a symlink loop', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT });
    await symlink('b.yaml', path.join(dir, 'resources/a.yaml')).catch(async () => {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(path.join(dir, 'resources'));
      await symlink('b.yaml', path.join(dir, 'resources/a.yaml'));
    });
    await symlink('a.yaml', path.join(dir, 'resources/b.yaml'));
    const p = await loadProject(dir);
    expect(codes(p.diagnostics)).toEqual(['E_FILE_UNREADABLE', 'E_FILE_UNREADABLE']);
    expect(p.diagnostics[0].message).toMatch(/symbolic link loop/);
  });

  it('an empty file and a file that is not a mapping', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/a.yaml': '', 'resources/b.yaml': '42\n' });
    expect(codes((await loadProject(dir)).diagnostics)).toEqual(['W_EMPTY_FILE', 'E_NOT_MAPPING']);
  });
});
