// A small stateful API for runner tests: it enforces what a project declares (a login token,
// publish before order, 202 then done) and records every request, so tests can assert on
// what the server received, in which order, and how many at once.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeEach } from 'vitest';
import { json, startServer, type RecordedRequest, type TestServer } from './http-server.js';

export interface ShopApi extends TestServer {
  /** `METHOD /path` of every request, in arrival order */
  log: string[];
  /** the highest number of requests in flight at once */
  maxInFlight: number;
  /** hold requests to this path prefix (or `METHOD /path` prefix) for `ms` before answering */
  slow: Map<string, number>;
  /** every token issued, so tests can grep outputs for them */
  tokens: string[];
}

/**
 * A new shop API for each test of the file (its state and logs start empty), closed after the
 * last one. Call at the top of the file; the getter gives the current server.
 */
export function freshShopApi(): () => ShopApi {
  let api: ShopApi | undefined;
  beforeEach(async () => {
    await api?.close();
    api = await startShopApi();
  });
  afterAll(async () => {
    await api?.close();
  });
  return () => api!;
}

async function startShopApi(): Promise<ShopApi> {
  const state = {
    next: 1,
    products: new Map<number, { id: number; name: string; published: boolean }>(),
    orders: new Map<number, { id: number; product: number; qty: number }>(),
    reports: new Map<number, { id: number; polls: number }>(),
    sessions: new Map<string, { user: string; issued: number }>(),
  };
  // Filled in once the server listens; handlers only run after that.
  // eslint-disable-next-line prefer-const -- assigned below, after the handlers that read it are defined
  let api!: ShopApi;
  let inFlight = 0;

  const authed = (req: RecordedRequest, res: ServerResponse): boolean => {
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (token && state.sessions.has(token)) return true;
    json(res, 401, { error: 'unauthorized' });
    return false;
  };
  const issue = (user: string) => {
    const token = `tok-${user}-${Math.random().toString(36).slice(2, 12)}`;
    state.sessions.set(token, { user, issued: Date.now() });
    api.tokens.push(token);
    return token;
  };

  const handle = async (req: RecordedRequest, res: ServerResponse) => {
    const key = `${req.method} ${req.path}`;
    api.log.push(key);
    inFlight++;
    api.maxInFlight = Math.max(api.maxInFlight, inFlight);
    try {
      const delay = [...api.slow].find(([prefix]) => req.path.startsWith(prefix) || key.startsWith(prefix))?.[1];
      if (delay) await new Promise((r) => setTimeout(r, delay));
      route(req, res);
    } finally {
      inFlight--;
    }
  };

  const route = (req: RecordedRequest, res: ServerResponse) => {
    const body = (req.body.length ? safeJson(req.text()) : {}) as Record<string, unknown>;
    const p = req.path;
    if (req.method === 'POST' && p === '/login') {
      if (body.password !== 'hunter2-secret') return json(res, 401, { error: 'bad credentials' });
      return json(res, 200, { token: issue(String(body.user)), user_id: `u-${body.user}` });
    }
    if (req.method === 'POST' && p === '/login/start') return json(res, 200, { challenge: 'ch-42' });
    if (req.method === 'POST' && p === '/login/otp') {
      if (body.challenge !== 'ch-42' || body.code !== '123456') return json(res, 401, { error: 'bad otp' });
      return json(res, 200, { token: issue('otp-user') });
    }
    if (req.method === 'POST' && p === '/refresh') {
      const old = String(body.refresh_token ?? '');
      if (!state.sessions.has(old)) return json(res, 401, { error: 'bad refresh' });
      return json(res, 200, { token: issue('refreshed') });
    }
    if (!authed(req, res)) return;
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && p === '/products') {
      const id = state.next++;
      state.products.set(id, { id, name: String(body.name ?? ''), published: false });
      return json(res, 201, { id, name: body.name });
    }
    if ((m = /^\/products\/(\d+)\/publish$/.exec(p)) && req.method === 'POST') {
      const product = state.products.get(Number(m[1]));
      if (!product) return json(res, 404, { error: 'no product' });
      product.published = true;
      return json(res, 200, product);
    }
    if (req.method === 'POST' && p === '/orders') {
      const product = state.products.get(Number(body.product));
      if (!product?.published) return json(res, 409, { error: 'product not published' });
      const id = state.next++;
      state.orders.set(id, { id, product: product.id, qty: Number(body.qty ?? 1) });
      return json(res, 201, { id, status: 'new' }, { location: `/orders/${id}` });
    }
    if (req.method === 'GET' && p === '/orders') return json(res, 200, [...state.orders.values()]);
    if ((m = /^\/orders\/(\d+)$/.exec(p))) {
      const order = state.orders.get(Number(m[1]));
      if (!order) return json(res, 404, { error: 'no order' });
      if (req.method === 'GET') return json(res, 200, order);
      if (req.method === 'DELETE') {
        state.orders.delete(order.id);
        res.writeHead(204).end();
        return;
      }
    }
    if (req.method === 'POST' && p === '/reports') {
      const id = state.next++;
      state.reports.set(id, { id, polls: 0 });
      return json(res, 202, { id, state: 'pending' });
    }
    if ((m = /^\/reports\/(\d+)$/.exec(p))) {
      const report = state.reports.get(Number(m[1]));
      if (!report) return json(res, 404, {});
      report.polls++;
      return report.polls < 3 ? json(res, 202, { id: report.id, state: 'pending' }) : json(res, 200, { id: report.id, state: 'done', rows: 7 });
    }
    if (p === '/whoami') return json(res, 200, { user: 'x' });
    json(res, 404, { error: `no route ${req.method} ${p}` });
  };

  const server = await startServer({ '*': handle });
  api = Object.assign(server, { log: [] as string[], maxInFlight: 0, slow: new Map<string, number>(), tokens: [] as string[] });
  return api;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
