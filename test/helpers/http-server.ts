// A real node:http(s) server on 127.0.0.1:0 that records every request it receives, for
// tests that assert on what the server saw. Routes: 'METHOD /path' or '/path' (any method)
// or '*' (fallback); an unknown route answers 404. `close()` also drops open sockets, so a
// route that never answers cannot hang the test run.
//
//   const srv = await startServer({
//     'POST /login': (req, res) => json(res, 200, { token: 't' }, { 'set-cookie': 'sid=1; Path=/' }),
//     '/slow': () => {},                       // never answers
//   });
//   await fetch(`${srv.url}/login`); srv.requests[0].json();
//   afterAll(() => srv.close());
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, type ServerOptions as HttpsServerOptions } from 'node:https';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** path and query, as sent (`/items?x=1`) */
  url: string;
  path: string;
  query: URLSearchParams;
  /** lower-case names (Node's parsing) */
  headers: IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  json(): unknown;
  /** parse a multipart or urlencoded body (WHATWG FormData; files are File objects) */
  formData(): Promise<FormData>;
}

export type Route = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` (https for a TLS server) */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** how many requests matched this route key or path (`'/x'` counts every method) */
  count(pathOrKey: string): number;
  /** add or replace a route */
  route(key: string, handler: Route): void;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** serve HTTPS: key and cert (PEM), plus any node:https option (ca, requestCert…) */
  tls?: HttpsServerOptions & { key: string | Buffer; cert: string | Buffer };
  /** read at most this many body bytes into the record (default 1 MiB); the rest is drained */
  recordBytes?: number;
}

export async function startServer(routes: Record<string, Route>, options: ServerOptions = {}): Promise<TestServer> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const recordBytes = options.recordBytes ?? 1024 * 1024;

  const listener = async (raw: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(raw, recordBytes);
    const rec = record(raw, body);
    requests.push(rec);
    const handler = table.get(`${rec.method} ${rec.path}`) ?? table.get(rec.path) ?? table.get('*');
    if (!handler) return json(res, 404, { error: 'no route', method: rec.method, path: rec.path });
    try {
      await handler(rec, res, raw);
    } catch (err) {
      if (!res.headersSent) json(res, 500, { error: String(err) });
      else res.destroy();
    }
  };
  // node:http ignores a listener's promise: every error is answered inside `listener`
  const onRequest = (raw: IncomingMessage, res: ServerResponse) => void listener(raw, res);
  const server: Server = options.tls ? createHttpsServer(options.tls, onRequest) : createHttpServer(onRequest);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // a client that gives up (abort, timeout) resets the socket: not a server failure
  server.on('clientError', (_err, socket) => socket.destroy());
  const port = await listen(server);

  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    count: (key) => requests.filter((r) => (key.includes(' ') ? `${r.method} ${r.path}` === key : r.path === key)).length,
    route: (key, handler) => void table.set(key, handler),
    close: () => closeServer(server, sockets),
  };
}

/** Send a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Send a text answer. */
export function text(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** A port that refuses connections: bound, then closed. */
export async function closedPort(): Promise<number> {
  const s = createHttpServer();
  const port = await listen(s);
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface TestProxy {
  url: string;
  /** every target the proxy was asked for: `CONNECT host:port` or `GET http://…` */
  seen: string[];
  close(): Promise<void>;
}

/** A tiny forward proxy: CONNECT tunnels and absolute-form requests. */
export async function startProxy(): Promise<TestProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const up = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: target.pathname + target.search, headers: req.headers },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, close: () => closeServer(server, sockets) };
}

function record(raw: IncomingMessage, body: Buffer): RecordedRequest {
  const url = raw.url ?? '/';
  const parsed = new URL(url, 'http://x');
  const headers = raw.headers;
  return {
    method: raw.method ?? 'GET',
    url,
    path: parsed.pathname,
    query: parsed.searchParams,
    headers,
    body,
    text: () => body.toString('utf8'),
    json: () => JSON.parse(body.toString('utf8')),
    formData: () =>
      new Request('http://x/', { method: 'POST', headers: { 'content-type': String(headers['content-type'] ?? '') }, body: new Uint8Array(body) }).formData(),
  };
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      if (size < limit) chunks.push(chunk.subarray(0, limit - size));
      size += chunk.length;
    }
  } catch {
    // the client went away mid-body: record what came
  }
  return Buffer.concat(chunks);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    for (const s of sockets) s.destroy();
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}
