// flow explore on a parent and its children (lists and their items), against a correct API:
// the items are created under lists the run really created (their ids from list.create, run
// first through the graph), nothing is found, and at the end every list and item the run
// created has been deleted, children first.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const lists = new Map<string, { id: string; name: string; items: Map<string, { id: string; title: string; list_id: string }> }>();
const log: string[] = [];
/** requests about items of a list that does not exist (an id not from a real create) */
let orphans = 0;
let next = 1;

function send(res: ServerResponse, status: number, body?: unknown) {
  if (body === undefined) res.writeHead(status).end();
  else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const text = (v: unknown, max: number) => typeof v === 'string' && [...v].length >= 1 && [...v].length <= max;

function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
  const m = /^\/lists(?:\/([^/]+)(?:\/items(?:\/([^/]+))?)?)?$/.exec(new URL(req.url!, 'http://x').pathname);
  if (!m) return send(res, 404, { error: 'no such path' });
  const [, lid, iid] = m;
  const onItems = req.url!.includes('/items');
  log.push(`${req.method} ${req.url}`);
  let body: Record<string, unknown> = {};
  try {
    if (raw) body = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return send(res, 400, { error: 'not JSON' });
  }
  if (!lid) {
    if (req.method !== 'POST') return send(res, 405, { error: 'no' });
    if (!body || typeof body !== 'object' || Array.isArray(body) || !text(body.name, 20)) return send(res, 400, { error: 'name' });
    const list = { id: `l${next++}`, name: body.name as string, items: new Map() };
    lists.set(list.id, list);
    return send(res, 201, { id: list.id, name: list.name });
  }
  const list = lists.get(lid);
  if (!list && onItems) orphans++;
  if (!list) return send(res, 404, { error: 'no such list' });
  if (!onItems) {
    if (req.method === 'GET') return send(res, 200, { id: list.id, name: list.name });
    if (req.method === 'DELETE') return (lists.delete(lid), send(res, 204));
    return send(res, 405, { error: 'no' });
  }
  if (!iid) {
    if (req.method !== 'POST') return send(res, 405, { error: 'no' });
    if (!body || typeof body !== 'object' || Array.isArray(body) || !text(body.title, 30)) return send(res, 400, { error: 'title' });
    const item = { id: `i${next++}`, title: body.title as string, list_id: lid };
    list.items.set(item.id, item);
    return send(res, 201, item);
  }
  const item = list.items.get(iid);
  if (!item) return send(res, 404, { error: 'no such item' });
  if (req.method === 'GET') return send(res, 200, item);
  if (req.method === 'DELETE') return (list.items.delete(iid), send(res, 204));
  return send(res, 405, { error: 'no' });
}

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
  req.on('end', () => handle(req, res, raw));
});

const errors = `'400': { description: invalid, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '404': { description: missing, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }`;
const OPENAPI = `openapi: 3.1.0
info: { title: lists, version: '1' }
paths:
  /lists:
    post:
      requestBody: { content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string, minLength: 1, maxLength: 20 } } } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/List' } } } }
        ${errors}
  /lists/{lid}:
    get:
      responses:
        '200': { description: the list, content: { application/json: { schema: { $ref: '#/components/schemas/List' } } } }
        ${errors}
    delete:
      responses:
        '204': { description: gone }
        ${errors}
  /lists/{lid}/items:
    post:
      requestBody: { content: { application/json: { schema: { type: object, required: [title], properties: { title: { type: string, minLength: 1, maxLength: 30 } } } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } } }
        ${errors}
  /lists/{lid}/items/{iid}:
    get:
      responses:
        '200': { description: the item, content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } } }
        ${errors}
    delete:
      responses:
        '204': { description: gone }
        ${errors}
components:
  schemas:
    List: { type: object, required: [id, name], properties: { id: { type: string }, name: { type: string } } }
    Item: { type: object, required: [id, title, list_id], properties: { id: { type: string }, title: { type: string }, list_id: { type: string } } }
    Error: { type: object, required: [error], properties: { error: { type: string } } }
`;

let url: string;
let dir: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await writeProject({
    'flow.yaml': 'version: 1\nname: lists\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n',
    'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
    'resources/lists.yaml': `name: list
operations:
  create: { method: POST, path: /lists, body: { name: groceries }, expect_status: 201, extract: { id: $.data.id } }
  get: { path: "/lists/{{list.id}}", expect_status: 200 }
  delete: { method: DELETE, path: "/lists/{{list.id}}", expect_status: 204 }
`,
    'resources/items.yaml': `name: item
operations:
  create: { method: POST, path: "/lists/{{list.id}}/items", body: { title: milk }, expect_status: 201, extract: { id: $.data.id } }
  get: { path: "/lists/{{list.id}}/items/{{item.id}}", expect_status: 200 }
  delete: { method: DELETE, path: "/lists/{{list.id}}/items/{{item.id}}", expect_status: 204 }
`,
    'openapi.yaml': OPENAPI,
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await cleanProjects();
});

it('explores a parent and its children: real parent ids, no finding on a correct API, everything it made deleted', async () => {
  const io = capturingIO({ cwd: dir, env: {} });
  // 2 rounds: what 3 s explored in a full test run (load 8)
  const code = await main(['explore', '--openapi', 'openapi.yaml', '--budget', '60', '--rounds', '2', '--seed', '3', '--var', `baseUrl=${url}`], io);
  expect(io.out, io.err).toMatch(/explore: 0 finding\(s\) in 2 resource\(s\) \(item, list\)/);
  expect(code).toBe(0);
  const itemCreates = log.filter((l) => /^POST \/lists\/[^/]+\/items$/.test(l));
  expect(itemCreates.length).toBeGreaterThan(3);
  // each went to a list the run had made and not deleted: its id came from list.create
  expect(orphans).toBe(0);
  expect(log.filter((l) => /^DELETE \/lists\/l\d+$/.test(l)).length).toBeGreaterThan(0);
  expect([...lists.keys()]).toEqual([]);
}, 90_000);
