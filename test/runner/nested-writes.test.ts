// Writes under a scope the server has (docs/format.md#ownership): a write on the run's own doc in
// one of the server's locales (`/docs/{{doc.id}}/locales/{{locale.code}}/title`) changes the
// run's doc, and is sent; a write on someone else's note under the run's doc
// (`/docs/{{doc.id}}/notes/{{note.id}}`, `…/pin` where notes are made by the project) is not,
// and this server, which finds a note by its id alone, shows why. And DELETEs of what is nested
// in a doc go before the doc's own (docs/format.md#run-prerequisites): a deleted doc takes no
// more writes. Checked on the server's side.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBody, send, serveCrud, type CrudServer } from '../helpers/crud-api.js';
import { closeRunners, envFile, load, outcomes, resultOf, ROOT } from './helpers.js';

interface Doc {
  id: string;
  titles: Record<string, string>;
  deleted?: boolean;
}

let srv: CrudServer;
let docs: Map<string, Doc>;
/** id -> note; `x1` is someone else’s, there before the run */
let notes: Map<string, { text: string; pinned?: boolean; doc: string }>;
let tags: Map<string, string>;
/** `METHOD path` of every write */
let writes: string[];
let next: number;
let tagDelay: number;
const LOCALES = ['en', 'fr'];

beforeEach(async () => {
  docs = new Map([['d0', { id: 'd0', titles: { en: 'theirs' } }]]);
  notes = new Map([['x1', { text: 'theirs', doc: 'd0' }]]);
  tags = new Map();
  writes = [];
  next = 0;
  tagDelay = 0;
  srv = await serveCrud((req, res, text) => {
    const body = (text ? jsonBody(req, res, text) : undefined) as Record<string, unknown> | undefined;
    if (typeof body === 'symbol') return;
    const path = (req.url ?? '/').replace(/\?.*$/, '');
    if (req.method !== 'GET') writes.push(`${req.method} ${path}`);
    const seg = path.split('/').slice(1).map(decodeURIComponent);
    const doc = seg[0] === 'docs' && seg[1] ? docs.get(seg[1]) : undefined;
    if (req.method === 'GET' && path === '/locales') return send(res, 200, { locales: LOCALES.map((code) => ({ code })) });
    if (req.method === 'GET' && path === '/docs') return send(res, 200, { docs: [...docs.values()].map((d) => ({ id: d.id })) });
    if (req.method === 'GET' && path === '/notes') return send(res, 200, { notes: [...notes.keys()].map((id) => ({ id })) });
    if (req.method === 'POST' && path === '/docs') {
      const id = `d${++next}`;
      docs.set(id, { id, titles: {} });
      return send(res, 201, { id });
    }
    if (!doc) return send(res, 404, { error: 'no such doc' });
    if (seg.length === 2 && req.method === 'DELETE') {
      // a doc goes to the bin: it takes no more writes
      doc.deleted = true;
      return send(res, 204);
    }
    if (seg[2] === 'tags' && tags.has(seg[3]) && req.method === 'DELETE') {
      // `tagDelay` ms later, as a slow server would: by then the doc may be gone
      setTimeout(() => {
        if (doc.deleted) return send(res, 400, { error: 'the doc is deleted' });
        tags.delete(seg[3]);
        send(res, 204);
      }, tagDelay);
      return;
    }
    if (doc.deleted) return send(res, 400, { error: 'the doc is deleted' });
    if (seg[2] === 'locales' && LOCALES.includes(seg[3]) && seg[4] === 'title' && req.method === 'PUT') {
      doc.titles[seg[3]] = String(body?.title);
      return send(res, 200, doc);
    }
    if (seg[2] === 'notes' && seg.length === 3 && req.method === 'POST') {
      const id = `n${++next}`;
      notes.set(id, { text: 'mine', doc: doc.id });
      return send(res, 201, { id });
    }
    // a note is found by its id alone, whatever doc the path names
    const note = seg[2] === 'notes' ? notes.get(seg[3]) : undefined;
    if (note && seg.length === 4 && req.method === 'PATCH') return send(res, 200, Object.assign(note, body));
    if (note && seg[4] === 'pin' && req.method === 'POST') return send(res, 200, Object.assign(note, { pinned: true }));
    if (seg[2] === 'tags' && seg.length === 3 && req.method === 'POST') {
      const id = `t${++next}`;
      tags.set(id, doc.id);
      return send(res, 201, { id });
    }
    send(res, 404, { error: 'no such route' });
  });
});

afterEach(async () => {
  await srv.close();
});

afterAll(closeRunners);

const DOC = [
  'name: doc',
  'operations:',
  '  create: { method: POST, path: /docs, expect_status: 201, extract: { id: $.data.id } }',
  '  delete: { method: DELETE, path: "/docs/{{doc.id}}", expect_status: 204 }',
];
const LOCALE = [
  'name: locale',
  'operations:',
  '  list: { path: /locales, extract: { code: "$.data.locales[*].code" } }',
  '  title: { method: PUT, path: "/docs/{{doc.id}}/locales/{{locale.code}}/title", body: { title: hello } }',
];

function files(resources: Record<string, string[]>): Record<string, string> {
  return {
    'flow.yaml': ROOT,
    'environments/test.yaml': envFile({ baseUrl: srv.url }),
    ...Object.fromEntries(Object.entries(resources).map(([name, lines]) => [`resources/${name}.yaml`, [...lines, ''].join('\n')])),
  };
}

describe('a write under a scope the server has', () => {
  it('acts on the run’s own instance before it: sent; the clean-up removes what the run made', async () => {
    const { runner } = await load(files({ doc: DOC, locale: LOCALE }));
    const summary = await runner.runMany(['locale.title']);
    expect(outcomes(summary)).toEqual([['locale.title', 'passed', undefined]]);
    // the newest locale the list gave, on the doc the run made; someone else's doc is as it was
    expect(docs.get('d1')?.titles).toEqual({ fr: 'hello' });
    expect(docs.get('d0')).toEqual({ id: 'd0', titles: { en: 'theirs' } });
    const report = await runner.cleanUp();
    expect(report.deleted).toEqual([{ resource: 'doc', index: 1, id: 'd1', createdBy: 'doc.create', via: 'doc.delete', status: 204 }]);
    expect(report.left).toEqual([]);
    expect(writes).toEqual(['POST /docs', 'PUT /docs/d1/locales/fr/title', 'DELETE /docs/d1']);
  });

  it('on an instance a list gave, it is not sent: the doc is someone else’s', async () => {
    const listed = ['  list: { path: /docs, extract: { id: "$.data.docs[*].id" } }', ...DOC.slice(2)];
    const { runner } = await load(files({ doc: [...DOC.slice(0, 2), ...listed], locale: LOCALE }));
    const summary = await runner.runMany(['locale.title']);
    expect(outcomes(summary)).toEqual([['locale.title', 'skipped', 'E_NOT_OWNED']]);
    expect(resultOf(summary, 'locale.title').skippedBecause).toMatch(
      /would act on doc\[1\] \(id d0\), which this run did not create \(it came from doc\.list\)/,
    );
    expect(writes).toEqual([]);
  });

  it('a path that ends with an instance the run did not make writes that instance: not sent, even under the run’s doc', async () => {
    const note = [
      'name: note',
      'operations:',
      '  list: { path: /notes, extract: { id: "$.data.notes[*].id" } }',
      '  edit: { method: PATCH, path: "/docs/{{doc.id}}/notes/{{note.id}}", body: { text: changed } }',
    ];
    const { runner } = await load(files({ doc: DOC, note }));
    const summary = await runner.runMany(['note.edit']);
    expect(outcomes(summary)).toEqual([['note.edit', 'skipped', 'E_NOT_OWNED']]);
    expect(resultOf(summary, 'note.edit').skippedBecause).toMatch(/would act on note\[1\] \(id x1\)/);
    expect(notes.get('x1')).toEqual({ text: 'theirs', doc: 'd0' });
    expect(writes).toEqual(['POST /docs']);
  });

  it('past an instance of a resource the project creates, the write is on that instance: not sent for a listed one', async () => {
    const note = [
      'name: note',
      'operations:',
      '  list: { path: /notes, extract: { id: "$.data.notes[*].id" } }',
      '  create: { method: POST, path: "/docs/{{doc.id}}/notes", expect_status: 201, extract: { id: $.data.id } }',
      '  pin: { method: POST, path: "/docs/{{doc.id}}/notes/{{note.id}}/pin" }',
    ];
    const { runner } = await load(files({ doc: DOC, note }));
    const summary = await runner.runMany(['note.pin']);
    expect(outcomes(summary)).toEqual([['note.pin', 'skipped', 'E_NOT_OWNED']]);
    expect(notes.get('x1')).toEqual({ text: 'theirs', doc: 'd0' });
    expect(writes).toEqual(['POST /docs']);
  });
});

const TAG = [
  'name: tag',
  'operations:',
  '  create: { method: POST, path: "/docs/{{doc.id}}/tags", expect_status: 201, extract: { id: $.data.id } }',
  '  delete: { method: DELETE, path: "/docs/{{doc.id}}/tags/{{tag.id}}", expect_status: 204 }',
];

describe('DELETEs of what is nested in an instance', () => {
  it('go before the DELETE of that instance, whatever the declaration order', async () => {
    const { runner, project } = await load(files({ doc: DOC, tag: TAG }));
    const summary = await runner.runMany([...project.operations.keys()]);
    expect(outcomes(summary)).toEqual([
      ['doc.create', 'passed', undefined],
      ['tag.create', 'passed', undefined],
      ['tag.delete', 'passed', undefined],
      ['doc.delete', 'passed', undefined],
    ]);
    expect(writes).toEqual(['POST /docs', 'POST /docs/d1/tags', 'DELETE /docs/d1/tags/t2', 'DELETE /docs/d1']);
    expect(tags.size).toBe(0);
  });

  it('under --concurrency too: the nested ones end before the outer one starts', async () => {
    tagDelay = 150;
    const { runner, project } = await load(files({ doc: DOC, tag: TAG }), { concurrency: 4 });
    const summary = await runner.runMany([...project.operations.keys()]);
    expect(outcomes(summary).map(([id, status]) => `${id} ${status}`)).toEqual([
      'doc.create passed',
      'tag.create passed',
      'tag.delete passed',
      'doc.delete passed',
    ]);
    expect(writes.slice(-2)).toEqual(['DELETE /docs/d1/tags/t2', 'DELETE /docs/d1']);
    expect(tags.size).toBe(0);
  });
});
