// A headless CMS shaped like Directus, serving the OpenAPI 3.0 description it departs from
// (GET /server/specs/oas): the token goes in `Authorization: Bearer <token>` where the
// description has a raw API key in Authorization; writes without it answer 403; a create
// without `title` answers 400 in the GraphQL-over-REST shape (errors[].extensions.field);
// a create returns one object where the description documents an array; reads are public.
import type { ServerResponse } from 'node:http';
import { json, startServer, type RecordedRequest, type TestServer } from './http-server.js';

export const CMS_TOKEN = 'cms-static-token-5e2a90';

export interface CmsApi extends TestServer {
  /** the articles stored, by id */
  articles: Map<number, Record<string, unknown>>;
}

const forbidden = (res: ServerResponse) =>
  json(res, 403, { errors: [{ message: "You don't have permission to access this.", extensions: { code: 'FORBIDDEN' } }] });

export async function startCmsApi(): Promise<CmsApi> {
  const articles = new Map<number, Record<string, unknown>>();
  let next = 1;
  const authed = (req: RecordedRequest) => req.headers.authorization === `Bearer ${CMS_TOKEN}`;
  const srv = await startServer({
    'GET /server/specs/oas': (_req, res) => json(res, 200, DESCRIPTION),
    'GET /items/articles': (_req, res) => json(res, 200, { data: [...articles.values()] }),
    'POST /items/articles': (req, res) => {
      if (!authed(req)) return forbidden(res);
      const body = (req.body.length ? req.json() : {}) as Record<string, unknown>;
      if (typeof body.title !== 'string' || !body.title) {
        return json(res, 400, {
          errors: [
            {
              message: 'Validation failed for field "title". Value is required.',
              extensions: { field: 'title', type: 'required', code: 'FAILED_VALIDATION' },
            },
          ],
        });
      }
      const article = { id: next++, status: 'draft', ...body };
      articles.set(article.id, article);
      json(res, 200, { data: article });
    },
    '*': (req, res) => {
      const m = /^\/items\/articles\/(\d+)$/.exec(req.path);
      if (!m) return json(res, 404, { errors: [{ message: 'Route not found', extensions: { code: 'ROUTE_NOT_FOUND' } }] });
      const id = Number(m[1]);
      if (req.method === 'GET') return articles.has(id) ? json(res, 200, { data: articles.get(id) }) : forbidden(res);
      if (!authed(req) || !articles.has(id)) return forbidden(res);
      if (req.method === 'PATCH') {
        articles.set(id, { ...articles.get(id), ...((req.body.length ? req.json() : {}) as object), id });
        return json(res, 200, { data: articles.get(id) });
      }
      if (req.method === 'DELETE') {
        articles.delete(id);
        res.writeHead(204).end();
        return;
      }
      json(res, 405, { errors: [{ message: 'Method not allowed' }] });
    },
  });
  return Object.assign(srv, { articles });
}

const article = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, status: { type: 'string' } } };
const one = {
  description: 'Successful request',
  content: { 'application/json': { schema: { type: 'object', properties: { data: { $ref: '#/components/schemas/ItemsArticles' } } } } },
};
const many = {
  description: 'Successful request',
  content: {
    'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/ItemsArticles' } } } } },
  },
};
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ItemsArticles' } } } };

/** The description as the CMS serves it: OpenAPI 3.0, the token a raw API key in Authorization that only the list names, a create documented as returning an array. */
const DESCRIPTION = {
  openapi: '3.0.1',
  info: { title: 'Dynamic API Specification', version: '10.0.0' },
  paths: {
    '/items/articles': {
      get: { operationId: 'readItemsArticles', tags: ['Items'], security: [{ Auth: [] }], responses: { 200: many } },
      post: { operationId: 'createItemsArticles', tags: ['Items'], requestBody: body, responses: { 200: many } },
    },
    '/items/articles/{id}': {
      get: { operationId: 'readSingleItemsArticles', tags: ['Items'], parameters: [idParam], responses: { 200: one } },
      patch: { operationId: 'updateSingleItemsArticles', tags: ['Items'], parameters: [idParam], requestBody: body, responses: { 200: one } },
      delete: { operationId: 'deleteSingleItemsArticles', tags: ['Items'], parameters: [idParam], responses: { 200: { description: 'Successful request' } } },
    },
  },
  components: {
    securitySchemes: { Auth: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    schemas: { ItemsArticles: article },
  },
};
