// A JSON storage service shaped like Kinto: buckets hold collections hold records. It departs
// from the Swagger 2.0 description it serves (GET /__api__) the way the real one does: HTTP
// Basic is needed everywhere but `/`, and the description declares no security; no response
// schema names `id`; errors come in the Cornice/colander shape (a 400 names `data.id`, a 404
// names the missing parent in `details`); a bulk `DELETE /buckets` removes everything.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { json, startServer, type RecordedRequest, type TestServer } from './http-server.js';

export const STORAGE_USER = 'alice';
export const STORAGE_PASSWORD = 'pw-storage-3b9e51';

export interface StorageApi extends TestServer {
  /** `METHOD path -> status` of every answer, in order */
  answers: string[];
}

type Obj = Record<string, unknown>;

const cornice = (res: ServerResponse, status: number, error: string, message: string, details: unknown) =>
  json(res, status, { code: status, errno: status === 400 ? 107 : 111, error, message, details });

export async function startStorageApi(): Promise<StorageApi> {
  const buckets = new Map<string, Map<string, Map<string, Obj>>>();
  const answers: string[] = [];
  const expected = `Basic ${Buffer.from(`${STORAGE_USER}:${STORAGE_PASSWORD}`).toString('base64')}`;
  const send = (req: RecordedRequest, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    answers.push(`${req.method} ${req.path} -> ${status}`);
    json(res, status, body, headers);
  };
  const notFound = (req: RecordedRequest, res: ServerResponse, id: string, resource: string) => {
    answers.push(`${req.method} ${req.path} -> 404`);
    cornice(res, 404, 'Not Found', `${resource} not found`, { id, resource_name: resource });
  };
  const data = (req: RecordedRequest): Obj | undefined => {
    const body = req.body.length ? (req.json() as Obj) : {};
    return body && typeof body.data === 'object' && body.data ? (body.data as Obj) : undefined;
  };
  const srv = await startServer({
    'GET /': (req, res) => send(req, res, 200, { project_name: 'storage', http_api_version: '1.22' }),
    'GET /__api__': (req, res) => send(req, res, 200, DESCRIPTION),
    '*': (req, res) => {
      if (req.headers.authorization !== expected)
        return send(req, res, 401, { code: 401, errno: 104, error: 'Unauthorized' }, { 'www-authenticate': 'Basic realm="Realm"' });
      const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
      if (parts[0] !== 'buckets') return send(req, res, 404, { code: 404, error: 'Not Found' });
      const [, bid, c, cid, r, rid] = parts;
      const bucket = bid === undefined ? undefined : buckets.get(bid);
      if (parts.length === 1) {
        if (req.method === 'GET') return send(req, res, 200, { data: [...buckets.keys()].map((id) => ({ id })) });
        if (req.method === 'DELETE') {
          buckets.clear();
          return send(req, res, 200, { data: [] });
        }
        if (req.method !== 'POST') return send(req, res, 405, { code: 405 });
        const d = data(req);
        if (!d || typeof d.id !== 'string' || !/^[\w-]+$/.test(d.id)) {
          answers.push(`POST /buckets -> 400`);
          return cornice(res, 400, 'Invalid parameters', 'data.id in body: Required', [{ location: 'body', name: 'data.id', description: 'Required' }]);
        }
        buckets.set(d.id, new Map());
        return send(req, res, 201, { data: { id: d.id, last_modified: Date.now() }, permissions: { write: [`account:${STORAGE_USER}`] } });
      }
      if (!bucket) return notFound(req, res, bid, 'bucket');
      if (parts.length === 2 && req.method === 'GET') return send(req, res, 200, { data: { id: bid } });
      if (c !== 'collections') return send(req, res, 404, { code: 404 });
      if (parts.length === 3) {
        if (req.method !== 'POST') return send(req, res, 200, { data: [...bucket.keys()].map((id) => ({ id })) });
        const id = String(data(req)?.id ?? randomUUID().slice(0, 8));
        bucket.set(id, new Map());
        return send(req, res, 201, { data: { id, last_modified: Date.now() }, permissions: {} });
      }
      const collection = bucket.get(cid);
      if (!collection) return notFound(req, res, cid, 'collection');
      if (parts.length === 4) return send(req, res, 200, { data: { id: cid } });
      if (r !== 'records') return send(req, res, 404, { code: 404 });
      if (parts.length === 5) {
        if (req.method !== 'POST') return send(req, res, 200, { data: [...collection.values()] });
        const record = { ...(data(req) ?? {}), id: randomUUID(), last_modified: Date.now() };
        collection.set(record.id, record);
        return send(req, res, 201, { data: record, permissions: {} });
      }
      const record = collection.get(rid);
      if (!record) return notFound(req, res, rid, 'record');
      if (req.method === 'GET') return send(req, res, 200, { data: record });
      if (req.method === 'DELETE') {
        collection.delete(rid);
        return send(req, res, 200, { data: { id: rid, deleted: true } });
      }
      const updated = req.method === 'PATCH' ? { ...record, ...(data(req) ?? {}) } : { ...(data(req) ?? {}), id: rid };
      collection.set(rid, { ...updated, last_modified: Date.now() });
      return send(req, res, 200, { data: collection.get(rid) });
    },
  });
  return Object.assign(srv, { answers });
}

const obj = { type: 'object' };
const body = { in: 'body', name: 'body', schema: { type: 'object', properties: { data: obj, permissions: obj } } };
const ok = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { description: 'OK', schema: { type: 'object', properties: { data: obj } } }]));
const p = (name: string) => ({ in: 'path', name, required: true, type: 'string' });

/** The description as the service serves it: Swagger 2.0, no security, no `id` in any schema. */
const DESCRIPTION = {
  swagger: '2.0',
  info: { title: 'storage', version: '1.22' },
  basePath: '/',
  produces: ['application/json'],
  paths: {
    '/': { get: { operationId: 'server_info', responses: ok(200) } },
    '/buckets': {
      get: { operationId: 'get_buckets', tags: ['Buckets'], responses: ok(200) },
      post: { operationId: 'create_bucket', tags: ['Buckets'], parameters: [body], responses: ok(200, 201) },
      delete: { operationId: 'delete_buckets', tags: ['Buckets'], responses: ok(200) },
    },
    '/buckets/{id}': { get: { operationId: 'get_bucket', tags: ['Buckets'], parameters: [p('id')], responses: ok(200) } },
    '/buckets/{bucket_id}/collections': {
      post: { operationId: 'create_collection', tags: ['Collections'], parameters: [p('bucket_id'), body], responses: ok(200, 201) },
    },
    '/buckets/{bucket_id}/collections/{id}': {
      get: { operationId: 'get_collection', tags: ['Collections'], parameters: [p('bucket_id'), p('id')], responses: ok(200) },
    },
    '/buckets/{bucket_id}/collections/{collection_id}/records': {
      post: { operationId: 'create_record', tags: ['Records'], parameters: [p('bucket_id'), p('collection_id'), body], responses: ok(200, 201) },
    },
    '/buckets/{bucket_id}/collections/{collection_id}/records/{id}': {
      get: { operationId: 'get_record', tags: ['Records'], parameters: [p('bucket_id'), p('collection_id'), p('id')], responses: ok(200) },
      patch: { operationId: 'patch_record', tags: ['Records'], parameters: [p('bucket_id'), p('collection_id'), p('id'), body], responses: ok(200) },
      delete: { operationId: 'delete_record', tags: ['Records'], parameters: [p('bucket_id'), p('collection_id'), p('id')], responses: ok(200) },
    },
  },
};
