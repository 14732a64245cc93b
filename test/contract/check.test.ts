// The checker on its own, for what the pets API does not exercise: OpenAPI 3.1 (JSON Schema
// 2020-12), 3.0's nullable and discriminator, formats, status ranges, base paths and path
// templates. The responses are built with createResponse: the checker reads nothing else.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { checkResponse, Schemas, violationLine } from '../../src/contract/index.js';
import { readDescription } from '../../src/openapi/index.js';
import { createResponse } from '../../src/http/response.js';

const dir = mkdtempSync(path.join(tmpdir(), 'reqflow-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function description(version: string, schema: object, extra: object = {}): Promise<Awaited<ReturnType<typeof readDescription>>> {
  const file = path.join(dir, `d${Math.random().toString(36).slice(2)}.json`);
  const doc = {
    openapi: version,
    info: { title: 't', version: '1' },
    servers: [{ url: 'https://api.example.test/{base}', variables: { base: { default: 'api/v2' } } }],
    paths: {
      '/things/{id}': { get: { responses: { '2XX': { description: 'ok', content: { 'application/json': { schema } } }, default: { description: 'error' } } } },
      '/things/mine': { get: { responses: { '200': { description: 'mine', content: { 'text/*': {} } } } } },
    },
    ...extra,
  };
  writeFileSync(file, JSON.stringify(doc));
  return readDescription(file);
}

async function verdict(version: string, schema: object, body: unknown, opts: { status?: number; url?: string; extra?: object } = {}) {
  const desc = await description(version, schema, opts.extra);
  const res = createResponse({ status: opts.status ?? 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
  const v = checkResponse(desc, new Schemas(desc.doc, desc.version), 'GET', opts.url ?? 'http://127.0.0.1:1/api/v2/things/7', res, (x) => x);
  return { ...v, lines: v.violations.map(violationLine) };
}

describe('OpenAPI 3.0', () => {
  test('nullable allows null only where it is said', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string', nullable: true }, b: { type: 'string' } } };
    expect((await verdict('3.0.3', schema, { a: null, b: 'x' })).lines).toEqual([]);
    expect((await verdict('3.0.3', schema, { a: null, b: null })).lines).toEqual(['/b: expected type string, got null']);
  });

  test('discriminator picks the branch by its tag, with or without a mapping', async () => {
    const cat = { type: 'object', required: ['kind', 'purrs'], properties: { kind: { enum: ['cat'] }, purrs: { type: 'boolean' } } };
    const dog = { type: 'object', required: ['kind', 'barks'], properties: { kind: { enum: ['dog'] }, barks: { type: 'boolean' } } };
    const schema = {
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
      discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } },
    };
    const extra = { components: { schemas: { Cat: cat, Dog: dog } } };
    expect((await verdict('3.0.3', schema, { kind: 'dog', barks: true }, { extra })).lines).toEqual([]);
    // the tag chose Dog: only Dog's requirement is reported
    expect((await verdict('3.0.3', schema, { kind: 'dog', purrs: true }, { extra })).lines).toEqual(['/barks: expected a required property, got missing']);
  });

  test('boolean exclusiveMinimum and formats', async () => {
    const schema = { type: 'object', properties: { n: { type: 'number', minimum: 0, exclusiveMinimum: true }, at: { type: 'string', format: 'date-time' } } };
    expect((await verdict('3.0.3', schema, { n: 1, at: '2026-01-02T03:04:05Z' })).lines).toEqual([]);
    expect((await verdict('3.0.3', schema, { n: 0, at: 'yesterday' })).lines).toEqual([
      '/n: expected > 0 (exclusiveMinimum), got 0',
      '/at: expected format "date-time", got "yesterday"',
    ]);
  });
});

describe('what each kind of violation says', () => {
  test('a forbidden property, a value out of range, a body that is not JSON', async () => {
    const schema = { type: 'object', additionalProperties: false, properties: { age: { type: 'integer', minimum: 0 } } };
    expect((await verdict('3.0.3', schema, { age: -1, internal: true })).lines).toEqual([
      '/internal: expected no such property (additionalProperties: false), got true',
      '/age: expected >= 0 (minimum), got -1',
    ]);
    const desc = await description('3.0.3', schema);
    const res = createResponse({ status: 200, headers: { 'content-type': 'application/json' }, body: '<html>oops</html>' });
    const v = checkResponse(desc, new Schemas(desc.doc, desc.version), 'GET', 'http://h/api/v2/things/1', res, (x) => x);
    expect(v.violations.map(violationLine)).toEqual(['(body): expected JSON (application/json), got <html>oops</html>']);
  });
});

describe('OpenAPI 3.1 (JSON Schema 2020-12)', () => {
  test('type arrays, prefixItems and $defs-style refs', async () => {
    const schema = {
      type: 'object',
      properties: { a: { type: ['string', 'null'] }, pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } },
    };
    expect((await verdict('3.1.0', schema, { a: null, pair: ['x', 1] })).lines).toEqual([]);
    expect((await verdict('3.1.0', schema, { a: 3, pair: ['x', 'y'] })).lines).toEqual([
      '/a: expected type string or null, got 3',
      '/pair/1: expected type integer, got "y"',
    ]);
  });

  test('a recursive schema is followed through its $ref', async () => {
    const extra = {
      components: {
        schemas: {
          Node: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
          },
        },
      },
    };
    const v = await verdict('3.1.0', { $ref: '#/components/schemas/Node' }, { name: 'a', children: [{ name: 'b', children: [{}] }] }, { extra });
    expect(v.lines).toEqual(['/children/0/children/0/name: expected a required property, got missing']);
  });
});

describe('matching a response to its operation', () => {
  test('the server base path (with its variables) is respected, and a literal path wins over a template', async () => {
    const schema = { type: 'object' };
    expect((await verdict('3.1.0', schema, {})).operation).toBe('GET /things/{id}');
    expect((await verdict('3.1.0', schema, {}, { url: 'http://h/api/v2/things/mine' })).operation).toBe('GET /things/mine');
    // without the base path, it is not this API's operation
    expect((await verdict('3.1.0', schema, {}, { url: 'http://h/things/7' })).undocumented).toBe('GET /things/7 is not in the description');
  });

  test('a response given by $ref is checked where it points', async () => {
    const file = path.join(dir, 'ref.json');
    const problem = { description: 'error', content: { 'application/json': { schema: { type: 'object', required: ['message'] } } } };
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: { '/x': { get: { responses: { '404': { $ref: '#/components/responses/Problem' } } } } },
        components: { responses: { Problem: problem } },
      }),
    );
    const desc = await readDescription(file);
    const res = createResponse({ status: 404, headers: { 'content-type': 'application/json' }, body: '{"error":"gone"}' });
    expect(checkResponse(desc, new Schemas(desc.doc, desc.version), 'GET', 'http://h/x', res, (x) => x).violations.map(violationLine)).toEqual([
      '/message: expected a required property, got missing',
    ]);
  });

  test('a status range covers its statuses, and default the rest', async () => {
    expect((await verdict('3.1.0', { type: 'object' }, {}, { status: 203 })).violations).toEqual([]);
    // default documents no content: a body is a violation
    expect((await verdict('3.1.0', { type: 'object' }, {}, { status: 500 })).lines).toEqual(['expected no body for default, got application/json (2 bytes)']);
  });
});

describe('a schema Ajv cannot compile', () => {
  test('is E_CONTRACT_LOAD naming the schema, not a bare SyntaxError (E_INTERNAL in the run)', async () => {
    const err = await verdict('3.0.3', { type: 'string', pattern: '([' }, 'x').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'E_CONTRACT_LOAD' });
    expect((err as Error).message).toContain('/paths/~1things~1{id}/get/responses/2XX/content/application~1json/schema');
    expect((err as Error).message).toContain('Invalid regular expression');
  });
});
