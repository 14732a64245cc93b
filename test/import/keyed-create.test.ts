// A create at a key the run chooses: `POST /applications/{appName}` ("Create an application",
// operationId createApplication, 202 with no body) is the only way to make an application, and
// `GET /applications` lists those the server has (`sdk-app`, registered by someone else). The
// import used to bind `{appName}` to that list, so the create and the DELETE were writes on the
// server's own application, skipped with E_NOT_OWNED. Now the create is the resource's create at a
// key the run draws (`application-{{$.uuid}}`, once per run), its GET and DELETE read the same key
// after it, the run checks the key is free first, and the clean-up removes what it made. A bare
// PUT (`PUT /buckets/{bucket}`, which nothing calls a create) stays a write on what the list gives.
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { isRunDrawn } from '../../src/graph/index.js';
import { importApi, type ImportResult } from '../../src/import/index.js';
import { jsonBody, ANSWERED, send, serveCrud, type CrudServer } from '../helpers/crud-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';
import { fileValue, operation } from './helpers.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const app = { type: 'object', properties: { appName: { type: 'string' }, description: { type: 'string' } } };
const list = (key: string, item: object) => json({ type: 'object', properties: { [key]: { type: 'array', items: item } } });

const DOC = {
  openapi: '3.0.3',
  info: { title: 'apps', version: '1' },
  servers: [{ url: 'http://127.0.0.1:4242' }],
  paths: {
    '/applications': { get: { operationId: 'getApplications', responses: { '200': { description: 'all', ...list('applications', app) } } } },
    '/applications/{appName}': {
      parameters: [param('appName')],
      post: {
        operationId: 'createApplication',
        summary: 'Create an application to connect to',
        requestBody: { required: true, ...json({ type: 'object', properties: { description: { type: 'string', example: 'demo' } } }) },
        responses: { '202': { description: 'This response has no body.' } },
      },
      get: { operationId: 'getApplication', responses: { '200': { description: 'one', ...json(app) }, '404': { description: 'none' } } },
      delete: { operationId: 'deleteApplication', responses: { '200': { description: 'This response has no body.' } } },
    },
    '/buckets': { get: { responses: { '200': { description: 'all', ...list('buckets', { type: 'object', properties: { name: { type: 'string' } } }) } } } },
    '/buckets/{bucketName}': {
      parameters: [param('bucketName')],
      put: { operationId: 'putBucket', summary: 'Write a bucket', responses: { '200': { description: 'written' } } },
    },
  },
};

interface Store {
  apps: Map<string, { description?: string }>;
  buckets: Set<string>;
  log: string[];
}

function handler(store: Store) {
  return (req: IncomingMessage, res: ServerResponse, text: string) => {
    // the create's body is optional: none is sent when the project gives none
    const b = (text === '' ? undefined : jsonBody(req, res, text)) as Record<string, unknown> | undefined | typeof ANSWERED;
    if (b === ANSWERED) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const seg = url.pathname.split('/').slice(1).map(decodeURIComponent);
    store.log.push(`${req.method} ${url.pathname}`);
    if (seg[0] === 'applications' && seg.length === 1 && req.method === 'GET')
      return send(res, 200, { applications: [...store.apps].map(([appName, a]) => ({ appName, ...a })) });
    if (seg[0] === 'applications' && seg.length === 2) {
      const name = seg[1];
      // create or update at that name: an upsert, as such servers do
      if (req.method === 'POST') return (store.apps.set(name, { description: String(b?.description ?? '') }), send(res, 202));
      const a = store.apps.get(name);
      if (req.method === 'GET') return a ? send(res, 200, { appName: name, ...a }) : send(res, 404, { error: 'no such application' });
      if (req.method === 'DELETE') return (store.apps.delete(name), send(res, 200));
    }
    if (seg[0] === 'buckets' && seg.length === 1) return send(res, 200, { buckets: [...store.buckets].map((name) => ({ name })) });
    if (seg[0] === 'buckets' && seg.length === 2 && req.method === 'PUT') return (store.buckets.add(seg[1]), send(res, 200));
    return send(res, 404, { error: 'no route' });
  };
}

let result: ImportResult;
let dir: string;
let server: CrudServer;
const store: Store = { apps: new Map(), buckets: new Set(), log: [] };

beforeAll(async () => {
  dir = await writeProject({ 'apps.json': JSON.stringify(DOC) });
  result = await importApi(['apps.json'], { cwd: dir });
  server = await serveCrud(handler(store));
  expect(await main(['import', 'apps.json', '--out', 'project'], recordedIO({ cwd: dir }).io)).toBe(0);
});
afterAll(async () => {
  await server.close();
  await cleanProjects();
});
beforeEach(() => {
  store.apps = new Map([['sdk-app', { description: 'registered by an SDK' }]]);
  store.buckets = new Set(['logs']);
  store.log = [];
});

/** `flow <command> …` on the imported project against the server; the JSON report's statuses. */
async function run(args: string[]): Promise<{ code: number; status: Record<string, string>; err: string }> {
  const rec = recordedIO({ cwd: dir });
  const code = await main([...args, '-p', path.join(dir, 'project'), '--reporter', 'json', '--var', `baseUrl=${server.url}`], rec.io);
  const report = JSON.parse(rec.out()) as { operations: Array<{ id: string; status: string }> };
  return { code, status: Object.fromEntries(report.operations.map((o) => [o.id, o.status])), err: rec.err() };
}

/** Every write the server received on a name it had before the run. */
const onTheServers = (log: readonly string[]) => log.filter((l) => !l.startsWith('GET') && /\/(sdk-app|logs)$/.test(l));

describe('the import: a create at a key the run draws', () => {
  it('makes the item-path POST that the description calls a create the resource’s create, at a drawn key its GET and DELETE read after it', () => {
    const create = operation(result, 'application.create');
    expect(create).toMatchObject({ method: 'POST', path: '/applications/{{env.application_app_name}}', expect_status: 202 });
    expect((create._provenance as { evidence: Record<string, string> }).evidence.create).toMatch(
      /makes the application at the \{appName\} its path ends with \(operationId createApplication\), and the input has no POST on the collection/,
    );
    for (const id of ['application.get', 'application.delete']) {
      expect(operation(result, id)).toMatchObject({ path: '/applications/{{env.application_app_name}}', depends_on: ['application.create'] });
    }
    const vars = (fileValue(result, 'environments/default.yaml') as { variables: Record<string, unknown> }).variables;
    expect(vars.application_app_name).toBe('application-{{$.uuid}}');
    expect(isRunDrawn(vars.application_app_name)).toBe(true);
    expect(result.plan).toContain(
      'application.create (POST /applications/{appName}) is a create at a key: the input calls it one (operationId createApplication)',
    );
    expect(result.findings).toEqual([]);
  });

  it('only text and {{$.uuid}} make a key the run draws: anything else is rendered at each use, or is the user’s', () => {
    for (const v of ['bucket-{{$.uuid}}', "{{$.uuid}}{{'-x'}}", '{{ $.uuid }}']) expect(isRunDrawn(v), v).toBe(true);
    for (const v of ['bucket', '{{$.faker.email}}', '{{$.uuid}}-{{env.x}}', '{{$.uuid}}-{{secret.X}}', '{{item.id}}-{{$.uuid}}', '{{$.uuid', 42, null])
      expect(isRunDrawn(v), String(v)).toBe(false);
  });

  it('a bare PUT that nothing calls a create stays a write on what the list gives', () => {
    expect(operation(result, 'bucket.update').path).toBe('/buckets/{{bucket.name}}');
  });
});

describe('running it', () => {
  it('flow run --all: the create, its GET and its DELETE pass on the run’s own application; the server’s own are not written to', async () => {
    const { status, err } = await run(['run', '--all']);
    expect(status, err).toMatchObject({ 'application.create': 'passed', 'application.get': 'passed', 'application.delete': 'passed' });
    // the bare PUT would write to the server's bucket: not sent
    expect(status['bucket.update']).toBe('skipped');
    const made = store.log.find((l) => l.startsWith('POST /applications/'))!;
    const at = made.slice('POST '.length);
    expect(at).toMatch(/^\/applications\/application-[0-9a-f-]{36}$/);
    // the key was read first and found free, then written, read and deleted: one key for the whole run
    expect(store.log.filter((l) => l.endsWith(at))).toEqual([`GET ${at}`, `POST ${at}`, `GET ${at}`, `DELETE ${at}`, `GET ${at}`]);
    expect(onTheServers(store.log)).toEqual([]);
    expect([...store.apps.keys()]).toEqual(['sdk-app']);
    expect([...store.buckets]).toEqual(['logs']);
  }, 60_000);

  it('the clean-up removes what the create made when the run does not delete it', async () => {
    const { status, err } = await run(['run', 'application.get']);
    expect(status, err).toMatchObject({ 'application.create': 'passed', 'application.get': 'passed' });
    const at = store.log.find((l) => l.startsWith('POST /applications/'))!.slice('POST '.length);
    expect(store.log).toContain(`DELETE ${at}`);
    expect([...store.apps.keys()]).toEqual(['sdk-app']);
  }, 60_000);

  it('a key the user gives that exists is not written (E_NOT_OWNED); one that is free is written and removed after', async () => {
    const taken = await run(['run', 'application.create', '--var', 'application_app_name=sdk-app']);
    expect(taken.status['application.create']).toBe('skipped');
    expect(taken.err).toContain('E_NOT_OWNED');
    expect(onTheServers(store.log)).toEqual([]);
    expect(store.apps.get('sdk-app')).toEqual({ description: 'registered by an SDK' });
    const free = await run(['run', 'application.create', '--var', 'application_app_name=mine']);
    expect(free.status['application.create'], free.err).toBe('passed');
    expect(store.log.filter((l) => l.endsWith('/mine'))).toEqual([
      'GET /applications/mine',
      'POST /applications/mine',
      'DELETE /applications/mine',
      'GET /applications/mine',
    ]);
    expect([...store.apps.keys()]).toEqual(['sdk-app']);
  }, 60_000);

  it('flow calibrate sends the create, its GET and its DELETE, and leaves the server as it found it', async () => {
    const rec = recordedIO({ cwd: dir });
    await main(['calibrate', '-p', path.join(dir, 'project'), '--writes', '--destructive', '--var', `baseUrl=${server.url}`], rec.io);
    const passed = rec.out().split('## Passed')[1] ?? '';
    for (const id of ['application.create', 'application.get', 'application.delete']) expect(passed, rec.out()).toContain(`- ${id}: `);
    expect(onTheServers(store.log)).toEqual([]);
    expect([...store.apps.keys()]).toEqual(['sdk-app']);
  }, 60_000);
});
