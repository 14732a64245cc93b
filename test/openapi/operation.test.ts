// The one lookup of an OpenAPI operation that the contract check, explore and calibrate share:
// the behaviours its three former copies disagreed on (a `$ref`'d requestBody, a `+json` media
// type, a `$ref` chain that comes back to itself), and the response by status.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  bodyFieldSchema,
  describedOperation,
  followRefs,
  pointerValue,
  queryParameters,
  readDescription,
  requestBodySchema,
  requestPathname,
  responseKey,
  responsePointer,
  type Description,
} from '../../src/openapi/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FLAG = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, owner: { $ref: '#/components/schemas/Owner' } } };

async function description(): Promise<Description> {
  const file = path.join(dir, 'flags.json');
  writeFileSync(
    file,
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'flags', version: '1' },
      paths: {
        '/flags': {
          post: {
            requestBody: { $ref: '#/components/requestBodies/Flag' },
            responses: { '201': { $ref: '#/components/responses/Created' }, '4XX': { description: 'no' } },
          },
        },
        '/flags/{name}': {
          parameters: [
            { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'project', in: 'query', schema: { type: 'string', default: 'shared' } },
            { $ref: '#/components/parameters/Env' },
          ],
          get: {
            parameters: [
              { name: 'project', in: 'query', required: true, example: 'mine', schema: { type: 'string' } },
              { name: 'x-trace', in: 'header', schema: { type: 'string' } },
            ],
            responses: {},
          },
          patch: {
            requestBody: {
              content: {
                'text/plain': { schema: { type: 'string' } },
                'application/merge-patch+json; charset=utf-8': { schema: { $ref: '#/components/schemas/Flag' } },
              },
            },
            responses: { default: { description: 'any' } },
          },
          put: { requestBody: { $ref: '#/components/requestBodies/Loop' }, responses: {} },
        },
      },
      components: {
        requestBodies: {
          Flag: {
            content: {
              'application/vnd.flags+json': { schema: { allOf: [{ $ref: '#/components/schemas/Flag' }, { properties: { tags: { type: 'array' } } }] } },
            },
          },
          Loop: { $ref: '#/components/requestBodies/Loop2' },
          Loop2: { $ref: '#/components/requestBodies/Loop' },
        },
        parameters: { Env: { name: 'env', in: 'query', schema: { $ref: '#/components/schemas/Env' } } },
        responses: { Created: { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Flag' } } } } },
        schemas: {
          Env: { type: 'string', enum: ['dev', 'prod'] },
          Flag: FLAG,
          Owner: { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
        },
      },
    }),
  );
  return readDescription(file);
}

describe('the request body of an operation', () => {
  test('follows a $ref to components/requestBodies and reads a +json media type', async () => {
    const desc = await description();
    const create = describedOperation(desc, { method: 'POST', path: '/flags' })!;
    expect(requestBodySchema(desc, create)).toEqual({
      pointer: '/components/requestBodies/Flag/content/application~1vnd.flags+json/schema',
      mediaType: 'application/vnd.flags+json',
    });
    // a field found through allOf and a $ref, a nested one through the property's $ref
    expect(bodyFieldSchema(desc, { method: 'POST', path: '/flags' }, '')).toHaveProperty('allOf');
    expect(bodyFieldSchema(desc, { method: 'POST', path: '/flags' }, 'name')).toEqual({ type: 'string', minLength: 1 });
    expect(bodyFieldSchema(desc, { method: 'POST', path: '/flags' }, 'tags')).toEqual({ type: 'array' });
    expect(bodyFieldSchema(desc, { method: 'POST', path: '/flags' }, 'owner.email')).toEqual({ type: 'string', format: 'email' });
    expect(bodyFieldSchema(desc, { method: 'POST', path: '/flags' }, 'nothing')).toBeUndefined();
  });

  test('picks the JSON media type among others, parameters and all, and matches a path by its {{…}}', async () => {
    const desc = await description();
    // spaces inside the braces, a query: what the graph's parser reads as one reference
    const op = { method: 'PATCH', path: '/flags/{{ flag.name }}?force=1' };
    const found = describedOperation(desc, op)!;
    expect(found.template).toBe('/flags/{name}');
    expect(requestBodySchema(desc, found)?.mediaType).toBe('application/merge-patch+json; charset=utf-8');
    expect(bodyFieldSchema(desc, op, '')?.required).toEqual(['name']);
  });

  test('a requestBody $ref that comes back to itself ends, with no schema', async () => {
    const desc = await description();
    const loop = describedOperation(desc, { method: 'PUT', path: '/flags/{{flag.name}}' })!;
    expect(requestBodySchema(desc, loop)).toBeUndefined();
    expect(followRefs(desc.doc, '/components/requestBodies/Loop')).toBe('/components/requestBodies/Loop2');
  });
});

describe('the query parameters of an operation', () => {
  test("the path item's and its own (its own win by name), $refs followed, the parameter's example kept; no header or path parameter", async () => {
    const desc = await description();
    expect(queryParameters(desc, { method: 'GET', path: '/flags/{{flag.name}}' })).toEqual([
      { name: 'project', required: true, pointer: '/paths/~1flags~1{name}/get/parameters/0/schema', schema: { type: 'string', example: 'mine' } },
      { name: 'env', required: false, pointer: '/components/schemas/Env', schema: { type: 'string', enum: ['dev', 'prod'] } },
    ]);
    expect(queryParameters(desc, { method: 'PATCH', path: '/flags/x' }).map((p) => p.name)).toEqual(['project', 'env']);
    expect(queryParameters(desc, { method: 'GET', path: '/nowhere' })).toEqual([]);
  });
});

describe('the response documented for a status', () => {
  test('exact, then the range, then default; a $ref to components/responses followed', async () => {
    const desc = await description();
    const create = describedOperation(desc, { method: 'POST', path: '/flags' })!;
    expect(responseKey(create, 201)).toBe('201');
    expect(responseKey(create, 422)).toBe('4XX');
    expect(responseKey(create, 500)).toBeUndefined();
    expect(responsePointer(desc, create, '201')).toBe('/components/responses/Created');
    const patch = describedOperation(desc, { method: 'PATCH', path: '/flags/x' })!;
    expect(responseKey(patch, 503)).toBe('default');
  });
});

describe('JSON pointers', () => {
  test('escapes, array indexes, and nothing (not a prototype key) where the document has nothing', () => {
    const doc = { paths: { '/a~b': { get: { parameters: [{ name: 'q' }] } } } };
    expect(pointerValue(doc, '/paths/~1a~0b/get/parameters/0/name')).toBe('q');
    expect(pointerValue(doc, '/paths/constructor')).toBeUndefined();
    expect(pointerValue(doc, '/paths/~1a~0b/get/parameters/3/name')).toBeUndefined();
    expect(pointerValue(doc, '')).toBe(doc);
  });

  test("a template's own quotes, slashes and question marks are one value of the path", () => {
    expect(requestPathname("/files/{{$.url.encode('a/b?c')}}/meta?x=1")).toBe('/files/x/meta');
    expect(requestPathname('/items/{{item.id}}')).toBe('/items/x');
  });
});
