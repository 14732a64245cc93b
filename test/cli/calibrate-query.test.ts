// What a 400 asks for that the request does not hold yet, as a feature-flag server answers it:
// a read that wants an optional query parameter the description declares (`?projectId=`, a
// bare 400 without it), and a write whose body list is named after a resource (`environments`:
// `[]` is refused, the run's own environment is taken). Calibrate tries each with a value from
// this run, proposes it once a 2xx proves it, and a run is green after --apply.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { jsonBody, send, serveCrud, ANSWERED, type CrudServer } from '../helpers/crud-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

const ENVIRONMENTS = ['development', 'production'];
/** feature name -> the environments its variants were pushed to */
const features = new Map<string, string[]>();
/** every feature a run created: a write acts only on those */
const created = new Set<string>();
/** `METHOD path?query` of every request */
const sent: string[] = [];
let api: CrudServer;

beforeAll(async () => {
  api = await serveCrud((req, res, text) => {
    const url = new URL(req.url ?? '/', 'http://x');
    sent.push(`${req.method} ${url.pathname}${url.search}`);
    const parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
    if (req.method === 'GET' && url.pathname === '/projects') return send(res, 200, { projects: [{ id: 'default' }, { id: 'other' }] });
    // the roles of the caller in one project: a bare 400 without one, as the server answers it
    if (req.method === 'GET' && url.pathname === '/user/roles') {
      const project = url.searchParams.get('projectId');
      if (!project) return send(res, 400);
      return project === 'default' || project === 'other' ? send(res, 200, { roles: [{ name: 'Owner' }] }) : send(res, 404, { message: 'no such project' });
    }
    // the same, for a user only: a token has none, and the server fails on it once it gets that far
    if (req.method === 'GET' && url.pathname === '/user/project-roles') {
      if (!url.searchParams.get('projectId')) return send(res, 400);
      return req.headers['x-user'] ? send(res, 200, { roles: [] }) : send(res, 500, { message: 'User id is missing' });
    }
    if (req.method === 'GET' && url.pathname === '/environments') return send(res, 200, { environments: ENVIRONMENTS.map((name) => ({ name })) });
    if ((req.method === 'PUT' || req.method === 'POST') && !/^application\/json/.test(String(req.headers['content-type'] ?? '')))
      return send(res, 415, { name: 'ContentTypeError', message: "We do not accept the content-type you provided (you didn't provide one)." });
    const body = jsonBody(req, res, text);
    if (body === ANSWERED) return;
    if (req.method === 'POST' && url.pathname === '/features') {
      const name = `f-${created.size + 1}`;
      created.add(name);
      features.set(name, []);
      return send(res, 201, { name });
    }
    if (req.method === 'DELETE' && parts[0] === 'features' && parts.length === 2) return send(res, features.delete(parts[1]) ? 204 : 404);
    if (req.method === 'PUT' && parts[0] === 'features' && parts[2] === 'variants-batch' && parts.length === 3) {
      if (!features.has(parts[1])) return send(res, 404, { message: 'no such feature' });
      const { environments } = (body ?? {}) as { environments?: unknown };
      // as the server says it: a sentence naming the field, the same for a missing list and an empty one
      if (!Array.isArray(environments) || !environments.length)
        return send(res, 400, { name: 'BadDataError', message: 'Request validation failed', details: [{ message: 'No environments provided' }] });
      if (!environments.every((e) => ENVIRONMENTS.includes(String(e)))) return send(res, 404, { message: 'no such environment' });
      features.set(parts[1], environments.map(String));
      return send(res, 200, { version: 1, variants: [] });
    }
    send(res, 404, { message: 'no route' });
  });
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

const OPENAPI = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'flags', version: '1' },
  paths: {
    '/user/roles': {
      get: {
        parameters: [
          // declared first, and no help: tried, not proposed
          { name: 'limit', in: 'query', schema: { type: 'integer', example: 10 } },
          // nothing to send: no example, enum or default, and no resource of that name
          { name: 'q', in: 'query', schema: { type: 'string' } },
          { $ref: '#/components/parameters/projectId' },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/user/project-roles': { get: { parameters: [{ $ref: '#/components/parameters/projectId' }], responses: { '200': { description: 'ok' } } } },
    '/features/{name}/variants-batch': {
      put: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { variants: { type: 'array', items: { type: 'object' } }, environments: { type: 'array', items: { type: 'string' } } },
              },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: { parameters: { projectId: { name: 'projectId', in: 'query', description: 'the project', schema: { type: 'string' } } } },
});

const FILES = {
  'flow.yaml': 'version: 1\nname: flags\nimports: [environments/*.yaml, actors/*.yaml, resources/*.yaml]\n',
  'openapi.json': OPENAPI,
  'resources/projects.yaml': 'name: project\noperations:\n  list: { path: /projects, expect_status: 200, extract: { id: "$.data.projects[*].id" } }\n',
  'resources/roles.yaml': [
    'name: role',
    'operations:',
    '  list: { path: /user/roles, expect_status: 200 }',
    '  list_of_project: { path: /user/project-roles, actor: token, expect_status: 200 }',
    '',
  ].join('\n'),
  'actors/token.yaml': 'name: token\ninject: { headers: { x-key: t1 } }\n',
  'actors/user.yaml': 'name: user\ninject: { headers: { x-user: alice } }\n',
  'resources/environments.yaml':
    'name: environment\noperations:\n  list: { path: /environments, expect_status: 200, extract: { name: "$.data.environments[*].name" } }\n',
  'resources/features.yaml': [
    'name: feature',
    'operations:',
    '  create: { method: POST, path: /features, body: { note: x }, expect_status: 201, extract: { name: $.data.name } }',
    '  put_variants_batch: { method: PUT, path: "/features/{{feature.name}}/variants-batch", expect_status: 200 }',
    '  delete: { method: DELETE, path: "/features/{{feature.name}}", expect_status: 204 }',
    '',
  ].join('\n'),
};

async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd, env: {} });
  const code = await main([...args, '--var', `baseUrl=${api.url}`], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

it('a bare 400 to a read: the query parameter the description declares, valued from this run, proposed once a 2xx proves it', async () => {
  const dir = await writeProject({ ...FILES, 'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n' });
  const from = sent.length;
  const r = await flow(dir, ['calibrate', 'role.list', '--apply', '--openapi', 'openapi.json']);
  expect(r.stderr).not.toMatch(/E_INTERNAL/);
  expect(r.stdout).toContain('add `query_params.projectId: "{{project.id}}"`');
  expect(r.stdout).toMatch(
    /answered 400 naming no field, and the description declares query parameter\(s\) not sent: with \?projectId=\{\{project\.id\}\}; then 200/,
  );
  // tried alone, in the description's order; the one that is no help is not proposed, the one with no value not sent
  const tries = sent.slice(from).filter((s) => s.startsWith('GET /user/roles'));
  expect(tries.slice(0, 2)).toEqual(['GET /user/roles', 'GET /user/roles?limit=10']);
  // the try, then the next round with the edit: a project the list gave, each time
  expect(tries.slice(2)).toEqual([expect.stringMatching(/^GET \/user\/roles\?projectId=(default|other)$/), expect.stringMatching(/projectId=/)]);
  expect(r.stdout).not.toContain('query_params.limit');
  expect(await readFile(path.join(dir, 'resources/roles.yaml'), 'utf8')).toMatch(/query_params: \{ projectId: "\{\{project\.id\}\}" \}/);
  expect((await flow(dir, ['run', 'role.list'])).stdout).toMatch(/^2 passed, 0 failed/m);

  // without --openapi, the description the project keeps (as flow import does) is read
  const kept = await writeProject({ ...FILES, 'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n' });
  const k = await flow(kept, ['calibrate', 'role.list']);
  expect(k.stdout).toContain('Description read: `openapi.json`, the one the project keeps (flow import kept it');
  expect(k.stdout).toContain('add `query_params.projectId: "{{project.id}}"`');

  // without a description nothing is declared: the 400 stays a question
  const { 'openapi.json': _, ...noDescription } = FILES;
  const bare = await writeProject({ ...noDescription, 'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n' });
  const q = await flow(bare, ['calibrate', 'role.list']);
  expect(q.stdout).not.toContain('Description read');
  expect(q.stdout).toContain('**role.list**: the server answered 400 without naming a missing field');
}, 60_000);

it("a 400 naming a body list named after a resource, `[]` refused: the run's own one, on the run's own feature", async () => {
  const dir = await writeProject({ ...FILES, 'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n' });
  const r = await flow(dir, ['calibrate', 'feature.put_variants_batch', '--writes', '--destructive', '--apply', '--openapi', 'openapi.json']);
  expect(r.stderr).not.toMatch(/E_INTERNAL/);
  expect(r.stdout).toMatch(
    /answered 415 to a PUT without a body; answered 400 naming `environments`; answered 400 naming `environments` again, named after a resource of the project; then 200/,
  );
  expect(r.stdout).toContain('add `body.environments: ["{{environment.name}}"]`');
  expect(r.stdout).toContain('## Open questions\n\nNone.');
  // every push went to a feature this run created, and each was deleted after
  const pushed = sent.filter((s) => s.startsWith('PUT /features/')).map((s) => s.split('/')[2]);
  expect(pushed.length).toBeGreaterThan(0);
  expect(pushed.every((f) => created.has(f))).toBe(true);
  expect([...features.keys()]).toEqual([]);
  const run = await flow(dir, ['run', 'feature.put_variants_batch']);
  expect(run.stdout).toMatch(/^3 passed, 0 failed/m);
  expect([...features.keys()]).toEqual([]);
}, 60_000);

it('a 5xx once the query parameter is sent: the search goes on as the other actors, and proposes both once one passes', async () => {
  const dir = await writeProject({ ...FILES, 'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n' });
  const r = await flow(dir, ['calibrate', 'role.list_of_project', '--apply', '--openapi', 'openapi.json']);
  expect(r.stderr).not.toMatch(/E_INTERNAL/);
  expect(r.stdout).toMatch(
    /answered 500 as token \(answered 400 naming no field, and the description declares query parameter\(s\) not sent: 500 with \?projectId=\{\{project\.id\}\}\), and 200 as user; as token in the same try, 500/,
  );
  expect(r.stdout).toContain('add `query_params.projectId: "{{project.id}}"`');
  expect(r.stdout).toContain('add `actor: user`');
  expect((await flow(dir, ['run', 'role.list_of_project'])).stdout).toMatch(/^2 passed, 0 failed/m);
}, 60_000);
