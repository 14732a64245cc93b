// A projects API (node:http, port 0) for explore's seam tests: a login (counted), projects
// with create, read, list, update and delete, and what makes explore's trust hard:
//   - `shared`, a project the run did not create, listed last and renamed by another writer
//     on every request (a sequence that wrote to it would read another's name back);
//   - a planted bug that reproduces: a project named "" reads 500;
//   - with `flakyOnce`, the first PATCH answers 500 and never again (a hiccup, not a bug),
//     and the planted bug is gone; with `flakyHalf`, every other PATCH answers 500 (a server
//     that fails at random, as a real storage service's health check did), the bug gone too.
import { json, startServer, type TestServer } from './http-server.js';

export const PROJECTS_PW = 'pr0jects-pw-s3cret';

export interface ProjectsApi extends TestServer {
  projects: Map<string, { id: string; name: string }>;
}

export async function startProjectsApi(options: { flakyOnce?: boolean; flakyHalf?: boolean; status?: number } = {}): Promise<ProjectsApi> {
  const projects = new Map<string, { id: string; name: string }>([['shared', { id: 'shared', name: 'theirs' }]]);
  let next = 1;
  let renamed = 0;
  let flaky = options.flakyOnce ?? false;
  let patches = 0;
  const srv = await startServer({
    'POST /login': (req, res) => {
      const body = req.json() as { password?: string };
      if (body.password !== PROJECTS_PW) return json(res, 401, { error: 'bad password' });
      json(res, 200, { token: 'tok-projects' });
    },
    '*': (req, res) => {
      // another writer, at work all the time on the project it owns
      projects.get('shared')!.name = `renamed ${++renamed}`;
      if (options.status) return json(res, options.status, { error: 'no' });
      if (req.headers.authorization !== 'Bearer tok-projects') return json(res, 401, { error: 'unauthorized' });
      let body: { name?: unknown } = {};
      if (req.method === 'POST' || req.method === 'PATCH') {
        const parsed = (() => {
          try {
            return req.json();
          } catch {
            return undefined;
          }
        })();
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return json(res, 400, { error: 'the body must be an object' });
        body = parsed;
      }
      if (req.path === '/projects') {
        if (req.method === 'GET') return json(res, 200, { data: [...projects.values()].filter((p) => p.id !== 'shared').concat(projects.get('shared')!) });
        if (typeof body.name !== 'string' || body.name.length > 20) return json(res, 400, { error: 'name: a string of at most 20 characters' });
        const p = { id: `p${next++}`, name: body.name };
        projects.set(p.id, p);
        return json(res, 201, p);
      }
      const m = /^\/projects\/([^/]+)$/.exec(req.path);
      const p = m && projects.get(decodeURIComponent(m[1]));
      if (!p) return json(res, 404, { error: 'no such project' });
      if (req.method === 'GET') return p.name === '' && !options.flakyOnce && !options.flakyHalf ? json(res, 500, { error: 'empty name' }) : json(res, 200, p);
      if (req.method === 'DELETE') {
        projects.delete(p.id);
        return void res.writeHead(204).end();
      }
      if (flaky) {
        flaky = false;
        return json(res, 500, { error: 'a hiccup' });
      }
      if (options.flakyHalf && patches++ % 2 === 0) return json(res, 500, { error: 'one in two' });
      if ('name' in body && (typeof body.name !== 'string' || body.name.length > 20)) return json(res, 400, { error: 'name: a string' });
      if (typeof body.name === 'string') p.name = body.name;
      return json(res, 200, p);
    },
  });
  return Object.assign(srv, { projects });
}

const ref = (s: string) => `{ application/json: { schema: { $ref: '#/components/schemas/${s}' } } }`;

const PROJECTS_OPENAPI = `openapi: 3.0.3
info: { title: projects, version: '1' }
paths:
  /projects:
    get:
      responses:
        '200': { description: all, content: ${ref('Page')} }
    post:
      requestBody: { required: true, content: ${ref('Input')} }
      responses:
        '201': { description: created, content: ${ref('Project')} }
        '400': { description: invalid, content: ${ref('Error')} }
  /projects/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200': { description: the project, content: ${ref('Project')} }
        '404': { description: none, content: ${ref('Error')} }
    patch:
      requestBody: { required: true, content: ${ref('Patch')} }
      responses:
        '200': { description: updated, content: ${ref('Project')} }
        '400': { description: invalid, content: ${ref('Error')} }
        '404': { description: none, content: ${ref('Error')} }
    delete:
      responses:
        '204': { description: deleted }
        '404': { description: none, content: ${ref('Error')} }
components:
  schemas:
    Input:
      type: object
      required: [name]
      properties: { name: { type: string, maxLength: 20 } }
    Patch:
      type: object
      properties: { name: { type: string, maxLength: 20 } }
    Project:
      type: object
      required: [id, name]
      properties: { id: { type: string }, name: { type: string } }
    Page:
      type: object
      required: [data]
      properties: { data: { type: array, items: { $ref: '#/components/schemas/Project' } } }
    Error:
      type: object
      required: [error]
      properties: { error: { type: string } }
`;

/** The happy path; its list extracts every project's id (so a list hands on instances the run did not make). */
export const PROJECTS_PROJECT: Record<string, string> = {
  'flow.yaml': 'version: 1\nname: projects\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n  password: !secret PROJECTS_PW\n',
  'actors/user.yaml': [
    'name: user',
    'auth:',
    '  strategy: simple',
    '  method: POST',
    '  path: /login',
    '  body: { password: "{{env.password}}" }',
    '  extract: { token: $.data.token }',
    'inject:',
    '  headers: { Authorization: "Bearer {{user.token}}" }',
    '',
  ].join('\n'),
  'resources/projects.yaml': `name: project
operations:
  create:
    method: POST
    path: /projects
    actor: user
    body: { name: first }
    expect_status: 201
    extract: { id: $.data.id }
  get:
    path: /projects/{{project.id}}
    actor: user
  list:
    path: /projects
    actor: user
    extract: { id: "$.data.data[*].id" }
  update:
    method: PATCH
    path: /projects/{{project.id}}
    actor: user
    body: { name: second }
  delete:
    method: DELETE
    path: /projects/{{project.id}}
    actor: user
    expect_status: 204
`,
  'openapi.yaml': PROJECTS_OPENAPI,
};
