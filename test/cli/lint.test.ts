// `flow lint` through main() with a captured io (exit codes, formats, options, usage errors),
// and through a real child process of bin/flow.js once the package is built.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWhenAvailable, NOT_BUILT } from '../helpers/needs.js';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';
import { CODES } from '../../src/lint/codes.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = path.join(REPO, 'test/fixtures/lint');
const BROKEN = path.join(FIXTURES, 'broken');
const golden = (name: string) => readFileSync(path.join(BROKEN, name), 'utf8');

const ROOT = 'version: 1\nimports:\n  - resources/*.yaml\n';

async function flow(argv: string[], cwd = REPO) {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stdin: Readable.from([]),
    cwd,
    env: {},
    isTTY: false,
    stdoutIsTTY: false,
  };
  const code = await main(['lint', ...argv], io);
  return { code, stdout, stderr };
}

afterAll(cleanProjects);

describe('flow lint (in process)', () => {
  it('prints the stylish golden output and exits 1 on errors, from the project directory by default', async () => {
    const r = await flow([], BROKEN);
    expect(r).toEqual({ code: 1, stdout: golden('expected.stylish.txt'), stderr: '' });
  });

  it.each([
    ['json', 'expected.json'],
    ['github', 'expected.github.txt'],
  ])('--format %s matches its golden output', async (format, file) => {
    const r = await flow(['--format', format, '--project', '.'], BROKEN);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(golden(file));
  });

  it('prints paths relative to the cwd, and accepts -p and the flow.yaml path', async () => {
    const a = await flow(['--project', 'test/fixtures/lint/broken']);
    expect(a.stdout.split('\n')[0]).toMatch(/^test\/fixtures\/lint\/broken\/actors\/admin\.yaml:2:13  warning  W_UNKNOWN_STRATEGY  /);
    const b = await flow(['-p', 'test/fixtures/lint/broken/flow.yaml']);
    expect(b.stdout).toBe(a.stdout);
  });

  it('exits 0 on a clean project', async () => {
    expect(await flow(['--project', path.join(FIXTURES, 'clean')])).toEqual({ code: 0, stdout: '✔ no problems\n', stderr: '' });
  });

  it('exits 0 with warnings only, 1 with --strict; --quiet drops warnings', async () => {
    const dir = await writeProject({ 'flow.yaml': `${ROOT}colour: red\n` });
    const plain = await flow(['--project', dir]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/W_UNKNOWN_KEY[^\n]*\n✖ 1 problem \(0 errors, 1 warning\)\n$/);
    expect((await flow(['--project', dir, '--strict'])).code).toBe(1);
    expect(await flow(['--project', dir, '--quiet'])).toEqual({ code: 0, stdout: '✔ no problems\n', stderr: '' });
    expect((await flow(['--project', dir, '--quiet', '--strict'])).code).toBe(0);
  });

  it('--quiet keeps the errors', async () => {
    const r = await flow(['-q'], BROKEN);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^flow\.yaml:4:22  error  E_REF_UNDEFINED /),
      expect.stringMatching(/^resources\/orders\.yaml:7:20  error  E_SCHEMA /),
      '✖ 2 problems (2 errors, 0 warnings)',
    ]);
  });

  it('reports a missing directory and a directory without flow.yaml with codes, exit 2 (a usage error, as in flow run)', async () => {
    const missing = await flow(['--project', 'no/such/dir']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toMatch(/^no\/such\/dir:1:1  error  E_PROJECT_NOT_FOUND  /);
    expect(missing.stderr).toMatch(/^flow lint: no project at no\/such\/dir \(/);
    const empty = await writeProject({ 'README.md': 'x' });
    const noRoot = await flow(['--project', empty], empty);
    expect(noRoot.code).toBe(2);
    expect(noRoot.stdout).toMatch(/^\.:1:1  error  E_NO_ROOT  no flow\.yaml in /);
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--frmat', 'json'], /Unknown option '--frmat' \(did you mean --format\?\)/],
    [['--format', 'xml'], /unknown format "xml": use one of stylish, json, github/],
    [['somewhere'], /Unexpected argument 'somewhere'/],
    [['--project'], /--project/],
    [['--strict=yes'], /--strict/],
  ])('exits 2 on a usage error: %j', async (argv, message) => {
    const r = await flow(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/^flow lint: /);
    expect(r.stderr).toContain('Usage: flow lint [--project <dir>] [--format stylish|json|github] [--strict] [--quiet]');
  });

  it('--help explains every option and lists every code', async () => {
    const r = await flow(['--help']);
    expect(r.code).toBe(0);
    for (const option of ['--project', '--format', '--strict', '--quiet', '--help', 'stylish', 'json', 'github', 'Exit codes'])
      expect(r.stdout).toContain(option);
    for (const code of Object.keys(CODES)) expect(r.stdout).toMatch(new RegExp(`^  ${code} +(error|warning) `, 'm'));
  });
});

// The real binary: needs dist/ (`npm run build`, which `npm ci` runs through `prepare`).
const BUILT = existsSync(path.join(REPO, 'dist/cli/commands/lint.js'));

function run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO, 'bin/flow.js'), ...args], { cwd, timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 70) : 0, stdout, stderr });
    });
  });
}

// Under CI a missing build is a failure, not a skip: the build is part of `npm ci`.
describeWhenAvailable('node bin/flow.js lint (child process)', BUILT ? undefined : NOT_BUILT, () => {
  it('exits 1 with the golden output on the broken fixture', async () => {
    const r = await run(['lint'], BROKEN);
    expect(r).toEqual({ code: 1, stdout: golden('expected.stylish.txt'), stderr: '' });
  });

  it('exits 0 on the clean fixture and 2 on a usage error', async () => {
    const [clean, usage] = await Promise.all([run(['lint', '--project', 'clean'], FIXTURES), run(['lint', '--format', 'xml'], FIXTURES)]);
    expect(clean).toEqual({ code: 0, stdout: '✔ no problems\n', stderr: '' });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^flow lint: unknown format "xml"/);
  });
});
