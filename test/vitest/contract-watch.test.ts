// Watch mode with a managed server and a description: a real `vitest --watch` (child
// process). Editing the server's source restarts it and re-runs the flow suite, which shows
// the violation the edit brought; editing the description re-runs the suite against it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isReady } from '../../src/server/ready.js';
import { ensureBuilt } from './helpers.js';
import { freePort, petsRepo, SERVER } from './pets-repo.js';
import { readyCount, WatchChild } from './watch-child.js';

let dir: string;
let port: number;
let child: WatchChild;

beforeAll(async () => {
  await ensureBuilt();
  port = await freePort();
  dir = petsRepo(`{ server: ${SERVER}, openapi: 'openapi.yaml' }`, port);
}, 180_000);

afterAll(async () => {
  await child?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Writes `edit` to `file` (again, if the watcher missed it) until run number `n` has finished; returns that run's output. */
async function editUntilRun(file: string, edit: (text: string) => string, n: number): Promise<string> {
  const edited = edit(readFileSync(file, 'utf8'));
  expect(edited).not.toBe(readFileSync(file, 'utf8'));
  const before = child.output.length;
  for (let attempt = 0; attempt < 4 && !child.output.slice(before).includes('RERUN'); attempt++) {
    writeFileSync(file, `${edited}${'\n'.repeat(attempt)}`);
    await child.waitFor((t) => t.slice(before).includes('RERUN'), 5000, 'a re-run').catch(() => undefined);
  }
  await child.waitFor((t) => readyCount(t) >= n, 60_000, `run ${n} to finish`);
  return child.output.slice(before);
}

test('an edit of the server source restarts it and re-runs the suite; an edit of the description re-runs it', async () => {
  child = new WatchChild(dir);
  await child.waitFor((t) => readyCount(t) >= 1, 60_000, 'the first run');
  expect(child.output).toContain('Tests  4 passed (4)');

  // The server now leaves createdAt out of a pet it reads back: it restarts, and pet.get breaks the contract.
  const rerun = await editUntilRun(
    path.join(dir, 'api/pets-api.js'),
    (t) => t.replace('return send(200, pet);', 'return send(200, { ...pet, createdAt: undefined });'),
    2,
  );
  expect(rerun).toMatch(/RERUN\s+api\/pets-api\.js/);
  expect(rerun).toContain('E_CONTRACT: the 200 response of GET /pets/{petId} breaks openapi.yaml (1 violation)');
  expect(rerun).toContain('✗ /createdAt: expected a required property, got missing');
  expect(rerun).toContain('Tests  1 failed | 3 passed (4)');

  // The description now makes createdAt optional: the suite re-runs and passes.
  const third = await editUntilRun(path.join(dir, 'openapi.yaml'), (t) => t.replace('required: [id, createdAt]', 'required: [id]'), 3);
  expect(third).toMatch(/RERUN\s+openapi\.yaml/);
  expect(third).not.toContain('E_CONTRACT');
  expect(third).toContain('Tests  4 passed (4)');

  // Vitest stopped (as Ctrl+C or a CI timeout would): the server goes with it. Killed as Vitest
  // exits, it may hold its port for a moment more on a loaded machine: a few seconds, not forever.
  await child.stop();
  const gone = Date.now() + 5000;
  while ((await isReady({ kind: 'port', port })) && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
  expect(await isReady({ kind: 'port', port })).toBe(false);
}, 200_000);
