// `flow calibrate` against an in-repo API that departs from its own description in each way
// calibrate can prove (test/helpers/drifting-api.ts): the proposals, --apply, then `flow run
// --all` passes and a second calibrate proposes nothing; the safety flags and --dry-run,
// checked on what the server received; no secret or login token in the report or the files.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { DRIFT_FILES, DRIFT_PASSWORD, driftProject, startDriftingApi, type DriftingApi } from '../helpers/drifting-api.js';
import { json, startServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let api: DriftingApi;
beforeAll(async () => {
  api = await startDriftingApi();
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

async function flow(command: string, dir: string, args: string[]) {
  const rec = recordedIO({ cwd: dir, env: { FLOW_SECRET_DRIFT_PW: DRIFT_PASSWORD } });
  const code = await main([command, ...args, '--var', `baseUrl=${api.url}`], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

const read = (dir: string, file: string) => readFile(path.join(dir, file), 'utf8');

/** Neither the password nor any login token the server issued. */
function expectNoSecret(text: string) {
  expect(text).not.toContain(DRIFT_PASSWORD);
  for (const t of api.tokens) expect(text).not.toContain(t);
}

describe('flow calibrate', () => {
  it('proposes exactly the edits the answers prove; --apply writes them; run --all then passes; a second calibrate proposes nothing', async () => {
    const dir = await driftProject();
    const r = await flow('calibrate', dir, ['--writes', '--destructive']);
    expect(r.stderr).toBe('');
    const report = r.stdout;
    expect(report).toMatch(/^# Calibration/);
    const proposals = [...report.matchAll(/^### \d+\. (.+)$/gm)].map((m) => m[1]);
    expect(proposals.sort()).toEqual(
      [
        'item.create: actor admin: header form',
        'item.create: extract id',
        'item.delete: expect_status',
        'item.get: actor',
        'item.missing: expect_status',
        'note.create: body title',
      ].sort(),
    );
    expect(report).toContain('`expect_status: 404` -> `expect_status: 403`');
    // the edit's line is the expect_status it changes, not the operation's key (line 17)
    expect(report).toContain('- Edit (resources/items.yaml:20): `expect_status: 404` -> `expect_status: 403`');
    expect(report).toContain('`inject.headers.Authorization`: `{{admin.token}}` -> `Bearer {{admin.token}}`');
    expect(report).toContain('`id: $.data.data[*].id` -> `id: $.data.data.id`');
    expect(report).toContain('add `actor: admin`');
    expect(report).toContain('`expect_status: 200` -> `expect_status: 204`');
    expect(report).toContain('- Request: `DELETE /items/{{item.id}}`');
    // the 422 names a field: a value for it, proven by the 201 a try with it got
    expect(report).toContain('add `body.title: "{{$.faker.word}}"`');
    expect(report).toMatch(/- Why: answered 422 naming `title`; then 201\n/);
    expect(report).toContain('## Open questions\n\nNone.');
    // every request is listed, the tries with what they tried
    expect(report).toMatch(/- try note\.create with title: `POST http:\/\/127\.0\.0\.1:\d+\/notes` -> 201/);
    expect(r.code).toBe(0);
    expectNoSecret(report);
    // nothing written without --apply
    expect(await read(dir, 'resources/items.yaml')).toBe(DRIFT_FILES['resources/items.yaml']);

    const applied = await flow('calibrate', dir, ['--writes', '--destructive', '--apply', '--report', 'calibration.md']);
    expect(applied.stdout).toMatch(/6 proposal\(s\), 0 open question\(s\); 3 file\(s\) edited/);
    const items = await read(dir, 'resources/items.yaml');
    // R7: comments and order kept, only the proven values changed
    expect(items).toContain('# items, as the description has them');
    expect(items).toContain('      id: "$.data.data.id" # described as a list');
    expect(items).toContain('    expect_status: 204 # documented');
    expect(items).toContain('    expect_status: 403 # documented; the server says 403');
    expect(items).toMatch(/ {2}get:\n {4}path: \/items\/\{\{item\.id\}\}\n {4}expect_status: 200\n {4}actor: admin\n/);
    expect(items).toContain('      verified_against: live_capture');
    expect(items).toContain('        observed: DELETE /items/{{item.id}} -> 204');
    expect(items).toContain('        observed: POST /items -> 201');
    const admin = await read(dir, 'actors/admin.yaml');
    expect(admin).toContain('    Authorization: "Bearer {{admin.token}}" # the raw key, as described');
    const reportFile = await read(dir, 'calibration.md');
    for (const text of [items, admin, reportFile, await read(dir, 'resources/notes.yaml')]) expectNoSecret(text);

    expect(await read(dir, 'resources/notes.yaml')).toContain('body: { text: hello, title: "{{$.faker.word}}" }');
    const run = await flow('run', dir, ['--all']);
    expect(run.stdout).toMatch(/^6 passed, 0 failed/m);
    expect(run.code).toBe(0);

    const before = await Promise.all(['resources/items.yaml', 'actors/admin.yaml', 'resources/notes.yaml'].map((f) => read(dir, f)));
    const again = await flow('calibrate', dir, ['--writes', '--destructive', '--apply']);
    expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
    expect(again.stdout).toContain('## Open questions\n\nNone.');
    expect(again.code).toBe(0);
    expect(await Promise.all(['resources/items.yaml', 'actors/admin.yaml', 'resources/notes.yaml'].map((f) => read(dir, f)))).toEqual(before);
  });

  it('by default only reads run; the report says which were not run and why, and the server saw no write', async () => {
    const dir = await driftProject();
    const from = api.requests.length;
    const r = await flow('calibrate', dir, []);
    const sent = api.log().slice(from);
    // reads, and the login of the actor a read needs: no write
    expect(sent.filter((s) => !s.startsWith('GET ') && s !== 'POST /login')).toEqual([]);
    expect(sent).toContain('GET /items');
    expect(r.stdout).toContain('- item.create: POST writes: needs --writes');
    expect(r.stdout).toContain('- item.get: its prerequisite item.create may not run (POST writes: needs --writes)');
    expect(r.stdout).toContain('- item.delete: DELETE deletes: needs --writes and --destructive');
    expect(r.stdout).toContain('- note.create: POST writes: needs --writes');
  });

  it('--writes without --destructive: the DELETE operation is not run; only the clean-up deletes, what the calibration created', async () => {
    const dir = await driftProject();
    const from = api.requests.length;
    const ids = async () => ((await (await fetch(`${api.url}/items`)).json()) as { data: Array<{ id: number }> }).data.map((i) => String(i.id));
    const before = new Set(await ids());
    const r = await flow('calibrate', dir, ['--writes']);
    const sent = api.log().slice(from);
    expect(sent).toContain('POST /items');
    // each DELETE is the clean-up of an item this calibration made: none that was there before
    const deleted = sent.filter((s) => s.startsWith('DELETE')).map((s) => decodeURIComponent(s.replace(/^DELETE \/items\//, '')));
    expect(deleted.filter((id) => before.has(id))).toEqual([]);
    // everything that was there before is still there
    expect((await ids()).filter((id) => before.has(id))).toEqual([...before]);
    expect(r.stdout).toContain('- item.delete: DELETE deletes: needs --writes and --destructive');
  });

  it('--dry-run prints what would be sent and sends nothing', async () => {
    const dir = await driftProject();
    const from = api.requests.length;
    const r = await flow('calibrate', dir, ['--writes', '--dry-run']);
    expect(api.requests.length).toBe(from);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Calibration plan \(nothing is sent\):\n +1\. item\.list +GET +\/items\n/);
    expect(r.stdout).toMatch(/item\.create +POST +\/items as admin/);
    expect(r.stdout).toContain('- item.delete: DELETE deletes: needs --writes and --destructive');
  });

  it('usage errors: --destructive alone, --dry-run with --apply, an unknown operation (exit 2, nothing sent)', async () => {
    const dir = await driftProject();
    const from = api.requests.length;
    expect((await flow('calibrate', dir, ['--destructive'])).stderr).toContain('--destructive needs --writes as well');
    expect((await flow('calibrate', dir, ['--dry-run', '--apply'])).code).toBe(2);
    const unknown = await flow('calibrate', dir, ['item.creat']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown operation "item.creat"');
    expect(api.requests.length).toBe(from);
  });

  it('an api_key sent raw in Authorization where the server wants Bearer: the key form is proposed, with no secret in the report or file', async () => {
    const KEY = 'key-5d0c-secret';
    const srv = await startServer({
      'GET /me': (req, res) => (req.headers.authorization === `Bearer ${KEY}` ? json(res, 200, { id: 1 }) : json(res, 401, { error: 'anonymous' })),
    });
    try {
      const dir = await writeProject({
        'flow.yaml': 'version: 1\nname: keyed\nimports: [environments/*.yaml, actors/*.yaml, resources/*.yaml]\n',
        'environments/local.yaml': `name: local\nvariables:\n  baseUrl: ${srv.url}\n`,
        'actors/client.yaml': 'name: client\nauth:\n  strategy: api_key\n  name: Authorization\n  key: "{{secret.API_KEY}}" # as described\n',
        'resources/me.yaml': 'name: me\noperations:\n  get:\n    path: /me\n    actor: client\n',
      });
      const rec = recordedIO({ cwd: dir, env: { FLOW_SECRET_API_KEY: KEY } });
      const code = await main(['calibrate', '--apply'], rec.io);
      expect(rec.out()).toContain('`auth.key` (sent in Authorization): `{{secret.API_KEY}}` -> `Bearer {{secret.API_KEY}}`');
      expect(code).toBe(0);
      const file = await read(dir, 'actors/client.yaml');
      expect(file).toContain('  key: "Bearer {{secret.API_KEY}}" # as described');
      for (const text of [rec.out(), file, await read(dir, 'resources/me.yaml')]) expect(text).not.toContain(KEY);
      expect(await read(dir, 'resources/me.yaml')).toContain('observed: GET /me -> 200');
    } finally {
      await srv.close();
    }
  });

  it('a 401 asking for a Bearer token proposes the actor; once the secret is given, calibrate proves it and puts actor: on the operations', async () => {
    const TOKEN = 'tok-7d1e-bearer-secret';
    const srv = await startServer({
      'GET /me': (req, res) =>
        req.headers.authorization === `Bearer ${TOKEN}`
          ? json(res, 200, { id: 1 })
          : json(res, 401, { error: 'no token' }, { 'www-authenticate': 'Bearer realm="api"' }),
    });
    try {
      const dir = await writeProject({
        'flow.yaml': 'version: 1\nname: tokens\nimports: [environments/*.yaml, resources/*.yaml]\n',
        'environments/local.yaml': `name: local\nvariables:\n  baseUrl: ${srv.url}\n`,
        'resources/me.yaml': 'name: me\noperations:\n  get:\n    path: /me\n',
      });
      const first = recordedIO({ cwd: dir });
      expect(await main(['calibrate', '--apply'], first.io)).toBe(1);
      expect(first.out()).toContain('login (new actor user)');
      expect(first.out()).toMatch(/answered 401 asking for a Bearer token \(WWW-Authenticate\), and the project has no actor: the actor `user` is proposed/);
      expect(await read(dir, 'actors/user.yaml')).toContain('  strategy: bearer\n  token: "{{secret.USER_TOKEN}}"\n');
      expect(await read(dir, 'flow.yaml')).toMatch(/^imports: \[ ?environments\/\*\.yaml, resources\/\*\.yaml, actors\/\*\.yaml ?\]$/m);
      // the project lints and runs; the actor is proven only with the secret
      const second = recordedIO({ cwd: dir, env: { FLOW_SECRET_USER_TOKEN: TOKEN } });
      expect(await main(['calibrate', '--apply'], second.io)).toBe(0);
      expect(second.out()).toContain('add `actor: user`');
      expect(await read(dir, 'resources/me.yaml')).toContain('    actor: user\n');
      for (const text of [first.out(), second.out(), await read(dir, 'actors/user.yaml'), await read(dir, 'resources/me.yaml')])
        expect(text).not.toContain(TOKEN);
    } finally {
      await srv.close();
    }
  });

  it('a PATCH with no id in its path is a bulk change: it needs --destructive as well', async () => {
    const dir = await writeProject({
      'flow.yaml': 'version: 1\nname: bulk\nimports: [environments/*.yaml, resources/*.yaml]\n',
      'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: http://127.0.0.1:9\n',
      'resources/items.yaml':
        'name: item\noperations:\n  mark_all: { method: PATCH, path: /items, body: { done: true } }\n  rename: { method: PATCH, path: "/items/{{env.itemId}}", body: { name: x } }\n',
    });
    const rec = recordedIO({ cwd: dir });
    await main(['calibrate', '--writes', '--dry-run', '--var', 'itemId=1'], rec.io);
    expect(rec.out()).toMatch(/ 1\. item\.rename +PATCH +\/items\/\{\{env\.itemId\}\}\n/);
    expect(rec.out()).toContain('- item.mark_all: PATCH without an id in its path changes many items: needs --writes and --destructive');
  });
});
