// The watchdog behind explore's wall: a process whose main thread is stuck in synchronous work
// (no timer can fire) is still ended, with its line on stderr; disarmed in time, it does nothing.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../src/cli/watchdog.ts', import.meta.url));

function child(script: string): Promise<{ signal: string | null; code: number | null; stderr: string }> {
  const code = `const { armWatchdog } = await import(${JSON.stringify(MODULE)});\n${script}`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { timeout: 30_000 }, (err, _stdout, stderr) => {
      const e = err as (Error & { code?: number; signal?: string }) | null;
      resolve({ signal: e?.signal ?? null, code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stderr });
    });
  });
}

describe('armWatchdog', () => {
  it('kills a process stuck in synchronous work, after saying so', async () => {
    const r = await child("armWatchdog(300, 'stuck: killed\\n');\nfor (;;) {}");
    expect(r.signal).toBe('SIGKILL');
    expect(r.stderr).toContain('stuck: killed');
  });

  it('disarmed in time, it neither kills nor keeps the process alive', async () => {
    const r = await child("const disarm = armWatchdog(60_000, 'never\\n');\ndisarm();\nconsole.log('done');");
    expect(r).toEqual({ signal: null, code: 0, stderr: '' });
  });
});
