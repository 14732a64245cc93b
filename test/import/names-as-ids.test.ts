// Items addressed by their name, as a real feature-flag server (Unleash) describes them:
// `POST /projects/{projectId}/features {name}` creates what `/features/{featureName}` reads,
// `/context/{contextField}` is a context field's name, `/environments/{environment}` one of
// the environments the server lists, `/archive/{featureName}` a feature wherever it is. Each
// placeholder is bound to the producer's `name` (it was `<SET_VIA_--var>`, or a field of a
// nested list); and a create's name gets a run-unique part (a UUID), so the next run does not find
// it taken (409).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importApi, type ImportResult } from '../../src/import/index.js';
import type { Endpoint } from '../../src/import/infer/endpoints.js';
import { itemParams, uniqueIdentity } from '../../src/import/infer/identity.js';
import { parsePath } from '../../src/import/infer/paths.js';
import { fileValue, operation, tempDir } from './helpers.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const ok = (status: string, schema: object) => ({ responses: { [status]: { description: 'ok', ...json(schema) } } });
const body = (required: string[], properties: object) => ({ requestBody: { required: true, ...json({ type: 'object', required, properties }) } });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const feature = {
  type: 'object',
  properties: { name: { type: 'string' }, environments: { type: 'array', items: { type: 'object', properties: { featureName: { type: 'string' } } } } },
};

const DOC = {
  openapi: '3.0.3',
  info: { title: 'flags', version: '1' },
  servers: [{ url: 'http://127.0.0.1:4242' }],
  paths: {
    '/api/admin/projects': {
      get: ok('200', { type: 'object', properties: { projects: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } } }),
    },
    '/api/admin/projects/{projectId}/features': {
      parameters: [param('projectId')],
      post: { ...body(['name'], { name: { type: 'string', example: 'disable-comments' } }), ...ok('201', feature) },
    },
    '/api/admin/projects/{projectId}/features/{featureName}': { parameters: [param('projectId'), param('featureName')], get: ok('200', feature) },
    '/api/admin/archive/{featureName}': { parameters: [param('featureName')], delete: { responses: { '200': { description: 'ok' } } } },
    '/api/admin/context': {
      post: {
        ...body(['name'], { name: { type: 'string', example: 'subscriptionTier' } }),
        ...ok('201', { type: 'object', properties: { name: { type: 'string' } } }),
      },
    },
    '/api/admin/context/{contextField}': { parameters: [param('contextField')], get: ok('200', { type: 'object', properties: { name: { type: 'string' } } }) },
    '/api/admin/environments': {
      get: ok('200', { type: 'object', properties: { environments: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } } }),
    },
    '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}': {
      parameters: [param('projectId'), param('featureName'), param('environment')],
      get: ok('200', { type: 'object', properties: { name: { type: 'string' } } }),
    },
    '/api/admin/user-admin': {
      post: {
        ...body(['rootRole'], {
          rootRole: {
            oneOf: [
              { type: 'integer', example: 1, minimum: 0 },
              { type: 'string', example: 'Admin', enum: ['Admin', 'Editor'] },
            ],
          },
        }),
        ...ok('201', { type: 'object', properties: { id: { type: 'integer' } } }),
      },
    },
    '/v1/shipping_rates': {
      post: ok('200', { type: 'object', properties: { id: { type: 'string' }, tax_code: { type: 'object', properties: { name: { type: 'string' } } } } }),
    },
    '/v1/shipping_rates/{shipping_rate_token}': { parameters: [param('shipping_rate_token')], get: ok('200', { type: 'object' }) },
    '/api/admin/strategies/{strategyId}/usage': { parameters: [param('strategyId')], get: ok('200', { type: 'object' }) },
  },
};

let result: ImportResult;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const t = await tempDir();
  cleanup = t.cleanup;
  await writeFile(path.join(t.dir, 'flags.json'), JSON.stringify(DOC));
  result = await importApi(['flags.json'], { cwd: t.dir });
});
afterAll(() => cleanup());

describe('placeholders that name an item by its name', () => {
  it("{featureName} under the collection reads the created feature's top-level name, not a field of a nested list", () => {
    expect(operation(result, 'feature.create').extract).toEqual({ name: '$.data.name' });
    expect(operation(result, 'feature.get').path).toBe('/api/admin/projects/{{project.id}}/features/{{feature.name}}');
  });

  it("{featureName} outside the collection is the feature its name spells; {contextField} is the context's name", () => {
    expect(operation(result, 'archive.delete').path).toBe('/api/admin/archive/{{feature.name}}');
    expect(operation(result, 'archive.delete')._provenance).toMatchObject({
      evidence: { 'path.featureName': expect.stringContaining('names a feature (its name says so); feature.create') },
    });
    expect(operation(result, 'context.get').path).toBe('/api/admin/context/{{context.name}}');
  });

  it('{environment} with no producer under its own collection is one the server lists, by name', () => {
    expect(operation(result, 'environment.get').path).toBe('/api/admin/projects/{{project.id}}/features/{{feature.name}}/environments/{{environment.name}}');
    expect(operation(result, 'environment.list').extract).toEqual({ name: '$.data.environments[*].name' });
  });

  it("an id or a token no operation returns is still the user's to give (never a nested object's name), and nothing else is asked", () => {
    expect(operation(result, 'strategy.usage').path).toBe('/api/admin/strategies/{{env.strategy_id}}/usage');
    expect(operation(result, 'shipping_rate.get').path).toBe('/v1/shipping_rates/{{env.shipping_rate_token}}');
    const vars = (fileValue(result, 'environments/default.yaml') as { variables: Record<string, string> }).variables;
    expect(Object.keys(vars).sort()).toEqual(['baseUrl', 'shipping_rate_token', 'strategy_id']);
  });
});

describe('a value stated by one of the schemas a field may match', () => {
  it('a role given "as its id or its name" (oneOf) takes the first example, instead of a --var', () => {
    expect(operation(result, 'admin.user_admin').body).toEqual({ rootRole: 1 });
  });
});

describe('a create whose item is addressed by its name', () => {
  it('keeps the example and adds the run-unique part to it (a UUID, as every unique literal gets), with why', () => {
    expect(operation(result, 'feature.create').body).toEqual({ name: 'disable-comments-{{$.uuid}}' });
    expect(operation(result, 'context.create').body).toEqual({ name: 'subscriptionTier-{{$.uuid}}' });
    expect(operation(result, 'context.create')._provenance).toMatchObject({
      evidence: { 'body.name': '"subscriptionTier" with a run-unique part: a server keeps name unique, and a second run must not answer 409' },
    });
  });
});

describe('the identity rule on its own (a literal name no other rule made unique)', () => {
  it('appends the same UUID part as every unique literal, never a number that a later run may draw again', () => {
    const endpoint = (method: string, path: string, kind: string) => ({ method, segments: parsePath(path), name: { kind } }) as unknown as Endpoint;
    const create = endpoint('POST', '/features', 'collection');
    const body = { name: 'beta', enabled: true };
    const why = uniqueIdentity(body, create, itemParams([create, endpoint('GET', '/features/{featureName}', 'item')]));
    expect(body).toEqual({ name: 'beta-{{$.uuid}}', enabled: true });
    expect(why?.key).toBe('body.name');
  });
});
