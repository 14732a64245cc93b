// `flow calibrate --writes` leaves the server as it found it, its failing tries included: an
// item create the project expects 200 from answers 201 (the try fails, the item exists all the
// same), and is deleted; what its clean-up cannot delete (a note whose DELETE answers 409) is
// said on stderr, with why. Checked on the server's side.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

let srv: TestServer;
const items = new Map<string, { id: string }>([['o1', { id: 'o1' }]]);
const notes = new Map<string, { id: string }>();
let next = 0;

beforeAll(async () => {
  srv = await startServer({
    'GET /items': (_req, res) => json(res, 200, { items: [...items.values()] }),
    'POST /items': (_req, res) => {
      const id = `i${++next}`;
      items.set(id, { id });
      json(res, 201, { id });
    },
    'POST /feedback': (_req, res) => json(res, 201, { feedbackId: 'pnps', given: true }),
    'POST /notes': (_req, res) => {
      const id = `n${++next}`;
      notes.set(id, { id });
      json(res, 201, { id });
    },
    '*': (req, res) => {
      const item = /^\/items\/([^/]+)$/.exec(req.path);
      if (item && req.method === 'DELETE') return void res.writeHead(items.delete(item[1]) ? 204 : 404).end();
      if (/^\/notes\/[^/]+$/.test(req.path) && req.method === 'DELETE') return json(res, 409, { error: 'locked' });
      json(res, 404, { error: 'no route' });
    },
  });
});
afterAll(async () => {
  await srv.close();
  await cleanProjects();
});

const FILES = () => ({
  'flow.yaml': 'version: 1\nname: calibrate-cleanup\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n',
  'environments/test.yaml': `name: test\nvariables:\n  baseUrl: ${JSON.stringify(srv.url)}\n`,
  'resources/item.yaml': [
    'name: item',
    'operations:',
    '  list: { path: /items, expect_status: 200 }',
    '  create: { method: POST, path: /items, expect_status: 200, extract: { id: $.data.id } }',
    '  delete: { method: DELETE, path: "/items/{{item.id}}", expect_status: 204 }',
    '',
  ].join('\n'),
  'resources/note.yaml': [
    'name: note',
    'operations:',
    '  create: { method: POST, path: /notes, expect_status: 201, extract: { id: $.data.id } }',
    '  delete: { method: DELETE, path: "/notes/{{note.id}}", expect_status: 204 }',
    '',
  ].join('\n'),
});

it('a failing try’s create is deleted; what is left is said with why', async () => {
  const dir = await writeProject(FILES());
  const rec = recordedIO({ cwd: dir, env: {} });
  await main(['calibrate', '--writes', 'item.create', 'note.create'], rec.io);
  // the calibration proposes 201, having seen it
  expect(rec.out()).toContain('`expect_status: 200` -> `expect_status: 201`');
  const creates = srv.requests.filter((r) => r.method === 'POST' && r.path === '/items').length;
  expect(creates).toBeGreaterThanOrEqual(2);
  // every item it made is gone, the one there before is not
  expect([...items.keys()]).toEqual(['o1']);
  // the notes could not go: each is named, with the answer that kept it
  const left = [...notes.keys()];
  expect(left.length).toBeGreaterThan(0);
  expect(rec.err()).toContain(`flow calibrate: clean-up of what this run created: `);
  expect(rec.err()).toContain(`  left note ${left.join(', ')}: note.delete answered 409\n`);
  // deletes that worked are counted, not listed
  expect(rec.err()).not.toMatch(/^ {2}deleted /m);
});

it('a record each try makes again (an upsert: the same id) is left once, named by that id', async () => {
  const dir = await writeProject({
    'flow.yaml': 'version: 1\nname: calibrate-upsert\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n',
    'environments/test.yaml': `name: test\nvariables:\n  baseUrl: ${JSON.stringify(srv.url)}\n`,
    // no DELETE: each create answers the one record the server keeps for this user
    'resources/feedback.yaml': [
      'name: feedback',
      'operations:',
      '  create: { method: POST, path: /feedback, body: { feedbackId: pnps }, expect_status: 200, extract: { feedbackId: $.data.feedbackId } }',
      '',
    ].join('\n'),
  });
  const before = srv.requests.length;
  const rec = recordedIO({ cwd: dir, env: {} });
  await main(['calibrate', '--writes', 'feedback.create'], rec.io);
  // the round and the try each made it
  expect(srv.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/feedback').length).toBeGreaterThanOrEqual(2);
  expect(rec.err()).toContain('flow calibrate: clean-up of what this run created: 0 deleted, 1 left\n');
  expect(rec.err()).toContain('  left feedback pnps: feedback has no DELETE operation on one instance\n');
});
