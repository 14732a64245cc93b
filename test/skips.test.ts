// Every skip says why: a block that cannot run here goes through describeWhenAvailable
// (test/helpers/needs.ts), which prints the reason (Vitest's default reporter names no
// skipped block) and fails under CI=true. Checked on the test files, and in a real Vitest run.
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { REPO, runVitest } from './vitest/helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : testFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

test('no test file skips on its own: every skip goes through describeWhenAvailable, which says why', () => {
  const own = path.join(REPO, 'test/helpers/needs.ts');
  const skipping = testFiles(path.join(REPO, 'test'))
    .filter((f) => f !== own && f !== path.join(REPO, 'test/skips.test.ts'))
    .filter((f) => /\b(describe|it|test|suite)\s*\.\s*(skip|skipIf|runIf|todo)\b|\bctx\.skip\(|\bcontext\.skip\(/.test(readFileSync(f, 'utf8')))
    .map((f) => path.relative(REPO, f));
  expect(skipping).toEqual([]);
});

test('a block that cannot run prints why it is skipped, and fails under CI=true', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-skips-'));
  dirs.push(dir);
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(
    path.join(dir, 'thing.test.ts'),
    [
      `import { expect, test } from 'vitest';`,
      `import { describeWhenAvailable } from ${JSON.stringify(path.join(REPO, 'test/helpers/needs.ts'))};`,
      `describeWhenAvailable('the thing server', 'thing-server is not installed; install it with: apt-get install thing-server', () => {`,
      `  test('answers', () => expect(1).toBe(2));`,
      `});`,
      `test('runs', () => expect(1).toBe(1));`,
      '',
    ].join('\n'),
  );
  // a developer's machine: CI unset, even when this suite itself runs under CI=true
  const local = await runVitest(dir, ['run', '--root', dir], { CI: '' });
  expect(local.code, local.stdout + local.stderr).toBe(0);
  expect(local.stdout + local.stderr).toContain('[the thing server skipped] thing-server is not installed; install it with: apt-get install thing-server');
  const ci = await runVitest(dir, ['run', '--root', dir], { CI: 'true' });
  expect(ci.code).toBe(1);
  expect(ci.stdout + ci.stderr).toContain('the thing server: required under CI=true, but thing-server is not installed');
}, 60_000);
