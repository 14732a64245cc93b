// The managed API server: started as a shell command, ready when its URL answers, stopped
// with every process it started; a crash or a server that never answers is a coded error
// with its last output lines. The server is the pets API of test/fixtures/contract.
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startServer, waitingLine, type ManagedServer, type WaitState } from '../../src/server/index.js';
import { isReady } from '../../src/server/ready.js';
import type { FlowError } from '../../src/errors.js';
import { createRedactor } from '../../src/redact/index.js';
import { startPetsApi } from '../fixtures/contract/pets/api/pets-api.js';
import { freePort } from '../vitest/pets-repo.js';

const PETS = path.resolve(__dirname, '../fixtures/contract/pets');

const started: ManagedServer[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.stop();
});

/** The error a start that must fail ends with (a start that succeeds fails the test). */
async function refused(starting: Promise<ManagedServer>): Promise<FlowError> {
  try {
    started.push(await starting);
  } catch (err) {
    return err as FlowError;
  }
  throw new Error('the server started; a failure was expected');
}

test('starts the command, waits for its URL, hands the origin as baseUrl, and stops the whole process tree', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/v1/health`;
  // `; echo` keeps the shell alive as the parent: node is a grandchild, which stop() must reach too
  const server = await startServer({ command: 'node api/main.js; echo stopped', env: { PORT: String(port) }, url }, PETS);
  started.push(server);
  expect(server.baseUrl).toBe(`http://127.0.0.1:${port}`);
  expect(server.reused).toBe(false);
  expect(await isReady({ kind: 'http', url })).toBe(true);
  expect(server.output().join('\n')).toContain(`pets api listening on http://127.0.0.1:${port}`);
  await server.stop();
  expect(await isReady({ kind: 'http', url })).toBe(false);
  expect(await isReady({ kind: 'port', port })).toBe(false);
});

test('a server that exits before it is ready is E_SERVER_EXITED with what it printed', async () => {
  const port = await freePort();
  const stderr: string[] = [];
  const err = await refused(
    startServer({ command: 'node api/main.js', env: { PETS_BREAK: 'crash', PORT: String(port) }, url: `http://127.0.0.1:${port}/v1/health` }, PETS, {
      onStderr: (line) => stderr.push(line),
    }),
  );
  // stderr as it came, stdout only in the error
  expect(stderr).toEqual(['Error: pets.db: database is locked']);
  expect(err.code).toBe('E_SERVER_EXITED');
  expect(err.message).toContain('the server "node api/main.js" exited with code 3 before http://127.0.0.1:');
  expect(err.message).toContain('  | pets api: opening pets.db');
  expect(err.message).toContain('  | Error: pets.db: database is locked');
});

// The output is drained before the error is written: the shell exits at once, and what a process
// it started prints a second after that exit (once the shell is reaped) still reaches the error;
// the exit, seen by the readiness poll before the pipes close, is still the cause (not a timeout).
test('E_SERVER_EXITED quotes what the server printed up to its pipes closing, not up to its exit', async () => {
  const port = await freePort();
  const command = 'p=$$; (while kill -0 $p 2>/dev/null; do sleep 0.01; done; sleep 1; echo last words) & echo starting; exit 3';
  const err = await refused(startServer({ command, port }, PETS));
  expect(err.code).toBe('E_SERVER_EXITED');
  expect(err.message).toContain('exited with code 3 before');
  expect(err.message).toContain('  | starting\n  | last words');
});

test('a server that never answers is E_SERVER_TIMEOUT, and is stopped', async () => {
  const port = await freePort();
  // the shell prints at once (a node script may not have started within the timeout on a busy machine)
  const err = await refused(startServer({ command: 'echo warming up; sleep 30', port, timeout: 1000 }, PETS));
  expect(err.code).toBe('E_SERVER_TIMEOUT');
  expect(err.message).toMatch(/did not answer at port \d+ within 1000 ms: the last try got connection refused; its last output:\n {2}\| warming up/);
});

test('a URL that already answers: E_SERVER_IN_USE, or that server with reuseExisting', async () => {
  const api = await startPetsApi();
  try {
    const url = `${api.url}/v1/health`;
    const err = await refused(startServer({ command: 'node api/main.js', url }, PETS));
    expect(err.code).toBe('E_SERVER_IN_USE');
    const reused = await startServer({ command: 'node api/main.js', url, reuseExisting: true }, PETS);
    expect(reused).toMatchObject({ reused: true, baseUrl: api.url });
    await reused.stop();
    expect(await isReady({ kind: 'http', url })).toBe(true);
  } finally {
    await api.close();
  }
});

test('a URL that is not http(s) is E_SERVER_OPTIONS', async () => {
  await expect(startServer({ command: 'true', url: 'ftp://x' }, PETS)).rejects.toMatchObject({ code: 'E_SERVER_OPTIONS' });
});

test('output without line ends is kept to the start of its line, not whole in the error', async () => {
  const port = await freePort();
  // a megabyte on one line, then exit
  const command = `node -e "process.stdout.write('x'.repeat(1e6)); process.exitCode = 3"`;
  const err = await refused(startServer({ command, port }, PETS));
  expect(err.code).toBe('E_SERVER_EXITED');
  expect(err.message).toContain(`  | ${'x'.repeat(1000)}…`);
  expect(err.message.length).toBeLessThan(2000);
});

test("the server's lines are shown through the redactor: in the exit message, live on stderr, and in output()", async () => {
  const port = await freePort();
  const secret = 'pw-0f9a8b7c6d5e';
  const redactor = createRedactor([secret]);
  const live: string[] = [];
  // prints the secret it inherited, on both streams, then exits before it is ready
  const command = `node -e "console.log('db password ' + process.env.DB_PW); console.error('auth with ' + process.env.DB_PW); process.exitCode = 3"`;
  const err = await refused(startServer({ command, port, env: { DB_PW: secret } }, PETS, { redactor, onStderr: (l) => live.push(l) }));
  expect(err.code).toBe('E_SERVER_EXITED');
  expect(err.message).toContain('  | db password ***');
  expect(err.message).toContain('  | auth with ***');
  expect(err.message).not.toContain(secret);
  expect(live).toEqual(['auth with ***']);

  // A value learned after the line was printed (a token the server logged as it issued it) is
  // hidden too: lines are redacted when shown, not when kept.
  const token = 'tok-5e6f7a8b9c0d';
  const url = `http://127.0.0.1:${port}/v1/health`;
  const server = await startServer({ command: `echo issued ${token}; node api/main.js`, env: { PORT: String(port) }, url }, PETS, { redactor });
  started.push(server);
  expect(server.output().join('\n')).toContain(`issued ${token}`);
  redactor.add(token, 'token');
  expect(server.output().join('\n')).toContain('issued ***');
  expect(server.output().join('\n')).not.toContain(token);
});

test('a credential in the command is hidden wherever the command is named, and in what the server prints', async () => {
  const port = await freePort();
  const secret = 'sk-live-4b3a2918f7e6';
  const short = 'Zq9';
  // prints its arguments (the key among them), then exits before it is ready
  const command = `DB_PASSWORD=${short} node -e "console.log('args ' + process.argv.slice(1).join(' ')); process.exitCode = 3" -- --api-key=${secret}`;
  const exited = await refused(startServer({ command, port }, PETS));
  expect(exited.code).toBe('E_SERVER_EXITED');
  expect(exited.message).toContain('the server "DB_PASSWORD=*** node -e ');
  expect(exited.message).toContain('--api-key=***" exited with code 3');
  expect(exited.message).toContain('  | args --api-key=***');
  expect(exited.message).not.toContain(secret);
  expect(exited.message).not.toContain(short);

  const timedOut = await refused(startServer({ command: `sleep 30 || echo --token ${secret}`, port, timeout: 500 }, PETS));
  expect(timedOut.code).toBe('E_SERVER_TIMEOUT');
  expect(timedOut.message).toContain('the server "sleep 30 || echo --token ***" did not answer');

  // the fixture is plain JavaScript: its type is said here
  const api = (await startPetsApi()) as { url: string; close(): Promise<void> };
  try {
    const inUse = await refused(startServer({ command: `node api/main.js --token=${secret}`, url: `${api.url}/v1/health` }, PETS));
    expect(inUse.code).toBe('E_SERVER_IN_USE');
    expect(inUse.message).toContain('the server "node api/main.js --token=***"');
    expect(inUse.message).not.toContain(secret);
  } finally {
    await api.close();
  }
});

// A one-line server: 404 at every path but /health (the shape of most APIs at their root).
const ANSWERS_404 = `node -e "require('http').createServer((q, s) => { s.statusCode = q.url === '/health' ? 200 : 404; s.end(); }).listen(process.env.PORT, '127.0.0.1')"`;

test('a URL defaulted from baseUrl (anyAnswer): a 404 at the root means up', async () => {
  const port = await freePort();
  const waits: WaitState[] = [];
  const server = await startServer({ command: ANSWERS_404, env: { PORT: String(port) }, url: `http://127.0.0.1:${port}/`, anyAnswer: true }, PETS, {
    onWait: (s) => waits.push(s),
  });
  started.push(server);
  expect(server.baseUrl).toBe(`http://127.0.0.1:${port}`);
  // the tries before it listened were refused, and said so
  for (const w of waits) expect(w).toMatchObject({ tried: `http://127.0.0.1:${port}/`, got: 'connection refused' });
});

test('E_SERVER_TIMEOUT says what the last try got: a 404 at a URL the user named, a TLS error', async () => {
  const port = await freePort();
  const waits: WaitState[] = [];
  const named = await refused(
    startServer({ command: ANSWERS_404, env: { PORT: String(port) }, url: `http://127.0.0.1:${port}/ready`, timeout: 2500 }, PETS, {
      onWait: (s) => waits.push(s),
    }),
  );
  expect(named.code).toBe('E_SERVER_TIMEOUT');
  expect(named.message).toContain(
    `was not ready at http://127.0.0.1:${port}/ready within 2500 ms: the last try got HTTP 404 (ready means 2xx, 3xx or 400-403)`,
  );
  // the progress: what was tried, what came back, for how long
  const last = waits.at(-1)!;
  expect(last).toMatchObject({ tried: `http://127.0.0.1:${port}/ready`, got: 'HTTP 404' });
  expect(last.ms).toBeGreaterThan(0);
  expect(waitingLine(last, 200)).toMatch(new RegExp(`^waiting \\d+\\.\\d s for http://127\\.0\\.0\\.1:${port}/ready: HTTP 404$`));
  // a narrow terminal: the URL is shortened, what came back and for how long stay
  expect(waitingLine(last, 50)).toMatch(/^waiting \d+\.\d s for http:\/\/127\.[^ ]*…: HTTP 404$/);

  const tls = await refused(startServer({ command: ANSWERS_404, env: { PORT: String(port) }, url: `https://127.0.0.1:${port}/health`, timeout: 2500 }, PETS));
  expect(tls.code).toBe('E_SERVER_TIMEOUT');
  expect(tls.message).toContain(`did not answer at https://127.0.0.1:${port}/health within 2500 ms: the last try got a TLS error (`);
});
