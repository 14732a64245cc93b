// A run stopped by a signal (Ctrl+C, a CI job cancelled) must stop the server it started: the
// server runs in its own process group, so the terminal's Ctrl+C does not reach it, and a
// signal's default action ends Node without its 'exit' event. Runs the built module in a
// child process (a signal to the test process would end Vitest).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { isReady } from '../../src/server/ready.js';
import { freePort } from '../vitest/pets-repo.js';

const PETS = path.resolve(__dirname, '../fixtures/contract/pets');
const BUILT = pathToFileURL(path.resolve(__dirname, '../../dist/server/index.js')).href;

const DRIVER = `
import { startServer } from ${JSON.stringify(BUILT)};
await startServer({ command: 'node api/main.js; echo stopped', env: { PORT: process.env.PORT }, url: process.env.URL }, process.env.PETS);
process.stdout.write('ready\\n');
setInterval(() => {}, 1000);
`;

test.each(['SIGINT', 'SIGTERM'] as const)('%s to the process that started the server stops the server, and still ends that process', async (signal) => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/v1/health`;
  const driver = spawn(process.execPath, ['--input-type=module', '-e', DRIVER], {
    env: { ...process.env, PORT: String(port), URL: url, PETS },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    driver.stdout.setEncoding('utf8');
    driver.stdout.on('data', (c: string) => (out += c));
    while (!out.includes('ready')) {
      if (driver.exitCode !== null) throw new Error(`the driver exited first: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
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
