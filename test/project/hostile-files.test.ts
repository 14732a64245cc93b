// Project files that lead elsewhere (symbolic links out of the project) or are not files at
// all (a named pipe): refused with a coded error, never read, never waited on.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWhenAvailable, NOT_BUILT } from '../helpers/needs.js';
import { loadProject } from '../../src/project/index.js';
import { realProjectDirSync } from '../../src/project/project-path.js';
import { readProjectFile } from '../../src/project/read.js';
import { cleanProjects, codes, writeProject } from '../helpers/project.js';

afterAll(cleanProjects);

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ROOT = 'version: 1\nimports:\n  - resources/*.yaml\n';
const EVIL = 'name: evil\noperations:\n  steal: { method: POST, path: /steal }\n';

describe('symbolic links out of the project (E_FILE_OUTSIDE_PROJECT)', () => {
  it('a resource file linked to a file outside is refused, and its operations are not planned', async () => {
    const outside = await writeProject({ 'evil.yaml': EVIL });
    const dir = await writeProject({ 'flow.yaml': ROOT, 'resources/ok.yaml': 'operations: { get: { path: /ok } }\n' });
    await symlink(path.join(outside, 'evil.yaml'), path.join(dir, 'resources/evil.yaml'));
    const p = await loadProject(dir);
    expect([...p.operations.keys()]).toEqual(['ok.get']);
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        code: 'E_FILE_OUTSIDE_PROJECT',
        file: path.join(dir, 'resources/evil.yaml'),
        message: expect.stringContaining('outside the project directory'),
      }),
    ]);
  });

  it('a layout folder that is itself a link to an outside folder is refused file by file', async () => {
    const outside = await writeProject({ 'resources/evil.yaml': EVIL });
    const dir = await writeProject({ 'flow.yaml': ROOT });
    await symlink(path.join(outside, 'resources'), path.join(dir, 'resources'));
    const p = await loadProject(dir);
    expect(p.operations.size).toBe(0);
    expect(codes(p.diagnostics)).toEqual(['E_FILE_OUTSIDE_PROJECT']);
  });

  it('/etc/passwd behind a resource link is never opened (no YAML error quoting it)', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT });
    await mkdir(path.join(dir, 'resources'));
    await symlink('/etc/passwd', path.join(dir, 'resources/passwd.yaml'));
    const p = await loadProject(dir);
    expect(codes(p.diagnostics)).toEqual(['E_FILE_OUTSIDE_PROJECT']);
  });

  it('a flow.yaml linked to a file outside is refused too', async () => {
    const outside = await writeProject({ 'flow.yaml': ROOT });
    const dir = await writeProject({});
    await symlink(path.join(outside, 'flow.yaml'), path.join(dir, 'flow.yaml'));
    expect(codes((await loadProject(dir)).diagnostics)).toEqual(['E_FILE_OUTSIDE_PROJECT']);
  });

  it('links that stay inside the project are read, and a project reached through a link works', async () => {
    const dir = await writeProject({ 'flow.yaml': ROOT, 'shared/orders.yaml': 'operations: { list: { path: /orders } }\n' });
    await mkdir(path.join(dir, 'resources'));
    await symlink('../shared/orders.yaml', path.join(dir, 'resources/orders.yaml'));
    const viaLink = `${dir}-link`;
    await symlink(dir, viaLink);
    try {
      for (const target of [dir, viaLink]) {
        const p = await loadProject(target);
        expect(p.diagnostics).toEqual([]);
        expect([...p.operations.keys()]).toEqual(['orders.list']);
      }
    } finally {
      execFileSync('rm', [viaLink]);
    }
  });

  it('a folder swapped for a link while files are read: nothing outside is ever read (the check is made again on the open file)', async () => {
    const outside = await writeProject({ 'x.yaml': 'name: OUTSIDE\n' });
    const dir = await writeProject({ 'flow.yaml': ROOT, 'inside/x.yaml': 'name: inside\n' });
    await symlink(outside, path.join(dir, 'link'));
    // Another process makes `res` the inside folder, then the link, then the folder again, as
    // fast as it can: a read of res/x.yaml races every check made through the path.
    const swap = `const fs = require('fs'); const at = (n) => require('path').join(${JSON.stringify(dir)}, n);
      const mv = (a, b) => { try { fs.renameSync(at(a), at(b)); } catch {} };
      for (;;) { mv('inside', 'res'); mv('res', 'inside'); mv('link', 'res'); mv('res', 'link'); }`;
    const swapper = spawn(process.execPath, ['-e', swap], { stdio: 'ignore' });
    const seen = { inside: 0, outside: 0 };
    try {
      await new Promise((r) => setTimeout(r, 100));
      const real = realProjectDirSync(dir);
      for (const started = Date.now(); Date.now() - started < 1500;) {
        const r = readProjectFile(path.join(dir, 'res/x.yaml'), real);
        if (r.ok) seen[r.text.includes('OUTSIDE') ? 'outside' : 'inside']++;
        else expect(r.diagnostic.code).toMatch(/^E_FILE_/); // refused while the path was half swapped
      }
    } finally {
      swapper.kill();
    }
    expect(seen.outside).toBe(0);
    // the race was run: the inside file was read through the swapped folder
    expect(seen.inside).toBeGreaterThan(0);
  });
});

// Through the real binary in a child process with a time limit: were the FIFO opened, the
// child would block for ever, and only the child would be killed.
const BUILT = existsSync(path.join(REPO, 'dist/cli/commands/lint.js'));
function flow(args: string[]): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO, 'bin/flow.js'), ...args], { timeout: 15_000 }, (err, stdout, stderr) => {
      const e = err as (Error & { code?: number; signal?: string }) | null;
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, signal: e?.signal ?? null, stdout, stderr });
    });
  });
}

describeWhenAvailable('a named pipe as a project file (real mkfifo, bin/flow.js)', BUILT ? undefined : NOT_BUILT, () => {
  it.each([
    ['the pipe itself', 'resources/pipe.yaml'],
    ['a link to the pipe', 'resources/link.yaml'],
  ])('%s: flow lint and flow run answer E_FILE_UNREADABLE instead of hanging', async (_, rel) => {
    const dir = await writeProject({
      'flow.yaml': ROOT,
      'resources/ok.yaml': 'operations: { get: { path: /ok } }\n',
      'environments/local.yaml': 'variables: { baseUrl: "http://127.0.0.1:9" }\n',
    });
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    if (rel.endsWith('link.yaml')) await symlink('../fifo', path.join(dir, rel));
    else execFileSync('mkfifo', [path.join(dir, rel)]);
    const lint = await flow(['lint', '--project', dir, '--format', 'json']);
    expect(lint.signal).toBeNull();
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain('E_FILE_UNREADABLE');
    expect(lint.stdout).toContain('named pipe (FIFO)');
    const run = await flow(['run', '--all', '--project', dir]);
    expect(run.signal).toBeNull();
    expect(run.stdout + run.stderr).toContain('E_FILE_UNREADABLE');
  });
});
