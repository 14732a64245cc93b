// An API that departs from its own description (the project in DRIFT_FILES) in each way
// `flow calibrate` can prove: DELETE answers 204 where 200 is described; a created item comes
// back as one object where a list was described ($.data.data[*].id finds nothing); it wants
// `Authorization: Bearer <token>` where the description injects the raw token (a raw token is
// anonymous: 403); GET /items/:id needs a login the description does not mark, and a missing
// item is 403 where 404 is described; POST /notes
// answers 422 naming a required field the description leaves out.
import { randomUUID } from 'node:crypto';
import { json, startServer, type TestServer } from './http-server.js';
import { writeProject } from './project.js';

export const DRIFT_PASSWORD = 'pw-drift-7c1f0a';

export interface DriftingApi extends TestServer {
  /** the login token the server issued last (must appear in no output) */
  tokens: string[];
  /** `METHOD path` of every request, in order */
  log(): string[];
}

export async function startDriftingApi(): Promise<DriftingApi> {
  const tokens: string[] = [];
  const items = new Map<number, { id: number; name: string }>();
  let next = 1;
  const authed = (h: string | undefined) => h !== undefined && /^Bearer /.test(h) && tokens.includes(h.slice(7));
  const srv = await startServer({
    'POST /login': (req, res) => {
      const body = req.json() as { user?: string; password?: string };
      if (body.password !== DRIFT_PASSWORD) return json(res, 401, { error: 'bad credentials' });
      const token = `tok-${randomUUID()}`;
      tokens.push(token);
      // expires in milliseconds (the description's example says seconds): not calibrate's to prove
      json(res, 200, { token, expires: 3_600_000 });
    },
    'GET /items': (_req, res) => json(res, 200, { data: [...items.values()] }),
    'POST /items': (req, res) => {
      if (!authed(req.headers.authorization)) return json(res, 403, { error: 'forbidden' });
      const item = { id: next++, name: String((req.json() as { name?: string }).name ?? '') };
      items.set(item.id, item);
      json(res, 201, { data: item });
    },
    'POST /notes': (req, res) => {
      if (!authed(req.headers.authorization)) return json(res, 403, { error: 'forbidden' });
      const body = req.json() as { title?: string };
      if (!body.title) {
        return json(res, 422, {
          error: {
            statusCode: 422,
            code: 'VALIDATION_FAILED',
            details: [{ path: '', code: 'required', message: "must have required property 'title'", info: { missingProperty: 'title' } }],
          },
        });
      }
      json(res, 201, { data: { id: next++, title: body.title } });
    },
    '*': (req, res) => {
      const m = /^\/items\/(\d+)$/.exec(req.path);
      if (!m) return json(res, 404, { error: 'no route' });
      if (!authed(req.headers.authorization)) return json(res, 401, { error: 'login required' });
      const item = items.get(Number(m[1]));
      if (req.method === 'GET') return item ? json(res, 200, { data: item }) : json(res, 403, { error: 'forbidden' });
      if (req.method === 'DELETE') {
        items.delete(Number(m[1]));
        res.writeHead(204).end();
        return;
      }
      json(res, 405, { error: 'method not allowed' });
    },
  });
  return Object.assign(srv, { tokens, log: () => srv.requests.map((r) => `${r.method} ${r.path}`) });
}

/** The project as the description has it (each departure above is in here). */
export const DRIFT_FILES: Record<string, string> = {
  'flow.yaml': 'version: 1\nname: drift\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n  password: !secret DRIFT_PW\n',
  'actors/admin.yaml': [
    '# the description: an API key in Authorization',
    'name: admin',
    'auth:',
    '  strategy: simple',
    '  method: POST',
    '  path: /login',
    '  body: { user: admin, password: "{{env.password}}" }',
    '  extract:',
    '    token: $.data.token',
    'inject:',
    '  headers:',
    '    Authorization: "{{admin.token}}" # the raw key, as described',
    '',
  ].join('\n'),
  'resources/items.yaml': [
    '# items, as the description has them',
    'name: item',
    'operations:',
    '  list:',
    '    path: /items',
    '  create:',
    '    method: POST',
    '    path: /items',
    '    actor: admin',
    '    body: { name: widget }',
    '    expect_status: 201',
    '    extract:',
    '      id: "$.data.data[*].id" # described as a list',
    '  get:',
    '    path: /items/{{item.id}}',
    '    expect_status: 200',
    '  missing:',
    '    path: /items/0',
    '    actor: admin',
    '    expect_status: 404 # documented; the server says 403',
    '  delete:',
    '    method: DELETE',
    '    path: /items/{{item.id}}',
    '    actor: admin',
    '    expect_status: 200 # documented',
    '',
  ].join('\n'),
  'resources/notes.yaml': [
    'name: note',
    'operations:',
    '  create:',
    '    method: POST',
    '    path: /notes',
    '    actor: admin',
    '    body: { text: hello }',
    '    expect_status: 201',
    '',
  ].join('\n'),
};

export function driftProject(): Promise<string> {
  return writeProject(DRIFT_FILES);
}
