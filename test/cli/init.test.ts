// `flow init [dir]`: a project that lints clean, with comments pointing at docs/format.md; a
// Vitest config only where Vitest is installed (.mts in a CommonJS package, which a .ts config
// makes Vite warn about); an existing file is never replaced. The written project then runs,
// under `flow run` and under a real `vitest run`, against a real server.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { collect, ensureBuilt, REPO, runVitest } from '../vitest/helpers.js';
import { spawn } from 'node:child_process';

const PROJECT_FILES = ['flow.yaml', 'environments/local.yaml', 'actors/user.yaml', 'resources/items.yaml'];
const TOKEN = 'init-test-token-4711';
let server: TestServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer({
    'GET /items': (req, res) => (req.headers.authorization === `Bearer ${TOKEN}` ? json(res, 200, [{ id: 3 }]) : json(res, 401, {})),
  });
}, 180_000);

afterAll(async () => {
  await server.close();
  await cleanProjects();
});

/** A package whose node_modules holds this repository's Vitest and reqflow itself (as an install would). */
async function packageWithVitest(type?: string): Promise<string> {
  const dir = await writeProject({ 'package.json': JSON.stringify({ name: 'api-tests', private: true, ...(type && { type }) }) });
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(path.join(REPO, 'node_modules/vitest'), path.join(dir, 'node_modules/vitest'));
  symlinkSync(REPO, path.join(dir, 'node_modules/reqflow'));
  return dir;
}

describe('flow init', () => {
  it('writes flow.yaml, an environment, an actor and a resource that lint clean, each pointing at docs/format.md', async () => {
    const parent = await writeProject({});
    const io = capturingIO({ cwd: parent });
    expect(await main(['init', 'shop-api'], io), io.err).toBe(0);
    const dir = path.join(parent, 'shop-api');
    for (const file of PROJECT_FILES) {
      expect(readFileSync(path.join(dir, file), 'utf8'), file).toMatch(/^# .*\n(#.*\n)*/);
      expect(readFileSync(path.join(dir, file), 'utf8'), file).toContain('docs/format.md#');
      expect(io.out).toContain(`created ${path.join('shop-api', file)}\n`);
    }
    // no Vitest installed for that directory: no config
    expect(existsSync(path.join(dir, 'vitest.config.ts')) || existsSync(path.join(dir, 'vitest.config.mts'))).toBe(false);
    expect(readFileSync(path.join(dir, 'flow.yaml'), 'utf8')).toContain('name: "shop-api"');
    const lint = capturingIO({ cwd: dir });
    expect(await main(['lint', '--no-cache', '--strict'], lint)).toBe(0);
    expect(lint.out).toBe('✔ no problems\n');
    // and it runs: the actor's token from FLOW_SECRET_API_TOKEN, baseUrl from --var
    const run = capturingIO({ cwd: dir, env: { FLOW_SECRET_API_TOKEN: TOKEN } });
    expect(await main(['run', '--all', '--no-cache', '--var', `baseUrl=${server.url}`], run), run.out + run.err).toBe(0);
    expect(server.count('GET /items')).toBe(1);
  });

  it('refuses to replace a file (E_INIT_EXISTS), and then writes nothing at all', async () => {
    const dir = await writeProject({ 'flow.yaml': 'version: 1\n# mine\n' });
    const io = capturingIO({ cwd: dir });
    expect(await main(['init'], io)).toBe(1);
    expect(io.err).toBe(`flow init: E_INIT_EXISTS: flow.yaml already exists in ${dir}; nothing was written\n`);
    expect(readFileSync(path.join(dir, 'flow.yaml'), 'utf8')).toBe('version: 1\n# mine\n');
    for (const file of PROJECT_FILES.slice(1)) expect(existsSync(path.join(dir, file)), file).toBe(false);
  });

  it.each([
    ['a folder on the way is a link', 'resources', 'E_WRITE_OUTSIDE: resources is a symbolic link'],
    ['a file is a link to nothing', 'vitest.config.mts', 'E_INIT_EXISTS: vitest.config.mts already exists'],
  ])('%s (the last file written): nothing is written at all', async (_case, link, message) => {
    const dir = await packageWithVitest();
    symlinkSync(link === 'resources' ? await writeProject({}) : path.join(dir, 'nowhere'), path.join(dir, link));
    const io = capturingIO({ cwd: dir });
    expect(await main(['init'], io)).toBe(1);
    expect(io.err).toContain(message);
    for (const file of PROJECT_FILES) expect(existsSync(path.join(dir, file)), file).toBe(false);
  });

  it('a FIFO package.json in a shared parent folder neither hangs it nor stops it (bin/flow.js)', async () => {
    const parent = await writeProject({});
    execFileSync('mkfifo', [path.join(parent, 'package.json')]);
    const child = spawn(process.execPath, [path.join(REPO, 'bin/flow.js'), 'init', 'api'], { cwd: parent, stdio: ['ignore', 'pipe', 'pipe'] });
    const run = await collect(child, 20_000);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const file of PROJECT_FILES) expect(existsSync(path.join(parent, 'api', file)), file).toBe(true);
  }, 30_000);

  it.each([
    ['module', 'vitest.config.ts'],
    [undefined, 'vitest.config.mts'],
  ])(
    'with Vitest installed ("type": %s) it adds %s, which runs the project without a Vite warning',
    async (type, config) => {
      const pkg = await packageWithVitest(type);
      const io = capturingIO({ cwd: pkg });
      expect(await main(['init'], io), io.err).toBe(0);
      expect(io.out).toContain(`created ${config}\n`);
      expect(readFileSync(path.join(pkg, config), 'utf8')).toContain("import { flow } from 'reqflow/vitest';");
      const before = server.count('GET /items');
      const run = await runVitest(pkg, ['run'], { FLOW_VAR_baseUrl: server.url, FLOW_SECRET_API_TOKEN: TOKEN });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Tests\s+1 passed/);
      expect(run.stdout + run.stderr).not.toContain('(!)');
      expect(server.count('GET /items')).toBe(before + 1);
    },
    120_000,
  );

  it('flow --help lists it, every summary aligned', async () => {
    const io = capturingIO({ cwd: REPO });
    expect(await main(['--help'], io)).toBe(0);
    const rows = io.out.split('\n').filter((l) => /^ {2}[a-z]+ {2,}\S/.test(l));
    expect(rows.map((l) => l.trim().split(/\s+/)[0])).toEqual(['lint', 'run', 'graph', 'import', 'secret', 'calibrate', 'explore', 'init']);
    const starts = rows.map((l) => l.search(/(?<=^ {2}[a-z]+ +)\S/));
    expect(new Set(starts).size).toBe(1);
  });
});
