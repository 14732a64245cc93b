// Contract checks on a real run: the pets API of test/fixtures/contract (a node:http server,
// port 0) against its openapi.yaml. A conforming server passes; each way of breaking the
// contract fails pet.get with E_CONTRACT, the JSON pointer and what the description expects.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { loadProject } from '../../src/project/index.js';
import { loadContract } from '../../src/contract/index.js';
import { createRunner, type Runner } from '../../src/runner/index.js';
import { startPetsApi } from '../fixtures/contract/pets/api/pets-api.js';

const PETS = path.resolve(__dirname, '../fixtures/contract/pets');
const OPS = ['pet.create', 'pet.get', 'pet.list', 'stats.get'];

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function run(breakWith: string, mode: 'fail' | 'warn' = 'fail', description = 'openapi.yaml') {
  const api = await startPetsApi({ breakWith });
  cleanup.push(api.close);
  const contract = await loadContract(path.join(PETS, description), mode);
  const runner: Runner = createRunner(await loadProject(PETS), { vars: { baseUrl: api.url }, responseCheck: contract.check });
  cleanup.push(() => runner.close());
  const summary = await runner.runMany(OPS);
  return new Map(summary.results.map((r) => [r.operation, r]));
}

test('a conforming server passes; a request the description lacks is reported as undocumented, not failed', async () => {
  const results = await run('');
  for (const id of OPS) expect(results.get(id)?.status, id).toBe('passed');
  expect(results.get('pet.get')?.warnings).toBeUndefined();
  expect(results.get('stats.get')?.warnings).toEqual([
    { code: 'W_CONTRACT_UNDOCUMENTED', message: expect.stringContaining('GET /v1/stats is not in the description') },
  ]);
});

describe('a broken contract fails the operation with the pointer and the expectation', () => {
  const cases: Array<[string, RegExp]> = [
    ['missing-field', /✗ \/name: expected a required property, got missing/],
    ['wrong-type', /✗ \/id: expected type integer, got "1"/],
    ['status', /✗ expected a documented status \(200, 404\), got status 202/],
    ['content-type', /✗ expected content-type application\/json, got content-type text\/plain/],
  ];
  test.each(cases)('%s', async (breakWith, line) => {
    const results = await run(breakWith);
    const get = results.get('pet.get')!;
    expect(get.status).toBe('failed');
    expect(get.error?.code).toBe('E_CONTRACT');
    expect(get.error?.message).toMatch(/^the 20\d response of GET \/pets\/\{petId\} breaks .*openapi\.yaml \(1 violation\)/);
    expect(get.error?.message).toMatch(line);
    // the other operations keep their contract
    expect(results.get('pet.create')?.status).toBe('passed');
    expect(results.get('pet.list')?.status).toBe('passed');
  });
});

test("mode 'warn' reports the violation on the result without failing the operation", async () => {
  const results = await run('wrong-type', 'warn');
  const get = results.get('pet.get')!;
  expect(get.status).toBe('passed');
  expect(get.warnings).toEqual([{ code: 'W_CONTRACT', message: expect.stringMatching(/✗ \/id: expected type integer, got "1"/) }]);
});

test('a value shown in a violation is redacted', async () => {
  // the pet is named by a secret, and this API sends the name where the id belongs
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-contract-'));
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  cpSync(PETS, dir, { recursive: true });
  const resource = path.join(dir, 'resources/pets.yaml');
  writeFileSync(resource, readFileSync(resource, 'utf8').replace('name: Rex', 'name: "{{secret.PET_NAME}}"'));
  const api = await startPetsApi({ breakWith: 'name-as-id' });
  cleanup.push(api.close);
  const contract = await loadContract(path.join(dir, 'openapi.yaml'));
  const runner = createRunner(await loadProject(dir), {
    vars: { baseUrl: api.url },
    processEnv: { FLOW_SECRET_PET_NAME: 'hush-4711' },
    responseCheck: contract.check,
  });
  cleanup.push(() => runner.close());
  const get = (await runner.runMany(['pet.get'])).results.find((r) => r.operation === 'pet.get')!;
  expect(get.error?.message).toContain('/id: expected type integer, got "***"');
  expect(JSON.stringify(get)).not.toContain('hush-4711');
});

test('Swagger 2.0 is read converted in memory: the same verdicts, told against the Swagger file', async () => {
  const ok = await run('', 'fail', 'swagger.yaml');
  for (const id of OPS.filter((o) => o !== 'stats.get')) expect(ok.get(id)?.status, id).toBe('passed');
  const broken = (await run('missing-field', 'fail', 'swagger.yaml')).get('pet.get')!;
  expect(broken.error?.code).toBe('E_CONTRACT');
  expect(broken.error?.message).toMatch(/^the 200 response of GET \/pets\/\{petId\} breaks .*swagger\.yaml \(1 violation\)/);
  expect(broken.error?.message).toMatch(/✗ \/name: expected a required property, got missing/);
});

test('a load error names the key the file really has', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-contract-'));
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'old.json'), JSON.stringify({ swagger: '1.2', paths: {} }));
  await expect(loadContract(path.join(dir, 'old.json'))).rejects.toMatchObject({ message: expect.stringMatching(/\(swagger: "1\.2"\)$/) });
  writeFileSync(path.join(dir, 'none.json'), JSON.stringify({ info: {} }));
  await expect(loadContract(path.join(dir, 'none.json'))).rejects.toMatchObject({ message: expect.stringMatching(/\(no openapi or swagger key\)$/) });
});

test('a description that cannot be read is E_CONTRACT_LOAD, naming the file', async () => {
  await expect(loadContract(path.join(PETS, 'missing.yaml'))).rejects.toMatchObject({
    code: 'E_CONTRACT_LOAD',
    message: expect.stringContaining('missing.yaml'),
  });
  await expect(loadContract(path.join(PETS, 'flow.yaml'))).rejects.toMatchObject({
    code: 'E_CONTRACT_LOAD',
    message: expect.stringContaining('not an OpenAPI 3.0 or 3.1 description'),
  });
});
