// One test block per reader, on small crafted inputs (test/fixtures/import).
import { describe, expect, it } from 'vitest';
import { readInput } from '../../src/import/index.js';
import { detectFormat, parseJson } from '../../src/import/detect.js';
import { analyzeScript } from '../../src/import/readers/postman-script.js';
import { parseCurlArgs } from '../../src/import/readers/curl-args.js';
import { describeShared } from '../helpers/shared.js';
import { FIXTURES, fileValue, importFixture, operation, texts } from './helpers.js';

describe('format detection', () => {
  const cases: Array<[string, string]> = [
    ['{"openapi":"3.1.0","paths":{}}', 'openapi'],
    ['{"swagger":"2.0","paths":{}}', 'openapi'],
    ['openapi: 3.0.0\npaths: {}\n', 'openapi'],
    ['{"info":{"schema":"https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},"item":[]}', 'postman'],
    ['{"name":"env","values":[],"_postman_variable_scope":"environment"}', 'postman'],
    ['{"log":{"entries":[]}}', 'har'],
    ['Run this:\n\n    curl https://x.test/a\n', 'curl'],
    ['## Items\n\n`GET /api/items`\n', 'markdown'],
  ];
  it.each(cases)('%s -> %s', (text, format) => {
    expect(detectFormat(text, parseJson(text))).toBe(format);
  });
  it('says nothing for text that is none of them', () => {
    expect(detectFormat('just prose', undefined)).toBeUndefined();
  });
});

describe('openapi reader', () => {
  it('resolves $refs, keeps the server prefix in paths and reads links and security', async () => {
    const api = await readInput('petstore-links.oas30.yaml', { cwd: FIXTURES });
    expect(api.inputs[0]).toMatchObject({ format: 'openapi', version: 'OpenAPI 3.0.3', operationCount: 6 });
    const create = api.operations.find((o) => o.key === 'POST /v1/pets')!;
    expect(create.origin).toBe('https://api.example.test');
    expect(create.requestBody?.fields.map((f) => f.path.join('.'))).toEqual(['id', 'name', 'tag']);
    expect(create.responses.map((r) => r.status)).toEqual([201, 400]);
    expect(create.links[0]).toMatchObject({ operationId: 'adoptPet', parameters: { petId: ['id'] } });
    expect(api.operations.find((o) => o.key === 'GET /v1/pets')!.security).toEqual([]);
    expect(api.schemes.map((s) => [s.id, s.kind])).toEqual([
      ['bearerAuth', 'bearer'],
      ['code', 'unsupported'],
    ]);
  });
});

describeShared('openapi reader on the shared corpus', 'corpus/openapi/oai-petstore.swagger2.json', (file) => {
  it('reads Swagger 2.0 host/basePath and body parameters', async () => {
    const api = await readInput(file, { cwd: FIXTURES });
    expect(api.inputs[0].version).toBe('Swagger 2.0');
    expect(api.servers[0].url).toBe('http://petstore.swagger.io/v1');
    expect(api.operations.map((o) => o.key)).toEqual(['GET /v1/pets', 'POST /v1/pets', 'GET /v1/pets/{petId}']);
  });
});

describe('postman reader', () => {
  it('maps folder auth, script-stored variables and status tests', async () => {
    const r = await importFixture(['shop.postman_collection.json']);
    expect(r.findings).toEqual([]);
    const actor = fileValue(r, 'actors/jwt.yaml');
    expect(actor.auth).toMatchObject({ strategy: 'simple', method: 'POST', path: '/api/login', extract: { token: '$.data.data.token' }, expect_status: 200 });
    expect(actor.inject).toEqual({ headers: { Authorization: 'Bearer {{jwt.token}}' } });
    expect(operation(r, 'order.ship_order').path).toBe('/api/orders/{{order.id}}/ship');
    expect(operation(r, 'order.create_order').extract).toEqual({ id: '$.data.order.id' });
    expect(operation(r, 'catalog.public_catalog')).not.toHaveProperty('actor');
    expect(operation(r, 'catalog.public_catalog').query_params).toEqual({ page: '1' });
  });
  it('reads the store calls of a test script from its syntax tree', () => {
    const facts = analyzeScript(
      [
        'var data = JSON.parse(responseBody);',
        "postman.setEnvironmentVariable('tenant', data[0].TenantId);",
        "pm.globals.set('x', 'literal');",
        'tests["ok"] = responseCode.code === 201;',
      ].join('\n'),
    );
    expect(facts.sets).toEqual([
      expect.objectContaining({ variable: 'tenant', field: [0, 'TenantId'] }),
      expect.objectContaining({ variable: 'x', field: undefined }),
    ]);
    expect(facts.statuses).toEqual([201]);
  });
});

describe('har reader', () => {
  it('grounds a placeholder in a value an earlier response returned (base64 bodies decoded)', async () => {
    const r = await importFixture(['capture.har']);
    expect(r.findings).toEqual([]);
    expect(r.api.operations).toHaveLength(2); // the HTML page is not an API operation
    const get = operation(r, 'note.get');
    expect(get.path).toBe('/api/notes/{{note.id}}');
    expect(String((get._provenance as { evidence: Record<string, string> }).evidence['path.id'])).toMatch(
      /value "n_8f3k2j1x9" was returned at id by #1 POST \/api\/notes/,
    );
    expect(operation(r, 'note.create')).toMatchObject({ body: { title: 'hello' }, expect_status: 201, extract: { id: '$.data.id' } });
  });
});

describe('curl reader', () => {
  it('joins continuations, honours shell quoting and reads responses after each command', async () => {
    const r = await importFixture(['session.curl.md']);
    expect(r.findings).toEqual([]);
    expect(r.api.inputs[0]).toMatchObject({ format: 'curl', operationCount: 3 });
    const item = operation(r, 'item.create');
    expect(item).toMatchObject({ method: 'POST', body: { text: 'milk, "fresh"' }, expect_status: 201 });
    expect(item.path).toBe('/api/lists/{{list.id}}/items');
    expect(fileValue(r, 'actors/basic.yaml').auth).toEqual({ strategy: 'basic', username: '{{env.basic_username}}', password: '{{secret.BASIC_PASSWORD}}' });
    expect(operation(r, 'health.get')).not.toHaveProperty('actor');
  });
  it('parses the curl options that shape a request', () => {
    expect(parseCurlArgs(['-vX', 'PUT', 'http://h:1/a', '--data-binary', '@f.jpg', '-H', 'Content-Type: image/jpg'])).toMatchObject({
      method: 'PUT',
      url: 'http://h:1/a',
      data: '@f.jpg',
      headers: [['Content-Type', 'image/jpg']],
    });
    expect(parseCurlArgs(['-G', 'https://h/s', '-d', 'q=1'])).toMatchObject({ method: 'GET', url: 'https://h/s?q=1' });
    expect(parseCurlArgs(['--request=DELETE', '--url', 'https://h/x'])).toMatchObject({ method: 'DELETE', url: 'https://h/x' });
  });
});

describe('markdown reader', () => {
  it('reads endpoints, example bodies, statuses in prose, listed fields and auth statements', async () => {
    const r = await importFixture(['docs.md']);
    expect(r.findings).toEqual([]);
    expect(operation(r, 'book.create')).toMatchObject({
      actor: 'x_api_key',
      body: { title: 'Dune', author: 'Herbert' },
      expect_status: 201,
      extract: { id: '$.data.id' },
    });
    expect(operation(r, 'book.get')).toMatchObject({ path: '/api/books/{{book.id}}', expect_status: 200 });
    expect(operation(r, 'status.get')).not.toHaveProperty('actor');
    const list = r.api.operations.find((o) => o.key === 'GET /api/books')!;
    expect(list.params.map((p) => p.name)).toEqual(['author']);
    expect(fileValue(r, 'actors/x_api_key.yaml').auth).toEqual({ strategy: 'api_key', key: '{{secret.X_API_KEY_KEY}}', location: 'header', name: 'X-Api-Key' });
    expect(Object.keys(texts(r))).toEqual([
      'flow.yaml',
      'environments/default.yaml',
      'actors/x_api_key.yaml',
      'resources/books.yaml',
      'resources/statuses.yaml',
    ]);
  });
});
