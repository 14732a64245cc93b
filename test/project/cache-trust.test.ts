// The parse cache is the user's own, or it is not used (README "Security boundaries"): a folder
// another user made (the old default, `node_modules/.cache` in a shared parent) or can write
// serves nothing, and an entry that is a FIFO, a link to /dev/zero or 600 MB never stalls a
// load. Real second user (runuser), real FIFOs, the real CLI in a child process.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWhenAvailable } from '../helpers/needs.js';
import { asOther, noOtherUser, OTHER } from '../helpers/other-user.js';
import { lint } from '../../src/lint/index.js';
import { loadProject } from '../../src/project/index.js';
import { ParseCache, seal } from '../../src/project/parse-cache.js';
import { json, startServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { childEnv, ensureBuilt, REPO } from '../vitest/helpers.js';

afterAll(cleanProjects);

const ROOT = 'version: 1\nname: shop\nimports:\n  - resources/*.yaml\n';
/** `ordr` is a typo: lint must report E_REF_UNDEFINED. */
const BROKEN =
  'name: order\noperations:\n  create:\n    method: POST\n    path: /orders\n    extract:\n      id: $.data.id\n  get:\n    path: /orders/{{ordr.id}}\n';
const FIXED = BROKEN.replace('{{ordr.id}}', '{{order.id}}');

type CacheModule = typeof import('../../src/project/parse-cache.js');

/**
 * Entries that serve FIXED's parse for BROKEN's text, made as an attacker who can write the
 * folder would: keys, source hash and checksum are all computed from public facts.
 */
async function plant(
  into: string,
  mod: CacheModule,
  load: (dir: string, cacheDir: string) => Promise<unknown>,
  served = FIXED,
  onDisk = BROKEN,
): Promise<void> {
  const fixedProject = await writeProject({ 'flow.yaml': ROOT, 'resources/orders.yaml': served });
  await load(fixedProject, into);
  const cache = new mod.ParseCache(into);
  const fixedKey = cache.keyOf(served);
  const brokenKey = cache.keyOf(onDisk);
  const entry = JSON.parse(readFileSync(path.join(into, fixedKey.slice(0, 2), `${fixedKey}.json`), 'utf8')) as Record<string, unknown>;
  entry.key = brokenKey;
  if ('source' in entry) entry.source = createHash('sha256').update(onDisk).digest('hex');
  let text = JSON.stringify(entry);
  if ('seal' in mod) text = mod.seal(text);
  mkdirSync(path.join(into, brokenKey.slice(0, 2)), { recursive: true });
  writeFileSync(path.join(into, brokenKey.slice(0, 2), `${brokenKey}.json`), text);
}

/**
 * A project in a shared parent anyone may write (as /tmp is), whose node_modules/.cache (the
 * old default) the other user filled with entries serving `served` for `onDisk`, planted by
 * the built code (what the CLI runs); and an empty HOME for the CLI.
 */
async function plantedInSharedParent(root: string, onDisk: string, served = FIXED): Promise<{ project: string; home: string; cleanup: () => void }> {
  await ensureBuilt();
  const dist = (await import(path.join(REPO, 'dist/project/parse-cache.js'))) as CacheModule;
  const { loadProject: distLoad } = (await import(path.join(REPO, 'dist/project/index.js'))) as typeof import('../../src/project/index.js');
  const plantDir = mkdtempSync(path.join(tmpdir(), 'reqflow-plant-'));
  await plant(plantDir, dist, (dir, cacheDir) => distLoad(dir, { cache: { dir: cacheDir } }), served, onDisk);
  execFileSync('chmod', ['-R', 'a+rX', plantDir]);
  const shared = mkdtempSync(path.join(tmpdir(), 'reqflow-shared-'));
  chmodSync(shared, 0o1777);
  asOther(`mkdir -p ${shared}/node_modules/.cache/reqflow && cp -r ${plantDir}/. ${shared}/node_modules/.cache/reqflow/`);
  const project = path.join(shared, 'proj');
  mkdirSync(path.join(project, 'resources'), { recursive: true });
  writeFileSync(path.join(project, 'flow.yaml'), root);
  writeFileSync(path.join(project, 'resources/orders.yaml'), onDisk);
  const home = mkdtempSync(path.join(tmpdir(), 'reqflow-home-'));
  return { project, home, cleanup: () => execFileSync('rm', ['-rf', shared, plantDir, home]) };
}

function flowLint(
  projectDir: string,
  env: Record<string, string>,
  args = ['lint', '-p', projectDir, '--format', 'json'],
): Promise<{ code: number | null; out: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO, 'bin/flow.js'), ...args],
      { env: childEnv(env), timeout: 15_000, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: number; killed?: boolean }) | null;
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, out: stdout + stderr, timedOut: e?.killed === true });
      },
    );
  });
}

// In CI (root, .ci/run) the second user is always made: there a missing one fails the test.
const noUser = noOtherUser();

describeWhenAvailable('a cache folder that is not the user own', noUser, () => {
  it(
    "another user's node_modules/.cache in a shared parent (the old default) is not used: a planted entry cannot make lint pass",
    { timeout: 120_000 },
    async () => {
      const { project, home, cleanup } = await plantedInSharedParent(ROOT, BROKEN);
      const r = await flowLint(project, { HOME: home });
      expect(r.out).toContain('E_REF_UNDEFINED');
      expect(r.code).toBe(1);
      // the default folder is the user's own, made 0700
      const own = path.join(home, '.cache', 'reqflow');
      expect(existsSync(own)).toBe(true);
      expect(statSync(own).mode & 0o777).toBe(0o700);
      cleanup();
    },
  );

  it("another user's planted entry cannot make flow run execute a pre_request hook that is in no file", { timeout: 120_000 }, async () => {
    const srv = await startServer({ '*': (_req, res) => json(res, 200, { data: { id: 1 } }) });
    try {
      const root = `version: 1\nname: shop\nenvironment:\n  variables:\n    baseUrl: ${srv.url}\nimports:\n  - resources/*.yaml\n`;
      const onDisk = 'name: order\noperations:\n  list:\n    path: /orders\n';
      const served = `${onDisk}    pre_request: "ctx.request.headers['X-Planted'] = 'ran as ' + process.pid"\n`;
      const { project, home, cleanup } = await plantedInSharedParent(root, onDisk, served);
      const r = await flowLint(project, { HOME: home }, ['run', '-p', project, '--all']);
      expect(r.code, r.out).toBe(0);
      expect(srv.requests.map((q) => q.path)).toEqual(['/orders']);
      expect(srv.requests[0].headers['x-planted']).toBeUndefined();
      cleanup();
    } finally {
      await srv.close();
    }
  });

  it("--cache-dir naming another user's folder: W_CACHE_UNSAFE, and the load goes on without it", async () => {
    const plantDir = mkdtempSync(path.join(tmpdir(), 'reqflow-plant-'));
    await plant(plantDir, { ParseCache, seal } as CacheModule, (dir, cacheDir) => loadProject(dir, { cache: { dir: cacheDir } }));
    execFileSync('chmod', ['-R', 'a+rX', plantDir]);
    const theirs = path.join(mkdtempSync(path.join(tmpdir(), 'reqflow-theirs-')), 'cache');
    chmodSync(path.dirname(theirs), 0o755);
    execFileSync('chown', [OTHER, path.dirname(theirs)]);
    asOther(`mkdir -m 755 ${theirs} && cp -r ${plantDir}/. ${theirs}/`);
    // the planted entry is well-formed, with the broken text's key, source hash and checksum
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/orders.yaml': BROKEN });
    const key = new ParseCache(theirs).keyOf(BROKEN);
    const planted = readFileSync(path.join(theirs, key.slice(0, 2), `${key}.json`), 'utf8');
    expect(seal(planted)).toBe(planted);
    expect(JSON.parse(planted)).toMatchObject({ key, value: { operations: { get: { path: '/orders/{{order.id}}' } } } });

    const project = await loadProject(dir, { cache: { dir: theirs } });
    const codes = [...project.diagnostics, ...lint(project).diagnostics].map((d) => d.code);
    expect(codes).toContain('W_CACHE_UNSAFE');
    expect(codes).toContain('E_REF_UNDEFINED');
    expect(project.diagnostics.find((d) => d.code === 'W_CACHE_UNSAFE')?.message).toMatch(/belongs to another user/);
    execFileSync('rm', ['-rf', path.dirname(theirs), plantDir]);
  });
});

describe('a cache folder of the user that others can write', () => {
  it('mode 0777 (or a folder above it that others can write): W_CACHE_UNSAFE, nothing read or written there', async () => {
    const base = mkdtempSync(path.join(tmpdir(), 'reqflow-open-'));
    const open = path.join(base, 'cache');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const under = path.join(base, 'wide', 'cache');
    mkdirSync(under, { recursive: true, mode: 0o700 });
    chmodSync(path.join(base, 'wide'), 0o777); // not sticky: anyone may rename cache/ away
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/orders.yaml': BROKEN });
    for (const cacheDir of [open, under]) {
      const project = await loadProject(dir, { cache: { dir: cacheDir } });
      expect(project.diagnostics.map((d) => d.code)).toContain('W_CACHE_UNSAFE');
      expect(readdirSync(cacheDir)).toEqual([]);
      expect(lint(project).diagnostics.map((d) => d.code)).toContain('E_REF_UNDEFINED');
    }
    execFileSync('rm', ['-rf', base]);
  });
});

describe('entries that are not regular files, or too large', () => {
  it('a FIFO, a link to /dev/zero and a 600 MB entry: lint finishes at once with the right findings', { timeout: 120_000 }, async () => {
    await ensureBuilt();
    const dist = (await import(path.join(REPO, 'dist/project/parse-cache.js'))) as CacheModule;
    for (const kind of ['fifo', 'zero', 'huge'] as const) {
      const cacheDir = mkdtempSync(path.join(tmpdir(), 'reqflow-cache-'));
      const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/orders.yaml': BROKEN });
      const cache = new dist.ParseCache(cacheDir);
      for (const text of [ROOT, BROKEN]) {
        const key = cache.keyOf(text);
        const file = path.join(cacheDir, key.slice(0, 2), `${key}.json`);
        mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        if (kind === 'fifo') execFileSync('mkfifo', ['-m', '600', file]);
        else if (kind === 'zero') symlinkSync('/dev/zero', file);
        else {
          writeFileSync(file, '', { mode: 0o600 });
          truncateSync(file, 600 * 1024 * 1024); // sparse: no disk used
        }
      }
      const started = Date.now();
      const r = await flowLint(dir, { FLOW_CACHE_DIR: cacheDir });
      expect(r.timedOut, kind).toBe(false);
      expect(Date.now() - started, kind).toBeLessThan(10_000);
      expect(r.out, kind).toContain('E_REF_UNDEFINED');
      expect(r.code, kind).toBe(1);
      execFileSync('rm', ['-rf', cacheDir]);
    }
  });
});
