// A write that looks a user up by e-mail (a password reset for `{"id": "user@example.com"}`, a
// reset e-mail for `{"email": …}`), answered 404 "No user found" as a feature-flag server
// answers it: the import sends the description's example made run-unique, which names nobody.
// Calibrate tries the e-mail of the user this run creates: the create sends a run-unique one
// (its description has `email`, which the import left out as optional), extracts it, and the
// write sends `{{user.email}}`; proposed once a 2xx proves it. The run is then green, and the
// clean-up removes the user.
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { jsonBody, send, serveCrud, ANSWERED, type CrudServer } from '../helpers/crud-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

/** id -> the user */
const users = new Map<number, { id: number; name: string; username: string | null; email: string | null }>();
let next = 1;
/** the users a reset was sent for */
const resets = new Set<number>();
let api: CrudServer;

beforeAll(async () => {
  api = await serveCrud((req, res, text) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = jsonBody(req, res, text);
    if (body === ANSWERED) return;
    const b = (body ?? {}) as Record<string, unknown>;
    const byEmail = (email: unknown) => [...users.values()].find((u) => u.email !== null && u.email === email);
    if (req.method === 'POST' && url.pathname === '/users') {
      if (typeof b.name !== 'string') return send(res, 400, { message: 'name is required' });
      // as a flag server's Joi check words it: a sentence naming the fields
      if (typeof b.username !== 'string' && typeof b.email !== 'string')
        return send(res, 400, {
          name: 'BadDataError',
          message: 'You must specify username or email',
          details: [{ message: 'You must specify username or email' }],
        });
      if ([...users.values()].some((u) => u.username !== null && u.username === b.username)) return send(res, 409, { message: 'username taken' });
      const user = {
        id: next++,
        name: b.name,
        username: typeof b.username === 'string' ? b.username : null,
        email: typeof b.email === 'string' ? b.email : null,
      };
      users.set(user.id, user);
      return send(res, 201, user);
    }
    const one = /^\/users\/(\d+)$/.exec(url.pathname);
    if (one && req.method === 'GET')
      return users.has(Number(one[1])) ? send(res, 200, users.get(Number(one[1]))) : send(res, 404, { message: 'No user found' });
    if (one && req.method === 'DELETE') return send(res, users.delete(Number(one[1])) ? 200 : 404);
    // one reset a user, as a flag server limits them (one e-mail a minute per user): a second one is 429
    const reset = (user: { id: number } | undefined, ok: () => void) => {
      if (!user) return send(res, 404, { name: 'NotFoundError', message: 'No user found' });
      if (resets.has(user.id))
        return send(res, 429, { name: 'RateLimitError', message: 'You can only send one new reset password email per minute, per user.' });
      resets.add(user.id);
      ok();
    };
    if (req.method === 'POST' && url.pathname === '/users/reset-password')
      return reset(byEmail(b.id), () => {
        send(res, 200, { resetPasswordUrl: `http://x/reset-password?token=${randomUUID()}` });
      });
    if (req.method === 'POST' && url.pathname === '/auth/password-email') return reset(byEmail(b.email), () => send(res, 200));
    send(res, 404, { message: 'no route' });
  });
});
afterAll(async () => {
  await api.close();
  await cleanProjects();
});

const email = (description: string) => ({ type: 'string', description, example: 'user@example.com' });
const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'users', version: '1' },
  paths: {
    '/users': {
      post: {
        operationId: 'createUser',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string', example: 'Jo' },
                  username: { type: 'string', example: 'hunter' },
                  email: { type: 'string', format: 'email' },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'the user', content: { 'application/json': { schema: { $ref: '#/components/schemas/user' } } } } },
      },
    },
    '/users/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: 'getUser',
        responses: { '200': { description: 'the user', content: { 'application/json': { schema: { $ref: '#/components/schemas/user' } } } } },
      },
      delete: { operationId: 'deleteUser', responses: { '200': { description: 'deleted' } } },
    },
    '/users/reset-password': {
      post: {
        operationId: 'resetUserPassword',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: email('User email') } } } },
        },
        responses: { '200': { description: 'a reset link' }, '404': { description: 'No user found' } },
      },
    },
    '/auth/password-email': {
      post: {
        operationId: 'sendResetPasswordEmail',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['email'], properties: { email: email('e-mail') } } } },
        },
        responses: { '200': { description: 'sent' }, '404': { description: 'No user found' } },
      },
    },
  },
  components: {
    schemas: {
      user: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string', nullable: true } } },
    },
  },
};

async function flow(cwd: string, args: string[]) {
  const rec = recordedIO({ cwd, env: {} });
  const code = await main([...args, ...(args[0] === 'import' ? [] : ['--var', `baseUrl=${api.url}`])], rec.io);
  return { code, stdout: rec.out(), stderr: rec.err() };
}

describe('flow calibrate: an e-mail a write looks a user up by, answered 404', () => {
  it('is the e-mail of the user this run creates: proposed once a 2xx proves it; the run is green and leaves nobody', async () => {
    const dir = await writeProject({ 'openapi.json': JSON.stringify(OPENAPI) });
    expect((await flow(dir, ['import', 'openapi.json', '--out', 'project'])).code).toBe(0);
    const project = path.join(dir, 'project');
    const imported = await readFile(path.join(project, 'resources/users.yaml'), 'utf8');
    // the import sends the example, run-unique, and no e-mail in the create (optional)
    expect(imported).toMatch(/id: user\+\{\{\$\.uuid\}\}@example\.com/);

    const r = await flow(project, ['calibrate', '--writes', '--destructive', '--apply']);
    // the first write tried adds the e-mail to the create; the second finds it there (a try includes this round's edits)
    expect(r.stdout).toMatch(
      /answered 404, and `email` held an e-mail that names nobody this run made: the e-mail of the user it creates \(user\.create may send \(the description has it\) `email`\); then 200/,
    );
    expect(r.stdout).toMatch(
      /answered 404, and `id` held an e-mail that names nobody this run made: the e-mail of the user it creates \(user\.create sends `email` and extracts it\); then 200/,
    );
    // a username the server keeps unique gets a run-unique part, as the import gives one: the create runs more than once a run
    expect(r.stdout).toContain('add `body.username: "hunter-{{$.uuid}}"`');
    // the two resets in one round act on one user, and the second is refused (429): each gets its own user
    expect(r.stdout).toMatch(
      /answered 429 in the round, after auth\.password_email(, [a-z_.]+)* used the same user; 200 on an instance of its own, and 200 after them once each makes its own/,
    );
    expect(r.stdout).toContain('add `force: true` (each operation that needs it runs it for itself)');
    expect(r.stdout).toContain('## Open questions\n\nNone.');
    const written = await readFile(path.join(project, 'resources/users.yaml'), 'utf8');
    expect(written).toMatch(/create:\n(    .*\n)*    force: true\n/);
    expect(written).toContain('id: "{{user.email}}"');
    expect(written).toMatch(/email: user\+\{\{\$\.uuid\}\}@example\.com/);
    expect(written).toContain('email: $.data.email');
    expect(users.size).toBe(0);

    // each operation that needs a user makes its own (the 4 the clean-up removes, and the one user.delete does)
    const run = await flow(project, ['run', '--all']);
    expect(run.stdout, run.stdout + run.stderr).toMatch(/^9 passed, 0 failed \(/m);
    expect(users.size).toBe(0);
    // settled: a second calibrate proposes nothing
    const again = await flow(project, ['calibrate', '--writes', '--destructive']);
    expect(again.stdout).toContain('None: no answer contradicts an expectation.');
  });

  it('names nobody when two resources could each have made the one it looks for: nothing proposed', async () => {
    const twice = structuredClone(OPENAPI) as typeof OPENAPI & { paths: Record<string, unknown> };
    twice.paths['/admins'] = { post: structuredClone(OPENAPI.paths['/users'].post) };
    (twice.paths['/admins'] as { post: { operationId: string } }).post.operationId = 'createAdmin';
    twice.paths['/admins/{id}'] = structuredClone(OPENAPI.paths['/users/{id}']);
    const dir = await writeProject({ 'openapi.json': JSON.stringify(twice) });
    expect((await flow(dir, ['import', 'openapi.json', '--out', 'project'])).code).toBe(0);
    const project = path.join(dir, 'project');
    const r = await flow(project, ['calibrate', '--writes', '--destructive']);
    // the reset is the user resource's own: its create; the e-mail of the auth resource has two candidates
    expect(r.stdout).toContain('the e-mail of the user it creates');
    expect(r.stdout).not.toMatch(/`email` held an e-mail that names nobody/);
    expect(users.size).toBe(0);
  });
});
