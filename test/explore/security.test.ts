// What the description says of calling an operation (src/explore/security.ts), read from real
// description files through the contract's reader: OpenAPI 3 (the fixture of the notes API)
// and Swagger 2.0 (converted on reading), and which operations are a role's.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDescription, type Description } from '../../src/openapi/index.js';
import { isSecured, operationSecurity, roleRequirement, securityCounts } from '../../src/explore/security.js';
import { loadProject, type Project } from '../../src/project/index.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/authz', import.meta.url));

let notes: Description;
let project: Project;
beforeAll(async () => {
  notes = await readDescription(path.join(FIXTURE, 'openapi.yaml'));
  project = await loadProject(FIXTURE);
});
afterAll(cleanProjects);

const of = (desc: Description, id: string) => operationSecurity(desc, project.operations.get(id)!);

describe('operationSecurity, OpenAPI 3', () => {
  it('reads the description-wide requirement, an operation that overrides it, and security: [] as public', () => {
    expect(of(notes, 'note.get')).toEqual({
      described: 'GET /notes/{id}',
      public: false,
      optional: false,
      alternatives: [[{ scheme: 'oauth', type: 'oauth2', scopes: ['notes'] }]],
    });
    expect(of(notes, 'stats.get').alternatives).toEqual([[{ scheme: 'oauth', type: 'oauth2', scopes: ['admin'] }]]);
    const page = of(notes, 'page.get');
    expect(page).toMatchObject({ described: 'GET /pages/{id}', public: true, alternatives: [] });
    expect(isSecured(page)).toBe(false);
    expect(isSecured(of(notes, 'note.update'))).toBe(true);
  });

  it('an operation the description does not have, or a description without security, is neither public nor secured', async () => {
    const doc = { ...notes, doc: { ...notes.doc, security: undefined } } as Description;
    for (const s of [of(doc, 'note.get'), operationSecurity(notes, { ...project.operations.get('note.get')!, path: '/nowhere' })]) {
      expect(s.public).toBe(false);
      expect(isSecured(s)).toBe(false);
    }
  });

  it('an empty alternative makes credentials optional; a scheme the description does not define has no type', async () => {
    const dir = await writeProject({
      'openapi.yaml': [
        'openapi: 3.1.0',
        'info: { title: t, version: "1" }',
        'paths:',
        '  /notes/{id}:',
        '    get:',
        '      security: [{}, { key: [] }, { oauth: [notes], key: [] }, { ghost: [] }]',
        '      responses: { "200": { description: ok } }',
        'components:',
        '  securitySchemes:',
        '    key: { type: apiKey, in: header, name: X-Key }',
        '    oauth: { type: oauth2, flows: { implicit: { authorizationUrl: /a, scopes: { notes: n } } } }',
      ].join('\n'),
    });
    const s = operationSecurity(await readDescription(path.join(dir, 'openapi.yaml')), project.operations.get('note.get')!);
    expect(s.optional).toBe(true);
    expect(isSecured(s)).toBe(false);
    expect(s.alternatives).toEqual([
      [{ scheme: 'key', type: 'apiKey', scopes: [] }],
      [
        { scheme: 'oauth', type: 'oauth2', scopes: ['notes'] },
        { scheme: 'key', type: 'apiKey', scopes: [] },
      ],
      [{ scheme: 'ghost', type: undefined, scopes: [] }],
    ]);
  });
});

describe('operationSecurity, Swagger 2.0', () => {
  it('reads securityDefinitions (basic as http) and security: [] as public', async () => {
    const dir = await writeProject({
      'swagger.json': JSON.stringify({
        swagger: '2.0',
        info: { title: 't', version: '1' },
        securityDefinitions: { basicAuth: { type: 'basic' }, admin: { type: 'apiKey', in: 'header', name: 'X-Admin' } },
        security: [{ basicAuth: [] }],
        paths: {
          '/notes/{id}': {
            parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }],
            get: { responses: { 200: { description: 'ok' } } },
            patch: { security: [], responses: { 200: { description: 'ok' } } },
            delete: { responses: { 204: { description: 'gone' } } },
          },
          '/admin/stats': { get: { security: [{ admin: [] }], responses: { 200: { description: 'ok' } } } },
        },
      }),
    });
    const desc = await readDescription(path.join(dir, 'swagger.json'));
    expect(of(desc, 'note.get').alternatives).toEqual([[{ scheme: 'basicAuth', type: 'http', scopes: [] }]]);
    expect(of(desc, 'note.update').public).toBe(true);
    expect(of(desc, 'stats.get').alternatives).toEqual([[{ scheme: 'admin', type: 'apiKey', scopes: [] }]]);
    // the admin scheme is its own: one secured operation of three needs it, and none that another actor runs
    const others = [of(desc, 'note.get'), of(desc, 'note.update')];
    expect(roleRequirement(of(desc, 'stats.get'), others, securityCounts(desc))).toBe('admin (apiKey)');
  });
});

describe('roleRequirement', () => {
  const others = (actor: string) => [...project.operations.values()].filter((op) => op.actor !== actor).map((op) => operationSecurity(notes, op));

  it("is the scope the admin's operation needs and no operation of alice or bob does", () => {
    expect(roleRequirement(of(notes, 'stats.get'), others('admin'), securityCounts(notes))).toBe('oauth scope admin');
  });

  it("the scope every ordinary operation needs is not a role's, though only alice runs them; public operations are never a role's", () => {
    const counts = securityCounts(notes);
    expect(counts.needing.get('oauth notes')).toBeGreaterThan(counts.secured / 2);
    for (const id of ['note.get', 'note.create', 'board.rename', 'page.get'])
      expect(roleRequirement(of(notes, id), others('alice'), counts), id).toBeUndefined();
  });

  it('a scope another actor is seen to need is not a role of its own; an alternative without one lets anyone pass', () => {
    const stats = of(notes, 'stats.get');
    const counts = securityCounts(notes);
    expect(roleRequirement(stats, [...others('admin'), stats], counts)).toBeUndefined();
    const either = { ...stats, alternatives: [...stats.alternatives, [{ scheme: 'oauth', type: 'oauth2', scopes: ['notes'] }]] };
    expect(roleRequirement(either, others('admin'), counts)).toBeUndefined();
  });
});
