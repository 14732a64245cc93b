// A run stopped by a signal (Ctrl+C, a CI job cancelled) must stop the server it started: the
// server runs in its own process group, so the terminal's Ctrl+C does not reach it, and a
// signal's default action ends Node without its 'exit' event. Runs the built module in a
// child process (a signal to the test process would end Vitest).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { isReady } from '../../src/server/ready.js';
import { killMarked, markedProcesses as marked } from '../helpers/processes.js';
import { freePort } from '../vitest/pets-repo.js';
import { describeWhenAvailable } from '../helpers/needs.js';

const PETS = path.resolve(__dirname, '../fixtures/contract/pets');
const BUILT = pathToFileURL(path.resolve(__dirname, '../../dist/server/index.js')).href;

const DRIVER = `
import { startServer } from ${JSON.stringify(BUILT)};
const command = process.env.COMMAND ?? 'node api/main.js; echo stopped';
await startServer({ command, env: { PORT: process.env.PORT, MARK: process.env.SERVER_MARK ?? '' }, url: process.env.URL }, process.env.PETS);
process.stdout.write('ready\\n');
setInterval(() => {}, 1000);
`;

function startDriver(env: Record<string, string>) {
  const driver = spawn(process.execPath, ['--input-type=module', '-e', DRIVER], {
    env: { ...process.env, PETS, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  driver.stdout.setEncoding('utf8');
  driver.stdout.on('data', (c: string) => (out += c));
  const ready = async () => {
    while (!out.includes('ready')) {
      if (driver.exitCode !== null) throw new Error(`the driver exited first: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { driver, ready };
}

test.each(['SIGINT', 'SIGTERM'] as const)('%s to the process that started the server stops the server, and still ends that process', async (signal) => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/v1/health`;
  const { driver, ready } = startDriver({ PORT: String(port), URL: url });
  try {
    await ready();
    expect(await isReady({ kind: 'http', url })).toBe(true);
    const ended = once(driver, 'exit');
    driver.kill(signal);
    const [code, how] = await ended;
    // the signal's own effect is kept: the process ends by it, as it would have without a server
    expect({ code, how }).toEqual({ code: null, how: signal });
    // SIGKILL is sent before the driver ends; the kernel closes the port as the process goes
    let up = true;
    for (let i = 0; i < 50 && up; i++) {
      up = await isReady({ kind: 'port', port });
      if (up) await new Promise((r) => setTimeout(r, 100));
    }
    expect(up).toBe(false);
  } finally {
    driver.kill('SIGKILL');
  }
});

// kill -9 runs no handler: the watchdog the run started sees its pipe close and stops the group.
describeWhenAvailable('kill -9 of a run', process.platform === 'linux' ? undefined : 'process groups and kill -9 are tested on Linux only', () => {
  test('SIGKILL to the process that started the server: the shell, the server and the child it spawned are stopped, and the port is free', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/v1/health`;
    const mark = randomUUID();
    // a server that spawns a child (the API); the shell stays as their parent
    const command = `node -e "require('child_process').spawn(process.execPath, ['api/main.js'], { stdio: 'inherit' }); setInterval(() => {}, 1000)"; echo stopped`;
    const { driver, ready } = startDriver({ PORT: String(port), URL: url, SERVER_MARK: mark, COMMAND: command });
    try {
      await ready();
      expect(await isReady({ kind: 'http', url })).toBe(true);
      // the shell, the spawning server and its child
      expect(marked(mark).length).toBe(3);
      const ended = once(driver, 'exit');
      driver.kill('SIGKILL');
      expect((await ended)[1]).toBe('SIGKILL');
      // the next run, started at once, gets the port: the old server may still be stopping, not E_SERVER_IN_USE
      const next = await startServer({ command: 'node api/main.js', env: { PORT: String(port) }, url }, PETS);
      expect(next.reused).toBe(false);
      await next.stop();
      let left = marked(mark);
      for (let i = 0; i < 100 && left.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
        left = marked(mark);
      }
      expect(left).toEqual([]);
      expect(await isReady({ kind: 'port', port })).toBe(false);
    } finally {
      driver.kill('SIGKILL');
      killMarked(mark);
    }
  }, 20_000);
});
