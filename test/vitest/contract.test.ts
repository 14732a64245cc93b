// `flow({ server, openapi })` in a real Vitest run (child process): the plugin starts the pets
// API, the flows run against it, every response is checked against openapi.yaml, and the
// server is gone afterwards. A server that crashes at start is reported with its output.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isReady } from '../../src/server/ready.js';
import { ensureBuilt, runVitest } from './helpers.js';
import { DRIFT, freePort, petsRepo, SERVER } from './pets-repo.js';

const dirs: string[] = [];
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function repo(options: string, fixture?: string): Promise<{ dir: string; port: number }> {
  const port = await freePort();
  const dir = petsRepo(options, port, fixture);
  dirs.push(dir);
  return { dir, port };
}

test('a conforming API passes; the server is started before the suites and stopped after', async () => {
  const { dir, port } = await repo(`{ server: ${SERVER}, openapi: 'openapi.yaml' }`);
  const out = await runVitest(dir, ['run']);
  expect(out.stdout + out.stderr).toContain('Tests  4 passed (4)');
  expect(out.code).toBe(0);
  // the request the description lacks is reported, not failed
  expect(out.stdout + out.stderr).toContain('W_CONTRACT_UNDOCUMENTED: GET /v1/stats is not in the description (openapi.yaml)');
  expect(await isReady({ kind: 'port', port })).toBe(false);
}, 120_000);

test('a response that breaks the description fails its test with the pointer, the expectation and the value', async () => {
  const { dir } = await repo(`{ server: ${SERVER}, openapi: 'openapi.yaml' }`);
  const out = await runVitest(dir, ['run'], { PETS_BREAK: 'missing-field' });
  const text = out.stdout + out.stderr;
  expect(out.code).toBe(1);
  expect(text).toContain('FAIL  flow.yaml > pet > pet.get');
  expect(text).toContain('E_CONTRACT: the 200 response of GET /pets/{petId} breaks openapi.yaml (1 violation)');
  expect(text).toContain('✗ /name: expected a required property, got missing');
  expect(text).toContain('Tests  1 failed | 3 passed (4)');
}, 120_000);

test('a prerequisite that fails only its contract hands on its values: three drifts along a chain fail three tests in one run', async () => {
  const { dir } = await repo(`{ server: ${SERVER}, openapi: 'openapi.yaml' }`, DRIFT);
  const out = await runVitest(dir, ['run']);
  const text = out.stdout + out.stderr;
  expect(out.code).toBe(1);
  expect(text).toContain('E_CONTRACT: the 201 response of POST /pets breaks openapi.yaml (1 violation)');
  expect(text).toContain('E_CONTRACT: the 200 response of GET /pets/{petId} breaks openapi.yaml (1 violation)');
  expect(text).toContain('E_CONTRACT: the 202 response of DELETE /pets/{petId} breaks openapi.yaml (1 violation)');
  expect(text).toContain('Tests  3 failed (3)');
}, 120_000);

test("contract: 'warn' passes, with the violation as a warning in the output and in JUnit", async () => {
  const { dir } = await repo(`{ server: ${SERVER}, openapi: 'openapi.yaml', contract: 'warn' }`);
  const junit = path.join(dir, 'junit.xml');
  const out = await runVitest(dir, ['run', '--reporter=default', '--reporter=junit', `--outputFile.junit=${junit}`], {
    PETS_BREAK: 'wrong-type',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: dir,
  });
  expect(out.code).toBe(0);
  // GitHub Actions: a workflow command at the operation's YAML
  expect(out.stdout + out.stderr).toContain(
    '::warning file=resources/pets.yaml,line=12,col=3::W_CONTRACT: the 200 response of GET /pets/{petId} breaks openapi.yaml (1 violation)%0A    ✗ /id: expected type integer, got "1"',
  );
  expect(out.stdout + out.stderr).toContain('W_CONTRACT: the 200 response of GET /pets/{petId} breaks openapi.yaml (1 violation)');
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toMatch(
    /<property name="warning" value="W_CONTRACT: the 200 response of GET \/pets\/\{petId\} breaks openapi\.yaml \(1 violation\)\n? *✗ \/id: expected type integer, got &quot;1&quot;/,
  );
}, 120_000);

test('a server that crashes at start fails the run with its exit and its last output lines, secrets hidden', async () => {
  const { dir } = await repo(`{ server: ${SERVER}, openapi: 'openapi.yaml' }`);
  const secret = 'db-pw-3c5e7a9b1d';
  const out = await runVitest(dir, ['run'], { PETS_BREAK: 'crash', FLOW_SECRET_PETS_DB: secret });
  expect(out.code).toBe(1);
  expect(out.stderr).toContain('E_SERVER_EXITED: the server "node api/main.js" exited with code 3 before http://127.0.0.1:');
  expect(out.stderr).toContain('  | pets api: opening pets.db');
  expect(out.stderr).toContain('  | Error: pets.db: database is locked');
  // what it wrote to stderr was shown as it came, too
  expect(out.stderr).toContain('[server] Error: pets.db: database is locked (password ***)');
  // the server inherits FLOW_SECRET_*: neither its last lines nor its live stderr show the value
  expect(out.stdout + out.stderr).not.toContain(secret);
}, 120_000);

test('a credential in the server command is hidden in the E_SERVER_* message', async () => {
  const secret = 'sk-live-9e8d7c6b5a4f';
  const command = `node api/main.js --api-key=${secret}`;
  const { dir } = await repo(`{ server: { command: '${command}', env: { PETS_BREAK: 'crash' }, url: 'http://127.0.0.1:@PORT@/v1/health' } }`);
  const out = await runVitest(dir, ['run']);
  expect(out.code).toBe(1);
  expect(out.stderr).toContain('E_SERVER_EXITED: the server "node api/main.js --api-key=***" exited with code 3 before http://127.0.0.1:');
  expect(out.stdout + out.stderr).not.toContain(secret);
}, 120_000);

test('a description that cannot be read fails the suite with E_CONTRACT_LOAD, before any request', async () => {
  const { dir } = await repo(`{ server: ${SERVER}, openapi: 'missing.yaml' }`);
  const out = await runVitest(dir, ['run']);
  const text = out.stdout + out.stderr;
  expect(out.code).toBe(1);
  expect(text).toMatch(/FlowError: E_CONTRACT_LOAD: .*missing\.yaml: cannot read the OpenAPI description/);
  expect(text).toContain('Tests  4 skipped (4)');
  expect(text).not.toContain('Caused by');
}, 120_000);
