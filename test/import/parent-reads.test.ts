// A create that answers no id and whose items show only in their parent's read:
// `POST /flags/{flagName}/link {"url": …}` answers 204, and `GET /flags/{flagName}` returns
// `links: [{id, url}]`. The import binds `{linkId}` of the link's PUT and DELETE to the `id` that a
// read of the flag, written as an operation of the link (`link.find_in_flag`, after the create),
// extracts from that list, and gives the url the create sends a run-unique part (it was
// `<SET_VIA_--var>`, and both writes were skipped). Where the parent's read lists no such items
// (`/boards/{boardId}/notes`), the id stays the user's to give. Then `flow run --all` on an
// in-repo server: the PUT and DELETE act on the link the run made, and the link the server put on
// every new flag is never written to.
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ANSWERED, jsonBody, send, type CrudServer } from '../helpers/crud-api.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';
import { fileValue, importedApi, operation } from './helpers.js';
import type { ImportResult } from '../../src/import/index.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const str = (example: string) => ({ type: 'string', example });
const body = (properties: Record<string, object>, required: string[]) => ({
  requestBody: { required: true, ...json({ type: 'object', required, properties }) },
});
const empty = (status: string) => ({ responses: { [status]: { description: 'This response has no body.' } } });
const linkSchema = { type: 'object', required: ['id', 'url'], properties: { id: str('01J'), url: str('https://example.com/doc'), title: str('doc') } };
const flagSchema = { type: 'object', properties: { name: str('f'), links: { type: 'array', items: linkSchema } } };
const LINK_URL = 'https://example.com/doc';

const DOC = {
  openapi: '3.0.3',
  info: { title: 'flags', version: '1' },
  servers: [{ url: 'http://127.0.0.1:4242' }],
  paths: {
    '/flags': { post: { ...body({ name: str('checkout') }, ['name']), responses: { '201': { description: 'made', ...json(flagSchema) } } } },
    '/flags/{flagName}': {
      parameters: [param('flagName')],
      get: { responses: { '200': { description: 'the flag', ...json(flagSchema) } } },
      delete: empty('200'),
    },
    '/flags/{flagName}/link': { parameters: [param('flagName')], post: { ...body({ url: str(LINK_URL), title: str('doc') }, ['url']), ...empty('204') } },
    '/flags/{flagName}/link/{linkId}': {
      parameters: [param('flagName'), param('linkId')],
      put: { ...body({ url: str(LINK_URL) }, ['url']), ...empty('204') },
      delete: empty('204'),
    },
    '/boards': {
      post: {
        ...body({ name: str('b') }, ['name']),
        responses: { '201': { description: 'made', ...json({ type: 'object', properties: { name: str('b') } }) } },
      },
    },
    '/boards/{boardName}': {
      parameters: [param('boardName')],
      get: { responses: { '200': { description: 'the board', ...json({ type: 'object', properties: { name: str('b') } }) } } },
    },
    '/boards/{boardName}/notes': { parameters: [param('boardName')], post: { ...body({ text: str('hi') }, ['text']), ...empty('204') } },
    '/boards/{boardName}/notes/{noteId}': { parameters: [param('boardName'), param('noteId')], delete: empty('204') },
  },
};

const THEIRS = { id: 'l-theirs', url: 'https://docs.example.com/flags' };

interface Store {
  flags: Map<string, Array<{ id: string; url: string; title?: string }>>;
  log: string[];
}

/** Every new flag gets a link of the server's own (a link template); a link's create answers 204. */
function handler(store: Store) {
  let n = 0;
  return (req: IncomingMessage, res: ServerResponse, text: string) => {
    const b = jsonBody(req, res, text) as Record<string, string> | undefined | typeof ANSWERED;
    if (b === ANSWERED) return;
    const seg = new URL(req.url ?? '/', 'http://x').pathname.split('/').slice(1).map(decodeURIComponent);
    store.log.push(`${req.method} /${seg.join('/')}`);
    if (seg[0] !== 'flags') return send(res, 404, { error: 'no route' });
    if (seg.length === 1 && req.method === 'POST') {
      store.flags.set(b!.name, [{ ...THEIRS }]);
      return send(res, 201, { name: b!.name, links: store.flags.get(b!.name) });
    }
    const links = store.flags.get(seg[1]);
    if (!links) return send(res, 404, { error: 'no such flag' });
    if (seg.length === 2 && req.method === 'GET') return send(res, 200, { name: seg[1], links });
    if (seg.length === 2 && req.method === 'DELETE') return (store.flags.delete(seg[1]), send(res, 200));
    if (seg.length === 3 && req.method === 'POST') return (links.push({ id: `l${++n}`, url: b!.url, title: b!.title }), send(res, 204));
    const link = links.find((l) => l.id === seg[3]);
    if (!link) return send(res, 404, { error: 'no such link' });
    if (req.method === 'PUT') return (Object.assign(link, b), send(res, 204));
    if (req.method === 'DELETE') return (links.splice(links.indexOf(link), 1), send(res, 204));
    return send(res, 405, {});
  };
}

let result: ImportResult;
let dir: string;
let server: CrudServer;
const store: Store = { flags: new Map(), log: [] };

importedApi('flags.json', DOC, handler(store), (api) => ({ result, dir, server } = api));

describe('the import: a create that answers no id, whose items its parent read lists', () => {
  it('binds {linkId} to the id a read of the flag finds after the create, and makes the url it sends run-unique', () => {
    expect(operation(result, 'link.find_in_flag')).toMatchObject({
      method: 'GET',
      path: '/flags/{{flag.name}}',
      depends_on: ['link.create'],
      extract: { id: '$.data.links[*].id' },
    });
    expect(operation(result, 'link.create').body).toEqual({ url: `${LINK_URL}#{{$.uuid}}` });
    expect(operation(result, 'link.update').path).toBe('/flags/{{flag.name}}/link/{{link.id}}');
    expect(operation(result, 'link.delete').path).toBe('/flags/{{flag.name}}/link/{{link.id}}');
    expect(operation(result, 'link.delete')._provenance).toMatchObject({
      evidence: { 'path.linkId': expect.stringMatching(/answers no id; GET \/flags\/\{flagName\} returns its items as links\[\] with id and url/) },
    });
    const vars = (fileValue(result, 'environments/default.yaml') as { variables: Record<string, unknown> }).variables;
    expect(vars.link_id).toBeUndefined();
  });

  it('a parent whose read lists no such items leaves the id to the user', () => {
    expect(operation(result, 'note.delete').path).toBe('/boards/{{board.name}}/notes/{{env.note_id}}');
    expect(operation(result, 'note.create').body).toEqual({ text: 'hi' });
  });
});

describe('flow run --all on the API', () => {
  it('the PUT and DELETE act on the link the run made; the server link of the same flag is never written to', async () => {
    expect(await main(['import', 'flags.json', '--out', 'project'], recordedIO({ cwd: dir }).io)).toBe(0);
    const rec = recordedIO({ cwd: dir });
    await main(['run', '-p', path.join(dir, 'project'), '--all', '--reporter', 'json', '--var', `baseUrl=${server.url}`], rec.io);
    const report = JSON.parse(rec.out()) as { operations: Array<{ id: string; status: string }> };
    const status = Object.fromEntries(report.operations.map((o) => [o.id, o.status]));
    expect(status, rec.err()).toMatchObject({
      'link.create': 'passed',
      'link.find_in_flag': 'passed',
      'link.update': 'passed',
      'link.delete': 'passed',
    });
    const writes = store.log.filter((l) => /^(PUT|DELETE) \/flags\/[^/]+\/link/.test(l)).map((l) => l.replace(/\/flags\/[^/]+\//, '/flags/F/'));
    expect(writes).toEqual(['PUT /flags/F/link/l1', 'DELETE /flags/F/link/l1']);
    expect(store.log.some((l) => l.includes(THEIRS.id))).toBe(false);
    // the run's flag went with the clean-up
    expect([...store.flags.keys()]).toEqual([]);
  }, 60_000);
});
