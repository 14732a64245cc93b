// kill -9 of Vitest while the plugin's server runs: no hook of Vitest or of the plugin runs,
// and the server, in its own process group, would be left behind with its port taken. The
// watchdog the plugin's start left (src/server/watchdog.ts) stops it. Vitest in watch mode
// stays up after its tests, as a developer's would.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isReady } from '../../src/server/ready.js';
import { killMarked, markedProcesses } from '../helpers/processes.js';
import { childEnv, ensureBuilt, REPO } from './helpers.js';
import { freePort, petsRepo } from './pets-repo.js';
import { describeWhenAvailable } from '../helpers/needs.js';

let dir: string | undefined;
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describeWhenAvailable('kill -9 of Vitest', process.platform === 'linux' ? undefined : 'process groups and kill -9 are tested on Linux only', () => {
  test("kill -9 of Vitest stops the plugin's server: its port is free again", async () => {
    const port = await freePort();
    const mark = randomUUID();
    dir = petsRepo(
      `{ server: { command: 'node api/main.js; echo stopped', env: { PORT: '@PORT@', MARK: '${mark}' }, url: 'http://127.0.0.1:@PORT@/v1/health' } }`,
      port,
    );
    const vitest = spawn(process.execPath, [path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'watch'], { cwd: dir, env: childEnv(), stdio: 'ignore' });
    try {
      let up = false;
      for (let i = 0; i < 600 && !up && vitest.exitCode === null; i++) {
        up = await isReady({ kind: 'port', port });
        if (!up) await new Promise((r) => setTimeout(r, 100));
      }
      expect(up).toBe(true);
      const ended = once(vitest, 'exit');
      vitest.kill('SIGKILL');
      await ended;
      for (let i = 0; i < 100 && up; i++) {
        await new Promise((r) => setTimeout(r, 100));
        up = await isReady({ kind: 'port', port });
      }
      expect(up).toBe(false);
      expect(markedProcesses(mark)).toEqual([]);
    } finally {
      vitest.kill('SIGKILL');
      killMarked(mark);
    }
  }, 120_000);
});
