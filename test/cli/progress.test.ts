// The live progress line of `flow run`: shown on a terminal only, never on a pipe or under
// CI=true. A unit for the decision and the line; then real runs of bin/flow.js inside a
// pseudo-terminal (util-linux `script`), where stdout and stderr are both a TTY.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeWhenAvailable, noScript } from '../helpers/needs.js';
import { createProgress, progressLine } from '../../src/cli/progress.js';
import { wantsProgress } from '../../src/report/index.js';
import type { OperationResult } from '../../src/runner/types.js';
import { startShopServer } from '../fixtures/vitest/server.js';
import { childEnv, collect } from '../vitest/helpers.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/report/', import.meta.url));
const FLOW = fileURLToPath(new URL('../../bin/flow.js', import.meta.url));
const CLEAR = '\r\u001b[K';

describe('when the progress line shows', () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [true, { CI: 'true' }, false],
    [true, { CI: '1' }, false],
    [true, { CI: 'false' }, true],
    [true, { TERM: 'dumb' }, false],
  ] as const)('a terminal: %s, env %j -> %s', (isTTY, env, shown) => {
    expect(wantsProgress(isTTY, env)).toBe(shown);
  });

  it('says done/total, what runs now and the time, cut to the terminal width', () => {
    expect(progressLine({ done: 3, total: 7, running: ['order.create', 'report.result'], elapsedMs: 1234 })).toBe(
      'flow run  3/7 done  running: order.create, report.result  1.2 s',
    );
    expect(progressLine({ done: 7, total: 7, running: [], elapsedMs: 50 })).toBe('flow run  7/7 done  0.1 s');
    const cut = progressLine({ done: 1, total: 2, running: ['a'.repeat(100)], elapsedMs: 0 }, 40);
    expect(cut).toHaveLength(39);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('is redrawn in place as operations start and end, cleared around other output and at the end', () => {
    let screen = '';
    let clock = 0;
    const p = createProgress({ write: (t) => (screen += t), total: 2, now: () => clock, intervalMs: 60_000 });
    p.onEvent({ type: 'operation:start', operation: 'a.one', prerequisiteOf: [] });
    expect(screen).toBe(`${CLEAR}flow run  0/2 done  running: a.one  0.0 s`);
    clock = 150;
    p.onEvent({ type: 'operation:end', result: { operation: 'a.one', status: 'passed' } as OperationResult });
    expect(screen.endsWith(`${CLEAR}flow run  1/2 done  0.1 s`)).toBe(true);
    screen = '';
    p.around((t) => (screen += t))('✔ a.one\n');
    expect(screen).toBe(`${CLEAR}✔ a.one\n${CLEAR}flow run  1/2 done  0.1 s`);
    screen = '';
    p.stop();
    expect(screen).toBe(CLEAR);
    p.onEvent({ type: 'operation:start', operation: 'a.two', prerequisiteOf: [] });
    expect(screen).toBe(CLEAR);
  });
});

/** `flow run --all` on the shop fixture inside a pseudo-terminal; what the terminal received. */
async function inTerminal(env: Record<string, string>): Promise<string> {
  const token = `tok-${randomBytes(9).toString('hex')}`;
  const server = await startShopServer(token);
  try {
    const command = `'${process.execPath}' '${FLOW}' run --all -p shop --no-color --var baseUrl=${server.url}`;
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      cwd: FIXTURE,
      env: { ...childEnv({ FLOW_SECRET_SHOP_TOKEN: token, ...env }), CI: env.CI ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const r = await collect(child, 60_000);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toContain(token);
    return r.stdout;
  } finally {
    await server.close();
  }
}

describeWhenAvailable('in a real pseudo-terminal (script from util-linux)', noScript(), () => {
  it('shows the live line while it runs, and leaves only the normal output', async () => {
    const screen = await inTerminal({});
    expect(screen).toContain(`${CLEAR}flow run  0/7 done  running: product.create  `);
    expect(screen).toMatch(/\r\u001b\[Kflow run {2}[1-7]\/7 done/);
    // cleared before the summary: the last thing on the screen is the normal output
    const last = screen.lastIndexOf('flow run  ');
    expect(screen.indexOf(CLEAR, last)).toBeGreaterThan(last);
    expect(screen.slice(screen.lastIndexOf(CLEAR) + CLEAR.length)).toMatch(/^[\s\S]*4 passed, 2 failed, 1 skipped \(\d+ ms\)\r?\n$/);
    expect(screen.slice(screen.lastIndexOf(CLEAR))).not.toContain('done');
  });

  it('shows nothing of it under CI=true, even on a terminal', async () => {
    const screen = await inTerminal({ CI: 'true' });
    expect(screen).not.toContain('\u001b[K');
    expect(screen).not.toContain('/7 done');
    expect(screen).toMatch(/4 passed, 2 failed, 1 skipped/);
  });
});
