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
