// The imported project runs: import a description, start Stoplight Prism (`prism mock
// --errors`) on the same description, and `flow run --all` the project against it. Prism answers
// 4xx to any request that breaks the description (a missing required field, header or
// credential, a wrong type or format), so a passing run means no request of the imported project
// is malformed. Prism serves the description's paths at its root, without the servers' base
// path: a small proxy in front of it takes the prefix off, as a gateway would.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { sharedMissing, sharedPath } from '../helpers/shared.js';
import { describeWhenAvailable } from '../helpers/needs.js';
import { serverMissing, serverPath } from '../helpers/test-servers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FLOW = path.join(ROOT, 'bin', 'flow.js');
const PRISM = serverPath('@stoplight/prism-cli', 'dist', 'index.js');
const prismMissing = serverMissing('@stoplight/prism-cli', 'dist', 'index.js');
const CONDUIT = 'corpus/openapi/realworld-conduit.oas31.yml';

/** A second description written for the test: formats, a required header, a key, query defaults. */
const NOTES = `openapi: 3.0.3
info: { title: Notes, version: '1' }
servers: [{ url: 'https://notes.test/v2' }]
security: [{ key: [] }]
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Notes-Key }
  schemas:
    Note:
      type: object
      required: [id, title, owner_email, due]
      properties:
        id: { type: string, format: uuid }
        title: { type: string, minLength: 1 }
        owner_email: { type: string, format: email }
        due: { type: string, format: date-time }
        color: { type: string, enum: [red, green] }
paths:
  /notes:
    get:
      parameters:
        - { name: limit, in: query, required: true, schema: { type: integer, minimum: 1, default: 10 } }
        - { name: X-Client, in: header, required: true, schema: { type: string, enum: [web, cli] } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Note' } } } } }
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [title, owner_email, due, color]
              properties:
                title: { type: string, example: Groceries }
                owner_email: { type: string, format: email }
                due: { type: string, format: date-time }
                color: { type: string, enum: [red, green] }
                ref: { type: string, format: uuid }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
  /notes/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: string, format: uuid } }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
`;

const children: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(cleanProjects);
afterAll(async () => {
  for (const c of children) c.kill();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FLOW, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** `prism mock --errors` on the description; resolves once it listens. */
async function startPrism(description: string): Promise<{ port: number; log: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM, 'mock', '-h', '127.0.0.1', '-p', String(port), '--errors', description], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      log += d.toString();
      if (log.includes('Prism is listening')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`prism exited (${code}): ${log}`)));
  });
  return { port, log: () => log };
}

/** A proxy that takes the servers' base path off, since Prism serves paths at its root. */
async function stripPrefix(prefix: string, port: number): Promise<string> {
  const server = createServer((req, res) => {
    const url = req.url!.startsWith(prefix) ? req.url!.slice(prefix.length) || '/' : req.url!;
    const up = request({ host: '127.0.0.1', port, method: req.method, path: url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Import, serve with Prism, run every operation: the run's output, and Prism's log. */
async function roundTrip(description: string, prefix: string): Promise<{ code: number | null; out: string; prism: string; project: string }> {
  const dir = await writeProject({});
  const imported = await run(['import', description, '--out', 'p', '--plan', 'PLAN.md'], dir);
  expect(imported.code, imported.err).toBe(0);
  const project = path.join(dir, 'p');
  const env = parse(await readFile(path.join(project, 'environments/default.yaml'), 'utf8')) as { variables: Record<string, unknown> };
  // What a user supplies: a value for each <SET_VIA_--var>, a secret for each {{secret.X}}.
  const vars = Object.entries(env.variables)
    .filter(([k, v]) => v === '<SET_VIA_--var>' && k !== 'baseUrl')
    .flatMap(([k]) => ['--var', `${k}=${k}-value`]);
  const text = await readFile(path.join(dir, 'PLAN.md'), 'utf8');
  const secrets = Object.fromEntries([...text.matchAll(/\{\{secret\.([A-Z0-9_]+)\}\}/g)].map((m) => [`FLOW_SECRET_${m[1]}`, `test-${m[1].toLowerCase()}`]));
  const prism = await startPrism(description);
  const base = await stripPrefix(prefix, prism.port);
  const r = await run(['run', '--all', '-p', project, '--var', `baseUrl=${base}`, ...vars], dir, secrets);
  return { code: r.code, out: r.out + r.err, prism: prism.log(), project };
}

/** Prism's verdict on each request it refused: `[VALIDATOR] ✖ error …` lines. */
function refusals(log: string): string[] {
  return log.split('\n').filter((l) => /VALIDATOR.*(error|✖)|Request terminated with error/i.test(l));
}

// The corpus lies beside the clone (../shared/corpus), Prism in test/servers: where either is
// absent this block skips with a message, and under CI=true it fails.
describeWhenAvailable('Prism round trip: Conduit', prismMissing ?? sharedMissing(CONDUIT), () => {
  it('Conduit (../shared/corpus, OpenAPI 3.1): no request refused as malformed', async () => {
    const r = await roundTrip(sharedPath(CONDUIT)!, '/api');
    expect(refusals(r.prism), r.out).toEqual([]);
    // PUT /api/user (the user's own profile) names no instance: a switch, sent only when named (docs/format.md#ownership)
    expect(r.out).toMatch(/18 passed, 0 failed, 1 skipped/);
    expect(r.out).toMatch(/- user\.update {2}skipped: PUT \/api\/user names no instance/);
    expect(r.code, r.out).toBe(1); // a skip is not a pass
  }, 120_000);
});

describeWhenAvailable('imported projects run against Prism (no request refused as malformed)', prismMissing, () => {
  it('a description with formats, enums, a required header and an API key', async () => {
    const dir = await writeProject({ 'notes.yaml': NOTES });
    const r = await roundTrip(path.join(dir, 'notes.yaml'), '/v2');
    expect(refusals(r.prism), r.out).toEqual([]);
    expect(r.code, r.out).toBe(0);
    // formats the description states without an example are generated, and say so
    const notes = await readFile(path.join(r.project, 'resources/notes.yaml'), 'utf8');
    expect(notes).toContain('owner_email: "{{$.faker.email}}"');
    expect(notes).toContain('due: "{{$.now}}"');
    expect(notes).toMatch(/body\.owner_email: "format email stated by .* no example: generated with \$\.faker\.email"/);
  }, 120_000);
});
