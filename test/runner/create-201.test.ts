// A POST the project expects to answer 201 Created in a collection of its resource
// (`/projects/{{project.id}}/tokens`, beside `DELETE /projects/{{project.id}}/tokens/{{env.token_id}}`)
// makes a new thing, even when it extracts nothing (docs/format.md#ownership): it is a create,
// sent under a project a list gave (someone else's, which it does not change), and what it made
// is the run's to clean up: removed where a DELETE can name it, reported left where none can,
// never left unsaid. An action on the project answering 201 (`/projects/{{project.id}}/archive`),
// or a POST that may answer 200 too, still acts on the project: not sent. Checked on the server's side.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBody, send, serveCrud, type CrudServer } from '../helpers/crud-api.js';
import { closeRunners, envFile, load, outcomes, resultOf, ROOT } from './helpers.js';

let srv: CrudServer;
/** p0 is someone else's, there before the run */
let projects: Map<string, { id: string; archived?: boolean }>;
/** id -> the project it is in ('' for none) */
let tokens: Map<string, string>;
/** `METHOD path` of every write */
let writes: string[];
/** the answer to a token's create names it by `id` (else only by its secret) */
let answersId: boolean;
/** ... under `data` */
let wraps: boolean;

beforeEach(async () => {
  projects = new Map([['p0', { id: 'p0' }]]);
  tokens = new Map([['theirs', 'p0']]);
  writes = [];
  answersId = true;
  wraps = false;
  let next = 0;
  srv = await serveCrud((req, res, text) => {
    const body = jsonBody(req, res, text) as { id?: string } | undefined;
    if (typeof body === 'symbol') return;
    const path = (req.url ?? '/').replace(/\?.*$/, '');
    if (req.method !== 'GET') writes.push(`${req.method} ${path}`);
    const seg = path.split('/').slice(1).map(decodeURIComponent);
    if (req.method === 'GET' && path === '/projects') return send(res, 200, { projects: [...projects.values()].map((p) => ({ id: p.id })) });
    const project = seg[0] === 'projects' ? projects.get(seg[1]) : undefined;
    if (req.method === 'POST' && (path === '/tokens' || (project && seg[2] === 'tokens' && seg.length === 3))) {
      // given the id of a token there already, it answers that token: 200, nothing made
      if (body?.id && tokens.has(body.id)) return send(res, 200, { id: body.id, secret: `s-${body.id}` });
      const id = `t${++next}`;
      tokens.set(id, project?.id ?? '');
      const made = answersId ? { id, secret: `s-${id}` } : { secret: `s-${id}` };
      return send(res, 201, wraps ? { data: made } : made);
    }
    if (project && seg[2] === 'archive' && seg.length === 3 && req.method === 'POST') {
      project.archived = true;
      return send(res, 201, { archived: project.id });
    }
    // a token is found by its id alone
    const token = seg[0] === 'tokens' ? seg[1] : project && seg[2] === 'tokens' ? seg[3] : undefined;
    if (token !== undefined && req.method === 'DELETE') return send(res, tokens.delete(token) ? 204 : 404);
    send(res, 404, { error: 'no such route' });
  });
});

afterEach(async () => {
  await srv.close();
});

afterAll(closeRunners);

const SET = '<SET_VIA_--var>';
const PROJECT = ['name: project', 'operations:', '  list: { path: /projects, extract: { id: "$.data.projects[*].id" } }'];
const CREATE = 'create: { method: POST, path: "/projects/{{project.id}}/tokens", body: { name: mine }, expect_status: 201 }';
/** the collection's DELETE of one token: bound where the token was made, its `{{project.id}}` rendering to that very project */
const DELETE = 'delete: { method: DELETE, path: "/projects/{{project.id}}/tokens/{{env.token_id}}", expect_status: 204 }';
/** a DELETE of one token by its id alone: bound from the create's request path and the id its answer gave (declared after: not needed) */
const PURGE = 'purge: { method: DELETE, path: "/tokens/{{env.token_id}}", expect_status: 204 }';

function files(tokenOps: string[], more: Record<string, string[]> = {}): Record<string, string> {
  const resources: Record<string, string[]> = { project: PROJECT, token: ['name: token', 'operations:', ...tokenOps.map((l) => `  ${l}`)], ...more };
  return {
    'flow.yaml': ROOT,
    'environments/test.yaml': envFile({ baseUrl: srv.url, token_id: SET }),
    ...Object.fromEntries(Object.entries(resources).map(([name, lines]) => [`resources/${name}.yaml`, [...lines, ''].join('\n')])),
  };
}

describe('a POST expected to answer 201 in a collection, extracting nothing', () => {
  it('is a create under a listed project: sent, and the clean-up removes what it made', async () => {
    const { runner } = await load(files([CREATE, DELETE, PURGE]));
    const summary = await runner.runMany(['token.create']);
    expect(outcomes(summary)).toEqual([['token.create', 'passed', undefined]]);
    expect([...tokens]).toEqual([
      ['theirs', 'p0'],
      ['t1', 'p0'],
    ]);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([{ resource: 'token', id: 't1', createdBy: 'token.create', via: 'token.delete', status: 204 }]);
    expect(report.left).toEqual([]);
    expect(writes).toEqual(['POST /projects/p0/tokens', 'DELETE /projects/p0/tokens/t1']);
    // someone else's project and token are as they were
    expect([...tokens]).toEqual([['theirs', 'p0']]);
    expect(projects.get('p0')).toEqual({ id: 'p0' });
  });

  it('an id its answer wraps names it for a DELETE that reads the token’s id', async () => {
    wraps = true;
    const { runner } = await load(files([CREATE, 'delete: { method: DELETE, path: "/projects/{{project.id}}/tokens/{{token.id}}", expect_status: 204 }']));
    expect(outcomes(await runner.runMany(['token.create']))).toEqual([['token.create', 'passed', undefined]]);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([{ resource: 'token', id: 't1', createdBy: 'token.create', via: 'token.delete', status: 204 }]);
    expect(writes).toEqual(['POST /projects/p0/tokens', 'DELETE /projects/p0/tokens/t1']);
    expect([...tokens]).toEqual([['theirs', 'p0']]);
  });

  it('what no DELETE can name is reported left, with why', async () => {
    answersId = false;
    const { runner } = await load(files([CREATE, DELETE, PURGE]));
    expect(outcomes(await runner.runMany(['token.create']))).toEqual([['token.create', 'passed', undefined]]);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([]);
    expect(report.left).toEqual([
      { resource: 'token', createdBy: 'token.create', why: 'it has no id for token.delete, token.purge (they read {{env.token_id}})' },
    ]);
    expect(writes).toEqual(['POST /projects/p0/tokens']);
  });

  it('with no path of a project in it, a 201 that names nothing is reported left too', async () => {
    answersId = false;
    const { runner } = await load(files(['create: { method: POST, path: /tokens, body: { name: mine }, expect_status: 201 }', PURGE]));
    expect(outcomes(await runner.runMany(['token.create']))).toEqual([['token.create', 'passed', undefined]]);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([{ resource: 'token', createdBy: 'token.create', why: 'it has no id for token.purge (it reads {{env.token_id}})' }]);
  });
});

describe('where a 201 does not make a POST a create', () => {
  it('an action on the project (no collection under its path), and a POST that may answer 200: not sent', async () => {
    const { runner } = await load(
      files([CREATE.replace('create:', 'either:').replace('201', '[200, 201]'), DELETE], {
        archive: ['name: archive', 'operations:', '  set: { method: POST, path: "/projects/{{project.id}}/archive", expect_status: 201 }'],
      }),
    );
    const summary = await runner.runMany(['token.either', 'archive.set']);
    expect(outcomes(summary).sort()).toEqual([
      ['archive.set', 'skipped', 'E_NOT_OWNED'],
      ['token.either', 'skipped', 'E_NOT_OWNED'],
    ]);
    expect(resultOf(summary, 'archive.set').skippedBecause).toMatch(/would act on project\[1\] \(id p0\), which this run did not create/);
    expect(writes).toEqual([]);
    expect(projects.get('p0')).toEqual({ id: 'p0' });
  });

  it('a 200 where 201 was expected made nothing: the token it answers (someone else’s) is not removed', async () => {
    const { runner } = await load(files([CREATE.replace('{ name: mine }', '{ id: theirs }'), DELETE, PURGE]));
    expect(outcomes(await runner.runMany(['token.create']))).toEqual([['token.create', 'failed', 'E_STATUS_MISMATCH']]);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([]);
    expect(report.left).toEqual([]);
    expect(writes).toEqual(['POST /projects/p0/tokens']);
    expect([...tokens]).toEqual([['theirs', 'p0']]);
  });
});
