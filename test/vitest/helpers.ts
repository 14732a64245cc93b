// Real Vitest runs in a child process, as Vitest tests itself (runCli in its test-utils):
// the fixtures use the built package (`reqflow/vitest` -> dist/), so dist is rebuilt first
// when it is missing or older than src/.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMParser } from '@xmldom/xmldom';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const FIXTURES = path.join(REPO, 'test/fixtures/vitest');
const VITEST_BIN = path.join(REPO, 'node_modules/vitest/vitest.mjs');
const TSC_BIN = path.join(REPO, 'node_modules/typescript/bin/tsc');

export interface RunOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A child's environment: ours without Vitest's worker variables or any FLOW_*, plus `extra`. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VITEST') || k.startsWith('FLOW_') || k === 'NODE_ENV' || k === 'TEST' || k === 'FORCE_COLOR') continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

/** `vitest <args>` in `cwd`; killed after `timeoutMs`. */
export function runVitest(cwd: string, args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<RunOutput> {
  const child = spawn(process.execPath, [VITEST_BIN, ...args], { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child, timeoutMs);
}

export function collect(child: ChildProcess, timeoutMs: number): Promise<RunOutput> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// ---------------------------------------------------------------------------------------
// dist/ must match src/: rebuild once (under a lock, test files run in parallel) when stale.

function newestMtime(dir: string, ext: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p, ext));
    else if (entry.name.endsWith(ext)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function distIsFresh(): boolean {
  const marker = path.join(REPO, 'dist/vitest/suite.js');
  if (!existsSync(marker)) return false;
  return newestMtime(path.join(REPO, 'dist'), '.js') >= newestMtime(path.join(REPO, 'src'), '.ts');
}

export async function ensureBuilt(): Promise<void> {
  if (distIsFresh()) return;
  const lock = path.join(REPO, 'node_modules/.reqflow-build-lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`build lock ${lock} held for 2 minutes; remove it if stale`);
      await new Promise((r) => setTimeout(r, 250));
      if (distIsFresh()) return;
    }
  }
  try {
    if (distIsFresh()) return;
    // tsc emits even when some file does not type-check; the fixtures only need the output.
    await collect(spawn(process.execPath, [TSC_BIN, '-p', 'tsconfig.build.json'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] }), 120_000);
    if (!existsSync(path.join(REPO, 'dist/vitest/suite.js'))) throw new Error('npm run build did not produce dist/vitest/suite.js');
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// JUnit XML, read with a real XML parser.

export interface JUnitCase {
  name: string;
  classname: string;
  skipped: boolean;
  failure?: { message: string; type: string; text: string };
  properties: Record<string, string>;
  /** what the test printed (Vitest's <system-out>) */
  systemOut: string;
}

export interface JUnitSuite {
  name: string;
  tests: number;
  failures: number;
  skipped: number;
  cases: JUnitCase[];
}

export function parseJUnit(xml: string): JUnitSuite[] {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const suites = Array.from(doc.getElementsByTagName('testsuite'));
  return suites.map((s) => ({
    name: s.getAttribute('name') ?? '',
    tests: Number(s.getAttribute('tests')),
    failures: Number(s.getAttribute('failures')),
    skipped: Number(s.getAttribute('skipped')),
    cases: Array.from(s.getElementsByTagName('testcase')).map((c) => {
      const failure = c.getElementsByTagName('failure')[0];
      const properties: Record<string, string> = {};
      for (const p of Array.from(c.getElementsByTagName('property'))) properties[p.getAttribute('name') ?? ''] = p.getAttribute('value') ?? '';
      return {
        name: c.getAttribute('name') ?? '',
        classname: c.getAttribute('classname') ?? '',
        skipped: c.getElementsByTagName('skipped').length > 0,
        failure: failure
          ? { message: failure.getAttribute('message') ?? '', type: failure.getAttribute('type') ?? '', text: failure.textContent ?? '' }
          : undefined,
        properties,
        systemOut: Array.from(c.getElementsByTagName('system-out'))
          .map((o) => o.textContent ?? '')
          .join(''),
      };
    }),
  }));
}

export function caseNamed(suites: JUnitSuite[], suite: string, name: string): JUnitCase {
  const s = suites.find((x) => x.name === suite);
  if (!s) throw new Error(`no testsuite ${suite} in ${suites.map((x) => x.name).join(', ')}`);
  // Vitest names a testcase by its full path: `product > product.create`
  const c = s.cases.find((x) => x.name === name || x.name.endsWith(` > ${name}`));
  if (!c) throw new Error(`no testcase ${name} in ${suite}: ${s.cases.map((x) => x.name).join(', ')}`);
  return c;
}
