// A value rendered into a path is one segment (issue: a create answering id `..` led to
// `DELETE /`, `a/../../admin` to `DELETE /admin`, an empty id to `DELETE /items/`, a
// collection delete). The server below answers whatever id the test picks; what it received
// is the proof.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../helpers/http-server.js';
import { closeRunners, envFile, load, resultOf, ROOT } from './helpers.js';

let api: TestServer;
let nextId: unknown = '';
beforeAll(async () => {
  api = await startServer({
    'POST /items': (_q, res) => json(res, 201, { id: nextId }),
    '*': (q, res) => json(res, 200, { path: q.url }),
  });
});
afterAll(async () => {
  await closeRunners();
  await api.close();
});

const files = () => ({
  'flow.yaml': ROOT,
  'environments/test.yaml': envFile({ baseUrl: api.url }),
  'resources/items.yaml': [
    'name: item',
    'operations:',
    '  create: { method: POST, path: /items, body: { name: x }, extract: { id: $.data.id } }',
    '  remove: { method: DELETE, path: "/items/{{item.id}}" }',
    '  rename: { method: PATCH, path: "/items/{{item.id}}/name?to={{item.id}}", body: { name: y } }',
    '  dots: { path: /items/../admin }',
    '',
  ].join('\n'),
});

async function sent(id: unknown, op: string): Promise<{ urls: string[]; code: string | undefined }> {
  nextId = id;
  const { runner } = await load(files());
  const before = api.requests.length;
  const summary = await runner.runMany([op]);
  return { urls: api.requests.slice(before).map((r) => `${r.method} ${r.url}`), code: resultOf(summary, op).error?.code };
}

describe('a value in a path', () => {
  it('is percent-encoded as one segment: a/../../admin stays under /items, in the path and in a query written into it', async () => {
    expect(await sent('a/../../admin', 'item.remove')).toEqual({ urls: ['POST /items', 'DELETE /items/a%2F..%2F..%2Fadmin'], code: undefined });
    expect(await sent('a b?c=1&d', 'item.rename')).toEqual({
      urls: ['POST /items', 'PATCH /items/a%20b%3Fc%3D1%26d/name?to=a%20b%3Fc%3D1%26d'],
      code: undefined,
    });
    expect((await sent(42, 'item.remove')).urls).toEqual(['POST /items', 'DELETE /items/42']);
  });

  it.each([['..'], ['.'], ['']])('an id of "%s" is refused with E_PATH_SEGMENT: only the create is sent', async (id) => {
    expect(await sent(id, 'item.remove')).toEqual({ urls: ['POST /items'], code: 'E_PATH_SEGMENT' });
  });

  it('a written .. segment is refused too: a URL parser would resolve it to another path', async () => {
    expect(await sent('1', 'item.dots')).toEqual({ urls: [], code: 'E_PATH_SEGMENT' });
  });
});
