// `flow calibrate` on a storage service shaped like Kinto (test/helpers/storage-api.ts): its
// own Swagger 2.0 description imported, then calibrated as a new user would. The login is
// proposed from the 401's WWW-Authenticate; once the user gives the username and the secret,
// one calibrate proves the actor, the body field a Cornice 400 names, and the 3-deep chain
// (record needs collection needs bucket) from the live answers; --apply writes it; `flow run
// --all` passes; a second calibrate proposes nothing; no secret anywhere.
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { startStorageApi, STORAGE_PASSWORD, STORAGE_USER, type StorageApi } from '../helpers/storage-api.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let api: StorageApi;
beforeAll(async () => {
  // Kinto answers 403 for a bucket that does not exist; here a 404 names it (what it proves is this file's subject)
  api = await startStorageApi({ missingBucket: 404 });
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

async function flow(cwd: string, args: string[], env: Record<string, string> = {}) {
  const rec = recordedIO({ cwd, env });
  const code = await main(args, rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

async function allText(dir: string): Promise<string> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
  return (await Promise.all(files.map((f) => readFile(path.join(f.parentPath, f.name), 'utf8')))).join('\n');
}

/** The service's description imported, and the login written as calibrate proposes it. */
async function importedWithLogin(server = api): Promise<string> {
  const doc = await (await fetch(`${server.url}/__api__`)).json();
  const dir = await writeProject({ 'storage.json': JSON.stringify(doc) });
  expect((await flow(dir, ['import', 'storage.json', '--out', 'project'])).code).toBe(0);
  const project = path.join(dir, 'project');
  await flow(project, ['calibrate', 'bucket.list', '--apply', '--var', `baseUrl=${server.url}`]);
  return project;
}

describe('flow calibrate on a storage service (Basic auth undeclared, ids nobody produces, Cornice errors)', () => {
  it('a leaf pulls its chain: record.create and record.get alone add the creates of bucket and collection, link every id, and pass', async () => {
    const project = await importedWithLogin();
    // ids given by hand that do not exist, as the user did: each answers 404
    const vars = ['--var', `baseUrl=${api.url}`, '--var', `user_username=${STORAGE_USER}`, '--var', 'bucket_id=blog', '--var', 'collection_id=kc-coll'];
    const env = { FLOW_SECRET_USER_PASSWORD: STORAGE_PASSWORD };
    const r = await flow(project, ['calibrate', 'record.create', 'record.get', '--writes', '--apply', ...vars], env);
    // bucket.delete reads the bucket_id given (someone's "blog"): never sent for what the tries made, which is said
    expect(r.stderr).toMatch(/^ {2}left bucket [\w-]+(, [\w-]+)*: no DELETE addresses it where it was made \(bucket\.delete: /m);
    expect(r.stdout).toContain(
      "Producers added (not asked for; an asked operation's path holds an id they create): bucket.create (for record.create), collection.create (for record.create).",
    );
    expect(r.stdout).toMatch(/### \d+\. collection\.create: path \{\{env\.bucket_id\}\}/);
    expect(r.stdout).toMatch(/### \d+\. record\.create: path \{\{env\.collection_id\}\}/);
    expect(r.stdout).toMatch(/### \d+\. record\.get: path \{\{env\.record_id\}\}/);
    // a 404 where success is expected is diagnosed, never written in
    expect(r.stdout).not.toMatch(/expect_status: 404/);
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    expect(r.code).toBe(0);
    const records = await readFile(path.join(project, 'resources/records.yaml'), 'utf8');
    expect(records).toContain('path: /buckets/{{bucket.id}}/collections/{{collection.id}}/records/{{record.id}}');
    const run = await flow(project, ['run', 'record.get', ...vars], env);
    expect(run.stdout).toMatch(/^4 passed, 0 failed/m);
    expect(run.code).toBe(0);
  }, 60_000);

  it('login proposed from the 401; then one calibrate proves the actor, the body field and the 3-deep chain', async () => {
    const doc = await (await fetch(`${api.url}/__api__`)).json();
    const dir = await writeProject({ 'storage.json': JSON.stringify(doc) });
    const imported = await flow(dir, ['import', 'storage.json', '--out', 'project']);
    expect(imported.code, imported.stderr).toBe(0);
    // the bulk DELETE /buckets is a question of the import, never an operation that runs
    expect(imported.stdout).toMatch(/DELETE \/buckets has no id of an item at its end: .*Blocks \(skipped until answered\): bucket\.delete_all/);
    const project = path.join(dir, 'project');
    const base = ['--var', `baseUrl=${api.url}`];
    // what calibrate finds with no description to read: the one import kept goes
    await rm(path.join(project, 'openapi.json'));

    // 1. no login known: the 401's challenge proposes one; the ops a --var blocks are "Not run", the others ran
    const first = await flow(project, ['calibrate', '--writes', '--destructive', '--apply', ...base]);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('login (new actor user)');
    expect(first.stdout).toMatch(/answered 401 asking for HTTP Basic \(WWW-Authenticate\), and the project has no actor/);
    expect(first.stdout).toMatch(/- record\.get: needs --var bucket_id=…, --var collection_id=…, --var record_id=…/);
    expect(first.stdout).toContain('- root.get: `GET / -> 200`');
    expect(first.code).toBe(1);
    const actor = await readFile(path.join(project, 'actors/user.yaml'), 'utf8');
    expect(actor).toContain('strategy: basic');
    expect(actor).toContain('username: "{{env.user_username}}"');
    expect(actor).toContain('password: !secret USER_PASSWORD');
    expect(await readFile(path.join(project, 'flow.yaml'), 'utf8')).toContain('- actors/*.yaml');
    expect(await readFile(path.join(project, 'environments/default.yaml'), 'utf8')).toContain('user_username: <SET_VIA_--var>');

    // 2. the user gives the username and the secret: one calibrate carries the chain to green
    const creds = ['--var', `user_username=${STORAGE_USER}`];
    const env = { FLOW_SECRET_USER_PASSWORD: STORAGE_PASSWORD };
    const second = await flow(project, ['calibrate', '--writes', '--destructive', '--apply', ...base, ...creds], env);
    expect(second.stderr).toBe('');
    const report = second.stdout;
    expect(report).toContain('add `body.data.id: "{{$.faker.uuid}}"`');
    // a PATCH's `data`, named by the 400 again once given a word, is a map (no --openapi to say so)
    expect(report).toMatch(
      /answered 400 naming `data` again, given a word: a map; then 200[\s\S]*?- Edit \(resources\/buckets\.yaml:\d+\): add `body\.data: \{\}`/,
    );
    expect(report).toMatch(/answered 401 without an actor, and 400 as user \(the login was accepted\); answered 400 naming `data\.id`; then 201/);
    expect(report).toMatch(
      /### \d+\. bucket\.create: extract id\n[\s\S]*?- Edit \(resources\/buckets\.yaml:\d+\): add `extract: \{ id: \$\.data\.data\.id \}`/,
    );
    expect(report).toContain('`{{env.bucket_id}}` -> `{{bucket.id}}` in `path`');
    expect(report).toContain('`{{env.collection_id}}` -> `{{collection.id}}` in `path`');
    expect(report).toContain('`{{env.record_id}}` -> `{{record.id}}` in `path`');
    expect(report).not.toMatch(/-> `expect_status: 4\d\d`/);
    expect(report).toContain('## Open questions\n\nNone.');
    expect(second.code).toBe(0);
    const records = await readFile(path.join(project, 'resources/records.yaml'), 'utf8');
    expect(records).toContain('path: /buckets/{{bucket.id}}/collections/{{collection.id}}/records/{{record.id}}');
    expect(records).not.toMatch(/expect_status: 404/);

    const dry = await flow(project, ['run', 'record.delete', '--dry-run', ...base, ...creds], env);
    expect(dry.stdout).toMatch(/bucket\.create[\s\S]*collection\.create[\s\S]*record\.create[\s\S]*record\.delete/);
    const run = await flow(project, ['run', '--all', ...base, ...creds], env);
    // every operation, the PATCHes and the DELETEs included: a record's, then its collection's, then its bucket's
    expect(run.stdout).toMatch(/^19 passed, 0 failed/m);
    expect(run.stdout).toMatch(/✔ record\.delete[\s\S]*✔ collection\.delete[\s\S]*✔ bucket\.delete/);

    const again = await flow(project, ['calibrate', '--writes', '--destructive', ...base, ...creds], env);
    expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
    expect(again.code).toBe(0);
    for (const text of [first.stdout, report, run.stdout, again.stdout, await allText(project)]) {
      expect(text).not.toContain(STORAGE_PASSWORD);
      expect(text).not.toContain(Buffer.from(`${STORAGE_USER}:${STORAGE_PASSWORD}`).toString('base64'));
    }
  }, 60_000);
});

describe('flow calibrate on a storage service leaves nothing behind (docs/format.md#ownership)', () => {
  let own: StorageApi;
  beforeAll(async () => {
    own = await startStorageApi({ missingBucket: 404 });
  });
  afterAll(() => own.close());

  it('a leaf calibrate, then a full --writes --destructive --apply one, delete every bucket they made, though no DELETE names one yet', async () => {
    const project = await importedWithLogin(own);
    expect(own.buckets()).toEqual([]);
    const vars = ['--var', `baseUrl=${own.url}`, '--var', `user_username=${STORAGE_USER}`];
    const env = { FLOW_SECRET_USER_PASSWORD: STORAGE_PASSWORD };
    // bucket.create extracts nothing yet and bucket.delete is /buckets/{{env.bucket_id}}, unset:
    // each bucket a try made is deleted from where it was made
    const leaf = await flow(project, ['calibrate', 'record.create', 'record.get', '--writes', ...vars], env);
    expect(leaf.stdout).toContain('bucket.create');
    expect(leaf.stderr).toBe('');
    expect(own.buckets()).toEqual([]);
    const full = await flow(project, ['calibrate', '--writes', '--destructive', '--apply', ...vars], env);
    expect(full.stderr).toBe('');
    expect(own.buckets()).toEqual([]);
  }, 60_000);
});
