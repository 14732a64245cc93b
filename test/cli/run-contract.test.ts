// `flow run --server … --openapi …`: the pets API of test/fixtures/contract started for one
// run, every response checked against its description, the server stopped after.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { isReady } from '../../src/server/ready.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';
import { freePort } from '../vitest/pets-repo.js';

const PETS = path.resolve(__dirname, '../fixtures/contract/pets');

async function flowRun(args: string[], env: NodeJS.ProcessEnv = {}) {
  const port = await freePort();
  const rec = recordedIO({ cwd: PETS, env: { PORT: String(port), ...env } });
  const withServer = ['--server', 'node api/main.js', '--server-url', `http://127.0.0.1:${port}/v1/health`];
  const code = await main(['run', '--all', ...withServer, ...args], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err(), port };
}

describe('flow run --server --openapi', () => {
  it('starts the server, sends to its origin, checks every response, reports the undocumented request, stops the server', async () => {
    const r = await flowRun(['--openapi', 'openapi.yaml']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`POST   http://127.0.0.1:${r.port}/v1/pets  201`);
    expect(r.stdout).toMatch(/✔ stats\.get {2}\d+ ms\n {4}W_CONTRACT_UNDOCUMENTED {2}GET \/v1\/stats is not in the description \(openapi\.yaml\)/);
    expect(r.stdout).toContain('4 passed, 0 failed');
    expect(await isReady({ kind: 'port', port: r.port })).toBe(false);
  });

  it('a violation fails the operation (exit 1) with the pointer and the expectation', async () => {
    const r = await flowRun(['--openapi', 'openapi.yaml'], { PETS_BREAK: 'content-type' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('E_CONTRACT  the 200 response of GET /pets/{petId} breaks openapi.yaml (1 violation)');
    expect(r.stdout).toContain('✗ expected content-type application/json, got content-type text/plain');
  });

  it('--contract warn: a warning line, exit 0', async () => {
    const r = await flowRun(['--openapi', 'openapi.yaml', '--contract', 'warn'], { PETS_BREAK: 'missing-field' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /✔ pet\.get {2}\d+ ms\n {4}W_CONTRACT {2}the 200 response of GET \/pets\/\{petId\} breaks openapi\.yaml \(1 violation\)\n {4}✗ \/name: expected a required property, got missing/,
    );
  });

  it('a server that crashes at start: exit 1 with its output, nothing sent', async () => {
    const r = await flowRun([], { PETS_BREAK: 'crash' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('flow run: E_SERVER_EXITED: the server "node api/main.js" exited with code 3 before');
    expect(r.stderr).toContain('  | Error: pets.db: database is locked');
    expect(r.stdout).toBe('');
  });

  it("a FLOW_SECRET_* value the server prints never shows in flow run's output", async () => {
    const secret = 'sk-live-7d3f9a2b4c6e';
    const rec = recordedIO({ cwd: PETS, env: { FLOW_SECRET_PETS_KEY: secret } });
    const command = `node -e "console.log('starting with key ' + process.env.FLOW_SECRET_PETS_KEY); process.exit(3)"`;
    const port = await freePort();
    expect(await main(['run', '--all', '--server', command, '--server-url', `http://127.0.0.1:${port}/v1/health`], rec.io)).toBe(1);
    expect(rec.err()).toContain('E_SERVER_EXITED');
    expect(rec.err()).toContain('  | starting with key ***');
    expect(rec.err()).not.toContain(secret);
  });

  it('a credential in the --server command is hidden in the E_SERVER_* message', async () => {
    const secret = 'sk-live-0a1b2c3d4e5f';
    const rec = recordedIO({ cwd: PETS, env: { PETS_BREAK: 'crash' } });
    const port = await freePort();
    const command = `PETS_API_KEY=${secret} node api/main.js`;
    expect(await main(['run', '--all', '--server', command, '--server-url', `http://127.0.0.1:${port}/v1/health`], rec.io)).toBe(1);
    expect(rec.err()).toContain('flow run: E_SERVER_EXITED: the server "PETS_API_KEY=*** node api/main.js" exited with code 3');
    expect(rec.err() + rec.out()).not.toContain(secret);
  });

  it('--server-url without a baseUrl in the environment: its origin is baseUrl (README, --server-url)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-server-url-'));
    try {
      await cp(PETS, dir, { recursive: true });
      await writeFile(path.join(dir, 'environments/local.yaml'), 'name: local\n');
      const port = await freePort();
      const rec = recordedIO({ cwd: dir, env: { PORT: String(port) } });
      const code = await main(['run', '--all', '--server', 'node api/main.js', '--server-url', `http://127.0.0.1:${port}/v1/health`], rec.io);
      expect(rec.out()).not.toContain('E_VAR_UNRESOLVED');
      expect(rec.out()).toContain(`POST   http://127.0.0.1:${port}/v1/pets  201`);
      expect(rec.out()).toContain('4 passed, 0 failed');
      expect(code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('without --server-url, the URL is baseUrl, where any answer means up: the pets API answers 404 at its root', async () => {
    const port = await freePort();
    const rec = recordedIO({ cwd: PETS, env: { PORT: String(port) } });
    const code = await main(['run', '--all', '--server', 'node api/main.js', '--var', `baseUrl=http://127.0.0.1:${port}`], rec.io);
    expect(rec.err()).toBe('');
    expect(rec.out()).toContain('4 passed, 0 failed');
    expect(code).toBe(0);
  }, 20_000);

  it('on a terminal, a progress line says what was tried and what came back while the server starts, and is cleared', async () => {
    const port = await freePort();
    const rec = recordedIO({ cwd: PETS, env: { PORT: String(port) } });
    rec.io.isTTY = true;
    const url = `http://127.0.0.1:${port}/v1/health`;
    const code = await main(['run', '--all', '--server', 'sleep 1 && node api/main.js', '--server-url', url], rec.io);
    expect(code).toBe(0);
    const err = rec.err();
    expect(err).toMatch(/\r\x1b\[Kwaiting \d+\.\d s for http:\/\/127\.0\.0\.1:\d+\/v1\/health: connection refused/);
    // cleared before the run's own lines
    expect(err).toMatch(/waiting [^\r]*\r\x1b\[K\r\x1b\[Kflow run {2}0\/4 done/);
  });

  it('usage errors (exit 2): no URL to wait for, a description that cannot be read, an unknown --contract', async () => {
    const rec = recordedIO({ cwd: PETS });
    expect(await main(['run', '--all', '--server', 'node api/main.js'], rec.io)).toBe(2);
    expect(rec.err()).toContain('--server needs the URL the server answers at');
    const missing = await flowRun(['--openapi', 'nope.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--openapi: E_CONTRACT_LOAD:');
    const mode = await flowRun(['--contract', 'loud']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('--contract is fail or warn; got "loud"');
  });
});
