// `flow explore` on request schemas that no value satisfies, that are too large to draw from or
// that recurse without end, through the real binary in a child process with 1 GB of heap and a
// time limit: each gives a W_EXPLORE_SCHEMA warning naming the operation and the schema's
// pointer, only that operation is skipped, the rest is explored (a query integer up to 2^63
// included, drawn within the safe integers), and the command ends: no hang, no exit 70.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWhenAvailable, NOT_BUILT } from '../helpers/needs.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BUILT = existsSync(path.join(REPO, 'dist/cli/commands/explore.js'));

/** name -> the request body schema of POST /h/<name> */
const HOSTILE: Record<string, string> = {
  unique: '{ type: object, required: [tags], properties: { tags: { type: array, minItems: 2, uniqueItems: true, items: { enum: [a] } } } }',
  long: '{ type: object, required: [s], properties: { s: { type: string, minLength: 100000000 } } }',
  rec8: "{ $ref: '#/components/schemas/Rec8' }",
  self: "{ $ref: '#/components/schemas/Self' }",
  minmax: '{ type: object, required: [n], properties: { n: { type: integer, minimum: 5, maximum: 1 } } }',
  lengths: '{ type: object, required: [s], properties: { s: { type: string, minLength: 5, maxLength: 2 } } }',
  multiple: '{ type: object, required: [n], properties: { n: { type: integer, minimum: 1, maximum: 6, multipleOf: 7 } } }',
  lookahead: "{ type: object, required: [s], properties: { s: { type: string, pattern: '^(?=a)a+$' } } }",
  bracket: "{ type: object, required: [s], properties: { s: { type: string, pattern: '[' } } }",
};

const OBJ = '{ application/json: { schema: { type: object } } }';
const post = (schema: string) => `
    post:
      requestBody: { required: true, content: { application/json: { schema: ${schema} } } }
      responses:
        '201': { description: created, content: ${OBJ} }
        '400': { description: invalid, content: ${OBJ} }`;
const letters = 'abcdefgh'.split('');

const OPENAPI = `openapi: 3.0.3
info: { title: hostile, version: '1' }
paths:
  /ok:
    get:
      parameters: [{ name: limit, in: query, schema: { type: integer, minimum: 0, maximum: 9223372036854775808 } }]
      responses:
        '200': { description: a page, content: ${OBJ} }${post('{ type: object, required: [name], properties: { name: { type: string, maxLength: 20 } } }')}
  /ok/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200': { description: one, content: ${OBJ} }
        '404': { description: none, content: ${OBJ} }
    delete:
      responses:
        '204': { description: deleted }
        '404': { description: none, content: ${OBJ} }
${Object.entries(HOSTILE)
  .map(([name, schema]) => `  /h/${name}:${post(schema)}`)
  .join('\n')}
components:
  schemas:
    Rec8: { type: object, properties: { ${letters.map((l) => `${l}: { $ref: '#/components/schemas/Rec8' }`).join(', ')} } }
    Self: { $ref: '#/components/schemas/Self' }
`;

const PROJECT: Record<string, string> = {
  'flow.yaml': 'version: 1\nname: hostile\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - resources/*.yaml\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'resources/ok.yaml': `name: ok
operations:
  create: { method: POST, path: /ok, body: { name: x }, expect_status: 201, extract: { id: $.data.id } }
  get: { path: '/ok/{{ok.id}}', expect_status: 200 }
  list: { path: /ok, expect_status: 200 }
  delete: { method: DELETE, path: '/ok/{{ok.id}}', depends_on: [ok.get], expect_status: 204 }
`,
  ...Object.fromEntries(
    Object.keys(HOSTILE).map((name) => [
      `resources/${name}.yaml`,
      `name: ${name}\noperations:\n  create: { method: POST, path: /h/${name}, body: {}, expect_status: 201, extract: { id: $.data.id } }\n`,
    ]),
  ),
  'openapi.yaml': OPENAPI,
};

let server: Server;
let url: string;
const log: string[] = [];
let next = 1;
const live = new Set<string>();

beforeAll(async () => {
  // creates what has a string `name` (and nothing else), reads and deletes it; the hostile paths refuse everything
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      log.push(`${req.method} ${req.url}`);
      const json = (status: number, body?: unknown) =>
        body === undefined ? res.writeHead(status).end() : res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'POST' && req.url === '/ok') {
        let b: unknown;
        try {
          b = JSON.parse(text);
        } catch {
          return json(400, { error: 'not JSON' });
        }
        const name = (b as { name?: unknown } | null)?.name;
        const ok = !!b && typeof b === 'object' && !Array.isArray(b) && typeof name === 'string' && name.length <= 20 && Object.keys(b).length === 1;
        if (!ok) return json(400, { error: 'name: a string of at most 20 characters' });
        const id = `k${next++}`;
        live.add(id);
        return json(201, { id });
      }
      if (req.method === 'POST') return json(400, { error: 'no' });
      const one = /^\/ok\/([^/?]+)$/.exec(req.url ?? '')?.[1];
      if (one !== undefined && !live.has(one)) return json(404, { error: 'no such thing' });
      if (req.method === 'DELETE') {
        live.delete(one!);
        return json(204);
      }
      return json(200, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
  await cleanProjects();
});

function flow(args: string[], cwd: string): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // 1 GB of heap: a schema that would take more aborts the child, which the exit code shows
    const argv = ['--max-old-space-size=1024', path.join(REPO, 'bin/flow.js'), ...args];
    execFile(process.execPath, argv, { cwd, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const e = err as (Error & { code?: number; signal?: string }) | null;
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, signal: e?.signal ?? null, stdout, stderr });
    });
  });
}

describeWhenAvailable('flow explore on hostile request schemas (bin/flow.js)', BUILT ? undefined : NOT_BUILT, () => {
  it('warns with the operation and the pointer, skips only that operation, explores the rest, and ends within its budget', async () => {
    const dir = await writeProject(PROJECT);
    const { code, signal, stdout, stderr } = await flow(
      ['explore', '--openapi', 'openapi.yaml', '--budget', '6', '--seed', '3', '--var', `baseUrl=${url}`],
      dir,
    );
    expect(signal, stderr).toBeNull();
    expect(stderr).not.toContain('internal error');
    const warned = (name: string) => new RegExp(`^flow explore: W_EXPLORE_SCHEMA: ${name}\\.create is not explored: #/\\S+: .+$`, 'm');
    for (const name of Object.keys(HOSTILE)) {
      expect(stderr, name).toMatch(warned(name));
      expect(stdout, name).toContain(`not explored: ${name}.create: `);
    }
    // the pointers name the schema at fault
    expect(stderr).toMatch(/W_EXPLORE_SCHEMA: self\.create is not explored: #\/components\/schemas\/Self: /);
    expect(stderr).toMatch(
      /W_EXPLORE_SCHEMA: minmax\.create is not explored: #\/paths\/~1h~1minmax\/post\/requestBody\/content\/application~1json\/schema\/properties\/n: minimum 5 is past maximum 1/,
    );
    // the rest was explored: creates, and list reads with a limit drawn within the safe integers
    expect(log.filter((l) => l === 'POST /ok').length).toBeGreaterThan(0);
    const limits = log.flatMap((l) => /^GET \/ok\?limit=(\d+)$/.exec(l)?.[1] ?? []).map(Number);
    expect(limits.length).toBeGreaterThan(0);
    expect(limits.every((n) => Number.isSafeInteger(n))).toBe(true);
    expect(log.some((l) => l.startsWith('POST /h/'))).toBe(false);
    expect(stdout).toMatch(/^explore: 0 finding\(s\) in 1 resource\(s\) \(ok\)/m);
    expect(code, stdout + stderr).toBe(0);
  }, 90_000);

  it('the budget is a wall for the whole command: with a uniqueItems no value satisfies and a 2^63 bound, --budget 2 ends', async () => {
    // no schema here that Ajv refuses to compile: what is left to stop it is generation's own bounds
    const { 'resources/ok.yaml': ok, 'resources/unique.yaml': unique, 'flow.yaml': root, 'environments/local.yaml': env, 'openapi.yaml': openapi } = PROJECT;
    const dir = await writeProject({
      'flow.yaml': root,
      'environments/local.yaml': env,
      'resources/ok.yaml': ok,
      'resources/unique.yaml': unique,
      'openapi.yaml': openapi,
    });
    const { code, signal, stdout, stderr } = await flow(
      ['explore', '--openapi', 'openapi.yaml', '--budget', '2', '--seed', '4', '--var', `baseUrl=${url}`],
      dir,
    );
    // it ended by itself, well before the child's time limit (2 s + 15 s is the promise)
    expect(signal, stdout + stderr).toBeNull();
    expect(stderr).toMatch(/W_EXPLORE_SCHEMA: unique\.create is not explored: #\/paths\/~1h~1unique\/\S+\/properties\/tags: uniqueItems/);
    // 0; or 1 when a machine too busy to answer within 2 s left no step an answer: never 70
    expect([0, 1], stdout + stderr).toContain(code);
  }, 90_000);
});
