// What a POST shaped as a create made is cleaned up even before the project extracts its id or
// links its DELETE (docs/format.md#ownership): a freshly imported project has
// `DELETE /shelves/{{env.shelf}}/books/{{env.book_id}}` with both variables unset. The clean-up
// binds each unset variable to the create's own request path and the id its answer gave; a
// DELETE whose literal segments differ, or that reads a variable given a value, is never sent.
// Checked on the server's side.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, outcomes, ROOT } from './helpers.js';

let srv: TestServer;
/** `shelf/id` of every book on the server */
let books: Set<string>;
const THEIRS = 's1/theirs-1';
/** the secret of every API token on the server: one is someone else's */
let tokens: Set<string>;
const THEIR_TOKEN = 'theirs-secret-0001';

beforeEach(async () => {
  await srv?.close();
  books = new Set([THEIRS]);
  tokens = new Set([THEIR_TOKEN]);
  let n = 0;
  srv = await startServer({
    // an API token answers no id: its secret names it, as its DELETE's path does
    'POST /tokens': (_req, res) => {
      const secret = `tok-secret-${++n}`;
      tokens.add(secret);
      return json(res, 201, { tokenName: 'mine', type: 'client', secret });
    },
    'GET /projects': (_req, res) => json(res, 200, [{ id: 'p1' }]),
    'POST /projects/p1/tokens': (_req, res) => {
      const secret = `tok-secret-${++n}`;
      tokens.add(`p1/${secret}`);
      return json(res, 201, { tokenName: 'mine', secret });
    },
    '*': (req, res) => {
      const inProject = /^\/projects\/([^/]+)\/tokens\/([^/]+)$/.exec(req.path);
      if (inProject && req.method === 'DELETE') return json(res, tokens.delete(`${inProject[1]}/${decodeURIComponent(inProject[2])}`) ? 200 : 404, {});
      const token = /^\/tokens\/([^/]+)$/.exec(req.path);
      if (token && req.method === 'DELETE') return json(res, tokens.delete(decodeURIComponent(token[1])) ? 200 : 404, {});
      const create = /^\/shelves\/([^/]+)\/books$/.exec(req.path);
      if (create && req.method === 'POST') {
        const id = `b${++n}`;
        books.add(`${decodeURIComponent(create[1])}/${id}`);
        // a wrapped answer, beside another object that holds no id
        return json(res, 201, { data: { id, title: 'x' }, permissions: { write: ['me'] } });
      }
      const one = /^\/(shelves|other)\/([^/]+)\/books\/([^/]+)$/.exec(req.path);
      if (one && req.method === 'DELETE') {
        const key = `${decodeURIComponent(one[2])}/${decodeURIComponent(one[3])}`;
        if (one[1] !== 'shelves' || !books.delete(key)) return json(res, 404, {});
        return json(res, 200, { data: { id: one[3], deleted: true } });
      }
      json(res, 404, {});
    },
  });
});

afterAll(async () => {
  await closeRunners();
  await srv?.close();
});

const SET = '<SET_VIA_--var>';
const CREATE = 'create: { method: POST, path: /shelves/s1/books, body: { title: x } }';
const DELETE = 'delete: { method: DELETE, path: "/shelves/{{env.shelf}}/books/{{env.book_id}}" }';

function files(ops: string[], env: Record<string, string> = {}): Record<string, string> {
  return {
    'flow.yaml': ROOT,
    'environments/test.yaml': envFile({ baseUrl: srv.url, shelf: SET, book_id: SET, x: SET, ...env }),
    'resources/book.yaml': ['name: book', 'operations:', ...ops.map((l) => `  ${l}`), ''].join('\n'),
  };
}

const deletes = () => srv.requests.filter((r) => r.method === 'DELETE').map((r) => r.path);

describe('a create-shaped POST that extracts nothing, and a DELETE that names no instance', () => {
  it('is removed with the DELETE, its unset variables bound to where it was made and the id it was given', async () => {
    const { runner } = await load(files([CREATE, DELETE]));
    expect(outcomes(await runner.runMany(['book.create']))).toEqual([['book.create', 'passed', undefined]]);
    expect([...books]).toEqual([THEIRS, 's1/b1']);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([{ resource: 'book', id: 'b1', createdBy: 'book.create', via: 'book.delete', status: 200 }]);
    expect(report.left).toEqual([]);
    expect(deletes()).toEqual(['/shelves/s1/books/b1']);
    expect([...books]).toEqual([THEIRS]);
  });

  it('a DELETE whose literal segments differ from where it was made is never bound nor sent', async () => {
    // it extracts its id: an owned instance with no removal, only a DELETE elsewhere
    const { runner } = await load(
      files([
        'create: { method: POST, path: /shelves/s1/books, body: { title: x }, extract: { id: $.data.data.id } }',
        'purge: { method: DELETE, path: "/other/{{env.x}}/books/{{env.book_id}}" }',
      ]),
    );
    await runner.runMany(['book.create']);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([]);
    expect(report.left).toEqual([
      {
        resource: 'book',
        index: 1,
        id: 'b1',
        createdBy: 'book.create',
        why: 'no DELETE addresses it where it was made (book.purge: another path, or a variable given a value)',
      },
    ]);
    expect(deletes()).toEqual([]);
    expect([...books]).toEqual([THEIRS, 's1/b1']);
  });

  it('a variable given a value is respected: a DELETE reading it is not sent for what the run made', async () => {
    // --var book_id=theirs-1: that DELETE names their book, never the run's
    const { runner } = await load(files([CREATE, DELETE]), { vars: { book_id: 'theirs-1' } });
    await runner.runMany(['book.create']);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([]);
    expect(report.left.map((l) => [l.id, l.why])).toEqual([
      ['b1', 'no DELETE addresses it where it was made (book.delete: another path, or a variable given a value)'],
    ]);
    expect(deletes()).toEqual([]);
    expect([...books]).toEqual([THEIRS, 's1/b1']);
  });

  it('a value set in the environment file is respected too', async () => {
    const { runner } = await load(files([CREATE, DELETE], { shelf: 's1' }));
    await runner.runMany(['book.create']);
    expect((await runner.cleanUp()).deleted).toEqual([]);
    expect(deletes()).toEqual([]);
  });
});

describe('a create that answers no id but issues a credential', () => {
  const tokenFiles = (env: Record<string, string> = {}, extract = '') => ({
    'flow.yaml': ROOT,
    'environments/test.yaml': envFile({ baseUrl: srv.url, token: SET, ...env }),
    'resources/token.yaml': [
      'name: token',
      'operations:',
      `  create: { method: POST, path: /tokens, body: { tokenName: mine }, expect_status: 201${extract} }`,
      '  delete: { method: DELETE, path: "/tokens/{{env.token}}" }',
      '',
    ].join('\n'),
  });

  it('is removed by the DELETE whose last variable names a credential, with the one its answer issued', async () => {
    const { runner } = await load(tokenFiles());
    expect(outcomes(await runner.runMany(['token.create']))).toEqual([['token.create', 'passed', undefined]]);
    expect([...tokens]).toEqual([THEIR_TOKEN, 'tok-secret-1']);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(report.deleted.map((d) => [d.resource, d.via, d.status])).toEqual([['token', 'token.delete', 200]]);
    expect(deletes()).toEqual(['/tokens/tok-secret-1']);
    expect([...tokens]).toEqual([THEIR_TOKEN]);
  });

  it('also when the create extracts another field of it (its name): the credential still names it', async () => {
    const { runner } = await load(tokenFiles({}, ', extract: { tokenName: $.data.tokenName }'));
    await runner.runMany(['token.create']);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(deletes()).toEqual(['/tokens/tok-secret-1']);
    expect([...tokens]).toEqual([THEIR_TOKEN]);
  });

  it('under a parent the run read (a listed project): the DELETE goes where the create posted, its reference rendering to that segment', async () => {
    const { runner } = await load({
      'flow.yaml': ROOT,
      'environments/test.yaml': envFile({ baseUrl: srv.url, token: SET }),
      'resources/project.yaml': "name: project\noperations:\n  list: { path: /projects, extract: { id: '$.data[*].id' } }\n",
      'resources/token.yaml': [
        'name: token',
        'operations:',
        '  create: { method: POST, path: "/projects/{{project.id}}/tokens", body: { tokenName: mine }, expect_status: 201 }',
        '  delete: { method: DELETE, path: "/projects/{{project.id}}/tokens/{{env.token}}" }',
        '',
      ].join('\n'),
    });
    expect(outcomes(await runner.runMany(['token.create']))).toEqual([['token.create', 'passed', undefined]]);
    const report = await runner.cleanUp();
    expect(report.left).toEqual([]);
    expect(deletes()).toEqual(['/projects/p1/tokens/tok-secret-1']);
    expect([...tokens]).toEqual([THEIR_TOKEN]);
  });

  it('a credential variable given a value is respected: nothing is sent, the token is said left', async () => {
    const { runner } = await load(tokenFiles(), { vars: { token: THEIR_TOKEN } });
    await runner.runMany(['token.create']);
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([]);
    expect(report.left).toHaveLength(1);
    expect(deletes()).toEqual([]);
    expect([...tokens]).toEqual([THEIR_TOKEN, 'tok-secret-1']);
  });
});
