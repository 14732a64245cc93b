// Text from outside is data, and what quotes an answer is redacted, in `flow explore`:
// - an API description's enum/const of "{{secret.X}}" is sent as that text, never rendered (the
//   issue: an OAuth client secret went to the API 207 times in a 2 s run, and a FLOW_SECRET_*
//   value the project never names 225 times);
// - a write whose answer echoes the bearer token gives an E_NOT_PERSISTED finding whose
//   message, replay file (header and assert), terminal text and JSON/JUnit/Markdown reports
//   never show the token.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const TOKEN = 'tok-echoed-bearer-5ecret';
const CLIENT_SECRET = 'cs-never-named-by-the-project';
const OTHER = 'other-flow-secret-value';
const env = { FLOW_SECRET_API_TOKEN: TOKEN, FLOW_SECRET_CLIENT_SECRET: CLIENT_SECRET, FLOW_SECRET_OTHER: OTHER };

const OPENAPI = `openapi: 3.0.3
info: { title: notes, version: '1' }
paths:
  /notes:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [kind, tag, title]
              properties:
                kind: { type: string, enum: ['{{secret.CLIENT_SECRET}}', 'x {{secret.OTHER}}'] }
                tag: { type: string, const: '{{secret.OTHER}}' }
                title: { type: string, minLength: 1, maxLength: 8 }
      responses: { '201': { description: created } }
  /notes/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      responses: { '200': { description: the note } }
    delete:
      responses: { '204': { description: deleted } }
`;

const PROJECT = {
  'flow.yaml': 'version: 1\nname: notes\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'actors/user.yaml': 'name: user\nauth:\n  strategy: bearer\n  token: "{{secret.API_TOKEN}}"\n',
  'resources/notes.yaml': [
    'name: note',
    'operations:',
    '  create: { method: POST, path: /notes, actor: user, body: { kind: x, tag: y, title: t }, expect_status: 201, extract: { id: $.data.id } }',
    '  get: { path: "/notes/{{note.id}}", actor: user, expect_status: 200 }',
    '  delete: { method: DELETE, path: "/notes/{{note.id}}", actor: user, expect_status: 204 }',
    '',
  ].join('\n'),
  'openapi.yaml': OPENAPI,
};

let api: TestServer;
let dir: string;
const notes = new Map<string, Record<string, unknown>>();
beforeAll(async () => {
  let n = 0;
  api = await startServer({
    // a buggy server: its answer "stores" the caller's Authorization header as the title
    'POST /notes': (q, res) => {
      const id = String(++n);
      const note = { ...(q.json() as Record<string, unknown>), id };
      notes.set(id, note);
      json(res, 201, { ...note, title: q.headers.authorization });
    },
    '*': (q, res) => {
      const id = q.path.split('/')[2];
      const note = notes.get(id);
      if (!note) return json(res, 404, {});
      if (q.method === 'DELETE') {
        notes.delete(id);
        res.writeHead(204).end();
        return;
      }
      json(res, 200, note);
    },
  });
  dir = await writeProject(PROJECT);
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

describe('flow explore: text from outside', () => {
  let run: { code: number; out: string; err: string };
  beforeAll(async () => {
    const io = capturingIO({ cwd: dir, env });
    const reports = ['json=report.json', 'junit=report.xml', 'markdown=report.md'];
    const args = ['--reporter', 'default', ...reports.flatMap((r) => ['--reporter', r.split('=')[0], '--output-file', r])];
    const code = await main(
      // 5 rounds: the E_NOT_PERSISTED finding is made in round 4
      ['explore', '--openapi', 'openapi.yaml', '--budget', '60', '--rounds', '5', '--seed', '3', '--out', 'found', ...args, '--var', `baseUrl=${api.url}`],
      io,
    );
    run = { code, out: io.out, err: io.err };
  }, 90_000);

  it('an enum or const value of "{{secret.X}}" is sent as that text: no secret reaches the API', () => {
    const creates = api.requests.filter((r) => r.method === 'POST').map((r) => r.text());
    expect(creates.length, run.out + run.err).toBeGreaterThan(0);
    expect(creates.some((b) => b.includes('"{{secret.CLIENT_SECRET}}"'))).toBe(true);
    expect(creates.some((b) => b.includes('"tag":"{{secret.OTHER}}"'))).toBe(true);
    for (const r of api.requests) {
      const seen = r.url + r.text();
      expect(seen).not.toContain(CLIENT_SECRET);
      expect(seen).not.toContain(OTHER);
    }
  });

  it('the echoed bearer token shows nowhere: terminal, replay files, JSON, JUnit and Markdown reports', async () => {
    expect(run.out).toMatch(/^FINDING E_NOT_PERSISTED note\.create$/m);
    const texts = [run.out, run.err];
    for (const f of ['report.json', 'report.xml', 'report.md']) texts.push(await readFile(path.join(dir, f), 'utf8'));
    const replays = (await readdir(path.join(dir, 'found', 'resources'))).filter((f) => f.startsWith('finding_'));
    expect(replays.length).toBeGreaterThan(0);
    for (const f of replays) texts.push(await readFile(path.join(dir, 'found', 'resources', f), 'utf8'));
    for (const t of texts) expect(t).not.toContain(TOKEN);
    // the drawn enum value is written escaped in the replay: run, it sends the text, not the secret
    const replay = texts.at(-1)!;
    expect(replay).not.toMatch(/[^']\{\{secret\.CLIENT_SECRET\}\}/);
  });
});
