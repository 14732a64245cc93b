// A failure in `flow run` shows what the Vitest failure shows: the failed asserts (what was
// expected, what came), the last request and response, secrets hidden, bodies capped; --quiet
// keeps it to the coded line. Against a real server that echoes the secret back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const TOKEN = 'tok-failure-details-93f1c2';
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startServer({
    'POST /things': (req, res) => json(res, 400, { error: 'closed', seen: req.headers.authorization }),
    'GET /big': (_req, res) => json(res, 500, { blob: 'x'.repeat(10_000) }),
    'GET /status': (_req, res) => json(res, 200, { status: 'published' }),
  });
  dir = await writeProject({
    'flow.yaml': 'version: 1\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
    'environments/local.yaml': `variables:\n  baseUrl: ${server.url}\n`,
    'actors/user.yaml': 'name: user\nauth:\n  strategy: bearer\n  token: "{{secret.TOKEN}}"\n',
    'resources/things.yaml': [
      'name: thing',
      'operations:',
      '  create:',
      '    method: POST',
      '    path: /things',
      '    actor: user',
      '    body: { name: lamp }',
      '    expect_status: 201',
      '  big:',
      '    path: /big',
      '  status:',
      '    path: /status',
      '    assert:',
      "      - $.data.status == 'draft'",
      '',
    ].join('\n'),
  });
});

afterAll(async () => {
  await server.close();
  await cleanProjects();
});

async function flowRun(args: string[]) {
  const io = capturingIO({ cwd: dir, env: { FLOW_SECRET_TOKEN: TOKEN } });
  const code = await main(['run', '--no-cache', ...args], io);
  return { code, out: io.out, err: io.err };
}

/** The lines of one operation's result, from its ✖ to the next result. */
function block(out: string, operation: string): string[] {
  const lines = out.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`✖ ${operation}`));
  const end = lines.findIndex((l, i) => i > start && /^[✔✖-] |^$/.test(l));
  return lines.slice(start, end);
}

describe('flow run: a failure shows its request and response', () => {
  it('the request (the secret as ***) and the response (the secret it echoes as ***)', async () => {
    const r = await flowRun(['thing.create']);
    expect(r.code).toBe(1);
    const lines = block(r.out, 'thing.create');
    expect(lines.slice(1, 4)).toEqual([
      expect.stringMatching(/^ {4}resources\/things\.yaml:8:5 {2}E_STATUS_MISMATCH {2}expected 201, got 400: /),
      '    request:',
      `      POST ${server.url}/things`,
    ]);
    expect(lines).toContain('      Authorization: Bearer ***');
    expect(lines).toContain('      {"name":"lamp"}');
    expect(lines).toContain('    response:');
    expect(lines).toContainEqual(expect.stringMatching(/^ {6}400 \(\d+ ms\)$/));
    expect(lines).toContain('      {"error":"closed","seen":"Bearer ***"}');
    expect(r.out + r.err).not.toContain(TOKEN);
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('a long body is capped', async () => {
    const r = await flowRun(['thing.big']);
    const lines = block(r.out, 'thing.big');
    expect(lines.at(-1)).toMatch(/^ {6}… \d+ more characters$/);
    expect(r.out.length).toBeLessThan(4_000);
  });

  it('a failed assert says what was expected and what came', async () => {
    const r = await flowRun(['thing.status']);
    const lines = block(r.out, 'thing.status');
    expect(lines[1]).toBe(`    resources/things.yaml:14:9  E_ASSERT_FAILED  $.data.status == 'draft' failed: expected "draft", actual "published"`);
    expect(lines.slice(2, 4)).toEqual(['    assert:', `      ✗ $.data.status == 'draft': expected "draft", actual "published"`]);
  });

  it('--quiet keeps the coded line only', async () => {
    const r = await flowRun(['thing.create', '--quiet']);
    expect(r.code).toBe(1);
    expect(block(r.out, 'thing.create')).toEqual([
      '✖ thing.create',
      expect.stringMatching(/^ {4}resources\/things\.yaml:8:5 {2}E_STATUS_MISMATCH {2}expected 201, got 400: /),
    ]);
  });
});
