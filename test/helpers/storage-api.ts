// A JSON storage service shaped like Kinto: buckets hold collections hold records. It answers
// as Kinto 26 does (its sources: kinto/core/errors.py, resource/, views/), and departs from the
// Swagger 2.0 description it serves (GET /__api__) the way the real one does:
// - HTTP Basic is needed everywhere but `/` and `/__api__`; the description declares no
//   security (the real one declares `basicauth` only when that policy is on);
// - no response schema names `id`; errors come in the Cornice/colander shape
//   `{code, errno, error, message, details}`;
// - a bucket that does not exist (never made, or deleted) answers 403 to anyone, not 404: its
//   permissions went with it, and Kinto does not say whether it ever existed (`missingBucket:
//   404` answers 404 instead, for the tests of what a 404 naming the parent proves); a missing
//   collection or record answers 404 naming it in `details` (errno 111 for a parent, 110 for
//   the object itself), without a `message`;
// - deleting a bucket deletes what it holds; a create with an id that exists answers 200 with
//   the existing object; `PUT` with `If-None-Match: *` on an existing object answers 412;
// - `data` must be a mapping (400 naming `data`); a PATCH with neither `data` nor
//   `permissions` is a 400; an integer field (`cache_expires`) is read as colander reads it:
//   `"12"` is 12, 1.5 is 1, an empty value is "not given", anything else is a 400 naming it;
// - list parameters (`_limit`, `_since`…) are integers up to 2^63, past what a double holds.
// One departure of its own, kept for the tests of the body repair: POST /buckets needs
// `data.id` (Kinto makes one up).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { json, startServer, type RecordedRequest, type TestServer } from './http-server.js';

export const STORAGE_USER = 'alice';
export const STORAGE_PASSWORD = 'pw-storage-3b9e51';

export interface StorageApi extends TestServer {
  /** `METHOD path -> status` of every answer, in order */
  answers: string[];
  /** ids of the buckets that exist now */
  buckets(): string[];
}

type Obj = Record<string, unknown>;
interface Collection {
  data: Obj;
  records: Map<string, Obj>;
}
interface Bucket {
  data: Obj;
  collections: Map<string, Collection>;
}

const isMap = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
/** Python's falsiness, which colander reads as "not given" */
const empty = (v: unknown) => v === undefined || v === null || v === '' || v === false || (Array.isArray(v) ? !v.length : isMap(v) && !Object.keys(v).length);

class Invalid extends Error {
  constructor(
    readonly field: string,
    readonly description: string,
  ) {
    super(`${field} in body: ${description}`);
  }
}

const PERMISSIONS: Record<string, string[]> = {
  bucket: ['read', 'write', 'collection:create', 'group:create'],
  collection: ['read', 'write', 'record:create'],
  record: ['read', 'write'],
};

/** Kinto's permissions schema: a mapping of the resource's permissions to lists of principals */
function checkPermissions(v: unknown, known: string[]): void {
  if (!isMap(v)) throw new Invalid('permissions', `"${String(v)}" is not a mapping type: Does not implement dict-like functionality.`);
  for (const [name, principals] of Object.entries(v)) {
    if (!known.includes(name)) throw new Invalid('permissions', `"${name}" is not one of ${known.join(', ')}`);
    if (!Array.isArray(principals)) throw new Invalid(`permissions.${name}`, `"${String(principals)}" is not iterable`);
    principals.forEach((p, i) => {
      if (typeof p !== 'string') throw new Invalid(`permissions.${name}.${i}`, `${JSON.stringify(p)} is not a string`);
    });
  }
}

/** colander.Integer (not strict): Python's int() of the value, or Invalid */
function colanderInt(name: string, v: unknown): number | undefined {
  if (v !== 0 && empty(v)) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (v === true) return 1;
  if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number.parseInt(v, 10);
  throw new Invalid(name, `"${typeof v === 'string' ? v : JSON.stringify(v)}" is not a number`);
}

export interface StorageOptions {
  /** what a bucket that does not exist answers: 403 as Kinto does (the default), or 404 naming it */
  missingBucket?: 403 | 404;
}

export async function startStorageApi(options: StorageOptions = {}): Promise<StorageApi> {
  const buckets = new Map<string, Bucket>();
  const answers: string[] = [];
  const expected = `Basic ${Buffer.from(`${STORAGE_USER}:${STORAGE_PASSWORD}`).toString('base64')}`;
  const principal = `basicauth:${STORAGE_USER}`;
  const send = (req: RecordedRequest, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    answers.push(`${req.method} ${req.path} -> ${status}`);
    json(res, status, body, headers);
  };
  const error = (req: RecordedRequest, res: ServerResponse, status: number, errno: number, error: string, rest: Obj) =>
    send(req, res, status, { code: status, errno, error, ...rest });
  const invalid = (req: RecordedRequest, res: ServerResponse, e: Invalid) =>
    error(req, res, 400, 107, 'Invalid parameters', { message: e.message, details: [{ location: 'body', name: e.field, description: e.description }] });
  const noBucket = (req: RecordedRequest, res: ServerResponse, id: string, parent: boolean) =>
    options.missingBucket === 404
      ? notFound(req, res, id, 'bucket', parent)
      : error(req, res, 403, 121, 'Forbidden', { message: 'This user cannot access this resource.' });
  const notFound = (req: RecordedRequest, res: ServerResponse, id: string, resource: string, parent: boolean) =>
    error(req, res, 404, parent ? 111 : 110, 'Not Found', { details: { id, resource_name: resource } });
  const object = (data: Obj) => ({ data, permissions: { write: [principal] } });

  /** the body's `data` as the resource schema reads it (undefined when absent); its `permissions` checked */
  const dataOf = (req: RecordedRequest, resource: string): Obj | undefined => {
    const body = req.body.length ? req.json() : {};
    if (!isMap(body)) throw new Invalid('', `"${JSON.stringify(body)}" is not a mapping type: Does not implement dict-like functionality.`);
    if (body.permissions !== undefined) checkPermissions(body.permissions, PERMISSIONS[resource]);
    if (body.data === undefined) return undefined;
    if (!isMap(body.data)) throw new Invalid('data', `"${String(body.data)}" is not a mapping type: Does not implement dict-like functionality.`);
    const data = { ...body.data };
    if (resource === 'collection' && 'cache_expires' in data) {
      const n = colanderInt('data.cache_expires', data.cache_expires);
      if (n === undefined) delete data.cache_expires;
      else data.cache_expires = n;
    }
    return data;
  };
  const patchable = (req: RecordedRequest, resource: string): Obj => {
    const body = req.body.length ? req.json() : {};
    if (!isMap(body) || (body.data === undefined && body.permissions === undefined)) throw new Invalid('data', 'Provide at least one of data or permissions');
    return dataOf(req, resource) ?? {};
  };
  const stamp = (data: Obj, id: string) => ({ ...data, id, last_modified: Date.now() });

  /** one collection endpoint (list, create) or object endpoint (get, put, patch, delete) */
  function serve<T>(
    req: RecordedRequest,
    res: ServerResponse,
    resource: string,
    items: Map<string, T>,
    id: string | undefined,
    make: (data: Obj, old?: T) => T,
    dataOfItem: (item: T) => Obj,
  ): void {
    if (id === undefined) {
      if (req.method === 'GET') return send(req, res, 200, { data: [...items.values()].map(dataOfItem) });
      if (req.method !== 'POST') return error(req, res, 405, 115, 'Method Not Allowed', { message: 'Method not allowed on this endpoint.' });
      const data = dataOf(req, resource) ?? {};
      if (resource === 'bucket' && typeof data.id !== 'string') throw new Invalid('data.id', 'Required');
      const newId = typeof data.id === 'string' ? data.id : resource === 'record' ? randomUUID() : randomUUID().slice(0, 8);
      if (!/^[\w-]+$/.test(newId)) return error(req, res, 400, 107, 'Invalid parameters', { message: 'path: Invalid object id', details: [] });
      const existing = items.get(newId);
      if (existing) return send(req, res, 200, object(dataOfItem(existing)));
      items.set(newId, make(stamp(data, newId)));
      return send(req, res, 201, object(dataOfItem(items.get(newId)!)));
    }
    const item = items.get(id);
    if (req.method === 'PUT') {
      if (item && req.headers['if-none-match'] === '*')
        return error(req, res, 412, 114, 'Precondition Failed', { message: 'Resource was modified meanwhile', details: { existing: dataOfItem(item) } });
      const data = dataOf(req, resource) ?? {};
      items.set(id, make(stamp(data, id), item));
      return send(req, res, item ? 200 : 201, object(dataOfItem(items.get(id)!)));
    }
    if (!item) return resource === 'bucket' ? noBucket(req, res, id, false) : notFound(req, res, id, resource, false);
    if (req.method === 'GET') return send(req, res, 200, object(dataOfItem(item)));
    if (req.method === 'PATCH') {
      Object.assign(dataOfItem(item), patchable(req, resource), { id, last_modified: Date.now() });
      return send(req, res, 200, object(dataOfItem(item)));
    }
    if (req.method === 'DELETE') {
      items.delete(id);
      return send(req, res, 200, { data: { id, last_modified: Date.now(), deleted: true } });
    }
    return error(req, res, 405, 115, 'Method Not Allowed', { message: 'Method not allowed on this endpoint.' });
  }

  const srv = await startServer({
    'GET /': (req, res) => send(req, res, 200, { project_name: 'storage', http_api_version: '1.22' }),
    'GET /__api__': (req, res) => send(req, res, 200, DESCRIPTION),
    '*': (req, res) => {
      if (req.headers.authorization !== expected)
        return send(
          req,
          res,
          401,
          { code: 401, errno: 104, error: 'Unauthorized', message: 'Please authenticate yourself to use this endpoint.' },
          { 'www-authenticate': 'Basic realm="Realm"' },
        );
      const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
      const [root, bid, c, cid, r, rid] = parts;
      const unknown = () => error(req, res, 404, 111, 'Not Found', { message: 'The resource you are looking for could not be found.' });
      try {
        if (root !== 'buckets' || parts.length > 6) return unknown();
        if (parts.length === 1 && req.method === 'DELETE') {
          buckets.clear();
          return send(req, res, 200, { data: [] });
        }
        if (parts.length <= 2)
          return serve(
            req,
            res,
            'bucket',
            buckets,
            bid,
            (data, old) => ({ data, collections: old?.collections ?? new Map() }),
            (b) => b.data,
          );
        const bucket = buckets.get(bid);
        if (!bucket) return noBucket(req, res, bid, true);
        if (c !== 'collections') return unknown();
        if (parts.length <= 4)
          return serve(
            req,
            res,
            'collection',
            bucket.collections,
            cid,
            (data, old) => ({ data, records: old?.records ?? new Map() }),
            (x) => x.data,
          );
        const collection = bucket.collections.get(cid);
        if (!collection) return notFound(req, res, cid, 'collection', true);
        if (r !== 'records') return unknown();
        return serve(
          req,
          res,
          'record',
          collection.records,
          rid,
          (data) => data,
          (x) => x,
        );
      } catch (e) {
        if (e instanceof Invalid) return invalid(req, res, e);
        if (e instanceof SyntaxError) return invalid(req, res, new Invalid('', `Invalid JSON: ${e.message}`));
        throw e;
      }
    },
  });
  return Object.assign(srv, { answers, buckets: () => [...buckets.keys()] });
}

const obj = { type: 'object' };
const permissions = { type: 'object', properties: { read: { type: 'array', items: { type: 'string' } }, write: { type: 'array', items: { type: 'string' } } } };
const bodyOf = (data: unknown) => ({ in: 'body', name: 'ObjectSchema', required: true, schema: { type: 'object', properties: { data, permissions } } });
const body = bodyOf({ type: 'object', additionalProperties: {} });
const collectionBody = bodyOf({ type: 'object', properties: { cache_expires: { type: 'integer' } }, additionalProperties: {} });
const ERRORS = ['400', '401', '403', '406', '412'];
const ok = (codes: number[], more: string[] = [], data: object = obj) =>
  Object.fromEntries([
    ...codes.map((c) => [String(c), { description: 'OK', schema: { type: 'object', properties: { data } } }]),
    ...[...ERRORS, ...more].map((c) => [c, { description: 'Error', schema: obj }]),
  ]);
const p = (name: string) => ({ in: 'path', name, required: true, type: 'string' });
/** 2^63, as Kinto declares it: past Number.MAX_SAFE_INTEGER */
const BIG = 9223372036854775808;
const listParams = ['_limit', '_since', '_to', '_before', 'last_modified'].map((name) => ({ in: 'query', name, type: 'integer', minimum: 0, maximum: BIG }));

/** list, create, get, put, patch, delete of one level, with Kinto's operationIds and statuses */
function level(name: string, tag: string, parents: string[], createBody: object) {
  const base = parents.map(p);
  return {
    list: { operationId: `get_${name}s`, tags: [tag], parameters: [...base, ...listParams], responses: ok([200], [], { type: 'array', items: obj }) },
    create: { operationId: `create_${name}`, tags: [tag], parameters: [...base, createBody], responses: ok([200, 201], ['415']) },
    get: { operationId: `get_${name}`, tags: [tag], parameters: [...base, p('id')], responses: ok([200], ['404']) },
    put: { operationId: `update_${name}`, tags: [tag], parameters: [...base, p('id'), createBody], responses: ok([200, 201], ['415']) },
    patch: { operationId: `patch_${name}`, tags: [tag], parameters: [...base, p('id'), createBody], responses: ok([200], ['404', '415']) },
    delete: { operationId: `delete_${name}`, tags: [tag], parameters: [...base, p('id')], responses: ok([200], ['404']) },
  };
}
const b = level('bucket', 'Buckets', [], body);
const c = level('collection', 'Collections', ['bucket_id'], collectionBody);
const r = level('record', 'Records', ['bucket_id', 'collection_id'], body);

/** The description as the service serves it: Swagger 2.0, no security, no `id` in any schema. */
const DESCRIPTION = {
  swagger: '2.0',
  info: { title: 'storage', version: '1.22' },
  basePath: '/',
  produces: ['application/json'],
  paths: {
    '/': { get: { operationId: 'server_info', responses: ok([200]) } },
    '/buckets': {
      get: b.list,
      post: b.create,
      delete: { operationId: 'delete_buckets', tags: ['Buckets'], parameters: listParams, responses: ok([200], [], { type: 'array', items: obj }) },
    },
    '/buckets/{id}': { get: b.get, put: b.put, patch: b.patch, delete: b.delete },
    '/buckets/{bucket_id}/collections': { get: c.list, post: c.create },
    '/buckets/{bucket_id}/collections/{id}': { get: c.get, put: c.put, patch: c.patch, delete: c.delete },
    '/buckets/{bucket_id}/collections/{collection_id}/records': { get: r.list, post: r.create },
    '/buckets/{bucket_id}/collections/{collection_id}/records/{id}': { get: r.get, put: r.put, patch: r.patch, delete: r.delete },
  },
};
