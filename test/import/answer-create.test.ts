// A POST elsewhere that makes another resource's instance, known by its answer: a signup under
// an invitation (`POST /invite/{token}/signup`) answers the named schema the user's read answers
// (`#/components/schemas/User`) and sends only fields the user's create takes. The import makes
// it a create of the user (`user.signup`), which extracts the id as `user.create` does; its
// `{token}` is then the run's own invitation (the issued tie binds this write: what it makes is
// the run's, and `user.delete` removes it). The real CLI runs it, and the clean-up removes both
// the user and the invitation: the server is left as it was. An answer that is inline, or
// another named schema, a write that answers nothing, and a login stay as they were.
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportResult } from '../../src/import/index.js';
import { ANSWERED, jsonBody, send, type CrudServer } from '../helpers/crud-api.js';
import { describeWhenAvailable, NOT_BUILT } from '../helpers/needs.js';
import { BUILT, builtFlow, everyReport, importedApi, operation, runWithEveryReport } from './helpers.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const str = (example?: string) => ({ type: 'string', ...(example ? { example } : {}) });
const body = (properties: Record<string, object>, required = Object.keys(properties)) => ({
  requestBody: { required: true, ...json({ type: 'object', required, properties }) },
});
const answer = (status: string, schema: object) => ({ responses: { [status]: { description: 'the answer', ...json(schema) } } });
const empty = { responses: { '200': { description: 'This response has no body.' } } };
const EX = 'a3c84b25409ea8ca1782ef17f94a42fc';
const SIGNUP = { email: str('jo@example.com'), name: str('Jo'), password: str() };

const DOC = {
  openapi: '3.0.3',
  info: { title: 'invitations', version: '1' },
  servers: [{ url: 'http://127.0.0.1:4242' }],
  paths: {
    // answers what the user's read answers, sends what the user's create takes: a create of a
    // user (described before the user's own create, it is declared after it)
    '/invite/{token}/signup': { parameters: [param('token')], post: { ...body(SIGNUP), ...answer('200', ref('User')) } },
    // the user's create answers a schema of its own; its read answers `User`
    '/api/users': {
      post: { ...body({ ...SIGNUP, username: str('jo'), role: { type: 'integer', example: 1 } }, ['role']), ...answer('201', ref('CreatedUser')) },
    },
    '/api/users/{id}': { parameters: [param('id')], get: answer('200', ref('User')), delete: empty },
    // one more, on a collection path of its own: no producer of {{user.id}} for the reads elsewhere
    '/members': { post: { ...body(SIGNUP), ...answer('200', ref('User')) } },
    '/teams/{teamId}/users/{userId}': { parameters: [param('teamId'), param('userId')], get: answer('200', ref('User')) },
    '/api/invite-links': {
      post: {
        ...body({ name: str('team') }),
        ...answer('201', { type: 'object', properties: { secret: str(EX), url: str(`https://example.com/new-user?invite=${EX}`) } }),
      },
    },
    '/api/invite-links/{token}': { parameters: [param('token')], delete: empty },
    // an id inline, another schema, no answer at all: no create, the write at the tied place stays the user's
    '/invite/{token}/note': {
      parameters: [param('token')],
      post: { ...body({ name: str('n') }), ...answer('200', { type: 'object', properties: { id: { type: 'integer' } } }) },
    },
    '/invite/{token}/card': { parameters: [param('token')], post: { ...body({ name: str('c') }), ...answer('200', ref('Card')) } },
    '/invite/{token}/decline': { parameters: [param('token')], post: { ...body({ name: str('d') }), ...empty } },
    // a login answers who logged in: that user was there
    '/auth/login': { post: { ...body({ username: str('jo'), password: str() }), ...answer('200', ref('User')) } },
  },
  components: {
    schemas: {
      User: { type: 'object', required: ['id'], properties: { id: { type: 'integer', example: 7 }, email: str(), name: str() } },
      CreatedUser: { type: 'object', required: ['id'], properties: { id: { type: 'integer', example: 7 }, email: str(), name: str() } },
      Card: { type: 'object', properties: { id: { type: 'integer' }, name: str() } },
    },
  },
};

interface Store {
  users: Map<number, { email: string; name: string }>;
  links: Set<string>;
  issued: string[];
  log: string[];
}

function handler(store: Store) {
  let next = 1;
  return (req: IncomingMessage, res: ServerResponse, text: string) => {
    const b = jsonBody(req, res, text) as Record<string, unknown> | undefined | typeof ANSWERED;
    if (b === ANSWERED) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const seg = url.pathname.split('/').slice(1).map(decodeURIComponent);
    store.log.push(`${req.method} ${url.pathname}`);
    const user = () => {
      const id = next++;
      store.users.set(id, { email: String(b?.email), name: String(b?.name) });
      return { id, email: b?.email, name: b?.name };
    };
    if (req.method === 'POST' && url.pathname === '/api/users') return send(res, 201, user());
    if (seg[0] === 'api' && seg[1] === 'users' && seg.length === 3) {
      const id = Number(seg[2]);
      if (req.method === 'GET') return store.users.has(id) ? send(res, 200, { id, ...store.users.get(id) }) : send(res, 404);
      if (req.method === 'DELETE') return send(res, store.users.delete(id) ? 200 : 404);
    }
    if (req.method === 'POST' && url.pathname === '/api/invite-links') {
      const secret = `inv-${randomBytes(12).toString('hex')}`;
      store.links.add(secret);
      store.issued.push(secret);
      return send(res, 201, { secret, url: `http://127.0.0.1/new-user?invite=${secret}` });
    }
    if (req.method === 'DELETE' && seg[1] === 'invite-links' && seg.length === 3) return send(res, store.links.delete(seg[2]) ? 200 : 404);
    // a signup with an unknown invitation is refused
    if (req.method === 'POST' && seg[0] === 'invite' && seg[2] === 'signup') return store.links.has(seg[1]) ? send(res, 200, user()) : send(res, 400);
    return send(res, 404, { error: 'no route' });
  };
}

let result: ImportResult;
let dir: string;
let server: CrudServer;
const store: Store = { users: new Map(), links: new Set(), issued: [], log: [] };

importedApi('api.json', DOC, handler(store), (api) => ({ result, dir, server } = api));

describe('the import: a POST that answers what a user is, sending what a user is made of, makes a user', () => {
  it('writes the signup as a create of the user, at the run’s own invitation, extracting the id as the create does; nothing else moves', () => {
    const signup = operation(result, 'user.signup');
    expect(signup).toMatchObject({ method: 'POST', path: '/invite/{{invite_link.secret}}/signup', extract: { id: '$.data.id' } });
    expect(operation(result, 'user.create').extract).toEqual({ id: '$.data.id' });
    const evidence = (signup._provenance as { evidence: Record<string, string> }).evidence;
    expect(evidence.create).toBe(
      `POST /invite/{token}/signup answers #/components/schemas/User (api.json #/paths/~1invite~1{token}~1signup/post/responses/200), as user.get (GET /api/users/{id}) does, and sends only fields user.create's body takes (email, name, password): it makes a user, whose id its answer holds as user.create's does; the run owns what it made, and the clean-up removes it with user.delete (DELETE /api/users/{id})`,
    );
    expect(evidence['path.token']).toMatch(
      /carries that field's example as the value of its query key invite .*; POST \/invite\/\{token\}\/signup is a create of user, which user\.delete removes: what it makes is the run's$/,
    );
    expect(JSON.stringify(result.files.map((f) => f.doc.toJS()))).not.toContain(EX);
    // the plan says so, among the resources
    expect(result.plan).toContain('| user.signup | POST | `/invite/{{invite_link.secret}}/signup` |');
    expect(result.plan).toContain('- user.signup is a create of user: POST /invite/{token}/signup answers #/components/schemas/User');
    // an inline answer, another named schema, a write that answers nothing and a login stay as they were
    expect(operation(result, 'invite.note')).toMatchObject({ path: '/invite/{{env.token}}/note' });
    expect(operation(result, 'invite.card')).toMatchObject({ path: '/invite/{{env.token}}/card' });
    expect(operation(result, 'invite.decline')).toMatchObject({ path: '/invite/{{env.token}}/decline' });
    for (const id of ['invite.note', 'invite.card', 'invite.decline']) expect(operation(result, id).extract).toBeUndefined();
    expect(operation(result, 'auth.login')).toMatchObject({ path: '/auth/login' });
    expect(operation(result, 'auth.login').extract).toBeUndefined();
  });

  it('declares them after the user’s own create, the producer of {{user.id}} for the user’s other operations', () => {
    const file = result.files.find((f) => f.kind === 'resource' && f.id === 'user')!;
    const names = Object.keys((file.doc.toJS() as { operations: object }).operations);
    expect(names.slice(-2)).toEqual(['signup', 'create_2']);
    expect(names.indexOf('create')).toBeLessThan(names.indexOf('signup'));
    expect(operation(result, 'user.create_2')).toMatchObject({ path: '/members', extract: { id: '$.data.id' } });
    // a read elsewhere reads the id the user's create extracts, not the one a signup does
    expect(operation(result, 'user.get_of_team').path).toBe('/teams/{{env.team_id}}/users/{{user.id}}');
    expect(String((operation(result, 'user.get_of_team')._provenance as { evidence: Record<string, string> }).evidence['path.userId'])).toContain(
      'user.create (POST /api/users) returns id',
    );
  });
});

describeWhenAvailable('node bin/flow.js run on the API', BUILT ? undefined : NOT_BUILT, () => {
  const flow = (args: string[]) => builtFlow(dir, args, { FLOW_SECRET_USER_PASSWORD: 'Correct-Horse-9' });

  it('signs up with the run’s own invitation, and the clean-up removes the user it made and the invitation', async () => {
    expect((await flow(['import', 'api.json', '--out', 'project'])).code).toBe(0);
    const r = await flow(runWithEveryReport(['user.signup'], server.url));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(await readFile(path.join(dir, 'out/run.json'), 'utf8')) as { operations: Array<{ id: string; status: string }> };
    expect(Object.fromEntries(report.operations.map((o) => [o.id, o.status]))).toMatchObject({ 'invite_link.create': 'passed', 'user.signup': 'passed' });
    const [mine] = store.issued;
    expect(store.issued).toHaveLength(1);
    expect(store.log).toContain(`POST /invite/${mine}/signup`);
    // the clean-up: the user the signup made (id 1: the only user made), then the invitation
    const cleanUp = store.log.filter((l) => l.startsWith('DELETE'));
    expect(cleanUp).toEqual(['DELETE /api/users/1', `DELETE /api/invite-links/${mine}`]);
    expect(store.users.size).toBe(0);
    expect(store.links.size).toBe(0);
    expect(r.stdout).toContain('/invite/***/signup');
    for (const text of await everyReport(dir, r)) expect(text).not.toContain(mine);
    // {{user.id}} of the user's other operations is the user's own create's: no invitation for them
    store.log.length = 0;
    const get = await flow(['run', '-p', 'project', 'user.get', '--var', `baseUrl=${server.url}`]);
    expect(get.code, get.stdout + get.stderr).toBe(0);
    expect(store.log.filter((l) => l.startsWith('POST'))).toEqual(['POST /api/users']);
    expect(store.users.size).toBe(0);
  }, 60_000);
});
