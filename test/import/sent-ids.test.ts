// An id that only the create's request holds: `POST /lists/{listName}/labels {"value": …}`
// answers 204 with no body, and `DELETE /lists/{listName}/labels/{labelValue}` names the label by
// the value the create sent. The import binds both to one variable holding the input's example
// (it was `<SET_VIA_--var>`, and the DELETE was skipped), under a list the run creates; at the
// top of the API (`/tags/{tagValue}`, nothing the run owns in the path) the id stays the user's.
// Then `flow run --all` on an in-repo server: the DELETE removes the label the run made, in the
// run's own list, and nobody else's label of the same value.
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { writeTarget } from '../../src/graph/index.js';
import { exampleOf, namesField } from '../../src/import/infer/sent-ids.js';
import { openProject } from '../../src/open/index.js';
import { ANSWERED, jsonBody, send, type CrudServer } from '../helpers/crud-api.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';
import { fileValue, importedApi, operation } from './helpers.js';
import type { ImportResult } from '../../src/import/index.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const body = (field: string, example: string) => ({
  requestBody: { required: true, ...json({ type: 'object', required: [field], properties: { [field]: { type: 'string', example } } }) },
});
const empty = (status: string) => ({ responses: { [status]: { description: 'This response has no body.' } } });
const list = { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'array', items: { type: 'string' } } } };

/** The label's example holds a `#` and a space: the path sends it percent-encoded, the body as it is. */
const LABEL = 'to do #1';

const DOC = {
  openapi: '3.0.3',
  info: { title: 'lists', version: '1' },
  servers: [{ url: 'http://127.0.0.1:4242' }],
  paths: {
    '/lists': { post: { ...body('name', 'groceries'), responses: { '201': { description: 'made', ...json(list) } } } },
    '/lists/{listName}': {
      parameters: [param('listName')],
      get: { responses: { '200': { description: 'the list', ...json(list) } } },
      delete: empty('200'),
    },
    '/lists/{listName}/labels': { parameters: [param('listName')], post: { ...body('value', LABEL), ...empty('204') } },
    '/lists/{listName}/labels/{labelValue}': { parameters: [param('listName'), param('labelValue')], delete: empty('200') },
    '/lists/{listName}/members': { parameters: [param('listName')], post: { ...body('name', 'jo'), ...empty('204') } },
    '/lists/{listName}/members/{memberName}': { parameters: [param('listName'), param('memberName')], delete: empty('200') },
    '/boards': {
      get: {
        responses: {
          '200': {
            description: 'the boards',
            ...json({ type: 'object', properties: { boards: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } } }),
          },
        },
      },
    },
    '/boards/{boardId}/pins': { parameters: [param('boardId')], post: { ...body('value', 'top'), ...empty('204') } },
    '/boards/{boardId}/pins/{pinValue}': { parameters: [param('boardId'), param('pinValue')], delete: empty('200') },
    '/tags': { post: { ...body('value', 'urgent'), ...empty('204') } },
    '/tags/{tagValue}': { parameters: [param('tagValue')], delete: empty('200') },
  },
};

interface Store {
  lists: Map<string, { labels: Set<string>; members: Set<string> }>;
  tags: Set<string>;
  log: string[];
}

/** The API the description describes: creates of labels, members and tags answer 204 with no body. */
function handler(store: Store) {
  return (req: IncomingMessage, res: ServerResponse, text: string) => {
    const b = jsonBody(req, res, text) as Record<string, unknown> | undefined | typeof ANSWERED;
    if (b === ANSWERED) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const seg = url.pathname.split('/').slice(1).map(decodeURIComponent);
    store.log.push(`${req.method} ${url.pathname}`);
    const value = (k: string): string | undefined => {
      const v = b?.[k];
      return typeof v === 'string' && v !== '' ? v : undefined;
    };
    if (seg[0] === 'boards' && seg.length === 1) return send(res, 200, { boards: [{ id: 'b1' }] });
    if (seg[0] === 'tags') {
      if (req.method === 'POST' && seg.length === 1 && value('value')) return (store.tags.add(value('value')!), send(res, 204));
      if (req.method === 'DELETE' && seg.length === 2) return send(res, store.tags.delete(seg[1]) ? 200 : 404);
      return send(res, 404, { error: 'no route' });
    }
    if (seg[0] !== 'lists') return send(res, 404, { error: 'no route' });
    if (seg.length === 1 && req.method === 'POST') {
      const name = value('name');
      if (!name) return send(res, 400, { error: 'name is required' });
      if (store.lists.has(name)) return send(res, 409, { error: 'taken' });
      store.lists.set(name, { labels: new Set(), members: new Set() });
      return send(res, 201, { name, labels: [] });
    }
    const l = store.lists.get(seg[1] ?? '');
    if (!l) return send(res, 404, { error: 'no such list' });
    if (seg.length === 2 && req.method === 'GET') return send(res, 200, { name: seg[1], labels: [...l.labels] });
    if (seg.length === 2 && req.method === 'DELETE') return (store.lists.delete(seg[1]), send(res, 200));
    const set = seg[2] === 'labels' ? l.labels : seg[2] === 'members' ? l.members : undefined;
    const field = seg[2] === 'labels' ? 'value' : 'name';
    if (!set) return send(res, 404, { error: 'no route' });
    if (seg.length === 3 && req.method === 'POST')
      return value(field) ? (set.add(value(field)!), send(res, 204)) : send(res, 400, { error: `${field} is required` });
    if (seg.length === 4 && req.method === 'DELETE') return send(res, set.delete(seg[3]) ? 200 : 404);
    return send(res, 404, { error: 'no route' });
  };
}

let result: ImportResult;
let dir: string;
let server: CrudServer;
const store: Store = { lists: new Map(), tags: new Set(), log: [] };

importedApi('lists.json', DOC, handler(store), (api) => ({ result, dir, server } = api));

describe('the import: an id only the create sends', () => {
  it('binds the path parameter and the create body field to one variable holding the example, and orders the DELETE after the create', () => {
    expect(operation(result, 'label.create').body).toEqual({ value: '{{env.label_value}}' });
    const del = operation(result, 'label.delete');
    expect(del.path).toBe('/lists/{{list.name}}/labels/{{env.label_value}}');
    expect(del.depends_on).toEqual(['label.create']);
    const vars = (fileValue(result, 'environments/default.yaml') as { variables: Record<string, unknown> }).variables;
    expect(vars.label_value).toBe(LABEL);
    expect(del._provenance).toMatchObject({
      evidence: {
        'path.labelValue': expect.stringMatching(
          /names a label by its value; label\.create .* returns no id and sends it in its body: both read env\.label_value, under list\.name, which list\.create creates/,
        ),
      },
    });
    expect(operation(result, 'label.create')._provenance).toMatchObject({
      evidence: { 'body.value': expect.stringContaining(`env.label_value: the input's example ${JSON.stringify(LABEL)}, lists.json #/`) },
    });
  });

  it('a name the importer made run-unique is sent as the example itself under a parent the run creates', () => {
    expect(operation(result, 'member.create').body).toEqual({ name: '{{env.member_name}}' });
    expect(operation(result, 'member.delete').path).toBe('/lists/{{list.name}}/members/{{env.member_name}}');
    expect(operation(result, 'member.create')._provenance).toMatchObject({
      evidence: { 'body.name': expect.stringContaining('without a run-unique part: it is made under list.name, which the run creates') },
    });
  });

  it('at the top of the API, or under a parent the server lists, the id stays the user’s to give, and the create keeps its literal', () => {
    expect(operation(result, 'tag.create').body).toEqual({ value: 'urgent' });
    expect(operation(result, 'tag.delete').path).toBe('/tags/{{env.tag_value}}');
    expect(operation(result, 'pin.create').body).toEqual({ value: 'top' });
    expect(operation(result, 'pin.delete').path).toBe('/boards/{{board.id}}/pins/{{env.pin_value}}');
    const vars = (fileValue(result, 'environments/default.yaml') as { variables: Record<string, unknown> }).variables;
    expect(vars.tag_value).toBe('<SET_VIA_--var>');
    expect(vars.pin_value).toBe('<SET_VIA_--var>');
  });
});

describe('flow run --all on the API', () => {
  it('deletes the label the run made in its own list, with the value it sent, and leaves the same value elsewhere alone', async () => {
    expect(await main(['import', 'lists.json', '--out', 'project'], recordedIO({ cwd: dir }).io)).toBe(0);
    // the DELETE is a write on the run's own list (docs/format.md#ownership), not one on an id given by hand
    const { project, graph } = await openProject(path.join(dir, 'project'));
    expect(writeTarget(graph!, project.operations.get('label.delete')!)).toEqual({ kind: 'instance', resource: 'list', field: 'name' });
    store.lists.set('shared', { labels: new Set([LABEL]), members: new Set(['jo']) });
    store.tags.add('urgent');
    const rec = recordedIO({ cwd: dir });
    const code = await main(['run', '-p', path.join(dir, 'project'), '--all', '--reporter', 'json', '--var', `baseUrl=${server.url}`], rec.io);
    const report = JSON.parse(rec.out()) as { operations: Array<{ id: string; status: string }> };
    const status = Object.fromEntries(report.operations.map((o) => [o.id, o.status]));
    expect(status, rec.err()).toMatchObject({
      'label.create': 'passed',
      'label.delete': 'passed',
      'member.delete': 'passed',
      'tag.delete': 'skipped',
      'pin.delete': 'skipped',
    });
    expect(code).toBe(1); // tag.delete and pin.delete are skipped: they need a --var
    const encoded = encodeURIComponent(LABEL);
    const made = store.log.find((l) => l.startsWith('POST /lists/') && l.endsWith('/labels'))!;
    expect(store.log).toContain(`DELETE ${made.slice('POST '.length)}/${encoded}`);
    // the run's list is gone with the clean-up; the one it did not make keeps its label, and the tag stays
    expect([...store.lists.keys()]).toEqual(['shared']);
    expect([...store.lists.get('shared')!.labels]).toEqual([LABEL]);
    expect([...store.lists.get('shared')!.members]).toEqual(['jo']);
    expect([...store.tags]).toEqual(['urgent']);
    expect(store.log.filter((l) => l.startsWith('DELETE /tags') || l.includes('/lists/shared'))).toEqual([]);
  }, 60_000);
});

describe('the naming rule', () => {
  it('a parameter names a body field alone, after its resource or its end, or as the resource that ends with it', () => {
    expect(namesField('legalValue', 'legal_value', 'value')).toBe(true);
    expect(namesField('labelValue', 'label', 'value')).toBe(true);
    expect(namesField('value', 'label', 'value')).toBe(true);
    expect(namesField('tokenName', 'api_token', 'name')).toBe(true);
    expect(namesField('labelValue', 'label', 'name')).toBe(false);
    expect(namesField('ownerValue', 'label', 'value')).toBe(false);
    expect(namesField('legalValue', 'legal_value', 'legal')).toBe(false);
  });

  it('only an example stands for the id: a literal, or one made run-unique by the importer; never another reference', () => {
    expect(exampleOf('a b')).toEqual({ literal: 'a b', unique: false });
    expect(exampleOf('jo-{{$.uuid}}')).toEqual({ literal: 'jo', unique: true });
    expect(exampleOf('jo+{{$.uuid}}@example.com')).toEqual({ literal: 'jo@example.com', unique: true });
    expect(exampleOf(7)).toEqual({ literal: 7, unique: false });
    for (const v of ['', '<SET_VIA_--var>', '{{env.x}}', '{{$.uuid}}', 'x-{{env.y}}', true]) expect(exampleOf(v)).toBeUndefined();
  });
});
