// A tasks API (node:http, port 0) whose `priority` is `minimum: 1, maximum: 5` in its
// description but which accepts 0 and 6 (`fixed: true`: it refuses them). Everything else it
// checks strictly, so the one E_ACCEPTS_INVALID it can give is the off-by-one bound. Every
// request is logged, body included, in order.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANSWERED, chars, jsonBody, send, serveCrud } from './crud-api.js';

export interface TasksApi {
  url: string;
  /** every request, `METHOD /path body`, in order */
  log: string[];
  close(): Promise<void>;
}

/** Why `b` is not a task to create; undefined when it is one. */
function invalid(b: unknown, fixed: boolean): string | undefined {
  if (!b || typeof b !== 'object' || Array.isArray(b)) return 'the body must be an object';
  const t = b as Record<string, unknown>;
  if (typeof t.title !== 'string' || chars(t.title) < 1 || chars(t.title) > 40) return 'title: 1 to 40 characters';
  const p = t.priority;
  if (typeof p !== 'number' || !Number.isInteger(p) || p < (fixed ? 1 : 0) || p > (fixed ? 5 : 6)) return 'priority: 1 to 5';
  if ('ref' in t && typeof t.ref !== 'string') return 'ref: a string';
  for (const k of Object.keys(t)) if (!['title', 'priority', 'ref'].includes(k)) return `${k}: unknown`;
  return undefined;
}

export async function startTasksApi({ fixed }: { fixed: boolean }): Promise<TasksApi> {
  const tasks = new Map<string, Record<string, unknown>>();
  const log: string[] = [];
  let next = 1;
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const url = new URL(req.url ?? '/', 'http://x');
    log.push(`${req.method} ${url.pathname}${url.search} ${text}`);
    const m = /^\/tasks(?:\/([^/]+))?$/.exec(url.pathname);
    if (/^\/reports\//.test(url.pathname) && req.method === 'GET') return send(res, 200, { ok: true });
    if (!m) return send(res, 404, { error: 'no such path' });
    const id = m[1];
    if (!id && req.method === 'GET') return send(res, 200, { tasks: [...tasks.values()] });
    if (!id && req.method === 'POST') {
      const body = jsonBody(req, res, text);
      if (body === ANSWERED) return;
      const why = invalid(body, fixed);
      if (why) return send(res, 400, { error: why });
      const task = { ...(body as Record<string, unknown>), id: `t${next++}` };
      tasks.set(task.id, task);
      return send(res, 201, task);
    }
    const task = id ? tasks.get(id) : undefined;
    if (!task) return send(res, 404, { error: 'no such task' });
    if (req.method === 'GET') return send(res, 200, task);
    if (req.method === 'DELETE') {
      tasks.delete(id);
      return send(res, 204);
    }
    return send(res, 405, { error: 'method not allowed' });
  };
  return { ...(await serveCrud(handle)), log };
}

const json = (schema: string) => `{ application/json: { schema: { $ref: '#/components/schemas/${schema}' } } }`;

const TASKS_OPENAPI = `openapi: 3.0.3
info: { title: tasks, version: '1' }
paths:
  /tasks:
    get:
      responses:
        '200': { description: the tasks, content: ${json('Any')} }
    post:
      requestBody: { required: true, content: ${json('TaskInput')} }
      responses:
        '201': { description: created, content: ${json('Task')} }
        '400': { description: invalid, content: ${json('Any')} }
  /tasks/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200': { description: the task, content: ${json('Task')} }
        '404': { description: no such task, content: ${json('Any')} }
    delete:
      responses:
        '204': { description: deleted }
        '404': { description: no such task, content: ${json('Any')} }
  /reports/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200': { description: a report, content: ${json('Any')} }
components:
  schemas:
    Any: { type: object }
    TaskInput:
      type: object
      required: [title, priority]
      additionalProperties: false
      properties:
        title: { type: string, minLength: 1, maxLength: 40 }
        priority: { type: integer, minimum: 1, maximum: 5 }
        ref: { type: string }
    Task:
      type: object
      required: [id, title, priority]
      properties:
        id: { type: string }
        title: { type: string }
        priority: { type: integer }
        ref: { type: string }
`;

/**
 * The happy path. Its create writes `{{$.faker.word}}` and `{{$.uuid}}` (explore keeps them as
 * written and the runner renders them); `report.get` needs `record_id`, a <SET_VIA_--var>.
 */
export const TASKS_PROJECT: Record<string, string> = {
  'flow.yaml': 'version: 1\nname: tasks\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n',
  // record_id: only report.get needs it
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n  record_id: <SET_VIA_--var>\n',
  'resources/tasks.yaml': `name: task
operations:
  create:
    method: POST
    path: /tasks
    body: { title: "{{$.faker.word}}", ref: "{{$.uuid}}", priority: 3 }
    expect_status: 201
    extract: { id: $.data.id }
  get:
    path: /tasks/{{task.id}}
    expect_status: 200
  list:
    path: /tasks
    expect_status: 200
  delete:
    method: DELETE
    path: /tasks/{{task.id}}
    depends_on: [task.get]
    expect_status: 204
`,
  'resources/reports.yaml': `name: report
operations:
  get:
    path: /reports/{{env.record_id}}
    expect_status: 200
`,
  'openapi.yaml': TASKS_OPENAPI,
};
