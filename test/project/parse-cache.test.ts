// The parse cache (src/project/parse-cache.ts): a hit serves the stored parse, a miss parses
// and stores, and nothing in the cache folder is trusted: corrupt, foreign or malformed entries
// are ignored and rewritten. Two processes may share one folder.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lint } from '../../src/lint/index.js';
import { locate, loadProject, type Project } from '../../src/project/index.js';
import { ParseCache, seal } from '../../src/project/parse-cache.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { childEnv, ensureBuilt, REPO } from '../vitest/helpers.js';

const run = promisify(execFile);
afterAll(cleanProjects);

const FILES = {
  'flow.yaml': 'version: 1\nname: shop\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: http://127.0.0.1:9\n  password: !secret PW\n',
  'actors/admin.yaml':
    'name: admin\nauth:\n  strategy: simple\n  method: POST\n  path: /login\n  body: { user: admin, password: "{{env.password}}" }\n  extract: { token: $.data.token }\ninject:\n  headers: { Authorization: "Bearer {{admin.token}}" }\n',
  'resources/orders.yaml':
    "name: order\noperations:\n  create:\n    method: POST\n    path: /orders\n    actor: admin\n    extract:\n      id: $.data.id\n  get:\n    path: /orders/{{order.id}}\n    actor: admin\n    # a comment the cache must not shift positions around\n    assert:\n      - $.data.status == 'open'\n  broken:\n    path: /orders/{{ordr.id}}\n    api_key: hunter2\n",
};

let cacheRoot: string;
beforeAll(async () => {
  cacheRoot = await mkdtemp(path.join(tmpdir(), 'reqflow-cache-test-'));
});
afterAll(async () => {
  await rm(cacheRoot, { recursive: true, force: true });
});

let made = 0;
const freshCacheDir = () => path.join(cacheRoot, `c${made++}`);

async function entries(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const sub of await readdir(dir).catch(() => [])) {
    for (const f of await readdir(path.join(dir, sub))) if (f.endsWith('.json')) out.push(path.join(dir, sub, f));
  }
  return out.sort();
}

/** What a load yields that a user sees: the model's ids, every operation's place, and lint's findings. */
function observable(project: Project) {
  return {
    operations: [...project.operations.values()].map((op) => ({ id: op.id, method: op.method, path: op.path, loc: op.loc })),
    located: [...project.operations.values()].map((op) => locate(project, op.file, [...op.yamlPath, 'path'])),
    lint: lint(project).diagnostics,
  };
}

describe('parse cache', () => {
  it('a second load is served from the cache: same model, same positions, same diagnostics', async () => {
    const dir = await writeProject(FILES);
    const cacheDir = freshCacheDir();
    const uncached = observable(await loadProject(dir, { cache: { enabled: false } }));
    expect(await entries(cacheDir)).toEqual([]);

    const cold = observable(await loadProject(dir, { cache: { dir: cacheDir } }));
    const stored = await entries(cacheDir);
    expect(stored).toHaveLength(Object.keys(FILES).length);
    const warm = observable(await loadProject(dir, { cache: { dir: cacheDir } }));

    expect(cold).toEqual(uncached);
    expect(warm).toEqual(uncached);
    expect(uncached.lint.map((d) => d.code)).toEqual(expect.arrayContaining(['E_REF_UNDEFINED', 'W_PLAINTEXT_SECRET']));
    expect(await entries(cacheDir)).toEqual(stored); // nothing written on a hit
  });

  it('a hit really reads the entry (an entry changed by hand, and sealed again, shows in the model)', async () => {
    const dir = await writeProject(FILES);
    const cacheDir = freshCacheDir();
    await loadProject(dir, { cache: { dir: cacheDir } });
    let changed = 0;
    for (const file of await entries(cacheDir)) {
      const text = await readFile(file, 'utf8');
      if (!text.includes('/orders/{{order.id}}')) continue;
      await writeFile(file, seal(text.replace('/orders/{{order.id}}', '/from-the-cache/{{order.id}}')));
      changed++;
    }
    expect(changed).toBe(1);
    const project = await loadProject(dir, { cache: { dir: cacheDir } });
    expect(project.operations.get('order.get')?.path).toBe('/from-the-cache/{{order.id}}');
  });

  it('an edited file is parsed again, and only that file', async () => {
    const dir = await writeProject(FILES);
    const cacheDir = freshCacheDir();
    await loadProject(dir, { cache: { dir: cacheDir } });
    const before = await entries(cacheDir);
    await writeFile(path.join(dir, 'resources/orders.yaml'), FILES['resources/orders.yaml'].replace('path: /orders\n', 'path: /v2/orders\n'));
    const project = await loadProject(dir, { cache: { dir: cacheDir } });
    expect(project.operations.get('order.create')?.path).toBe('/v2/orders');
    const after = await entries(cacheDir);
    expect(after.filter((f) => !before.includes(f))).toHaveLength(1);
  });

  it('ignores and rewrites corrupt, foreign and malformed entries', async () => {
    const dir = await writeProject(FILES);
    const cacheDir = freshCacheDir();
    const expected = observable(await loadProject(dir, { cache: { enabled: false } }));
    await loadProject(dir, { cache: { dir: cacheDir } });
    const files = await entries(cacheDir);
    const spoil = [
      (t: string) => t.slice(0, t.length >> 1), // truncated: not JSON
      (t: string) => JSON.stringify({ ...JSON.parse(t), key: 'f'.repeat(64) }), // another key's entry
      (t: string) => JSON.stringify({ ...JSON.parse(t), positions: [1, 'x', { a: 3 }] }), // wrong shape
      (t: string) => JSON.stringify({ ...JSON.parse(t), format: 999 }), // another format
      () => '\u0000\u0001binary',
    ];
    for (const [i, file] of files.entries()) await writeFile(file, spoil[i % spoil.length](await readFile(file, 'utf8')));

    expect(observable(await loadProject(dir, { cache: { dir: cacheDir } }))).toEqual(expected);
    for (const file of files) {
      const entry = JSON.parse(await readFile(file, 'utf8')) as { key: string; format: number };
      expect(path.basename(file)).toBe(`${entry.key}.json`); // rewritten whole
      expect(entry.format).toBe(2);
    }
  });

  it('keys entries by the code that parsed them: another reqflow version reads none of them', async () => {
    const cacheDir = freshCacheDir();
    const text = 'name: x\noperations: { a: { path: /a } }\n';
    const v1 = new ParseCache(cacheDir, 'reqflow-1');
    const v2 = new ParseCache(cacheDir, 'reqflow-2');
    v1.write(v1.keyOf(text), text, { value: { name: 'x' }, diagnostics: [] });
    expect(v1.read(v1.keyOf(text), text)?.value).toEqual({ name: 'x' });
    expect(v2.keyOf(text)).not.toBe(v1.keyOf(text));
    expect(v2.read(v2.keyOf(text), text)).toBeUndefined();
  });

  it('stores nothing that JSON would change (.inf, -0), and such a file still loads', async () => {
    const dir = await writeProject({ ...FILES, 'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: http://127.0.0.1:9\n  limit: .inf\n' });
    const cacheDir = freshCacheDir();
    for (let i = 0; i < 2; i++) {
      const project = await loadProject(dir, { cache: { dir: cacheDir } });
      expect(project.environments.get('local')?.variables.limit).toBe(Infinity);
    }
    expect(await entries(cacheDir)).toHaveLength(Object.keys(FILES).length - 1);
  });

  it('a folder it cannot write to costs the cache, not the load', async () => {
    const dir = await writeProject(FILES);
    const blocker = path.join(cacheRoot, `file-${made++}`);
    await writeFile(blocker, 'not a folder');
    const project = await loadProject(dir, { cache: { dir: path.join(blocker, 'cache') } });
    expect(project.operations.size).toBe(3);
  });

  it('two processes sharing one cache folder at once both lint right, and leave whole entries', { timeout: 120_000 }, async () => {
    await ensureBuilt();
    const dir = await writeProject(FILES);
    const cacheDir = freshCacheDir();
    const flow = path.join(REPO, 'bin/flow.js');
    const lintJson = (env: Record<string, string>) =>
      run(process.execPath, [flow, 'lint', '-p', dir, '--format', 'json'], { env: childEnv(env) }).then(
        (r) => r.stdout,
        (err: { stdout: string }) => err.stdout, // exit 1: the project has errors on purpose
      );
    const expected = await lintJson({ FLOW_CACHE_DIR: freshCacheDir() });
    expect(JSON.parse(expected).length).toBeGreaterThan(0);
    for (let round = 0; round < 3; round++) {
      const outputs = await Promise.all([1, 2, 3].map(() => lintJson({ FLOW_CACHE_DIR: cacheDir })));
      for (const out of outputs) expect(out).toBe(expected);
    }
    const files = await entries(cacheDir);
    expect(files).toHaveLength(Object.keys(FILES).length);
    for (const file of files) expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();
    expect((await readdir(path.dirname(files[0]))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
