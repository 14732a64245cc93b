// Which scheme an operation's actor uses when the input states several (spec 5.2: a credential
// issued in advance is `bearer` or `api_key` with a secret), and where the plan says so.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { importApi } from '../../src/import/index.js';
import { fileValue, operation, tempDir } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const SCHEMES = {
  basicAuth: { type: 'http', scheme: 'basic' },
  bearerAuth: { type: 'http', scheme: 'bearer' },
  key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
  oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example.test/token', scopes: {} } } },
  code: {
    type: 'oauth2',
    flows: { authorizationCode: { authorizationUrl: 'https://auth.example.test/a', tokenUrl: 'https://auth.example.test/token', scopes: {} } },
  },
};

/** A one-operation OpenAPI description whose operation accepts `security` (alternatives, in order). */
async function importWith(security: string[]) {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const doc = {
    openapi: '3.0.3',
    info: { title: 'Alternatives', version: '1' },
    servers: [{ url: 'https://api.example.test' }],
    components: { securitySchemes: SCHEMES },
    security: security.map((s) => ({ [s]: [] })),
    paths: { '/things': { get: { operationId: 'listThings', responses: { '200': { description: 'ok' } } } } },
  };
  await writeFile(path.join(dir, 'api.yaml'), stringify(doc));
  return importApi(['api.yaml'], { cwd: dir });
}

function actorFiles(r: Awaited<ReturnType<typeof importApi>>): string[] {
  return r.files.filter((f) => f.kind === 'actor').map((f) => f.path);
}

describe('scheme preference among stated alternatives', () => {
  it('a credential issued in advance beats oauth2 and basic, whatever the input order', async () => {
    const r = await importWith(['basicAuth', 'oauth', 'bearerAuth']);
    expect(r.findings).toEqual([]);
    expect(actorFiles(r)).toEqual(['actors/bearer_auth.yaml']);
    expect(fileValue(r, 'actors/bearer_auth.yaml').auth).toEqual({ strategy: 'bearer', token: '{{secret.BEARER_AUTH_TOKEN}}' });
    expect(operation(r, 'thing.list').actor).toBe('bearer_auth');
  });
  it('an API key counts as issued in advance, and keeps its secret', async () => {
    const r = await importWith(['basicAuth', 'key']);
    expect(fileValue(r, 'actors/key.yaml').auth).toEqual({ strategy: 'api_key', key: '{{secret.KEY_KEY}}', location: 'header', name: 'X-Api-Key' });
  });
  it('oauth2 comes before basic; basic is used only when nothing else is stated', async () => {
    expect(actorFiles(await importWith(['basicAuth', 'oauth']))).toEqual(['actors/oauth.yaml']);
    expect(actorFiles(await importWith(['basicAuth']))).toEqual(['actors/basic_auth.yaml']);
  });
  it('equal ranks keep the input order', async () => {
    expect(actorFiles(await importWith(['key', 'bearerAuth']))).toEqual(['actors/key.yaml']);
    expect(actorFiles(await importWith(['bearerAuth', 'key']))).toEqual(['actors/bearer_auth.yaml']);
  });
  it('the plan gives the choice at the end of Actors, not in a sixth section', async () => {
    const r = await importWith(['basicAuth', 'bearerAuth']);
    const actors = r.plan.slice(r.plan.indexOf('## Actors'), r.plan.indexOf('## Resources and operations'));
    expect(actors).toContain(
      'Operations that accept basicAuth or bearerAuth use bearerAuth (a credential issued in advance first, basic last): 1 (thing.list).',
    );
    expect(r.plan).not.toContain('## Notes');
  });
  it('an unsupported scheme among the alternatives is passed over, without a question', async () => {
    const r = await importWith(['code', 'basicAuth']);
    expect(actorFiles(r)).toEqual(['actors/basic_auth.yaml']);
    expect(r.draft.questions).toEqual([]);
  });
});

/** An API key on every operation, and a login that takes a user and password; `answer`: its 200 body's schema (none: not described). */
async function importLogin(answer: Record<string, unknown> | undefined, password = 'password') {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  const json = (schema: Record<string, unknown>) => ({ content: { 'application/json': { schema } } });
  const doc = {
    openapi: '3.0.3',
    info: { title: 'Sessions', version: '1' },
    servers: [{ url: 'https://api.example.test' }],
    components: { securitySchemes: { key: SCHEMES.key } },
    security: [{ key: [] }],
    paths: {
      '/auth/login': {
        post: {
          operationId: 'login',
          requestBody: json({
            type: 'object',
            required: ['username', password],
            properties: { username: { type: 'string', example: 'user' }, [password]: { type: 'string' } },
          }),
          responses: { '200': { description: 'ok', ...(answer ? json(answer) : {}) } },
        },
      },
      '/me': { get: { operationId: 'me', responses: { '200': { description: 'ok' } } } },
    },
  };
  await writeFile(path.join(dir, 'api.yaml'), stringify(doc));
  return importApi(['api.yaml'], { cwd: dir });
}

describe('a login whose answer holds no token: a session actor', () => {
  const user = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
  it('is a second actor whose login is that request, with its user and password; operations stay on the described scheme', async () => {
    const r = await importLogin(user);
    expect(actorFiles(r)).toEqual(['actors/key.yaml', 'actors/session.yaml']);
    expect(fileValue(r, 'actors/session.yaml').auth).toEqual({
      strategy: 'simple',
      method: 'POST',
      path: '/auth/login',
      body: { username: '{{env.auth_username}}', password: '{{secret.AUTH_PASSWORD}}' },
      expect_status: 200,
    });
    // the same user and password as the login operation's: one of each to give
    expect(operation(r, 'auth.login').body).toEqual({ username: '{{env.auth_username}}', password: '{{secret.AUTH_PASSWORD}}' });
    expect(operation(r, 'me.get').actor).toBe('key');
    // the assumption is said: in the actor's file and in the plan
    expect(r.files.find((f) => f.path === 'actors/session.yaml')!.doc.commentBefore).toContain('the session is assumed to be the cookie(s) it sets');
    const actors = r.plan.slice(r.plan.indexOf('## Actors'), r.plan.indexOf('## Resources and operations'));
    expect(actors).toContain('- **session**: Logs in with POST /auth/login; its session is assumed to be the cookie(s) the login sets');
    expect(actors).toMatch(
      /Actor session: POST \/auth\/login takes a password and its answer has no token: the session is assumed to be the cookie\(s\) it sets.*No operation uses it/,
    );
    expect(r.findings).toEqual([]);
  });
  it('not when the answer has a token (the login of the key actor), is not described, or the body sends another credential', async () => {
    const token = await importLogin({ type: 'object', properties: { token: { type: 'string' } } });
    expect(actorFiles(token)).toEqual(['actors/key.yaml']);
    expect(fileValue(token, 'actors/key.yaml').auth).toMatchObject({ strategy: 'simple', extract: { token: '$.data.token' } });
    expect(actorFiles(await importLogin(undefined))).toEqual(['actors/key.yaml']);
    expect(actorFiles(await importLogin(user, 'client_secret'))).toEqual(['actors/key.yaml']);
  });
});
