// OpenAPI `$ref`s: followed only where a Reference Object is allowed, never fetched when remote,
// and one that cannot be resolved loses only what needs it. Each input is a small file written
// for the test in the shape of a public description that failed (a remote $ref inside an
// example value made the whole file fail with E_IMPORT_PARSE).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importApi, readInput } from '../../src/import/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';
import { operation, texts } from './helpers.js';

afterEach(cleanProjects);

// A server that counts the requests it gets: a remote $ref must never reach it.
let hits = 0;
let origin = '';
const server = createServer((_req, res) => {
  hits++;
  res.setHeader('content-type', 'application/json');
  res.end('{"type":"object","properties":{"remote":{"type":"string"}}}');
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const HEAD = `openapi: 3.0.3
info: { title: Pets, version: '1' }
servers: [{ url: 'https://pets.test' }]
`;

const petPaths = (extra = '') => `
paths:
  /pets:
    post:
      operationId: createPet
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewPet' }
            examples:
              cat: { $ref: '#/components/examples/Cat' }
      responses:
        '201': { description: created }
  /pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string, example: p1 } }
      responses:
        '200': { description: ok }
${extra}`;

describe('openapi $ref', () => {
  it('leaves a $ref inside example, examples.*.value, default and enum as data, and fetches nothing', async () => {
    const dir = await writeProject({
      'api.yaml': `${HEAD}${petPaths()}
components:
  schemas:
    NewPet:
      type: object
      required: [name, meta]
      properties:
        name: { type: string, default: { $ref: '${origin}/default.json' } }
        meta: { type: object, enum: [{ $ref: '${origin}/enum.json' }] }
  examples:
    Cat:
      value: { name: Tom, meta: { $ref: '${origin}/schemas/Meta.json' } }
`,
    });
    const r = await importApi(['api.yaml'], { cwd: dir });
    expect(hits).toBe(0);
    expect(r.findings).toEqual([]);
    // The example is the body, its `$ref` key kept as the literal data it is.
    expect(operation(r, 'pet.create').body).toEqual({ name: 'Tom-{{$.uuid}}', meta: { $ref: `${origin}/schemas/Meta.json` } });
    expect(r.draft.questions).toEqual([]);
  });

  it('a remote reference becomes an open question naming it; the operations that do not need it import', async () => {
    const dir = await writeProject({
      'api.yaml': `${HEAD}${petPaths()}
components:
  schemas:
    NewPet: { $ref: '${origin}/schemas/NewPet.json' }
  examples:
    Cat: { value: { name: Tom } }
`,
    });
    const r = await importApi(['api.yaml'], { cwd: dir });
    expect(hits).toBe(0);
    expect(operation(r, 'pet.get').path).toBe('/pets/{{env.pet_id}}');
    expect(() => operation(r, 'pet.create')).toThrow(/no (resource|operation)/);
    expect(r.draft.questions).toHaveLength(1);
    expect(r.draft.questions[0].text).toContain(`$ref "${origin}/schemas/NewPet.json" is a remote reference, never fetched`);
    expect(r.draft.questions[0].blocks).toEqual(['pet.create']);
    expect(r.draft.questions[0].evidence?.at).toBe('#/components/schemas/NewPet');
  });

  it('a broken local reference and an unreadable file cost only what needs them', async () => {
    const dir = await writeProject({
      'api.yaml': `${HEAD}${petPaths(`  /owners:
    post:
      requestBody:
        content:
          application/json:
            schema: { $ref: './missing.yaml#/Owner' }
      responses: { '201': { description: created } }
  /toys:
    get:
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/Nowhere' } } }
`)}
components:
  schemas:
    NewPet: { $ref: './common.yaml#/Pet' }
  examples:
    Cat: { value: { name: Tom } }
`,
      'common.yaml':
        'Pet:\n  type: object\n  required: [name]\n  properties:\n    name: { type: string, example: Tom }\n    owner: { $ref: "#/Owner" }\nOwner:\n  type: object\n  properties:\n    pet: { $ref: "#/Pet" }\n',
    });
    const r = await importApi(['api.yaml'], { cwd: dir });
    // relative file (with a cycle inside it) resolved
    expect(operation(r, 'pet.create').body).toEqual({ name: 'Tom-{{$.uuid}}' });
    // a response it cannot read does not block a GET
    expect(operation(r, 'toy.list').path).toBe('/toys');
    const qs = r.draft.questions.map((q) => `${q.text} | ${q.blocks.join(',')}`);
    expect(qs).toEqual([
      expect.stringMatching(/^The \$ref "\.\/missing\.yaml#\/Owner" is its file cannot be read \(ENOENT\).* \| owner\.create$/),
      expect.stringMatching(/^The \$ref "#\/components\/schemas\/Nowhere" is nothing is at #\/components\/schemas\/Nowhere.*nothing imported needs it.* \| $/),
    ]);
  });

  it('3.1: a $ref with siblings applies both, and webhooks are noted, not imported', async () => {
    const dir = await writeProject({
      'api.json': JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Hooks', version: '1' },
        servers: [{ url: 'https://hooks.test' }],
        paths: {
          '/subscriptions': {
            post: {
              requestBody: {
                content: {
                  'application/json': {
                    schema: {
                      $ref: '#/components/schemas/Sub',
                      description: 'a subscription',
                      required: ['url'],
                      properties: { url: { type: 'string', examples: ['https://h.test/cb'] } },
                    },
                  },
                },
              },
              responses: { 201: { $ref: '#/components/responses/Created', description: 'made' } },
            },
          },
        },
        webhooks: { newPet: { $ref: '#/components/pathItems/NewPet' } },
        components: {
          schemas: { Sub: { type: 'object', required: ['event'], properties: { event: { type: 'string', enum: ['pet.created'] } } } },
          responses: { Created: { description: 'created' } },
          pathItems: { NewPet: { post: { requestBody: { $ref: 'https://hooks.test/remote.json' }, responses: { 200: { description: 'ok' } } } } },
        },
      }),
    });
    const r = await importApi(['api.json'], { cwd: dir });
    expect(operation(r, 'subscription.create').body).toEqual({ event: 'pet.created', url: 'https://h.test/cb' });
    expect(operation(r, 'subscription.create').expect_status).toBe(201);
    expect(r.plan).toContain('webhooks (newPet): webhooks are requests the API sends, not operations a client calls, so they are not imported');
    expect(Object.values(texts(r)).join('\n')).not.toContain('remote.json');
  });

  it('names the schema an answer is, wherever it is reached from: a $ref with a description beside it, another file, a shared response', async () => {
    const dir = await writeProject({
      'common.json': JSON.stringify({ Pet: { type: 'object', properties: { id: { type: 'integer' } } } }),
      'api.json': JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Pets', version: '1' },
        paths: {
          '/pets/{id}': {
            get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } },
            put: { responses: { 200: { $ref: '#/components/responses/OnePet' } } },
            post: {
              responses: {
                200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet', description: 'the pet' } } } },
              },
            },
            patch: {
              responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet', required: ['id'] } } } } },
            },
            delete: {
              responses: {
                200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } },
              },
            },
          },
          '/other': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: 'common.json#/Pet' } } } } } } },
        },
        components: {
          schemas: { Pet: { type: 'object', properties: { id: { type: 'integer' } } } },
          responses: { OnePet: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      }),
    });
    const api = await readInput('api.json', { cwd: dir });
    const named = Object.fromEntries(api.operations.map((o) => [o.key, o.responses[0].schema]));
    expect(named).toEqual({
      'GET /pets/{id}': '#/components/schemas/Pet',
      'PUT /pets/{id}': '#/components/schemas/Pet',
      // a description beside it leaves it the same schema; another constraint makes another one
      'POST /pets/{id}': '#/components/schemas/Pet',
      'PATCH /pets/{id}': undefined,
      'DELETE /pets/{id}': undefined,
      // the same shape in another file is another schema
      'GET /other': 'common.json#/Pet',
    });
  });
});
