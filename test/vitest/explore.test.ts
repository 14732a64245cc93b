// `flow({ openapi, explore })` in a real Vitest run (child process): the opt-in `explore` test
// runs flow explore on the project after its operations' tests and fails with the findings.
// The pets API answering without a required field: the explore test finds it (E_CONTRACT).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureBuilt, runVitest } from './helpers.js';
import { freePort, petsRepo, SERVER } from './pets-repo.js';

const dirs: string[] = [];
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test('the explore test fails with each finding, FINDING <CODE> <operation> and its sequence', async () => {
  const port = await freePort();
  // 3 rounds: the findings are made by round 3
  const dir = petsRepo(`{ server: ${SERVER}, openapi: 'openapi.yaml', explore: { budget: 45, rounds: 3, seed: 1 } }`, port);
  dirs.push(dir);
  const out = await runVitest(dir, ['run'], { PETS_BREAK: 'missing-field' });
  const text = out.stdout + out.stderr;
  expect(text).toContain('FAIL  flow.yaml > explore');
  expect(text).toMatch(/FINDING E_CONTRACT pet\.(get|list|create)/);
  expect(text).toContain('/name: expected a required property, got missing');
  expect(out.code).toBe(1);
}, 180_000);

test('the explore test fails when no step got an answer (the server is down), as the CLI exits 1', async () => {
  const port = await freePort(); // nothing listens there
  const dir = petsRepo(`{ vars: { baseUrl: 'http://127.0.0.1:@PORT@' }, openapi: 'openapi.yaml', explore: { budget: 1, seed: 1 } }`, port);
  dirs.push(dir);
  const out = await runVitest(dir, ['run']);
  const text = out.stdout + out.stderr;
  expect(text).toContain('FAIL  flow.yaml > explore');
  expect(text).toContain('no step got an answer');
  expect(out.code).toBe(1);
}, 180_000);
