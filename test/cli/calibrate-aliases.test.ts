// Ids the answers hold under another name: a token server whose create answers
// `{id, secret, tokenName}` while its paths take `{token}` (the secret) and `{name}` (the
// tokenName), as the import leaves them: `<SET_VIA_--var>`. `flow calibrate` finds each in the
// create's answer, proves it on a read before a write uses it, proposes the extraction and the
// reference, never shows a secret, and a second calibrate proposes nothing.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { jsonBody, send, serveCrud, ANSWERED, type CrudServer } from '../helpers/crud-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

interface Token {
  id: number;
  secret: string;
  tokenName: string;
}

const tokens = new Map<string, Token>();
const links = new Map<string, Token>();
/** every secret the server ever answered: none may be shown */
const issued: string[] = [];
/** `METHOD path` of each write sent with a value that names no token */
const blind: string[] = [];
let api: CrudServer;
let next = 0;

beforeAll(async () => {
  api = await serveCrud((req, res, text) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // a PUT needs a JSON body
    if (req.method === 'PUT' && !req.headers['content-type']) return send(res, 415, { message: 'We do not accept the content-type you provided' });
    const body = jsonBody(req, res, text);
    if (body === ANSWERED) return;
    const parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
    if (req.method === 'POST' && url.pathname === '/api/tokens') {
      const name = (body as { tokenName?: unknown })?.tokenName;
      if (typeof name !== 'string') return send(res, 400, { message: '"tokenName" is required' });
      const token = { id: ++next, secret: randomBytes(16).toString('hex'), tokenName: name };
      tokens.set(token.secret, token);
      issued.push(token.secret);
      return send(res, 201, { ...token, createdAt: new Date().toISOString() });
    }
    if (parts[0] === 'api' && parts[1] === 'token-names' && parts.length === 3 && req.method === 'GET') {
      // 200 for any name, as a filter does: only the answer holding the name proves it
      return send(res, 200, { tokens: [...tokens.values()].filter((t) => t.tokenName === parts[2]).map((t) => ({ tokenName: t.tokenName })) });
    }
    const token = parts.length >= 3 ? tokens.get(parts[2]) : undefined;
    if (parts[0] === 'api' && parts[1] === 'tokens' && parts.length === 3) {
      if (!token) {
        if (req.method !== 'GET') blind.push(`${req.method} ${url.pathname}`);
        return send(res, 404, { message: 'Could not find token.' });
      }
      if (req.method === 'GET') return send(res, 200, { tokenName: token.tokenName });
      if (req.method === 'PUT') return send(res, 200, {});
      if (req.method === 'DELETE') return void (tokens.delete(token.secret), send(res, 200));
    }
    // a link is created with a numeric id and read by its secret
    if (req.method === 'POST' && url.pathname === '/api/links') {
      const link = { id: ++next, secret: randomBytes(16).toString('hex'), tokenName: `link-${next}` };
      links.set(link.secret, link);
      issued.push(link.secret);
      return send(res, 201, { ...link, users: [{ id: 3 }] });
    }
    if (parts[0] === 'api' && parts[1] === 'links' && parts.length === 3) {
      const link = links.get(parts[2]);
      if (!link) return send(res, 404, { message: 'Could not find link.' });
      if (req.method === 'GET' || req.method === 'PUT') return send(res, 200, { tokenName: link.tokenName });
      if (req.method === 'DELETE') return void (links.delete(link.secret), send(res, 200));
    }
    // 200 whatever the key: nothing proves which field it is
    if (parts[0] === 'api' && parts[1] === 'usage' && req.method === 'GET') return send(res, 200, { count: 0 });
    if (parts[0] === 'invite' && parts[2] === 'validate' && req.method === 'GET') {
      const invited = tokens.get(parts[1]);
      return invited ? send(res, 200, { valid: true }) : send(res, 404, { message: 'Could not find token.' });
    }
    send(res, 404, { message: 'no route' });
  });
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

const FILES = () => ({
  'flow.yaml': 'version: 1\nname: aliases\nimports: [environments/*.yaml, resources/*.yaml]\n',
  'environments/local.yaml': `name: local\nvariables:\n  baseUrl: ${JSON.stringify(api.url)}\n  token: <SET_VIA_--var>\n  token_name: <SET_VIA_--var>\n  usage_key: <SET_VIA_--var>\n`,
  'resources/tokens.yaml': [
    'name: token',
    'operations:',
    '  create: { method: POST, path: /api/tokens, body: { tokenName: "t-{{$.uuid}}" }, expect_status: 201 }',
    '  get: { path: "/api/tokens/{{env.token}}", expect_status: 200 }',
    '  by_name: { path: "/api/token-names/{{env.token_name}}", expect_status: 200 }',
    '  update: { method: PUT, path: "/api/tokens/{{env.token}}", body: { expiresAt: "2031-01-01T00:00:00Z" }, expect_status: 200 }',
    '  delete: { method: DELETE, path: "/api/tokens/{{env.token}}", expect_status: 200 }',
    '  usage: { path: "/api/usage/{{env.usage_key}}", expect_status: 200 }',
    '',
  ].join('\n'),
  'resources/links.yaml': [
    'name: link',
    'operations:',
    '  create: { method: POST, path: /api/links, body: { note: x }, expect_status: 201, extract: { id_2: "$.data.users[*].id" } }',
    '  get: { path: "/api/links/{{link.id_2}}", expect_status: 200 }',
    '  update: { method: PUT, path: "/api/links/{{link.id_2}}", expect_status: 200 }',
    '  delete: { method: DELETE, path: "/api/links/{{link.id_2}}", expect_status: 200 }',
    '',
  ].join('\n'),
  'resources/invites.yaml': ['name: invite', 'operations:', '  validate: { path: "/invite/{{env.token}}/validate", expect_status: 200 }', ''].join('\n'),
});

async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd, env: {} });
  const code = await main(args, rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

it('a path id the create answers under another name is found, proven on a read, proposed, and never shown', async () => {
  const dir = await writeProject(FILES());
  const r = await flow(dir, ['calibrate', '--writes', '--destructive', '--apply']);
  expect(r.stderr).not.toMatch(/E_INTERNAL/);
  const yaml = await readFile(path.join(dir, 'resources/tokens.yaml'), 'utf8');
  // the create extracts both; each path reads the field that names it
  expect(yaml).toMatch(/secret: \$\.data\.secret/);
  expect(yaml).toMatch(/tokenName: \$\.data\.tokenName/);
  expect(yaml).toContain('path: "/api/tokens/{{token.secret}}"');
  expect(yaml).toContain('path: "/api/token-names/{{token.tokenName}}"');
  expect(yaml).not.toContain('{{env.token');
  // a read that answers 2xx to a value that names nothing proves a field only by holding it
  expect(r.stdout).toMatch(/token\.by_name: path[^]*then 200 with it \(its answer holds it: it answers 2xx to a value that names nothing too\)/);
  expect(yaml).toContain('path: "/api/usage/{{env.usage_key}}"');
  expect(r.stdout).toContain('- token.usage: needs --var usage_key=');
  // the invite's `{token}` is the token resource's secret (the id is named after it)
  expect(await readFile(path.join(dir, 'resources/invites.yaml'), 'utf8')).toContain('path: "/invite/{{token.secret}}/validate"');
  // a link that answered 404: the field that names it instead, the write after the read (its 415 answered too)
  const linkYaml = await readFile(path.join(dir, 'resources/links.yaml'), 'utf8');
  // (its extraction corrected: a list's `[*]` made the create no create, which a write may not act on)
  expect(linkYaml).toMatch(/extract: \{ id_2: "\$\.data\.secret" \}/);
  expect(linkYaml.match(/path: "\/api\/links\/\{\{link\.id_2\}\}"/g)).toHaveLength(3);
  expect(r.stdout).toMatch(/`\{\{link\.id_2\}\}` answered 404; link\.create answered 201 with `secret`; then 200 with it/);
  // the report says which field and what proved it: the read first, for a write
  expect(r.stdout).toMatch(/`\{\{env\.token\}\}` was never given \(<SET_VIA_--var>\); token\.create answered 201 with `secret`/);
  expect(r.stdout).toMatch(/token\.update.*token\.get \(GET \/api\/tokens\/\{\{token\.secret\}\}\) answered 200 with it; then 200 with it/s);
  // the numeric `id` and the `tokenName` are not what `{token}` is; no write was sent to prove a guess
  expect(blind).toEqual([]);
  for (const secret of issued) expect(r.stdout + r.stderr).not.toContain(secret);
  expect(r.code).toBe(0);

  const before = tokens.size + links.size;
  const run = await flow(dir, ['run', '--all', '--reporter', 'json']);
  const report = JSON.parse(run.stdout) as { operations: Array<{ id: string; status: string }> };
  expect(report.operations.filter((o) => o.status !== 'passed').map((o) => o.id)).toEqual(['token.usage']);
  expect(report.operations).toHaveLength(11);
  for (const secret of issued) expect(run.stdout + run.stderr).not.toContain(secret);
  // the run deleted what it made
  expect(tokens.size + links.size).toBe(before);

  const again = await flow(dir, ['calibrate', '--writes', '--destructive']);
  expect(again.stdout).toContain('## Proposals\n\nNone: no answer contradicts an expectation.');
  for (const secret of issued) expect(again.stdout).not.toContain(secret);
}, 60_000);
