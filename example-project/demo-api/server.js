// The demo shop API the example project runs against. Plain node:http, no dependencies,
// everything in memory. It enforces what the project declares, so a wrong project fails:
//   - three kinds of credentials: a bearer token from POST /login (admin), an X-Api-Key
//     header (partner), HTTP Basic (auditor);
//   - a product must be published before it can be ordered (409 otherwise);
//   - a report is generated asynchronously: 202 first, then `pending` until it is `done`;
//   - attachments are multipart uploads with a `file` part.
// Start it from code (`startDemoApi`) or alone: `node demo-api/server.js` with the
// FLOW_SECRET_* variables of the example set; it prints its URL.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const CATEGORIES = [
  { id: 'kitchen', name: 'Kitchen' },
  { id: 'office', name: 'Office' },
  { id: 'garden', name: 'Garden' },
];
/** GETs of a report before it is done: the client has to poll. */
const REPORT_READY_AFTER_POLLS = 2;

/**
 * @param {{ adminEmail?: string, adminPassword: string, partnerApiKey: string, auditorPassword: string, port?: number, host?: string }} options
 * @returns {Promise<{ url: string, close: () => Promise<void>, requests: string[] }>}
 */
export async function startDemoApi(options) {
  const api = createDemoApi(options);
  const server = createServer((req, res) => {
    api.handle(req, res).catch((err) => send(res, 500, { error: String(err && err.message) }));
  });
  server.keepAliveTimeout = 1000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(undefined));
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    /** every request received, as `METHOD /path`, in order */
    requests: api.requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

function createDemoApi({ adminEmail = 'admin@shop.test', adminPassword, partnerApiKey, auditorPassword }) {
  if (!adminPassword || !partnerApiKey || !auditorPassword) throw new Error('demo API: adminPassword, partnerApiKey and auditorPassword are required');
  const tokens = new Set();
  const products = new Map();
  const orders = new Map();
  const reports = new Map();
  const attachments = new Map();
  /** @type {string[]} */
  const requests = [];
  const basic = `Basic ${Buffer.from(`auditor:${auditorPassword}`).toString('base64')}`;

  const who = {
    admin: (req) => tokens.has(bearer(req)),
    partner: (req) => req.headers['x-api-key'] === partnerApiKey,
    auditor: (req) => req.headers.authorization === basic,
    anyone: (req) => who.admin(req) || who.partner(req) || who.auditor(req),
  };

  /** [method, pattern, who may call it, handler] */
  const routes = [
    [
      'POST',
      /^\/api\/v1\/login$/,
      null,
      async (req) => {
        const body = await json(req);
        if (body?.email !== adminEmail || body?.password !== adminPassword) return [401, { error: 'invalid email or password' }];
        const token = `tok_${randomUUID()}`;
        tokens.add(token);
        return [200, { token, user: { id: 'u_admin', email: adminEmail } }];
      },
    ],
    [
      'POST',
      /^\/api\/v1\/products$/,
      'admin',
      async (req) => {
        const body = await json(req);
        if (typeof body?.name !== 'string' || typeof body?.price !== 'number') return [400, { error: 'name (string) and price (number) are required' }];
        if (body.category_id && !CATEGORIES.some((c) => c.id === body.category_id)) return [400, { error: `unknown category ${body.category_id}` }];
        const product = { id: `p_${products.size + 1}`, name: body.name, price: body.price, category_id: body.category_id ?? 'kitchen', status: 'draft' };
        products.set(product.id, product);
        return [201, product, { Location: `/api/v1/products/${product.id}` }];
      },
    ],
    [
      'POST',
      /^\/api\/v1\/products\/([^/]+)\/publish$/,
      'admin',
      async (_req, [id]) => {
        const product = products.get(id);
        if (!product) return [404, { error: `no product ${id}` }];
        product.status = 'published';
        return [200, product];
      },
    ],
    [
      'GET',
      /^\/api\/v1\/products\/([^/]+)$/,
      'anyone',
      async (_req, [id]) => {
        const product = products.get(id);
        return product ? [200, product] : [404, { error: `no product ${id}` }];
      },
    ],
    [
      'POST',
      /^\/api\/v1\/products\/([^/]+)\/attachments$/,
      'admin',
      async (req, [id]) => {
        if (!products.has(id)) return [404, { error: `no product ${id}` }];
        const type = req.headers['content-type'] ?? '';
        if (!type.startsWith('multipart/form-data')) return [415, { error: 'send multipart/form-data' }];
        // The platform's own multipart parser (fetch's Response#formData), no hand-written one.
        const form = await new Response(await raw(req), { headers: { 'content-type': type } }).formData();
        const file = form.get('file');
        if (!file || typeof file === 'string') return [400, { error: 'a "file" part is required' }];
        const attachment = { id: `a_${attachments.size + 1}`, product_id: id, title: form.get('title') ?? null, filename: file.name, size: file.size };
        attachments.set(attachment.id, attachment);
        return [201, attachment];
      },
    ],
    ['GET', /^\/api\/v1\/categories$/, 'partner', async () => [200, CATEGORIES]],
    [
      'GET',
      /^\/api\/v1\/categories\/([^/]+)\/products$/,
      'partner',
      async (_req, [id]) => {
        if (!CATEGORIES.some((c) => c.id === id)) return [404, { error: `no category ${id}` }];
        return [200, [...products.values()].filter((p) => p.category_id === id && p.status === 'published')];
      },
    ],
    [
      'POST',
      /^\/api\/v1\/orders$/,
      'partner',
      async (req) => {
        const body = await json(req);
        const product = products.get(body?.product_id);
        if (!product) return [404, { error: `no product ${body?.product_id}` }];
        if (product.status !== 'published') return [409, { error: `product ${product.id} is not published` }];
        if (!Number.isInteger(body.quantity) || body.quantity < 1) return [400, { error: 'quantity must be a positive integer' }];
        const order = { id: `o_${orders.size + 1}`, product_id: product.id, quantity: body.quantity, total: body.quantity * product.price, status: 'pending' };
        orders.set(order.id, order);
        return [201, order, { Location: `/api/v1/orders/${order.id}` }];
      },
    ],
    [
      'GET',
      /^\/api\/v1\/orders\/([^/]+)$/,
      'partner',
      async (_req, [id]) => {
        const order = orders.get(id);
        return order ? [200, order] : [404, { error: `no order ${id}` }];
      },
    ],
    [
      'DELETE',
      /^\/api\/v1\/orders\/([^/]+)$/,
      'partner',
      async (_req, [id]) => {
        if (!orders.delete(id)) return [404, { error: `no order ${id}` }];
        return [204, undefined];
      },
    ],
    [
      'POST',
      /^\/api\/v1\/reports$/,
      'auditor',
      async (req) => {
        const body = await json(req);
        if (body?.kind !== 'sales') return [400, { error: 'kind must be "sales"' }];
        if (!products.has(body.product_id)) return [400, { error: `unknown product_id ${body.product_id}` }];
        const report = { id: `r_${reports.size + 1}`, kind: body.kind, product_id: body.product_id, status: 'pending', polls: 0 };
        reports.set(report.id, report);
        return [202, { id: report.id, status: report.status }, { Location: `/api/v1/reports/${report.id}` }];
      },
    ],
    [
      'GET',
      /^\/api\/v1\/reports\/([^/]+)$/,
      'auditor',
      async (_req, [id]) => {
        const report = reports.get(id);
        if (!report) return [404, { error: `no report ${id}` }];
        if (++report.polls <= REPORT_READY_AFTER_POLLS) return [200, { id, status: 'pending' }];
        const rows = [...orders.values()].filter((o) => o.product_id === report.product_id).map((o) => ({ order_id: o.id, amount: o.total }));
        const total = rows.reduce((sum, r) => sum + r.amount, 0);
        return [200, { id, status: 'done', rows, total }];
      },
    ],
  ];

  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://demo');
    requests.push(`${req.method} ${url.pathname}`);
    for (const [method, pattern, role, handler] of routes) {
      const m = pattern.exec(url.pathname);
      if (!m) continue;
      if (req.method !== method) continue;
      if (role && !who[role](req)) {
        const challenge = role === 'auditor' ? { 'WWW-Authenticate': 'Basic realm="reports"' } : {};
        return send(res, 401, { error: `${role} credentials required` }, challenge);
      }
      const [status, body, headers] = await handler(req, m.slice(1));
      return send(res, status, body, headers);
    }
    return send(res, 404, { error: `no route ${req.method} ${url.pathname}` });
  }

  return { handle, requests };
}

function bearer(req) {
  const h = req.headers.authorization ?? '';
  return h.startsWith('Bearer ') ? h.slice(7) : '';
}

async function raw(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function json(req) {
  const text = (await raw(req)).toString('utf8');
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function send(res, status, body, headers = {}) {
  if (res.headersSent) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers });
  res.end(text);
}

// `node demo-api/server.js`: serve until interrupted.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const env = process.env;
  const api = await startDemoApi({
    adminPassword: env.FLOW_SECRET_ADMIN_PASSWORD,
    partnerApiKey: env.FLOW_SECRET_PARTNER_API_KEY,
    auditorPassword: env.FLOW_SECRET_AUDITOR_PASSWORD,
    port: Number(env.PORT ?? 0),
  });
  process.stdout.write(`demo API listening on ${api.url}\n`);
}
