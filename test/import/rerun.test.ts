// An imported project is safe to run, and to run again:
// - a description's value holding `{{` (an enum of "{{secret.X}}") is written escaped, so a
//   run sends that text and never a secret;
// - a literal that a server keeps unique (a name, a slug, an e-mail in a create's body) gets a
//   run-unique part, so a second run does not answer 409.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';

const SECRET = 'cs-from-the-keychain-1';
let api: TestServer;
const taken = new Set<string>();
beforeAll(async () => {
  api = await startServer({
    // a feature-flag server: a flag's name and an owner's e-mail are unique
    'POST /features': (q, res) => {
      const body = q.json() as { name: string; owner: string };
      if (taken.has(body.name) || taken.has(body.owner)) return json(res, 409, { error: 'exists' });
      taken.add(body.name).add(body.owner);
      json(res, 201, { ...body, id: String(taken.size) });
    },
  });
});
afterAll(() => api.close());

const OPENAPI = (url: string) => `openapi: 3.0.3
info: { title: flags, version: '1' }
servers: [{ url: '${url}' }]
paths:
  /features:
    post:
      operationId: createFeature
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, owner, strategy]
              properties:
                name: { type: string, example: disable-comments }
                owner: { type: string, format: email, example: jo@example.com }
                strategy: { type: string, enum: ['{{secret.CLIENT_SECRET}}'] }
      responses:
        '201': { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
`;

describe('an imported project', () => {
  it('runs twice against a server that answers 409 on a duplicate, and sends no secret for a description value of "{{secret.X}}"', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reqflow-rerun-'));
    await writeFile(path.join(dir, 'api.yaml'), OPENAPI(api.url));
    const imported = capturingIO({ cwd: dir });
    expect(await main(['import', 'api.yaml', '--out', 'proj'], imported), imported.out + imported.err).toBe(0);
    const env = { FLOW_SECRET_CLIENT_SECRET: SECRET };
    for (const round of [1, 2]) {
      const io = capturingIO({ cwd: dir, env });
      const code = await main(['run', '-p', 'proj', '--all', '--var', `baseUrl=${api.url}`], io);
      expect(code, `run ${round}:\n${io.out}${io.err}`).toBe(0);
    }
    const sent = api.requests.map((r) => r.json() as Record<string, string>);
    expect(sent).toHaveLength(2);
    expect(sent[0].name).not.toBe(sent[1].name);
    expect(sent[0].name.startsWith('disable-comments-')).toBe(true);
    expect(sent[0].owner).toMatch(/^jo\+[0-9a-f-]{36}@example\.com$/);
    for (const s of sent) expect(s.strategy).toBe('{{secret.CLIENT_SECRET}}');
    for (const r of api.requests) expect(r.text()).not.toContain(SECRET);
  }, 60_000);
});
