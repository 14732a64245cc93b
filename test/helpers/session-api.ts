// An API with two identities, as feature-flag and CMS servers have them: an admin API key (the
// security scheme its description states, on every operation) and a user's session, the cookie
// that `POST /auth/login` sets (its answer is the user, no token). A user's own things (their
// profile, their personal tokens) need the session: the key, a token without a user, gets 400
// "User id is missing" (or a 500 on a create). The key wins when both are sent.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ANSWERED, jsonBody, send, serveCrud } from './crud-api.js';

export const SESSION_API_KEY = 'key-9d41f0c2b7';
export const SESSION_USER = 'ada';
export const SESSION_PASSWORD = 'pw-S3ss10n-only';

export interface SessionApi {
  url: string;
  /** each login: whether it carried the API key (the login operation runs as the key's actor) */
  logins: Array<{ withKey: boolean }>;
  /** sessions a logout ended */
  logouts: number;
  /** the session cookies issued */
  sids: string[];
  /** the user's personal tokens that exist now */
  tokens: Map<number, { id: number; description: string }>;
  close(): Promise<void>;
}

export const SESSION_OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'sessions', version: '1' },
  security: [{ apiKey: [] }],
  components: {
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    // the login's answer: the user, and no token
    schemas: { user: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
  },
  paths: {
    '/auth/login': {
      post: {
        summary: 'Log in',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['username', 'password'],
                properties: { username: { type: 'string', example: 'user' }, password: { type: 'string', example: 'secret' } },
              },
            },
          },
        },
        responses: { '200': { description: 'the user', content: { 'application/json': { schema: { $ref: '#/components/schemas/user' } } } } },
      },
    },
    '/auth/logout': { post: { summary: 'Log out', responses: { '200': { description: 'logged out' } } } },
    '/api/projects': {
      get: { responses: { '200': { description: 'projects', content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } } } } } } },
    },
    '/api/user/profile': {
      get: { responses: { '200': { description: 'me', content: { 'application/json': { schema: { $ref: '#/components/schemas/user' } } } } } },
    },
    '/api/user/tokens': {
      get: { responses: { '200': { description: 'my tokens', content: { 'application/json': { schema: { type: 'object' } } } } } },
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['description'],
                properties: { description: { type: 'string', example: 'ci' }, expiresAt: { type: 'string', format: 'date-time' } },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'made',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'integer' }, description: { type: 'string' } } },
              },
            },
          },
        },
      },
    },
    // a star takes a JSON body the description does not state (415 without one)
    '/api/user/star': { post: { responses: { '200': { description: 'starred' } } } },
    // counted on its first request: 503 until then, whoever asks
    '/api/stats': { get: { responses: { '200': { description: 'stats', content: { 'application/json': { schema: { type: 'object' } } } } } } },
    '/api/user/tokens/{id}': {
      delete: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'gone' } },
      },
    },
  },
};

export async function startSessionApi(): Promise<SessionApi> {
  const sessions = new Set<string>();
  const logins: SessionApi['logins'] = [];
  const sids: string[] = [];
  const tokens: SessionApi['tokens'] = new Map();
  const state = { logouts: 0, counted: false };
  let next = 1;
  /** who asks: the key (no user), the user (a session), or no one */
  const who = (req: IncomingMessage): 'key' | 'user' | undefined => {
    if (req.headers.authorization === SESSION_API_KEY) return 'key';
    const sid = sidOf(req);
    return sid && sessions.has(sid) ? 'user' : undefined;
  };
  const server = await serveCrud((req, res, text) => {
    const body = text ? jsonBody(req, res, text) : undefined;
    if (body === ANSWERED) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const route = `${req.method} ${url.pathname.replace(/\/\d+$/, '/{id}')}`;
    if (route === 'POST /auth/login') {
      logins.push({ withKey: req.headers.authorization === SESSION_API_KEY });
      const b = body as { username?: unknown; password?: unknown } | undefined;
      if (b?.username !== SESSION_USER || b.password !== SESSION_PASSWORD) return send(res, 401, { message: 'wrong user name or password' });
      const sid = randomBytes(12).toString('hex');
      sessions.add(sid);
      sids.push(sid);
      res.setHeader('set-cookie', `sid=${sid}; Path=/; HttpOnly; SameSite=Lax`);
      return send(res, 200, { id: 7, name: SESSION_USER });
    }
    const as = who(req);
    if (!as) return send(res, 401, { message: 'You must log in or give an API key' });
    const userOnly = () => send(res, 400, { message: 'User id is missing' });
    switch (route) {
      case 'POST /auth/logout':
        if (as !== 'user') return userOnly();
        sessions.delete(sidOf(req)!);
        state.logouts++;
        return send(res, 200, {});
      case 'GET /api/stats':
        if (!state.counted) {
          state.counted = true;
          return send(res, 503, { message: 'counting, try again' });
        }
        return send(res, 200, { projects: 1 });
      case 'POST /api/user/star':
        if (!req.headers['content-type']?.includes('json')) return send(res, 415, { message: 'a JSON body, please' });
        return as === 'user' ? send(res, 200, {}) : send(res, 500, { message: "Cannot read properties of undefined (reading 'id')" });
      case 'GET /api/projects':
        return send(res, 200, [{ id: 'default' }]);
      case 'GET /api/user/profile':
        return as === 'user' ? send(res, 200, { id: 7, name: SESSION_USER }) : userOnly();
      case 'GET /api/user/tokens':
        return as === 'user' ? send(res, 200, { tokens: [...tokens.values()] }) : userOnly();
      case 'POST /api/user/tokens': {
        if (as !== 'user') return send(res, 403, { message: 'Personal tokens require an authenticated user.' });
        const { description, expiresAt } = (body ?? {}) as { description?: unknown; expiresAt?: unknown };
        if (typeof expiresAt !== 'string') return send(res, 400, { message: 'expiresAt is required' });
        const token = { id: next++, description: typeof description === 'string' ? description : '' };
        tokens.set(token.id, token);
        return send(res, 201, token);
      }
      case 'DELETE /api/user/tokens/{id}': {
        if (as !== 'user') return userOnly();
        const id = Number(url.pathname.split('/').pop());
        return tokens.delete(id) ? send(res, 200, {}) : send(res, 404, { message: 'no such token' });
      }
      default:
        return send(res, 404, { message: 'not found' });
    }
  });
  return {
    url: server.url,
    logins,
    sids,
    tokens,
    get logouts() {
      return state.logouts;
    },
    close: () => server.close(),
  };
}

const sidOf = (req: IncomingMessage): string | undefined => /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
