// Rules R1–R7 of spec part 1, each pinned on a crafted input.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkEmitted } from '../../src/import/check/index.js';
import { importApi } from '../../src/import/index.js';
import { importInto } from '../../src/import/emit/into.js';
import { writeProject } from '../../src/import/emit/write.js';
import { loadProject } from '../../src/project/index.js';
import { lint } from '../../src/lint/index.js';
import { fileValue, importFixture, operation, tempDir, texts } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('R1: nothing invented', () => {
  it('emits only paths, fields and statuses of the input', async () => {
    const r = await importFixture(['petstore-links.oas30.yaml']);
    expect(r.findings).toEqual([]);
    // `name` is the only required field; its example is used, `id`/`tag` are not filled in.
    // a name in a create's body gets a run-unique part (test/import/rerun.test.ts)
    expect(operation(r, 'pet.create').body).toEqual({ name: 'Rex-{{$.uuid}}' });
    expect(operation(r, 'pet.create').expect_status).toBe(201);
  });
  it('the grounding check fails loudly on an invented path, field or status', async () => {
    const r = await importFixture(['petstore-links.oas30.yaml']);
    const file = r.files.find((f) => f.path === 'resources/pets.yaml')!;
    file.doc.setIn(['operations', 'create', 'body', 'nickname'], 'Rexy');
    file.doc.setIn(['operations', 'get', 'expect_status'], 418);
    file.doc.setIn(['operations', 'delete', 'path'], '/v1/animals/{{pet.id}}');
    const codes = checkEmitted(r.files, { api: r.api }).map((f) => `${f.code} ${f.where}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'E_IMPORT_UNGROUNDED operations.create.body.nickname',
        'E_IMPORT_UNGROUNDED operations.get.expect_status',
        'E_IMPORT_UNGROUNDED operations.delete.path',
      ]),
    );
  });
  it('omits expect_status when the input states only a default response', async () => {
    const r = await importFixture(['docs.md']);
    expect(operation(r, 'status.get')).not.toHaveProperty('expect_status');
  });
});

describe('R2 and R6: ungrounded means an open question, and what it blocks is skipped', () => {
  it('an unsupported OAuth2 flow is a question that blocks its operations', async () => {
    const r = await importFixture(['petstore-links.oas30.yaml']);
    expect(r.draft.questions).toHaveLength(1);
    expect(r.draft.questions[0].text).toMatch(/"code" \(OAuth2 flow authorizationCode/);
    expect(r.draft.questions[0].blocks).toEqual(['order.list']);
    expect(r.files.some((f) => f.path === 'resources/orders.yaml')).toBe(false);
    expect(r.plan).toMatch(/1\. Security scheme "code".*Blocks \(skipped until answered\): order\.list/);
  });
  it('a bulk change (DELETE, PUT or PATCH on a collection path) is a question, never an operation', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const ok = { responses: { 200: { description: 'ok' } } };
    const doc = {
      openapi: '3.0.3',
      info: { title: 'accounts', version: '1' },
      servers: [{ url: 'https://api.example.test' }],
      paths: {
        '/accounts': { get: ok, delete: ok, patch: ok },
        '/settings': { put: ok },
        '/accounts/{id}': { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], get: ok, delete: ok },
        // items are created under /sessions: DELETE empties it; /profile is one thing: PATCH changes it
        '/accounts/{id}/sessions': { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], post: ok, delete: ok },
        '/accounts/{id}/profile': { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], patch: ok },
      },
    };
    await writeFile(path.join(dir, 'accounts.json'), JSON.stringify(doc));
    const r = await importApi(['accounts.json'], { cwd: dir });
    const ops = Object.keys((parse(texts(r)['resources/accounts.yaml']) as { operations: object }).operations);
    expect(ops.sort()).toEqual(['delete', 'get', 'list', 'patch_profile']);
    expect(r.files.some((f) => f.path === 'resources/settings.yaml')).toBe(false);
    const bulk = r.draft.questions.filter((q) => /has no id of an item at its end/.test(q.text));
    expect(bulk.map((q) => q.text.split(' has')[0]).sort()).toEqual(['DELETE /accounts', 'DELETE /accounts/{id}/sessions', 'PATCH /accounts', 'PUT /settings']);
    expect(r.plan).toMatch(/DELETE \/accounts has no id of an item at its end: .*Blocks \(skipped until answered\): account\./);
    expect(r.plan).toMatch(/\| PATCH \| `\/accounts\/\{\{[\w.]+\}\}\/profile` \|/);
    expect(r.findings).toEqual([]);
  });
  it('a placeholder grounded by the path itself is allowed: /pets/{petId} needs a pet', async () => {
    const r = await importFixture(['petstore-links.oas30.yaml']);
    const ev = (operation(r, 'pet.get')._provenance as { evidence: Record<string, string> }).evidence;
    expect(ev['path.petId']).toMatch(/names a pet; pet\.create .* returns id/);
  });
});

describe('R3: keys omitted rather than filled', () => {
  it('no empty depends_on, actor, headers or body; actor omitted on public endpoints', async () => {
    for (const input of ['petstore-links.oas30.yaml', 'shop.postman_collection.json', 'capture.har', 'session.curl.md', 'docs.md']) {
      const r = await importFixture([input]);
      for (const [rel, text] of Object.entries(texts(r))) {
        expect(text, rel).not.toMatch(/depends_on: \[\]|actor: ""|actor: null|headers: \{\}|body: \{\}|query_params: \{\}|extract: \{\}/);
      }
    }
    const r = await importFixture(['petstore-links.oas30.yaml']);
    expect(operation(r, 'pet.list')).not.toHaveProperty('actor');
    expect(operation(r, 'pet.get')).not.toHaveProperty('depends_on');
  });
});

describe('R4: only the keys of spec part 2', () => {
  const KEYS = ['method', 'path', 'actor', 'depends_on', 'headers', 'query_params', 'body', 'body_form', 'expect_status', 'extract', '_provenance'];
  it('every emitted operation, actor and root uses spec keys only', async () => {
    const r = await importFixture(['shop.postman_collection.json']);
    for (const f of r.files) {
      const v = f.doc.toJS() as Record<string, unknown>;
      if (f.kind === 'resource')
        for (const op of Object.values(v.operations as Record<string, object>)) for (const k of Object.keys(op)) expect(KEYS).toContain(k);
      if (f.kind === 'actor') for (const k of Object.keys(v)) expect(['name', 'description', 'auth', 'session', 'inject']).toContain(k);
      if (f.kind === 'root') expect(Object.keys(v)).toEqual(['version', 'name', 'default_environment', 'imports']);
    }
  });
});

describe('R5: provenance on every operation', () => {
  it('source ai_import, evidence for each inference, verified_against synthetic', async () => {
    const r = await importFixture(['shop.postman_collection.json']);
    const ship = operation(r, 'order.ship_order')._provenance as Record<string, unknown>;
    expect(ship.source).toBe('ai_import');
    expect(ship.verified_against).toBe('synthetic');
    const ev = ship.evidence as Record<string, string>;
    expect(ev.operation).toMatch(/shop\.postman_collection\.json item "Orders \/ Ship Order"/);
    expect(ev['path.orderId']).toMatch(/stored from order\.id of "Create Order"/);
    expect(ev.actor).toBeDefined();
    const status = operation(r, 'order.order_status')._provenance as { evidence: Record<string, string> };
    expect(status.evidence.depends_on).toMatch(/runs #3 POST Ship Order .* before #4 GET Order Status .* on the same path/);
  });
});

describe('credentials', () => {
  it('never copies a token or password seen in traffic or a collection, and makes each a secret', async () => {
    const real = ['sk_live_REALTOKEN123456', 'hunter2-real-pw', 's3cret-Pa55'];
    for (const input of ['capture.har', 'shop.postman_collection.json', 'session.curl.md']) {
      const r = await importFixture([input]);
      expect(r.findings).toEqual([]);
      const all = Object.values(texts(r)).join('\n') + r.plan;
      for (const secret of real) expect(all).not.toContain(secret);
    }
    const shop = await importFixture(['shop.postman_collection.json']);
    expect((fileValue(shop, 'actors/jwt.yaml').auth as { body: unknown }).body).toEqual({ email: '{{env.EMAIL}}', password: '{{secret.JWT_PASSWORD}}' });
  });
  it('the leak check reports a credential copied into the output', async () => {
    const r = await importFixture(['capture.har']);
    r.files.find((f) => f.kind === 'resource')!.doc.setIn(['operations', 'get', 'headers'], { 'X-Token': 'sk_live_REALTOKEN123456' });
    expect(checkEmitted(r.files, { api: r.api }).map((f) => f.code)).toContain('E_IMPORT_SECRET_LEAK');
  });
});

describe('output', () => {
  it('exactly the plan sections of spec 1.6, in order; files in the order of spec 1.7; the result lints clean', async () => {
    const r = await importFixture(['petstore-links.oas30.yaml']);
    const headings = r.plan.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual(['## Actors', '## Resources and operations', '## Variable flow', '## Environment variables', '## Open questions']);
    expect(r.plan).toContain('| operation | method | path | actor | depends_on | expect_status | extracts |');
    expect(r.files.map((f) => f.kind)).toEqual(['root', 'environment', 'actor', 'resource']);
    expect(fileValue(r, 'environments/default.yaml').variables).toEqual({ baseUrl: 'https://api.example.test' });
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await writeProject(r.files, dir);
    const result = lint(await loadProject(dir));
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    await expect(writeProject(r.files, dir)).rejects.toMatchObject({ code: 'E_IMPORT_OUT_EXISTS' });
  });
});

describe('R7: --into edits files in place', () => {
  it('keeps comments, order and user values; adds only what is missing', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await mkdir(path.join(dir, 'resources'), { recursive: true });
    await writeFile(path.join(dir, 'flow.yaml'), '# my project\nversion: 1\nname: mine\nimports:\n  - resources/*.yaml\n');
    const mine = [
      '# hand-written, keep me',
      'name: pet',
      'operations:',
      '  fetch_all: # my name for the list',
      '    method: GET',
      '    path: /v1/pets',
      '    expect_status: 299 # my own value',
      '',
    ].join('\n');
    await writeFile(path.join(dir, 'resources/pets.yaml'), mine);
    const r = await importFixture(['petstore-links.oas30.yaml']);
    const report = await importInto(r.files, dir);
    const after = await readFile(path.join(dir, 'resources/pets.yaml'), 'utf8');
    expect(after.startsWith('# hand-written, keep me\nname: pet\noperations:\n  fetch_all:')).toBe(true);
    expect(after).toContain('  fetch_all: # my name for the list\n    method: GET\n');
    expect(after).toContain('expect_status: 299 # my own value');
    const v = parse(after) as { operations: Record<string, Record<string, unknown>> };
    expect(Object.keys(v.operations)).toEqual(['fetch_all', 'create', 'get', 'delete', 'adopt']);
    expect(v.operations.fetch_all).toEqual({ method: 'GET', path: '/v1/pets', expect_status: 299 });
    expect(report.kept).toEqual(["resources/pets.yaml: fetch_all is the user's name for the imported list"]);
    const root = await readFile(path.join(dir, 'flow.yaml'), 'utf8');
    expect(root).toMatch(/^# my project\nversion: 1\nname: mine\nimports:\n  - resources\/\*\.yaml\n  - environments\/\*\.yaml\n  - actors\/\*\.yaml\n/);
    expect(report.created).toEqual(['environments/default.yaml', 'actors/bearer_auth.yaml']);
    // A second import changes nothing: edits are additive and idempotent.
    const again = await importInto(r.files, dir);
    expect(again.edited).toEqual([]);
    expect(again.created).toEqual([]);
  });
  it('refuses a directory without a project', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const r = await importFixture(['docs.md']);
    await expect(importInto(r.files, dir)).rejects.toMatchObject({ code: 'E_IMPORT_INTO' });
  });
});

describe('a required list', () => {
  it('of plain values is sent with the example the description gives it', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const doc = {
      openapi: '3.0.3',
      info: { title: 'playground', version: '1' },
      servers: [{ url: 'https://api.example.test' }],
      paths: {
        '/evaluate': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['environments', 'context', 'rules'],
                    properties: {
                      environments: { type: 'array', items: { type: 'string' }, minItems: 1, example: ['development', 'production'] },
                      tags: { type: 'array', items: { type: 'string' }, example: ['optional'] },
                      // a list of objects: its example's keys are not fields of the input, so it is left out
                      rules: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } }, example: [{ a: 'x', b: 'y' }] },
                      context: { type: 'object', required: ['appName'], properties: { appName: { type: 'string', example: 'my-app' } } },
                    },
                  },
                },
              },
            },
            responses: { 200: { description: 'ok' } },
          },
        },
      },
    };
    await writeFile(path.join(dir, 'playground.json'), JSON.stringify(doc));
    const r = await importApi(['playground.json'], { cwd: dir });
    expect(r.findings).toEqual([]);
    const file = Object.entries(texts(r)).find(([rel]) => rel.startsWith('resources/'))![1];
    const op = Object.values((parse(file) as { operations: Record<string, { body?: unknown }> }).operations)[0];
    expect(op.body).toEqual({ environments: ['development', 'production'], context: { appName: 'my-app' } });
  });
});

describe('a login in the operations', () => {
  it("its user is a variable with the example as its default, not a run-unique name; a create's stays run-unique", async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const creds = (example: string) => ({
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['username', 'password'],
            properties: { username: { type: 'string', example }, password: { type: 'string', example: 'p4ss' } },
          },
        },
      },
    });
    const doc = {
      openapi: '3.0.3',
      info: { title: 'users', version: '1' },
      servers: [{ url: 'https://api.example.test' }],
      paths: {
        '/auth/simple/login': { post: { requestBody: creds('user'), responses: { 200: { description: 'ok' } } } },
        '/users': { post: { requestBody: creds('hunter'), responses: { 201: { description: 'ok' } } } },
      },
    };
    await writeFile(path.join(dir, 'users.json'), JSON.stringify(doc));
    const r = await importApi(['users.json'], { cwd: dir });
    expect(r.findings).toEqual([]);
    const all = Object.entries(texts(r));
    const bodies = all
      .filter(([rel]) => rel.startsWith('resources/'))
      .flatMap(([, text]) => Object.values((parse(text) as { operations: Record<string, { path: string; body?: Record<string, string> }> }).operations));
    expect(bodies.find((o) => o.path === '/auth/simple/login')?.body?.username).toBe('{{env.simple_username}}');
    expect(bodies.find((o) => o.path === '/users')?.body?.username).toBe('hunter-{{$.uuid}}');
    const env = all.find(([rel]) => rel.startsWith('environments/'))![1];
    expect(env).toMatch(/^ {2}simple_username: user # username that logs in with the password of POST \/auth\/simple\/login/m);
  });
});

describe('a path parameter with a name of its own', () => {
  it('where the paths of its shape name their item otherwise, names the same item', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const ok = (schema?: object) => ({ 200: { description: 'ok', ...(schema ? { content: { 'application/json': { schema } } } : {}) } });
    const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
    const doc = {
      openapi: '3.0.3',
      info: { title: 'flags', version: '1' },
      servers: [{ url: 'https://api.example.test' }],
      paths: {
        '/projects/{projectId}/features': {
          parameters: [param('projectId')],
          post: {
            requestBody: {
              content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', example: 'f' } } } } },
            },
            responses: {
              201: { description: 'made', content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } } },
            },
          },
        },
        '/projects/{projectId}/features/{featureName}': { parameters: [param('projectId'), param('featureName')], get: { responses: ok() } },
        '/projects/{projectId}/features/{child}/parents': { parameters: [param('projectId'), param('child')], get: { responses: ok() } },
        // another shape: its {child} names nothing the input makes
        '/projects/{projectId}/links/{child}': { parameters: [param('projectId'), param('child')], get: { responses: ok() } },
      },
    };
    await writeFile(path.join(dir, 'flags.json'), JSON.stringify(doc));
    const r = await importApi(['flags.json'], { cwd: dir });
    expect(r.findings).toEqual([]);
    const paths = Object.entries(texts(r))
      .filter(([rel]) => rel.startsWith('resources/'))
      .flatMap(([, text]) => Object.values((parse(text) as { operations: Record<string, { path: string }> }).operations).map((o) => o.path));
    expect(paths).toContain('/projects/{{env.project_id}}/features/{{feature.name}}/parents');
    expect(paths).toContain('/projects/{{env.project_id}}/links/{{env.child}}');
  });
});

describe("an id named after another resource's list", () => {
  it("`{projectId}` of a dashboard is the id of the items of its `projects` list, not of another list's", async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const items = (id: string) => ({ type: 'array', items: { type: 'object', properties: { id: { type: id } } } });
    const doc = {
      openapi: '3.0.3',
      info: { title: 'dash', version: '1' },
      servers: [{ url: 'https://api.example.test' }],
      paths: {
        '/dashboard': {
          get: {
            responses: {
              200: {
                description: 'ok',
                content: { 'application/json': { schema: { type: 'object', properties: { admins: items('integer'), projects: items('string') } } } },
              },
            },
          },
        },
        '/dashboard/{projectId}': {
          parameters: [{ name: 'projectId', in: 'path', required: true, schema: { type: 'string' } }],
          get: { responses: { 200: { description: 'ok' } } },
        },
      },
    };
    await writeFile(path.join(dir, 'dash.json'), JSON.stringify(doc));
    const r = await importApi(['dash.json'], { cwd: dir });
    expect(r.findings).toEqual([]);
    const file = Object.entries(texts(r)).find(([rel]) => rel.startsWith('resources/'))![1];
    const ops = (parse(file) as { operations: Record<string, { path: string; extract?: Record<string, string> }> }).operations;
    expect(Object.values(ops).find((o) => o.path === '/dashboard')?.extract).toEqual({ id: '$.data.projects[*].id' });
  });
});
