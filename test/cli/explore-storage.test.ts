// `flow explore` on a storage service that answers as Kinto does (test/helpers/storage-api.ts),
// after import and calibrate, as a new user runs it. Kinto has no bug planted, so what explore
// reports must be none of its documented behaviours:
// - a bucket read after its delete answers 403 (its permissions went with it): not a use after
//   delete, since nothing of it is shown;
// - an integer field is read as colander reads it ("12" is 12, an empty value is "not given"):
//   a wrong type that a lenient reading turns into a valid value is not a body accepted invalid.
// Every finding it does report replays against the same server; and it starts with the
// variables nobody gave, listing the operations they block.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { startStorageApi, STORAGE_PASSWORD, STORAGE_USER, type StorageApi } from '../helpers/storage-api.js';

let api: StorageApi;
let project: string;
const env = { FLOW_SECRET_USER_PASSWORD: STORAGE_PASSWORD };

async function flow(cwd: string, args: string[], vars = true) {
  const io = capturingIO({ cwd, env });
  const code = await main([...args, ...(vars ? ['--var', `baseUrl=${api.url}`, '--var', `user_username=${STORAGE_USER}`] : [])], io);
  return { code, out: io.out, err: io.err };
}

const found = (out: string) => [...out.matchAll(/^FINDING (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);

beforeAll(async () => {
  api = await startStorageApi();
  const doc = await (await fetch(`${api.url}/__api__`)).json();
  const dir = await writeProject({ 'storage.json': JSON.stringify(doc) });
  expect((await flow(dir, ['import', 'storage.json', '--out', 'project'], false)).code).toBe(0);
  project = path.join(dir, 'project');
  // the first proposes the login (from the 401), the second proves the chain
  await flow(project, ['calibrate', 'bucket.list', '--apply']);
  const calibrated = await flow(project, ['calibrate', '--writes', '--destructive', '--apply', '--openapi', '../storage.json']);
  expect(calibrated.out).toContain('`{{env.record_id}}` -> `{{record.id}}` in `path`');
}, 60_000);
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

describe('flow explore on a storage service that answers as Kinto does', () => {
  let run: Awaited<ReturnType<typeof flow>>;
  beforeAll(async () => {
    // the buckets (read after delete) and the collections (an integer field) get every round
    const only = ['--only', 'bucket.*', '--only', 'collection.*'];
    // 8 rounds: what 6 s explored in a full test run, and more
    run = await flow(project, ['explore', '--openapi', '../storage.json', '--budget', '60', '--rounds', '8', '--seed', '3', ...only, '--out', '../found']);
  }, 90_000);

  it("reports none of the service's documented behaviours, and replays every finding it does report", async () => {
    expect(run.err).toBe('');
    expect(run.out).toMatch(/^explore: .* \d+ sequences/m);
    // the reads after a delete and the integer fields were tried
    expect(api.answers).toContainEqual(expect.stringMatching(/^GET \/buckets\/[\w-]+ -> 403$/));
    expect(api.requests.some((r) => r.method === 'POST' && /"cache_expires":/.test(r.text()))).toBe(true);
    expect(found(run.out).filter((f) => f.startsWith('E_USE_AFTER_DELETE'))).toEqual([]);
    expect(found(run.out).filter((f) => f.startsWith('E_ACCEPTS_INVALID collection'))).toEqual([]);
    for (const f of found(run.out)) {
      const name = `finding_${f.replace(/^E_/, '').replace(' ', '_')}`.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
      const replay = await flow(path.join(project, '..'), ['run', '-p', 'found', `${name}.check`]);
      expect(replay.code, `${f} replays: its check fails on the same server`).toBe(1);
    }
    expect(run.code).toBe(found(run.out).length ? 1 : 0);
  });
});
