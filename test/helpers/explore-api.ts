// An items API (node:http, port 0) with one planted bug of each kind `flow explore` finds,
// and `fixed: true` for the same API without them. Its OpenAPI description and its
// happy-path project are below; the happy path passes against both versions.
//   E_ACCEPTS_INVALID   a negative price is accepted (the schema says minimum 0)
//   E_SERVER_ERROR      a title with a non-ASCII character is stored, then every read of it
//                       answers 500 (and the error leaks the caller's token, for redaction)
//   E_USE_AFTER_DELETE  a deleted item still reads 200
//   E_CONTRACT          PATCH answers without `title`, which Item requires
//   E_NOT_PERSISTED     PATCH answers the new price but does not store it
//   E_SERVER_ERROR      GET /items?limit=50 answers 500 (the schema allows 1 to 50): a query value
//   E_SERVER_ERROR      a second item with the title of another answers 500 (a unique index
//                       the description does not state): reachable only by a sequence
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANSWERED, chars, jsonBody, send, serveCrud } from './crud-api.js';

export const EXPLORE_TOKEN = 'tok-3xpl0re-s3cret-value';

interface Item {
  id: string;
  title: string;
  price: number;
  note?: string;
  tags?: string[];
  deleted?: boolean;
}

export interface ExploreApi {
  url: string;
  /** requests answered, by `METHOD /path-pattern` */
  count: Map<string, number>;
  /** every request, `METHOD /path body`, in order */
  log: string[];
  items: Map<string, Item>;
  close(): Promise<void>;
}

/** Why `body` breaks ItemInput (`partial`: ItemPatch); undefined when it is valid. */
function invalid(body: unknown, partial: boolean, fixed: boolean): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body must be an object';
  const b = body as Record<string, unknown>;
  if (!partial || 'title' in b) {
    if (typeof b.title !== 'string' || chars(b.title) < 1 || chars(b.title) > 120) return 'title: a string of 1 to 120 characters';
  }
  if (!partial || 'price' in b) {
    if (typeof b.price !== 'number' || b.price > 1000 || (fixed && b.price < 0)) return 'price: a number from 0 to 1000';
  }
  if ('note' in b && (typeof b.note !== 'string' || chars(b.note) > 200)) return 'note: a string of at most 200 characters';
  if ('tags' in b) {
    const t = b.tags;
    if (!Array.isArray(t) || t.length > 5 || t.some((x) => typeof x !== 'string' || chars(x) > 20)) return 'tags: at most 5 strings of at most 20 characters';
  }
  return undefined;
}

function shown(item: Item): Omit<Item, 'deleted'> {
  const { deleted: _d, ...rest } = item;
  return rest;
}

export async function startExploreApi({ fixed }: { fixed: boolean }): Promise<ExploreApi> {
  const items = new Map<string, Item>();
  const count = new Map<string, number>();
  const log: string[] = [];
  let next = 1;
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = /^\/items(?:\/([^/]+))?\/?$/.exec(url.pathname);
    const key = `${req.method} ${m?.[1] ? '/items/{id}' : url.pathname}`;
    count.set(key, (count.get(key) ?? 0) + 1);
    log.push(`${req.method} ${url.pathname}${url.search} ${text}`);
    if (!m) return send(res, 404, { error: 'no such path' });
    if (req.headers.authorization !== `Bearer ${EXPLORE_TOKEN}`) return send(res, 401, { error: 'unauthorized' });
    const body = jsonBody(req, res, text);
    if (body === ANSWERED) return;
    const id = m[1];
    if (!id && req.method === 'GET') {
      const raw = url.searchParams.get('limit');
      const limit = raw === null ? 10 : Number(raw);
      if (!Number.isInteger(limit) || limit < 1 || limit > 50) return send(res, 400, { error: 'limit: a whole number from 1 to 50' });
      if (!fixed && limit === 50) return send(res, 500, { error: 'page too large' });
      return send(res, 200, {
        items: [...items.values()]
          .filter((i) => !i.deleted)
          .slice(0, limit)
          .map(shown),
      });
    }
    if (!id) {
      if (req.method !== 'POST') return send(res, 405, { error: 'method not allowed' });
      const why = invalid(body, false, fixed);
      if (why) return send(res, 400, { error: why });
      const b = body as Record<string, unknown>;
      if (!fixed && [...items.values()].some((i) => !i.deleted && i.title === b.title))
        return send(res, 500, { error: 'duplicate key value violates unique constraint' });
      const item: Item = { id: `it${next++}`, title: b.title as string, price: b.price as number };
      if ('note' in b) item.note = b.note as string;
      if ('tags' in b) item.tags = b.tags as string[];
      items.set(item.id, item);
      return send(res, 201, shown(item));
    }
    const item = items.get(id);
    const gone = !item || (item.deleted && (fixed || req.method !== 'GET'));
    if (gone) return send(res, 404, { error: 'no such item' });
    if (req.method === 'GET') {
      if (!fixed && /[^\x20-\x7e]/.test(item.title)) return send(res, 500, { error: 'cannot encode title', debug: `auth=${req.headers.authorization}` });
      return send(res, 200, shown(item));
    }
    if (req.method === 'PATCH') {
      const why = invalid(body, true, fixed);
      if (why) return send(res, 400, { error: why });
      const b = body as Partial<Item>;
      const updated = { ...item, ...b };
      for (const k of ['title', 'note', 'tags'] as const) if (k in b) (item as unknown as Record<string, unknown>)[k] = b[k];
      if ('price' in b && fixed) item.price = b.price!;
      if (fixed) return send(res, 200, shown(updated));
      const { title: _t, ...withoutTitle } = shown(updated);
      return send(res, 200, withoutTitle);
    }
    if (req.method === 'DELETE') {
      if (fixed) items.delete(id);
      else item.deleted = true;
      return send(res, 204);
    }
    return send(res, 405, { error: 'method not allowed' });
  };
  return { ...(await serveCrud(handle)), count, log, items };
}

const ITEM_FIELDS = `
        title: { type: string, minLength: 1, maxLength: 120 }
        price: { type: number, minimum: 0, maximum: 1000 }
        note: { type: string, maxLength: 200 }
        tags: { type: array, maxItems: 5, items: { type: string, maxLength: 20 } }`;

const json = (schema: string) => `{ application/json: { schema: { $ref: '#/components/schemas/${schema}' } } }`;

const EXPLORE_OPENAPI = `openapi: 3.0.3
info: { title: items, version: '1' }
paths:
  /items:
    get:
      parameters: [{ name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }]
      responses:
        '200': { description: a page, content: ${json('Page')} }
        '400': { description: invalid, content: ${json('Error')} }
        '401': { description: no token, content: ${json('Error')} }
    post:
      requestBody: { required: true, content: ${json('ItemInput')} }
      responses:
        '201': { description: created, content: ${json('Item')} }
        '400': { description: invalid, content: ${json('Error')} }
        '401': { description: no token, content: ${json('Error')} }
  /items/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200': { description: the item, content: ${json('Item')} }
        '401': { description: no token, content: ${json('Error')} }
        '404': { description: no such item, content: ${json('Error')} }
    patch:
      requestBody: { required: true, content: ${json('ItemPatch')} }
      responses:
        '200': { description: updated, content: ${json('Item')} }
        '400': { description: invalid, content: ${json('Error')} }
        '401': { description: no token, content: ${json('Error')} }
        '404': { description: no such item, content: ${json('Error')} }
    delete:
      responses:
        '204': { description: deleted }
        '401': { description: no token, content: ${json('Error')} }
        '404': { description: no such item, content: ${json('Error')} }
components:
  schemas:
    ItemInput:
      type: object
      required: [title, price]
      properties:${ITEM_FIELDS}
    ItemPatch:
      type: object
      properties:${ITEM_FIELDS}
    Item:
      type: object
      required: [id, title, price]
      properties:
        id: { type: string }
        title: { type: string }
        price: { type: number }
        note: { type: string }
        tags: { type: array, items: { type: string } }
    Page:
      type: object
      required: [items]
      properties:
        items: { type: array, items: { $ref: '#/components/schemas/Item' } }
    Error:
      type: object
      required: [error]
      properties:
        error: { type: string }
`;

/** The happy path: it passes against both versions. */
export const EXPLORE_PROJECT: Record<string, string> = {
  'flow.yaml': 'version: 1\nname: items\ndefault_environment: local\nimports:\n  - environments/*.yaml\n  - actors/*.yaml\n  - resources/*.yaml\n',
  'environments/local.yaml': 'name: local\nvariables:\n  baseUrl: <SET_VIA_--var>\n',
  'actors/user.yaml': 'name: user\nauth:\n  strategy: bearer\n  token: "{{secret.API_TOKEN}}"\n',
  'resources/items.yaml': `name: item
operations:
  create:
    method: POST
    path: /items
    actor: user
    body: { title: first, price: 10 }
    expect_status: 201
    extract: { id: $.data.id }
  get:
    path: /items/{{item.id}}
    actor: user
    expect_status: 200
  list:
    path: /items
    actor: user
    query_params: { limit: 5 }
    expect_status: 200
  update:
    method: PATCH
    path: /items/{{item.id}}
    actor: user
    body: { note: hello }
    expect_status: 200
  delete:
    method: DELETE
    path: /items/{{item.id}}
    actor: user
    depends_on: [item.get, item.update]
    expect_status: 204
`,
  'openapi.yaml': EXPLORE_OPENAPI,
};
