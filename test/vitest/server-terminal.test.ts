// The plugin's server on a terminal: while it starts, one line says what was tried, what came
// back and for how long, and is cleared once it is up. A real Vitest run inside a
// pseudo-terminal (util-linux `script`), where stderr is a TTY.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { childEnv, collect, ensureBuilt, REPO } from './helpers.js';
import { freePort, petsRepo } from './pets-repo.js';
import { describeWhenAvailable, noScript } from '../helpers/needs.js';

let dir: string | undefined;
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describeWhenAvailable('the server progress line on a terminal', noScript(), () => {
  test('while the server starts, a terminal shows what was tried and what came back (script from util-linux)', async () => {
    const port = await freePort();
    // listens a second after it starts: the first tries are refused
    const server = `{ command: 'sleep 1 && node api/main.js', env: { PORT: '@PORT@' }, url: 'http://127.0.0.1:@PORT@/v1/health', timeout: 20000 }`;
    dir = petsRepo(`{ server: ${server} }`, port);
    const command = `'${process.execPath}' '${path.join(REPO, 'node_modules/vitest/vitest.mjs')}' run`;
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: dir, env: { ...childEnv(), CI: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const r = await collect(child, 90_000);
    expect(r.stdout).toMatch(/Tests {2}4 passed \(4\)/);
    expect(r.stdout).toMatch(/\r\u001b\[Kreqflow: waiting \d+\.\d s for http:\/\/127\.0\.0\.1:\d+\/v1\/health: connection refused/);
    // cleared once it is up
    expect(r.stdout).toMatch(/reqflow: waiting [^\r]*\r\u001b\[K(?!reqflow: waiting)/);
  }, 120_000);
});
