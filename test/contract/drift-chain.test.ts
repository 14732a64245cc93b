// A prerequisite whose only failure is its contract hands on its values: on the drifting pets
// API (test/fixtures/contract/drift), create, get and delete each break openapi.yaml, and
// one run reports all three, in the runner and in `flow run --server --openapi`. A
// prerequisite that also fails a check of its own still stops its dependents.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadContract } from '../../src/contract/index.js';
import { loadProject } from '../../src/project/index.js';
import { createRunner } from '../../src/runner/index.js';
import { startDriftingPets } from '../fixtures/contract/drift/api/drifting-pets.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';
import { freePort } from '../vitest/pets-repo.js';

const DRIFT = path.resolve(__dirname, '../fixtures/contract/drift');
const OPS = ['pet.create', 'pet.get', 'pet.delete'];

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function run(dir: string) {
  const api = await startDriftingPets();
  cleanup.push(api.close);
  const contract = await loadContract(path.join(dir, 'openapi.yaml'));
  const runner = createRunner(await loadProject(dir), { vars: { baseUrl: api.url }, responseCheck: contract.check });
  cleanup.push(() => runner.close());
  const summary = await runner.runMany(OPS);
  return { api, results: new Map(summary.results.map((r) => [r.operation, r])) };
}

test('each operation of a chain that breaks the contract fails, and its dependents still run on its values', async () => {
  const { api, results } = await run(DRIFT);
  expect(api.requests).toEqual(['POST /v1/pets', 'GET /v1/pets/1', 'DELETE /v1/pets/1']);
  const lines = {
    'pet.create': '✗ /createdAt: expected a required property, got missing',
    'pet.get': '✗ /id: expected type integer, got "1"',
    'pet.delete': '✗ expected a documented status (204), got status 202',
  };
  for (const [id, line] of Object.entries(lines)) {
    const r = results.get(id)!;
    expect(r.status, id).toBe('failed');
    expect(r.error?.code, id).toBe('E_CONTRACT');
    expect(r.error?.message, id).toContain(line);
    expect(r.valuesHandedOn, id).toBe(true);
  }
  expect(results.get('pet.create')?.extracted).toEqual({ id: 1 });
  // get's assert ran, and passed
  expect(results.get('pet.get')?.asserts).toEqual([expect.objectContaining({ pass: true })]);
});

test('a prerequisite that also fails an assert blocks its dependents, with the contract violation as its error', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-drift-'));
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  cpSync(DRIFT, dir, { recursive: true });
  const resource = path.join(dir, 'resources/pets.yaml');
  writeFileSync(resource, readFileSync(resource, 'utf8').replace('$.data.name == "Rex"', '$.data.name == "Max"'));
  const { api, results } = await run(dir);
  expect(api.requests).toEqual(['POST /v1/pets', 'GET /v1/pets/1']);
  const get = results.get('pet.get')!;
  expect(get.status).toBe('failed');
  expect(get.error?.code).toBe('E_CONTRACT');
  expect(get.valuesHandedOn).toBeUndefined();
  expect(get.asserts).toEqual([expect.objectContaining({ pass: false })]);
  expect(results.get('pet.delete')).toMatchObject({ status: 'skipped', skippedBecause: 'prerequisite pet.get failed' });
});

test('flow run --server --openapi reports the three drifts in one run', async () => {
  const port = await freePort();
  const rec = recordedIO({ cwd: DRIFT, env: { PORT: String(port) } });
  const args = ['run', '--all', '--server', 'node api/main.js', '--server-url', `http://127.0.0.1:${port}/v1/health`, '--openapi', 'openapi.yaml'];
  expect(await main(args, rec.io)).toBe(1);
  const out = rec.out();
  expect(out).toContain('E_CONTRACT  the 201 response of POST /pets breaks openapi.yaml (1 violation)');
  expect(out).toContain('E_CONTRACT  the 200 response of GET /pets/{petId} breaks openapi.yaml (1 violation)');
  expect(out).toContain('E_CONTRACT  the 202 response of DELETE /pets/{petId} breaks openapi.yaml (1 violation)');
  expect(out).toContain('✗ expected a documented status (204), got status 202');
  expect(out).toContain('0 passed, 3 failed');
  expect(out).not.toContain('skipped');
});
