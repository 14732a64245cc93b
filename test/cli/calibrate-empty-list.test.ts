// A fresh server's lists are empty: a read whose id a list extracts (`{{thing.name_2}}` from
// `GET /client/things`) fails with E_VAR_UNRESOLVED when the list runs before the create of its
// resource. `flow run` says the list found nothing and what runs a create first; `flow calibrate
// --writes` tries the list after the create and, when it then lists an item and the read
// passes, proposes `depends_on: [thing.create]` on the list, with the try's answers; the try's
// thing is deleted. Never when the flags refuse the create, nor when the try proves nothing (a
// list that stays empty). After --apply, `flow run --all` is green and a second calibrate
// proposes nothing.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { jsonBody, send, serveCrud, ANSWERED, type CrudServer } from '../helpers/crud-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

const things = new Map<string, { name: string }>();
/** `METHOD path` of every request */
const sent: string[] = [];
let api: CrudServer;

beforeAll(async () => {
  api = await serveCrud((req, res, text) => {
    const url = new URL(req.url ?? '/', 'http://x');
    sent.push(`${req.method} ${url.pathname}`);
    const body = jsonBody(req, res, text);
    if (body === ANSWERED) return;
    const parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
    if (req.method === 'POST' && url.pathname === '/things') {
      const name = (body as { name?: unknown })?.name;
      if (typeof name !== 'string') return send(res, 400, { message: '"name" is required' });
      things.set(name, { name });
      return send(res, 201, { name, createdAt: new Date().toISOString() });
    }
    if (req.method === 'GET' && url.pathname === '/client/things') return send(res, 200, { version: 1, things: [...things.values()] });
    if (req.method === 'GET' && parts[0] === 'client' && parts[1] === 'things' && parts.length === 3) {
      const thing = things.get(parts[2]);
      return thing ? send(res, 200, thing) : send(res, 404, { message: 'no such thing' });
    }
    if (req.method === 'DELETE' && parts[0] === 'things' && parts.length === 2) return send(res, things.delete(parts[1]) ? 204 : 404);
    // a gadget can be made, and its list never shows one: a try proves nothing
    if (req.method === 'POST' && url.pathname === '/gadgets') return send(res, 201, { id: `g${sent.length}` });
    if (req.method === 'GET' && url.pathname === '/client/gadgets') return send(res, 200, { gadgets: [] });
    if (req.method === 'DELETE' && parts[0] === 'gadgets' && parts.length === 2) return send(res, 204);
    send(res, 404, { message: 'no route' });
  });
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

const FILES = (gadgets = false) => ({
  'flow.yaml': 'version: 1\nname: empty-list\nimports: [environments/*.yaml, resources/*.yaml]\n',
  'environments/local.yaml': `name: local\nvariables:\n  baseUrl: ${JSON.stringify(api.url)}\n`,
  // the list is declared first: without a dependency it runs before the create
  'resources/things.yaml': [
    'name: thing',
    'operations:',
    '  list_of_client: { path: /client/things, expect_status: 200, extract: { name_2: "$.data.things[*].name" } }',
    '  get_of_client: { path: "/client/things/{{thing.name_2}}", expect_status: 200 }',
    '  create: { method: POST, path: /things, body: { name: "t-{{$.uuid}}" }, expect_status: 201, extract: { name: $.data.name } }',
    '  delete: { method: DELETE, path: "/things/{{thing.name}}", expect_status: 204 }',
    '',
  ].join('\n'),
  ...(gadgets
    ? {
        'resources/gadgets.yaml': [
          'name: gadget',
          'operations:',
          '  list: { path: /client/gadgets, expect_status: 200, extract: { id_2: "$.data.gadgets[*].id" } }',
          '  get: { path: "/client/gadgets/{{gadget.id_2}}", expect_status: 200 }',
          '  create: { method: POST, path: /gadgets, body: { note: x }, expect_status: 201, extract: { id: $.data.id } }',
          '  delete: { method: DELETE, path: "/gadgets/{{gadget.id}}", expect_status: 204 }',
          '',
        ].join('\n'),
      }
    : {}),
});

async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd, env: {} });
  const code = await main(args, rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

it('flow run says the list found nothing, and which depends_on runs a create first', async () => {
  const dir = await writeProject(FILES());
  const r = await flow(dir, ['run', 'thing.get_of_client']);
  expect(r.stdout).toContain('E_VAR_UNRESOLVED');
  expect(r.stdout).toContain(
    'hint: the list found nothing: thing.list_of_client (`$.data.things[*].name`) listed no item, and nothing makes it run after a create of thing. `depends_on: [thing.create]` on thing.list_of_client runs thing.create first (`flow calibrate thing.get_of_client --writes` tries it and proposes it)',
  );
  // the JUnit report says it too
  const junit = await flow(dir, ['run', 'thing.get_of_client', '--reporter', 'junit']);
  expect(junit.stdout).toContain('hint: the list found nothing: thing.list_of_client');
});

it('a list that stays empty after its create: the hint and calibrate say so, and propose nothing', async () => {
  const files = FILES(true);
  files['resources/gadgets.yaml'] = files['resources/gadgets.yaml']!.replace(
    'expect_status: 200, extract: { id_2',
    'depends_on: [gadget.create], expect_status: 200, extract: { id_2',
  );
  const dir = await writeProject(files);
  const r = await flow(dir, ['run', 'gadget.get']);
  expect(r.stdout).toContain(
    'hint: the list found nothing: gadget.list (`$.data.gadgets[*].id`) listed no item, even after gadget.create: what it lists is not what the create made',
  );
  const c = await flow(dir, ['calibrate', '--writes', '--destructive', 'gadget.get']);
  expect(c.stdout).toContain('## Proposals\n\nNone');
  expect(c.stdout).toContain(
    '**gadget.get**: {{gadget.id_2}} was never produced: gadget.list answered 200 with no item at `$.data.gadgets[*].id`; it runs after gadget.create already',
  );
});

it('calibrate proves a create first, proposes depends_on on the list, and a run is green after', async () => {
  const dir = await writeProject(FILES(true));
  const r = await flow(dir, ['calibrate', '--writes', '--destructive', '--apply']);
  expect(r.stderr).not.toMatch(/E_INTERNAL/);
  expect(r.stdout).toContain('thing.list_of_client: depends_on thing.create');
  expect(r.stdout).toContain('add `thing.create` to `depends_on` (it runs first)');
  // the proof: the round's empty list, the try's answers, and the list's answer with the item
  expect(r.stdout).toMatch(
    /Why: \{\{thing\.name_2\}\} was never produced: thing\.list_of_client answered 200 with no item at `\$\.data\.things\[\*\]\.name`; with thing\.create first \(201\), thing\.list_of_client answered 200 with 1 item\(s\) and thing\.get_of_client 200 \(proven by thing\.get_of_client\)/,
  );
  expect(r.stdout).toMatch(/Observed: 200, body `\{"version":1,"things":\[\{"name":"t-/);
  expect(r.stdout).toMatch(/- try thing\.list_of_client after thing\.create: `POST http:\/\/127\.0\.0\.1:\d+\/things` -> 201/);
  // the gadget's list stays empty with its create first: no proposal, a question with what the try showed
  expect(r.stdout).not.toContain('gadget.list: depends_on');
  expect(r.stdout).toContain(
    '**gadget.get**: {{gadget.id_2}} was never produced: gadget.list answered 200 with no item at `$.data.gadgets[*].id`; with gadget.create first (201), gadget.list answered 200 with 0 item(s) and gadget.get failed (E_VAR_UNRESOLVED): no try proves a create first',
  );
  // every thing a try or round made is deleted
  expect([...things.keys()]).toEqual([]);
  const yaml = await readFile(path.join(dir, 'resources/things.yaml'), 'utf8');
  expect(yaml).toMatch(/list_of_client: \{[^\n]*depends_on: \[ thing\.create \][^\n]*\}/);
  expect(await readFile(path.join(dir, 'resources/gadgets.yaml'), 'utf8')).not.toContain('depends_on');
  // the gadget's question
  expect(r.code).toBe(1);

  const run = await flow(dir, ['run', '--all', '--reporter', 'json']);
  const report = JSON.parse(run.stdout) as { operations: Array<{ id: string; status: string }> };
  const red = report.operations.filter((o) => o.status !== 'passed').map((o) => o.id);
  expect(red).toEqual(['gadget.get']);
  expect([...things.keys()]).toEqual([]);

  const again = await flow(dir, ['calibrate', '--writes', '--destructive']);
  expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
  expect([...things.keys()]).toEqual([]);
}, 60_000);

it('without --writes the create is not sent, and the question says why', async () => {
  const dir = await writeProject(FILES());
  const from = sent.length;
  const r = await flow(dir, ['calibrate', 'thing.get_of_client']);
  expect(sent.slice(from).filter((s) => !s.startsWith('GET '))).toEqual([]);
  expect(r.stdout).toContain('## Proposals\n\nNone');
  expect(r.stdout).toContain(
    '**thing.get_of_client**: {{thing.name_2}} was never produced: thing.list_of_client answered 200 with no item at `$.data.things[*].name`; its create thing.create may not run (POST writes: needs --writes): with it first, the list may find one',
  );
});
