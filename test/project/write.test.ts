// Every write into a project goes through one writer (src/project/write.ts): atomic (a kill -9
// in the middle leaves the old file whole), inside the project (no link followed, no FIFO or
// device opened), names checked before anything is written, and an edit never holds a secret.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadProject } from '../../src/project/index.js';
import { recordVerified } from '../../src/runner/record.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { describeWhenAvailable } from '../helpers/needs.js';
import { noOtherUser, OTHER } from '../helpers/other-user.js';
import { json, startServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';
import { ensureBuilt, REPO } from '../vitest/helpers.js';

afterAll(cleanProjects);

const ROOT = 'version: 1\nname: shop\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n';
const ENV = 'name: local\nvariables:\n  baseUrl: http://127.0.0.1:9\n';
const ITEMS = 'name: item\noperations:\n  list:\n    path: /items\n';

async function outside(): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-outside-'));
  const file = path.join(dir, 'items.yaml');
  await writeFile(file, ITEMS);
  return { dir, file };
}

async function openapi(dir: string, paths: string[]): Promise<string> {
  const doc = {
    openapi: '3.0.3',
    info: { title: 'shop', version: '1' },
    servers: [{ url: 'http://127.0.0.1:9' }],
    paths: Object.fromEntries(paths.map((p) => [p, { get: { operationId: `get${paths.indexOf(p)}`, responses: { 200: { description: 'ok' } } } }])),
  };
  const file = path.join(dir, 'api.json');
  await writeFile(file, JSON.stringify(doc));
  return file;
}

describe('import --into and --out', () => {
  it('--into through a symlinked resources/ folder: E_WRITE_OUTSIDE, the outside file unchanged', async () => {
    const out = await outside();
    const dir = await writeProject({ 'flow.yaml': ROOT, 'environments/local.yaml': ENV });
    await symlink(out.dir, path.join(dir, 'resources'));
    const api = await openapi(dir, ['/items', '/orders']);
    const rec = capturingIO({ cwd: dir });
    const code = await main(['import', api, '--into', '.'], rec);
    expect(rec.err).toContain('E_WRITE_OUTSIDE');
    expect(code).toBe(2);
    expect(await readFile(out.file, 'utf8')).toBe(ITEMS);
    expect((await readdir(out.dir)).sort()).toEqual(['items.yaml']);
  });

  it('--into with a resource file linked outside: refused, the outside file unchanged', async () => {
    const out = await outside();
    const dir = await writeProject({ 'flow.yaml': ROOT, 'environments/local.yaml': ENV, 'resources/.keep': '' });
    await symlink(out.file, path.join(dir, 'resources', 'items.yaml'));
    const api = await openapi(dir, ['/items']);
    const rec = capturingIO({ cwd: dir });
    const code = await main(['import', api, '--into', '.'], rec);
    expect(rec.err).toMatch(/E_WRITE_OUTSIDE .*items\.yaml is a symbolic link/);
    expect(code).toBe(2);
    expect(await readFile(out.file, 'utf8')).toBe(ITEMS);
  });

  it('--into with a FIFO or a link to /dev/zero as a project file: a coded error at once, no hang', async () => {
    for (const make of ['fifo', 'zero'] as const) {
      const dir = await writeProject({ 'flow.yaml': ROOT, 'environments/local.yaml': ENV, 'resources/.keep': '' });
      const target = path.join(dir, 'resources', 'items.yaml');
      if (make === 'fifo') execFileSync('mkfifo', [target]);
      else await symlink('/dev/zero', target);
      const api = await openapi(dir, ['/items']);
      const rec = capturingIO({ cwd: dir });
      const started = Date.now();
      const code = await main(['import', api, '--into', '.'], rec);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(rec.err).toMatch(make === 'fifo' ? /E_WRITE_NOT_FILE .*named pipe/ : /E_WRITE_OUTSIDE .*symbolic link/);
      expect(code).toBe(2);
    }
  }, 20_000);

  it('--out with a 300-character name: E_WRITE_NAME, and no --out folder at all', async () => {
    const dir = await writeProject({});
    // a 300-character path segment is no longer one: the names made from it are shortened
    const api = await openapi(dir, ['/items', `/${'a'.repeat(300)}`]);
    const rec = capturingIO({ cwd: dir });
    const code = await main(['import', api, '--out', `p${'b'.repeat(300)}`], rec);
    expect(rec.err).toMatch(/E_WRITE_NAME .*too long for the file system/);
    expect(rec.err).not.toContain('ENAMETOOLONG');
    expect(code).toBe(2);
    expect((await readdir(dir)).filter((n) => n.startsWith('p'))).toEqual([]);
    expect((await readdir(dir)).filter((n) => n.startsWith('.flow'))).toEqual([]);
  });

  it('--out is assembled aside and moved into place: a run that succeeds leaves only the project', async () => {
    const dir = await writeProject({});
    const api = await openapi(dir, ['/items']);
    const rec = capturingIO({ cwd: dir });
    expect(await main(['import', api, '--out', 'p'], rec)).toBe(0);
    expect((await readdir(path.join(dir, 'p'))).sort()).toEqual(
      ['actors', 'environments', 'flow.yaml', 'openapi.json', 'resources'].filter((n) => existsSync(path.join(dir, 'p', n))),
    );
    expect((await readdir(dir)).sort()).toEqual(['api.json', 'p']);
  });
});

describe('run --record', () => {
  it('a folder swapped for a link after the load: E_WRITE_OUTSIDE, the outside file unchanged', async () => {
    const srv = await startServer({ 'GET /items': (_req, res) => json(res, 200, { data: [] }) });
    try {
      const dir = await writeProject({
        'flow.yaml': ROOT,
        'environments/local.yaml': ENV.replace('http://127.0.0.1:9', srv.url),
        'resources/items.yaml': ITEMS,
      });
      const project = await loadProject(dir, { cache: { enabled: false } });
      const out = await outside();
      // the swap: resources/ now leads out of the project, holding a file of the same name
      await rename(path.join(dir, 'resources'), path.join(dir, 'resources-old'));
      await symlink(out.dir, path.join(dir, 'resources'));
      const passed = [{ operation: 'item.list', status: 'passed' }] as unknown as Parameters<typeof recordVerified>[1];
      await expect(recordVerified(project, passed)).rejects.toMatchObject({ code: 'E_WRITE_OUTSIDE' });
      expect(await readFile(out.file, 'utf8')).toBe(ITEMS);
    } finally {
      await srv.close();
    }
  });
});

describe('calibrate --apply', () => {
  it('an answer keyed by the API key: the key goes into neither the YAML nor the report', async () => {
    const KEY = 'calkey-9f2c4e7a1b';
    const srv = await startServer({
      'POST /items': (req, res) => (req.headers['x-api-key'] === KEY ? json(res, 201, { data: { [KEY]: { id: 7 } } }) : json(res, 401, { error: 'no key' })),
    });
    try {
      const dir = await writeProject({
        'flow.yaml': 'version: 1\nname: shop\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
        'environments/local.yaml': `name: local\nvariables:\n  baseUrl: ${srv.url}\n`,
        'actors/partner.yaml': 'name: partner\nauth:\n  strategy: api_key\n  key: !secret PARTNER_KEY\n  location: header\n  name: X-Api-Key\n',
        'resources/items.yaml':
          'name: item\noperations:\n  create:\n    method: POST\n    path: /items\n    actor: partner\n    expect_status: 201\n    extract:\n      id: $.data.id\n',
      });
      const rec = recordedIO({ cwd: dir, env: { FLOW_SECRET_PARTNER_KEY: KEY } });
      await main(['calibrate', '--writes', '--apply', '--report', 'calibration.md'], rec.io);
      const report = await readFile(path.join(dir, 'calibration.md'), 'utf8');
      const yaml = await readFile(path.join(dir, 'resources/items.yaml'), 'utf8');
      expect(report).toContain('item.create'); // the calibration ran and reported on the operation
      expect(report).toMatch(/only under a key that is a secret/);
      for (const text of [report, yaml, rec.out(), rec.err()]) expect(text).not.toContain(KEY);
      expect(yaml).toContain('id: $.data.id');
    } finally {
      await srv.close();
    }
  });
});

describe('kill -9 during a write', () => {
  it('leaves the old file whole, or the new one whole, never a mix (10 tries)', async () => {
    await ensureBuilt();
    // Big enough that writing takes many chunks (Node's fs writes 512 KiB at a time).
    const old = `name: item\nnote: "${'x'.repeat(6 * 1024 * 1024)}"\n`;
    const script = `
      const { writeProjectFile } = await import(${JSON.stringify(path.join(REPO, 'dist/project/index.js'))});
      const [dir, file] = process.argv.slice(1);
      writeProjectFile(dir, file, 'name: item\\nnote: "' + 'y'.repeat(6 * 1024 * 1024 + 7) + '"\\n');
    `;
    let killed = 0;
    for (let i = 0; i < 10; i++) {
      const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/items.yaml': old });
      const file = path.join(dir, 'resources', 'items.yaml');
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, dir, file], { stdio: 'ignore' });
      const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, signal) => r(signal)));
      // kill at the first sign of the write: a change in the folder
      const watcher = watch(path.join(dir, 'resources'), () => child.kill('SIGKILL'));
      if ((await exited) === 'SIGKILL') killed++;
      watcher.close();
      const after = await readFile(file, 'utf8');
      const whole = after === old || after === `name: item\nnote: "${'y'.repeat(6 * 1024 * 1024 + 7)}"\n`;
      expect(whole, `try ${i}: ${after.length} characters`).toBe(true);
    }
    expect(killed).toBeGreaterThan(0); // the kill did land during writes
  }, 60_000);
});

describe('the writer refuses before writing', () => {
  it('a path outside the project, or through ..', async () => {
    const { writeProjectFile } = await import('../../src/project/write.js');
    const dir = await writeProject({ 'flow.yaml': ROOT });
    expect(() => writeProjectFile(dir, path.join(dir, '..', 'x.yaml'), 'x')).toThrow(expect.objectContaining({ code: 'E_WRITE_OUTSIDE' }));
    expect(() => writeProjectFile(dir, dir, 'x')).toThrow(expect.objectContaining({ code: 'E_WRITE_OUTSIDE' }));
    await mkdir(path.join(dir, 'resources'));
    writeProjectFile(dir, path.join(dir, 'resources', 'a.yaml'), 'name: a\n');
    expect(await readFile(path.join(dir, 'resources', 'a.yaml'), 'utf8')).toBe('name: a\n');
    expect((await readdir(path.join(dir, 'resources'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    await rm(path.join(dir, 'resources'), { recursive: true });
  });
});

describe('the writer keeps what it replaces', () => {
  it("the replaced file's mode, exactly (640, and 664 which a umask of 022 would turn to 644)", async () => {
    const { writeProjectFile } = await import('../../src/project/write.js');
    const dir = await writeProject({ 'flow.yaml': ROOT, 'a.yaml': 'name: a\n', 'b.yaml': 'name: b\n' });
    const old = process.umask(0o022);
    try {
      for (const [file, mode] of [
        ['a.yaml', 0o640],
        ['b.yaml', 0o664],
      ] as const) {
        await chmod(path.join(dir, file), mode);
        writeProjectFile(dir, path.join(dir, file), 'name: x\n');
        expect((await stat(path.join(dir, file))).mode & 0o7777).toBe(mode);
      }
    } finally {
      process.umask(old);
    }
  });

  describeWhenAvailable('owned by another user', noOtherUser(), () => {
    it("an edit by root leaves the file its owner's (owner and group kept)", async () => {
      const { writeProjectFile } = await import('../../src/project/write.js');
      const dir = await writeProject({ 'flow.yaml': ROOT, 'a.yaml': 'name: a\n' });
      const file = path.join(dir, 'a.yaml');
      execFileSync('chown', [`${OTHER}:${OTHER}`, file]);
      await chmod(file, 0o640);
      const before = await stat(file);
      writeProjectFile(dir, file, 'name: x\n');
      const after = await stat(file);
      expect([after.uid, after.gid, after.mode & 0o7777]).toEqual([before.uid, before.gid, 0o640]);
      expect(await readFile(file, 'utf8')).toBe('name: x\n');
    });
  });
});
